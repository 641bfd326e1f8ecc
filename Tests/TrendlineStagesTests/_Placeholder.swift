import Testing

@Test func TrendlineStagesTestsBuilds() {}
