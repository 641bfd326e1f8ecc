import Testing

@Test func TrendlineIngestTestsBuilds() {}
