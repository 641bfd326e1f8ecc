import Foundation
import Testing
import TrendlineSchema

/// `Units`: the conversions everything drawn uses, and the additive `units` key (SPEC 10.8).
@Suite struct UnitsTests {
  // 1 lb = 0.45359237 kg and 1 mi = 1609.344 m exactly, so 1000 kg = 1000 / 0.45359237 lb
  // = 2204.622621848776 lb, and 5000 m = 5000 / 1609.344 mi = 3.1068559611866697 mi.
  @Test func conversionsAreTheExactDefinitions() {
    let imperial = Units(weight: .lb, distance: .mi)
    #expect(imperial.weight(fromKilograms: 1000) == 2204.622621848776)
    #expect(imperial.weight(fromKilograms: 0.45359237) == 1)
    #expect(imperial.distance(fromMeters: 5000) == 3.1068559611866697)
    #expect(imperial.distance(fromMeters: 1609.344) == 1)
    #expect(Units.metric.weight(fromKilograms: 1000) == 1000)
    #expect(Units.metric.distance(fromMeters: 5000) == 5)
  }

  /// An output written before outputs stated their units decodes as kilograms and kilometres,
  /// which is what it was drawn in.
  @Test func anOutputWithoutUnitsIsMetric() throws {
    let json = """
      {"schema": "trendline/heatmap@1", "user": "ada", "chart": "body", "timeZone": "UTC",
       "asOf": "2025-11-29T23:59:59Z", "periods": []}
      """
    let decoded = try OutputWriter.makeDecoder().decode(HeatmapOutput.self, from: Data(json.utf8))
    #expect(decoded.units == .metric)
  }

  @Test func unitsAreWrittenRightAfterTheZone() throws {
    let heatmap = HeatmapOutput(
      user: "ada", chart: "body", timeZone: "UTC", units: Units(weight: .lb, distance: .km),
      asOf: Date(epochSeconds: 0), periods: [])
    let text = String(decoding: try OutputWriter.encode(heatmap, timeZone: .gmt), as: UTF8.self)
    #expect(
      text == """
        {
          "schema": "trendline/heatmap@1",
          "user": "ada",
          "chart": "body",
          "timeZone": "UTC",
          "units": {
            "weight": "lb",
            "distance": "km"
          },
          "asOf": "1970-01-01T00:00:00+00:00",
          "periods": [],
          "largest": 0,
          "shownPeriod": null
        }

        """)
    #expect(try OutputWriter.makeDecoder().decode(HeatmapOutput.self, from: Data(text.utf8)) == heatmap)
  }

  /// A unit guessed wrong multiplies every number shown by 2.2, so an unknown one is an error.
  @Test func anUnknownUnitIsAnError() {
    let json = """
      {"schema": "trendline/heatmap@1", "user": "ada", "chart": "body", "timeZone": "UTC",
       "units": {"weight": "stone", "distance": "km"}, "asOf": "2025-11-29T23:59:59Z", "periods": []}
      """
    #expect(throws: DecodingError.self) {
      try OutputWriter.makeDecoder().decode(HeatmapOutput.self, from: Data(json.utf8))
    }
  }
}
