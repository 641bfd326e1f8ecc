import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

/// SPEC 10.6 and 10.3 on hand-worked series: the bucket holding as-of is no input of a trend or
/// an average, and an unknown value is skipped, never read as 0.
@Suite struct PartialAndUnknownTests {
  /// Weeks of 20 Oct … 24 Nov 2025 (a month back from Monday 24 Nov), sessions 1, 2, 1, 2, 3
  /// and, in the week as-of began the day before, none yet.
  let sessions = [
    "2025-10-21T18:00:00Z", "2025-10-28T18:00:00Z", "2025-10-30T18:00:00Z", "2025-11-04T18:00:00Z",
    "2025-11-11T18:00:00Z", "2025-11-13T18:00:00Z", "2025-11-18T18:00:00Z", "2025-11-19T18:00:00Z",
    "2025-11-20T18:00:00Z",
  ].map { session($0) }
  let asOf = at("2025-11-24T23:59:59Z")

  func weeks() -> BucketedSeries {
    FillGaps().apply(
      Bucket(range: .oneMonth, granularity: .week, measures: [.sessions]).apply(sessions, calendar: utc, asOf: asOf))
  }

  func trend(_ smooth: Smooth) -> [Double?] { smooth.apply(weeks()).buckets.map { $0.trend?[.sessions] } }

  @Test func aOneDayWeekAtTheEndDoesNotPullTheTrendDown() {
    let values: [Double?] = [1, 2, 1, 2, 3, 0]
    #expect(weeks().buckets.map { $0.values[.sessions] } == values)
    #expect(weeks().buckets.map(\.partial) == [false, false, false, false, false, true])
    // Centred, radius 2, over the complete weeks in each window:
    //   (1+2+1)/3, (1+2+1+2)/4, (1+2+1+2+3)/5, (2+1+2+3)/4, (1+2+3)/3, (2+3)/2.
    // Read as a 0, the week one day old made the last three 1.6, 1.5 and 5/3.
    let expected: [Double?] = [4.0 / 3, 1.5, 1.8, 2, 2, 2.5]
    #expect(trend(Smooth(method: .centeredMean, window: 5)) == expected)
    let output = Emit().apply(Smooth().apply(weeks()), user: "ada", chart: "c", calendar: utc)
    // The average of the five complete weeks, 9 / 5, not 9 / 6; one day of seven has passed.
    #expect(output.average == [.sessions: 1.8])
    #expect(output.buckets.last?.elapsed == 1.0 / 7)
    #expect(output.asOfBucket == 5)
  }

  @Test func trailingMeanSkipsThePartialWeek() {
    // Window 3: 1, (1+2)/2, (1+2+1)/3, (2+1+2)/3, (1+2+3)/3, and for the partial week (2+3)/2.
    let expected: [Double?] = [1, 1.5, 4.0 / 3, 5.0 / 3, 2, 2.5]
    #expect(trend(Smooth(method: .trailingMean, window: 3)) == expected)
  }

  @Test func ewmaCarriesItsLastValueOverThePartialWeek() {
    // α = 0.5: 1, 1.5, 1.25, 1.625, 2.3125, and the partial week keeps 2.3125.
    let expected: [Double?] = [1, 1.5, 1.25, 1.625, 2.3125, 2.3125]
    #expect(trend(Smooth(method: .ewma(alpha: 0.5))) == expected)
  }

  @Test func aPartialBucketAloneHasNoTrendAndNoAverage() throws {
    // Range all by month, one session on the as-of day: November 2025 is the only bucket.
    let series = Smooth().apply(
      Bucket(range: .all, measures: [.sessions, .durationSeconds]).apply(
        [session("2025-11-24T10:00:00Z")], calendar: utc, asOf: asOf))
    #expect(series.buckets.count == 1)
    #expect(series.buckets[0].partial)
    #expect(series.buckets[0].trend == [:])
    let output = Emit().apply(series, user: "ada", chart: "c", calendar: utc)
    #expect(output.average == [:])
    // Written as nulls: unknown, not 0 and not left out.
    let json = String(decoding: try OutputWriter.encode(output, timeZone: zone("UTC")), as: UTF8.self)
    #expect(json.contains(#""trend": {\#n        "durationSeconds": null,\#n        "sessions": null\#n      }"#))
    #expect(json.contains(#""average": {\#n    "durationSeconds": null,\#n    "sessions": null\#n  }"#))
  }

  @Test func unknownDurationsAreNullNotZero() {
    // Week of 3 Nov: two sessions without a stated duration → unknown. Week of 10 Nov: one of
    // 45 min and one without → 45 min, the known one. Week of 17 Nov: none → filled, a true 0.
    let sessions = [
      session("2025-11-04T18:00:00Z", minutes: nil), session("2025-11-06T18:00:00Z", minutes: nil),
      session("2025-11-11T18:00:00Z", minutes: 45), session("2025-11-13T18:00:00Z", minutes: nil),
      session("2025-11-25T18:00:00Z"),
    ]
    let series = FillGaps().apply(
      Bucket(range: .oneMonth, granularity: .week, measures: [.durationSeconds]).apply(
        sessions, calendar: utc, asOf: at("2025-11-26T23:59:59Z")))
    // A month back from 26 Nov: weeks of 20 and 27 Oct (empty), 3, 10, 17 (empty) and 24 Nov
    // (partial, 60 min).
    let values: [Double?] = [0, 0, nil, 2700, 0, 3600]
    #expect(series.buckets.map { $0.values[.durationSeconds] } == values)
    // The trend skips the unknown week and the partial one: window 3 around 3 Nov is
    // (0 + 2 700) / 2, around 24 Nov the 0 of 17 Nov alone.
    let smoothed = Smooth(method: .centeredMean, window: 3).apply(series)
    let trend: [Double?] = [0, 0, 1350, 1350, 1350, 0]
    #expect(smoothed.buckets.map { $0.trend?[.durationSeconds] } == trend)
    let output = Emit().apply(smoothed, user: "ada", chart: "c", calendar: utc)
    // Over the four complete weeks with a known duration: (0 + 0 + 2 700 + 0) / 4.
    #expect(output.average == [.durationSeconds: 675])
    // 1 350 s is 22.5 min, shown rounded half up.
    #expect(output.buckets[2].label == "Week of 3 Nov 2025: duration – (trend 23 min)")
  }

