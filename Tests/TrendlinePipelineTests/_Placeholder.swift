import Testing

@Test func TrendlinePipelineTestsBuilds() {}
