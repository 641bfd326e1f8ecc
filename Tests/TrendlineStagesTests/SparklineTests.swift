import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct SparklineTests {
  @Test func exerciseLastTrainedThirteenWeeksAgoSitsAtTheLeftEdge() {
    // As-of Saturday 29 Nov 2025 23:59:59 UTC; 91 days = 13 weeks = 7 862 400 s earlier is
    // 30 Aug 23:59:59. A deadlift exactly then is inside (inclusive window) and is the left
    // edge of the domain; one a second earlier is outside. The domain ends at as-of, not at
    // the last point: the line sits at the far left, showing the lifter stopped.
    let sessions = [
      session("2025-08-30T23:59:58Z", [trained("Deadlift", [3], kg: 150, reps: 5)]),
      session("2025-08-30T23:59:59Z", [trained("Deadlift", [3], kg: 160, reps: 5)]),
    ]
    let output = Sparkline(value: .topSetKg)
      .apply(
        sessions, calendar: utc, asOf: at("2025-11-29T23:59:59Z"), user: "ada", chart: "trends")
    #expect(output.windowDays == 91)
    #expect(
      output.domain
        == Extent(start: date("2025-08-30T23:59:59Z"), end: date("2025-11-29T23:59:59Z")))
    #expect(output.lines.map(\.exercise) == ["Deadlift"])
    #expect(output.lines.map(\.points) == [[.init(t: date("2025-08-30T23:59:59Z"), v: 160)]])
  }

  @Test(arguments: [
    // One session: squat 100 × 5, 120 × 1, 90 × 8.
    // topSetKg: heaviest = 120.
    (SparklinesOutput.Value.topSetKg, 120.0),
    // e1rmKg: 100 × (1 + 5/30) = 116.67, 120 (a single is itself), 90 × (1 + 8/30) = 114 → 120.
    (.e1rmKg, 120),
    // volumeKg: 500 + 120 + 720 = 1340.
    (.volumeKg, 1340),
    // reps: most in one set = 8.
    (.reps, 8),
  ])
  func valuePerSession(value: SparklinesOutput.Value, expected: Double) {
    let sets = [
      trained("Squat", [16], kg: 100, reps: 5), trained("Squat", [16], kg: 120, reps: 1),
      trained("Squat", [16], kg: 90, reps: 8),
    ]
    let output = Sparkline(windowDays: 7, value: value)
      .apply(
        [session("2025-11-27T18:00:00Z", sets)], calendar: utc, asOf: at("2025-11-29T23:59:59Z"),
        user: "a", chart: "c")
    #expect(output.lines.map { $0.points.map(\.v) } == [[expected]])
  }

  @Test func epleyBeatsASingleWhenTheRepsSayMore() {
    // 100 × 10 → 100 × (1 + 10/30) = 133.33…, more than a single of 120: the estimate wins.
    // 100 × (1 + 10/30) in Double is 100 × 1.3333333333333333 = 133.33333333333331.
    let sets = [
      trained("Squat", [16], kg: 100, reps: 10), trained("Squat", [16], kg: 120, reps: 1),
    ]
    let output = Sparkline(windowDays: 7, value: .e1rmKg)
      .apply(
        [session("2025-11-27T18:00:00Z", sets)], calendar: utc, asOf: at("2025-11-29T23:59:59Z"),
        user: "a", chart: "c")
    #expect(output.lines.first?.points.first?.v == 133.33333333333331)
  }

  @Test func linesByMostRecentPointThenName() {
    // Bench and Curl were last trained on 28 Nov (tie → by name: Bench, Curl), Row on 20 Nov.
    // Press was last trained in June, outside 91 days: no line at all. A session after as-of
    // (30 Nov) does not count, so it does not make Row the most recent.
    let sessions = [
      session("2025-06-01T18:00:00Z", [trained("Press", [1], kg: 40, reps: 5)]),
      session(
        "2025-11-20T18:00:00Z",
        [trained("Row", [9], kg: 70, reps: 8), trained("Curl", [3], kg: 15, reps: 10)]),
      session(
        "2025-11-28T18:00:00Z",
        [trained("Curl", [3], kg: 16, reps: 10), trained("Bench", [2], kg: 80, reps: 5)]),
      session("2025-11-30T18:00:00Z", [trained("Row", [9], kg: 75, reps: 8)]),
    ]
    let output = Sparkline(value: .topSetKg)
      .apply(sessions, calendar: utc, asOf: at("2025-11-29T23:59:59Z"), user: "a", chart: "c")
    #expect(output.lines.map(\.exercise) == ["Bench", "Curl", "Row"])
    #expect(
      output.lines.map(\.points) == [
        [.init(t: date("2025-11-28T18:00:00Z"), v: 80)],
        [.init(t: date("2025-11-20T18:00:00Z"), v: 15), .init(t: date("2025-11-28T18:00:00Z"), v: 16)],
        [.init(t: date("2025-11-20T18:00:00Z"), v: 70)],
      ])
  }

  /// What an app draws each line with: its own y domain, "no load", the latest value and a
  /// read-out, in the user's units.
  @Test func eachLineCarriesItsDomainLoadAndReadOut() {
    let sessions = [
      session("2025-11-20T18:00:00Z", [trained("Curl", [3], kg: 15, reps: 10), trained("Plank", [8], kg: 0, reps: 1)]),
      session("2025-11-28T18:00:00Z", [trained("Curl", [3], kg: 16, reps: 10), trained("Plank", [8], kg: 0, reps: 1)]),
    ]
    let output = Sparkline(value: .topSetKg)
      .apply(sessions, calendar: utc, asOf: at("2025-11-29T23:59:59Z"), user: "a", chart: "c")
    let curl = output.lines[0]
    // 15 … 16 kg spans 1, less than a fifth of 16 (3.2): 3.2 about the middle 15.5.
    #expect(curl.exercise == "Curl" && !curl.noLoad)
    #expect(curl.yDomain == AxisDomain(min: 13.9, max: 17.1))
    #expect(curl.latestLabel == "16 kg")
    #expect(curl.label == "Curl: latest 16 kg, 2 sessions in the window")
    let plank = output.lines[1]
    #expect(plank.exercise == "Plank" && plank.noLoad)
    #expect(plank.yDomain == nil && plank.latestLabel == nil)
    #expect(plank.label == "Plank: no load recorded, 2 sessions in the window")
    // In pounds: 16 kg = 35.27396195 lb, shown to a tenth.
    let pounds = ChartOutput(output).with(units: Units(weight: .lb, distance: .km))
    guard let shown = pounds.content as? SparklinesOutput else { return #expect(Bool(false)) }
    #expect(shown.lines[0].latestLabel == "35.3 lb")
    #expect(shown.lines[0].label == "Curl: latest 35.3 lb, 2 sessions in the window")
    #expect(shown.lines[0].yDomain == curl.yDomain)
  }
}
