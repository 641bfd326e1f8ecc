import Foundation
import Testing
import TrendlineSchema

/// Axes worked out by hand: for *k* labels, the smallest step of 1, 1.5, 2, 2.5, 3, 4, 5, 6 or
/// 8 × 10ⁿ (a whole number of the unit shown, a tenth for distances) whose k − 1 steps reach the
/// largest value shown.
@Suite struct YAxisTests {
  let thin = "\u{2009}"

  @Test func volumeInKilograms() {
    // 4 300 kg: three labels need 2 150 a step → 2 500; four 1 433.3 → 1 500; five 1 075 →
    // 1 500; seven 716.7 → 800.
    let axis = YAxis(measure: .volumeKg, largest: 4300, units: .metric)
    #expect(axis.unit == "kg")
    #expect(axis.ticks[3]?.map(\.value) == [0, 2500, 5000])
    #expect(axis.ticks[4]?.map(\.value) == [0, 1500, 3000, 4500])
    #expect(axis.ticks[5]?.map(\.value) == [0, 1500, 3000, 4500, 6000])
    #expect(axis.ticks[7]?.map(\.value) == [0, 800, 1600, 2400, 3200, 4000, 4800])
    #expect(axis.ticks[5]?.map(\.label) == ["0", "1\(thin)500", "3\(thin)000", "4\(thin)500", "6\(thin)000"])
    // The domain is the five-label axis's.
    #expect(axis.domain == AxisDomain(min: 0, max: 6000))
    #expect(axis.ticks.keys.sorted() == YAxis.labelCounts)
  }

  @Test func poundsAreRoundInPounds() {
    // 1 000 kg = 2 204.62 lb: three labels need 1 102.3 lb a step → 1 500 lb, placed at
    // 1 500 × 0.45359237 kg; the labels are in pounds, the values in kilograms like the data.
    let units = Units(weight: .lb, distance: .mi)
    let axis = YAxis(measure: .volumeKg, largest: 1000, units: units)
    #expect(axis.unit == "lb")
    #expect(axis.ticks[3]?.map(\.label) == ["0", "1\(thin)500", "3\(thin)000"])
    #expect(axis.ticks[3]?.map(\.value) == [0, 1500 * Units.kilogramsPerPound, 3000 * Units.kilogramsPerPound])
  }

  @Test func durationsAreRoundInMinutes() {
    // 5 400 s = 90 min: five labels need 22.5 min a step → 25 min.
    let axis = YAxis(measure: .durationSeconds, largest: 5400, units: .metric)
    #expect(axis.unit == "min")
    #expect(axis.ticks[5]?.map(\.label) == ["0", "25", "50", "75", "100"])
    #expect(axis.ticks[5]?.map(\.value) == [0, 1500, 3000, 4500, 6000])
    // Three labels need 45 min → 50, at 3 000 s.
    #expect(axis.ticks[3]?.map(\.value) == [0, 3000, 6000])
  }

