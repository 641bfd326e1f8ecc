import Testing

@Test func TrendlineSchemaTestsBuilds() {}
