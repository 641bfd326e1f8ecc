import Foundation
import Testing
import TrendlineRender
import TrendlineSchema

/// Everything drawn for a person is in their units (SPEC 10.8). The expected figures are worked
/// out by hand from 1 lb = 0.45359237 kg and 1 mi = 1609.344 m: 1000 kg = 2204.62 lb, shown
/// "2 205 lb" (a thin space groups thousands); 5000 m = 3.107 mi, shown "3.1 mi"; 100 kg =
/// 220.46 lb; 82.5 kg = 181.88 lb; 90.75 kg = 200.07 lb.
@Suite struct UnitsRenderTests {
  static let imperial = Units(weight: .lb, distance: .mi)
  /// The thin space `ShownNumber.display` groups thousands with.
  static let thin = "\u{2009}"

  /// One whole Oslo week from Monday 9 Nov 2026: 1000 kg of volume and 5 km.
  func series(_ units: Units) -> SeriesOutput {
    let monday: Int64 = 1_794_178_800  // 2026-11-09T00:00:00+01:00
    let week: Int64 = 7 * 86_400
    let half: Int64 = 211_680  // round(0.35 × 604 800)
    return SeriesOutput(
      user: "ethan", chart: "training-volume", timeZone: "Europe/Oslo", units: units,
      asOf: Date(epochSeconds: monday + week + 86_400), range: .oneMonth, granularity: .week,
      measures: [.volumeKg, .distanceM],
      domain: Extent(start: Date(epochSeconds: monday - 302_400), end: Date(epochSeconds: monday + 302_400)),
      buckets: [
        .init(
          id: "2026-11-09", start: Date(epochSeconds: monday), end: Date(epochSeconds: monday + week), partial: false,
          values: [.volumeKg: 1000, .distanceM: 5000],
          bar: Extent(start: Date(epochSeconds: monday - half), end: Date(epochSeconds: monday + half)))
      ],
      average: [.volumeKg: 1000, .distanceM: 5000]
    ).withDerivedFields()
  }