  @Test func distancesGoToTenths() {
    // 5 000 m = 5 km: three labels need 2.5 km a step, which is allowed to a tenth.
    let axis = YAxis(measure: .distanceM, largest: 5000, units: .metric)
    #expect(axis.unit == "km")
    #expect(axis.ticks[3]?.map(\.label) == ["0", "2.5", "5"])
    #expect(axis.ticks[3]?.map(\.value) == [0, 2500, 5000])
    // 0.9 mi, stored in metres and shown in miles again an ulp above 0.9: four labels still
    // step by 0.3, not 0.4.
    let miles = Units(weight: .lb, distance: .mi)
    #expect(
      YAxis(measure: .distanceM, largest: 0.9 * Units.metersPerMile, units: miles).ticks[4]?.map(\.label) == [
        "0", "0.3", "0.6", "0.9",
      ])
    // 800 m: seven labels need 0.133 km → 0.15 is not a tenth, so 0.2.
    #expect(YAxis(measure: .distanceM, largest: 800, units: .metric).ticks[7]?.last?.label == "1.2")
  }

  @Test func countsHaveWholeLabels() {
    // An average of 1.5 sessions: seven labels would need 0.25 a step; a count is labelled in
    // whole numbers, so 1.
    let axis = YAxis(measure: .sessions, largest: 1.5, units: .metric)
    #expect(axis.unit == "sessions")
    #expect(axis.ticks[7]?.map(\.label) == ["0", "1", "2", "3", "4", "5", "6"])
    #expect(axis.ticks[3]?.map(\.value) == [0, 1, 2])
  }

  @Test func nothingToReachGivesTheSmallestAxis() {
    for largest in [0, -5, Double.nan, -Double.infinity] {
      let axis = YAxis(measure: .sets, largest: largest, units: .metric)
      #expect(axis.ticks[3]?.map(\.value) == [0, 1, 2])
      #expect(axis.domain == AxisDomain(min: 0, max: 4))
    }
  }

  @Test func aSeriesAxisCoversTheTrendAverageAndBands() {
    // Values up to 3 sessions, a trend of 4.2, bands "Regular" from 3 and "Heavy" from 5: the
    // band holding 4.2 ends at 5, the largest drawn, so five labels step by 2 (1.25 is not a
    // whole session) to 8.
    let start = Date(epochSeconds: 1_794_178_800)  // 2026-11-09T00:00:00+01:00
    var output = SeriesOutput(
      user: "ada", chart: "c", timeZone: "Europe/Oslo", asOf: start, range: .oneMonth, granularity: .week,
      measures: [.sessions], domain: nil,
      bands: ValueBands(
        measure: .sessions,
        levels: [
          .init(from: 0, label: "Rest"), .init(from: 3, label: "Regular"),
          .init(from: 5, label: "Heavy"),
        ]),
      buckets: [
        .init(
          id: "2026-11-09", start: start, end: start, partial: false, values: [.sessions: 3],
          trend: [.sessions: 4.2], bar: Extent(start: start, end: start))
      ], average: [.sessions: 3])
    #expect(output.largestDrawn(.sessions) == 5)
    output = output.withDerivedFields()
    #expect(output.yAxis[.sessions]?.domain == AxisDomain(min: 0, max: 8))
    #expect(output.buckets[0].label == "Week of 9 Nov 2026: sessions 3 (trend 4.2)")
  }

  /// A best is drawn as a line on an axis fitted around its values (SPEC 11.8). 100 … 112.5 kg
  /// widen by 5 % of the 12.5 span (0.625) to 99.375 … 113.125. Five labels: a step of 4
  /// (13.75 / 4 = 3.44 needed) from 96 reaches 112, short of 113.125; 5 from 95 reaches 115.
  /// Three: 8 from 96 reaches 112 and 10 from 90 reaches 110, both short; 15 from 90 reaches 120.
  @Test func aBestIsFittedAroundItsValues() {
    let axis = YAxis(measure: .e1rmKg, fitting: 100, 112.5, units: .metric)
    #expect(axis.ticks[5]?.map(\.value) == [95, 100, 105, 110, 115])
    #expect(axis.domain == AxisDomain(min: 95, max: 115))
    #expect(axis.ticks[3]?.map(\.label) == ["90", "105", "120"])
    // One value, 60 kg: widened by one unit each side, 59 … 61; a step of 1 from 59.
    #expect(YAxis(measure: .topSetKg, fitting: 60, 60, units: .metric).ticks[5]?.map(\.value) == [59, 60, 61, 62, 63])
    // Never below 0: 0.4 kg widens to 0 … 1.4; a step of 1 from 0.
    #expect(YAxis(measure: .topSetKg, fitting: 0.4, 0.4, units: .metric).ticks[3]?.map(\.value) == [0, 1, 2])
  }

  /// A series' best measure gets the fitted axis, its totals the axis from 0.
  @Test func aSeriesFitsItsBestsAndNotItsTotals() {
    let start = Date(epochSeconds: 1_794_182_400)
    let output = SeriesOutput(
      user: "ada", chart: "c", timeZone: "UTC", asOf: start, range: .oneMonth, granularity: .week,
      measures: [.sessions, .e1rmKg], domain: nil,
      buckets: [100, 112.5].map { e1rm in
        .init(
          id: "2026-11-09", start: start, end: start, partial: false, values: [.sessions: 2, .e1rmKg: e1rm],
          bar: Extent(start: start, end: start))
      }, average: [.sessions: 2, .e1rmKg: 106.25]
    ).withDerivedFields()
    #expect(output.mark == [.sessions: .bar, .e1rmKg: .line])
    #expect(output.yAxis[.e1rmKg]?.domain == AxisDomain(min: 95, max: 115))
    #expect(output.yAxis[.sessions]?.domain == AxisDomain(min: 0, max: 4))
  }

  /// The cohort's shared axis is stamped into a written file as its last member: the same bytes
  /// the output with the axis encodes to, and stamping again replaces it.
  @Test func theCohortAxisIsStampedIntoAWrittenFile() throws {
    let utc = TimeZone(identifier: "UTC")!
    let start = Date(epochSeconds: 1_794_182_400)
    let plain = SeriesOutput(
      user: "ada", chart: "c", timeZone: "UTC", asOf: start, range: .oneMonth, granularity: .week,
      measures: [.sessions], domain: nil,
      buckets: [
        .init(
          id: "2026-11-09", start: start, end: start, partial: false, values: [.sessions: 3],
          bar: Extent(start: start, end: start))
      ], average: [.sessions: 3]
    ).withDerivedFields()
    var stamped = plain
    stamped.cohortYAxis = [.sessions: YAxis(measure: .sessions, largest: 7, units: .metric)]
    let written = Array(try OutputWriter.encode(plain, timeZone: utc))
    let once = try #require(try SeriesOutput.stamping(cohortYAxis: stamped.cohortYAxis!, into: written))
    #expect(once == Array(try OutputWriter.encode(stamped, timeZone: utc)))
    var wider = stamped
    wider.cohortYAxis = [.sessions: YAxis(measure: .sessions, largest: 70, units: .metric)]
    let twice = try #require(try SeriesOutput.stamping(cohortYAxis: wider.cohortYAxis!, into: once))
    #expect(twice == Array(try OutputWriter.encode(wider, timeZone: utc)))
    #expect(try OutputWriter.makeDecoder().decode(SeriesOutput.self, from: Data(twice)) == wider)
    #expect(try SeriesOutput.stamping(cohortYAxis: [:], into: Array("not an output".utf8)) == nil)
  }
}
