import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct EmitTests {
  @Test(arguments: [
    // round(length / 2), halves up: 3 → 1.5 → 2; 5 → 3; 604 800 (a week) → 302 400.
    (Int64(3), Int64(2)), (4, 2), (5, 3), (604_800, 302_400),
  ])
  func halfLength(length: Int64, expected: Int64) {
    #expect(Emit.halfLength(length) == expected)
  }

  @Test(arguments: [
    // round(0.35 × length), halves up, in integers. Real bucket lengths are multiples of 30
    // minutes, where 0.35 × length is exact, so rounding shows only on short lengths:
    // 10 → 3.5 → 4; 30 → 10.5 → 11; 1 → 0.35 → 0; 2 → 0.7 → 1;
    // a 23 h day, 82 800 → 28 980; a 25 h day, 90 000 → 31 500.
    (Int64(10), Int64(4)), (30, 11), (1, 0), (2, 1), (82_800, 28_980), (90_000, 31_500),
  ])
  func barHalfWidth(length: Int64, expected: Int64) {
    #expect(Extent.barHalfWidth(length) == expected)
  }

  /// Records on a best's line (SPEC 11.8): top sets by week, 1m by week as of Sunday 30 November
  /// 2025 (UTC, Monday weeks: 27 Oct … 24 Nov). Before the window, 5 October: 100 kg. Weeks:
  /// 27 Oct 95 (under the old best), 3 Nov 102.5 (a record), 10 Nov none (no weighted set: no
  /// point, and no record), 17 Nov 102.5 (equal: no new best), 24 Nov 105 (a record).
  @Test func recordsBeatEveryEarlierValueTheOnesBeforeTheWindowToo() {
    let lift = { (kg: Double) in [trained("Squat", [20], kg: kg, reps: 1)] }
    let sessions = [
      session("2025-10-05T09:00:00Z", lift(100)), session("2025-10-28T09:00:00Z", lift(95)),
      session("2025-11-04T09:00:00Z", lift(102.5)), session("2025-11-11T09:00:00Z", [trained("Plank", [30])]),
      session("2025-11-18T09:00:00Z", lift(102.5)), session("2025-11-25T09:00:00Z", lift(105)),
    ]
    let series = Bucket(range: .oneMonth, granularity: .week, measures: [.sessions, .topSetKg]).apply(
      sessions, calendar: utc, asOf: at("2025-11-30T23:59:59Z"))
    #expect(series.bestBefore == [.topSetKg: 100])
    let output = Emit().apply(series, user: "ada", chart: "c", calendar: utc)
    #expect(output.buckets.map(\.id) == ["2025-10-27", "2025-11-03", "2025-11-10", "2025-11-17", "2025-11-24"])
    #expect(output.recordBuckets == [.topSetKg: [1, 4]])
    #expect(output.mark == [.sessions: .bar, .topSetKg: .line])
    // The week of 24 Nov ends at as-of's last second: finished, elapsed 1 (SPEC 11.9).
    #expect(output.buckets.last?.partial == false)
    #expect(output.buckets.last?.elapsed == 1)
    // Without an earlier best, the first value is no record: nothing to beat.
    let fresh = Bucket(range: .oneMonth, granularity: .week, measures: [.topSetKg]).apply(
      Array(sessions.dropFirst()), calendar: utc, asOf: at("2025-11-30T23:59:59Z"))
    #expect(Emit().apply(fresh, user: "ada", chart: "c", calendar: utc).recordBuckets == [.topSetKg: [1, 4]])
    // From 3 November only (buckets 3, 10, 17, 24 Nov): 102.5 is the first value, 105 the record.
    let late = Bucket(range: .oneMonth, granularity: .week, measures: [.topSetKg]).apply(
      Array(sessions.dropFirst(2)), calendar: utc, asOf: at("2025-11-30T23:59:59Z"))
    #expect(Emit().apply(late, user: "ada", chart: "c", calendar: utc).recordBuckets == [.topSetKg: [3]])
  }

  @Test func weeklySeriesGeometry() {
    // 3m by week, UTC, as-of Saturday 29 Nov 2025: weeks from Monday 25 Aug to Monday 24 Nov
    // (14 buckets, filled). A week is 604 800 s: the domain is padded by 302 400 s = 3.5 days,
    // 21 Aug 12:00 … 27 Nov 12:00. The last bar is 24 Nov ± round(0.35 × 604 800) = 211 680 s
    // = 2 d 10 h 48 min: 21 Nov 13:12 … 26 Nov 10:48.
    let series = FillGaps().apply(
      Bucket(range: .threeMonths, measures: [.sessions])
        .apply([session("2025-09-03T09:00:00Z")], calendar: utc, asOf: at("2025-11-29T23:59:59Z")))
    let output = Emit().apply(series, user: "ada", chart: "volume", calendar: utc)
    #expect(output.granularity == .week)
    #expect(
      output.domain
        == Extent(start: date("2025-08-21T12:00:00Z"), end: date("2025-11-27T12:00:00Z")))
    #expect(
      output.buckets.last?.bar
        == Extent(start: date("2025-11-21T13:12:00Z"), end: date("2025-11-26T10:48:00Z")))
    // One session over the 13 complete weeks: the week of 24 Nov holds as-of, so it is no
    // input of the average (SPEC 10.6); Saturday's end is 6 of its 7 days.
    #expect(output.average == [.sessions: 1.0 / 13.0])
    #expect(output.buckets.map(\.partial) == Array(repeating: false, count: 13) + [true])
    #expect(output.buckets.last?.elapsed == 6.0 / 7)
    #expect(output.buckets.dropLast().allSatisfy { $0.elapsed == 1 })
  }

  @Test func monthlySeriesGeometryInOslo() {
    // 1y by month, Oslo, as-of 15 Nov 2025: November 2024 … November 2025, filled.
    // First bucket November 2024, 30 days = 2 592 000 s, no change of offset: padding 1 296 000
    // s = 15 days back from 1 Nov 00:00 +01:00 crosses the 27 Oct 2024 fall-back, so the domain
    // starts 17 Oct 01:00 +02:00. The last bucket, November 2025, is also 30 days: it ends
    // 15 days after 1 Nov 00:00, 16 Nov 00:00 +01:00.
    // March 2025 lost an hour: 31 days − 1 h = 2 674 800 s, bar half-width 0.35 × that =
    // 936 180 s = 10 d 20 h 3 min: 1 Mar 00:00 +01:00 − that = 18 Feb 03:57 +01:00, + that =
    // 11 Mar 20:03 +01:00 (both before the change on 30 March).
    let series = FillGaps().apply(
      Bucket(range: .oneYear, measures: [.sessions, .volumeKg])
        .apply(
          [session("2025-03-12T18:00:00+01:00")], calendar: oslo,
          asOf: at("2025-11-15T23:59:59+01:00")))
    let output = Emit().apply(series, user: "ada", chart: "volume", calendar: oslo)
    #expect(output.buckets.count == 13)
    #expect(
      output.domain
        == Extent(start: date("2024-10-17T01:00:00+02:00"), end: date("2025-11-16T00:00:00+01:00")))
    let march = output.buckets[4]
    #expect(march.start == date("2025-03-01T00:00:00+01:00"))
    #expect(march.end == date("2025-04-01T00:00:00+02:00"))
    #expect(
      march.bar
        == Extent(start: date("2025-02-18T03:57:00+01:00"), end: date("2025-03-11T20:03:00+01:00")))
    #expect(march.values == [.sessions: 1, .volumeKg: 500])
    // One session of 500 kg over the 12 complete months (November 2025 holds as-of); no smooth
    // stage, so no trend. November has 15 of its 30 days behind it.
    #expect(output.average == [.sessions: 1.0 / 12.0, .volumeKg: 500.0 / 12.0])
    #expect(output.buckets.last?.elapsed == 0.5)
    #expect(output.buckets.allSatisfy { $0.trend == nil })
    #expect(output.timeZone == "Europe/Oslo")
    #expect(output.asOf == date("2025-11-15T23:59:59+01:00"))
  }

  @Test func noBucketsMeansNoDomainAndNoAverages() {
    // SPEC 9.8: range all with no session up to as-of.
    let series = Bucket(range: .all, measures: [.sessions, .volumeKg]).apply(
      [], calendar: utc, asOf: at("2025-06-30T23:59:59Z"))
    let output = Emit().apply(series, user: "ada", chart: "volume", calendar: utc)
    #expect(output.domain == nil)
    #expect(output.buckets.isEmpty)
    // The mean of nothing is unknown, not 0 (SPEC 10.3).
    #expect(output.average == [:])
    #expect(output.granularity == .month)
  }

  @Test func averageWithoutFillingCountsOnlyBucketsWithSessions() {
    // Unfilled, the average is over the buckets written: days with 1 and 3 sessions → 2.
    let series = Bucket(range: .oneWeek, measures: [.sessions]).apply(
      [session("2025-06-04T09:00:00Z")] + (0..<3).map { session("2025-06-09T0\($0):00:00Z") },
      calendar: utc, asOf: at("2025-06-10T23:59:59Z"))
    #expect(Emit().apply(series, user: "ada", chart: "c", calendar: utc).average == [.sessions: 2])
  }
}
