import Testing

@Test func TrendlineRunnerTestsBuilds() {}