  @Test func cohortStatisticsSayHowManyUsersTheyCover() {
    // Two users share the week of 24 Nov: one states durations, one does not. Sessions cover
    // both, duration only the first, whose median is then its own 60 min, not (0 + 60) / 2.
    func user(_ id: String, minutes: Int64?) -> SeriesOutput {
      Emit().apply(
        Bucket(range: .oneWeek, granularity: .week, measures: [.sessions, .durationSeconds]).apply(
          [session("2025-11-24T18:00:00Z", minutes: minutes)], calendar: utc, asOf: at("2025-11-26T23:59:59Z")),
        user: id, chart: "c", calendar: utc)
    }
    let compare = Compare(quantiles: [0.5])
    let part = compare.add(user("b", minutes: nil), to: compare.add(user("a", minutes: 60), to: nil))
    let cohort = compare.reduce(part, chart: "c", asOf: "2025-11-26").cohort
    // One row: the domain is its start ± half a week, as a user's chart pads its own.
    #expect(cohort.domain == Extent(start: date("2025-11-20T12:00:00Z"), end: date("2025-11-27T12:00:00Z")))
    let row = cohort.buckets.last!
    #expect(row.date == "2025-11-24")
    #expect(row.partial)
    #expect(row.n == 2)
    #expect(row.values[.sessions]?.n == 2)
    #expect(row.values[.durationSeconds]?.n == 1)
    #expect(row.values[.durationSeconds]?.quantile("p50") == 3600)
    // The row as instants: the local date at 00:00 UTC, a week long, the bar 0.35 of it.
    #expect(row.start == date("2025-11-24T00:00:00Z"))
    #expect(row.end == date("2025-12-01T00:00:00Z"))
    #expect(row.bar == Extent(start: date("2025-11-21T13:12:00Z"), end: date("2025-11-26T10:48:00Z")))
  }
}

extension PartialAndUnknownTests {
  /// An export with no duration for any session of the window (Fitbod, FitNotes, Strong without
  /// a Duration column): its empty weeks are not a known 0 beside unknown weeks of training, so
  /// the duration is unknown throughout, and the average with it.
  @Test func anExportWithoutDurationsHasNoneAtAll() {
    let sessions = ["2025-11-04T18:00:00Z", "2025-11-18T18:00:00Z"].map { session($0, minutes: nil) }
    let series = FillGaps().apply(
      Bucket(range: .oneMonth, granularity: .week, measures: [.sessions, .durationSeconds]).apply(
        sessions, calendar: utc, asOf: at("2025-11-26T23:59:59Z")))
    let durations: [Double?] = [nil, nil, nil, nil, nil, nil]
    #expect(series.buckets.map { $0.values[.durationSeconds] } == durations)
    let sessionCounts: [Double?] = [0, 0, 1, 0, 1, 0]
    #expect(series.buckets.map { $0.values[.sessions] } == sessionCounts)
    let output = Emit().apply(Smooth().apply(series), user: "ada", chart: "c", calendar: utc)
    #expect(output.average[.durationSeconds] == nil)
    #expect(output.buckets.allSatisfy { $0.trend?[.durationSeconds] == nil })
  }
}

extension PartialAndUnknownTests {
  /// Whether an export records durations is read from every session up to as-of, not only the
  /// window's: a user idle in the window whose exports never state one is unknown there too (not
  /// a 0 in the cohort's duration), and one whose earlier sessions state them has true zeros.
  @Test func recordedOrNotIsReadFromTheWholeHistory() {
    func durations(_ minutes: Int64?) -> [Double?] {
      let series = FillGaps().apply(
        Bucket(range: .oneMonth, granularity: .week, measures: [.durationSeconds]).apply(
          [session("2025-06-02T18:00:00Z", minutes: minutes)], calendar: utc, asOf: at("2025-11-26T23:59:59Z")))
      return series.buckets.map { $0.values[.durationSeconds] }
    }
    #expect(durations(nil) == [nil, nil, nil, nil, nil, nil])
    #expect(durations(45) == [0, 0, 0, 0, 0, 0])
    // A streak on a measure the exports never record meets no target in its empty weeks.
    let idle = Bucket(range: .oneMonth, granularity: .week, measures: [.durationSeconds]).apply(
      [session("2025-06-02T18:00:00Z", minutes: nil)], calendar: utc, asOf: at("2025-11-26T23:59:59Z"))
    let streak = Streak(measure: .durationSeconds, atLeast: 60).apply(idle, user: "ada", chart: "c", calendar: utc)
    #expect(streak.periods.allSatisfy { $0.value == nil && !$0.met })
  }
}
