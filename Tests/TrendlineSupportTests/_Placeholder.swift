import Testing

@Test func TrendlineSupportTestsBuilds() {}
