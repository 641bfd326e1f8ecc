import Testing

@Test func trendlineTestsBuilds() {}