  @Test func aPoundAndMileSeriesIsDrawnInThem() {
    let renderer = SeriesSVGRenderer(series(Self.imperial))
    let svg = renderer.render()
    #expect(svg.contains(">Volume (lb)</text>"))
    #expect(svg.contains(">Distance (mi)</text>"))
    #expect(svg.contains("Week of 9 Nov 2026: volume 2\(Self.thin)205 lb · distance 3.1 mi"))
    // The average in the right margin: 2204.62 lb, compact.
    #expect(svg.contains(">2.2k lb</text>"))
    #expect(!svg.contains(" kg"))
    #expect(!svg.contains("(km)"))
    // The axes are computed in pounds and miles, so their ticks are round there: 2204.62 lb
    // over four steps needs 551.2 a step, so 600 up to 2400 (in kilograms, 1000 kg would be
    // 0…1000 by 250), and 3.107 mi needs 0.78, so 0.8 up to 3.2.
    let panels = renderer.layout.panels
    // 2400 lb is stored as 1088.62 kg and read back: equal to the last bits.
    #expect(abs(panels[0].y.domain.upperBound - 2400) < 1e-9)
    #expect(
      panels[0].axis.ticks[5]?.map(\.label) == ["0", "600", "1\(Self.thin)200", "1\(Self.thin)800", "2\(Self.thin)400"])
    #expect(svg.contains(">2\(Self.thin)400</text>"))
    #expect(abs(panels[1].y.domain.upperBound - 3.2) < 1e-12)
    #expect(panels[1].axis.ticks[5]?.map(\.label) == ["0", "0.8", "1.6", "2.4", "3.2"])
  }

  @Test func aKilogramSeriesIsUnchanged() {
    let renderer = SeriesSVGRenderer(series(.metric))
    let svg = renderer.render()
    #expect(svg.contains(">Volume (kg)</text>"))
    #expect(svg.contains(">Distance (km)</text>"))
    #expect(svg.contains("Week of 9 Nov 2026: volume 1\(Self.thin)000 kg · distance 5 km"))
    #expect(!svg.contains(" lb"))
    let panels = renderer.layout.panels
    #expect(panels[0].y.domain == 0...1000)
    #expect(panels[0].axis.ticks[5]?.map(\.value) == [0, 250, 500, 750, 1000])
    // 5 km over four steps needs 1.25 km a step: 1.5, up to 6.
    #expect(panels[1].y.domain == 0...6)
  }

  @Test func sparklinesShowPounds() {
    let monday: Int64 = 1_794_178_800
    let output = SparklinesOutput(
      user: "ethan", chart: "exercise-trends", timeZone: "Europe/Oslo", units: Self.imperial,
      asOf: Date(epochSeconds: monday + 86_400), value: .topSetKg, windowDays: 91,
      domain: Extent(start: Date(epochSeconds: monday - 90 * 86_400), end: Date(epochSeconds: monday + 86_400)),
      lines: [
        .init(
          exercise: "Squat (Barbell)",
          points: [.init(t: Date(epochSeconds: monday - 86_400), v: 90), .init(t: Date(epochSeconds: monday), v: 100)])
      ])
    let svg = SparklinesSVGRenderer(output).render()
    // The latest value beside the line, and the read-out: 100 kg = 220.46 lb.
    #expect(svg.contains(">220.5 lb</text>"))
    #expect(svg.contains("Squat (Barbell), 9 Nov 2026: 220.5 lb"))
    #expect(!svg.contains(" kg"))
  }

  @Test func recordsShowPounds() {
    let at = Date(epochSeconds: 1_795_000_000)  // 18 Nov 2026 in Oslo
    let output = RecordsOutput(
      user: "ethan", chart: "records", timeZone: "Europe/Oslo", units: Self.imperial,
      asOf: Date(epochSeconds: 1_795_993_199),
      exercises: [
        .init(
          exercise: "Bench Press (Barbell)", topSetKg: .init(value: 82.5, weightKg: 82.5, reps: 3, at: at),
          e1rmKg: .init(value: 90.75, weightKg: 82.5, reps: 3, at: at), repsAtWeight: [], records: [])
      ])
    let svg = RecordsSVGRenderer(output).render()
    #expect(svg.contains(">181.9 lb · 18 Nov 2026</text>"))
    #expect(svg.contains(">200.1 lb · 18 Nov 2026</text>"))
  }

  /// The user's page: its tables and recent workouts in the user's units, and a line saying
  /// which they are.
  @Test func theUserPageShowsPounds() {
    let session = Session(
      key: "s1", start: 1_794_250_800, durationSeconds: 3600, name: "Legs",
      sets: [
        (
          TrainedExercise(name: "Squat (Barbell)", muscleGroupIds: [8], isUnmapped: false),
          TrainedSet(type: .normal, weightKg: 100, reps: 10)
        )
      ])
    let page = HTMLReport.UserPage(
      user: "ethan", timeZone: TimeZone(identifier: "Europe/Oslo")!, asOf: Date(epochSeconds: 1_794_900_000),
      units: Self.imperial, charts: [.user(ChartOutput(series(Self.imperial)))], sessions: [session], notes: [])
    let html = HTMLReport.userPage(page)
    #expect(html.contains(" · weights in lb, distances in mi</p>"))
    // The series' table: the week and its average.
    #expect(html.contains("<td>2\(Self.thin)205 lb</td><td>3.1 mi</td>"))
    // Recent workouts: 100 kg × 10 = 1000 kg of volume.
    #expect(html.contains("<td>1</td><td>2\(Self.thin)205 lb</td>"))
    #expect(!html.contains(" kg<"))
  }
}

/// The cohort table's active users: the count and its share of the cohort, joined by no-break
/// spaces so the narrow column never wraps. The fixture's second week has 2 of 3 users active.
@Test func theCohortTableShowsActiveUsersAndTheirShare() {
  let html = HTMLReport.index(
    .init(pipeline: "p", asOf: "2026-11-29", charts: [.cohort(.series(cohortFixture()), user: nil)], users: []))
  #expect(html.contains("<th scope=\"col\">Active</th>"))
  #expect(html.contains("<td>3\u{00A0}(100\u{00A0}%)</td>"))
  #expect(html.contains("<td>2\u{00A0}(67\u{00A0}%)</td>"))
}
