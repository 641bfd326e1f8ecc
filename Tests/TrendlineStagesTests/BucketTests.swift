import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct BucketTests {
  @Test func mondayAndSundayWeeksAroundTheSameSessions() {
    // Saturday 29 Nov, Sunday 30 Nov and Monday 1 Dec 2025. Monday weeks split them Sat+Sun |
    // Mon; Sunday weeks split them Sat | Sun+Mon. The week containing as-of (3 Dec) is partial.
    let sessions = [
      session("2025-11-29T10:00:00Z"), session("2025-11-30T10:00:00Z"),
      session("2025-12-01T10:00:00Z"),
    ]
    let bucket = Bucket(range: .oneMonth, granularity: .week, measures: [.sessions])
    let asOf = at("2025-12-03T23:59:59Z")
    let monday = bucket.apply(sessions, calendar: utc, asOf: asOf)
    #expect(
      rows(monday) == [
        Row("2025-11-24T00:00:00Z", "2025-12-01T00:00:00Z", sessions: 2),
        Row("2025-12-01T00:00:00Z", "2025-12-08T00:00:00Z", partial: true, sessions: 1),
      ])
    let sunday = bucket.apply(
      sessions, calendar: UserCalendar(timeZone: zone("UTC"), firstWeekday: .sunday), asOf: asOf)
    #expect(
      rows(sunday) == [
        Row("2025-11-23T00:00:00Z", "2025-11-30T00:00:00Z", sessions: 1),
        Row("2025-11-30T00:00:00Z", "2025-12-07T00:00:00Z", partial: true, sessions: 2),
      ])
  }

  @Test func dayBucketsAcrossBothDaylightChanges() {
    // One session on each change day in Oslo: the spring-forward bucket is 23 h (82 800 s), the
    // fall-back one 25 h (90 000 s), each ending at the next local midnight.
    let bucket = Bucket(range: .oneWeek, measures: [.sessions])
    let spring = bucket.apply(
      [session("2025-03-30T10:00:00+02:00")], calendar: oslo, asOf: at("2025-03-31T23:59:59+02:00"))
    #expect(
      rows(spring) == [Row("2025-03-30T00:00:00+01:00", "2025-03-31T00:00:00+02:00", sessions: 1)])
    #expect(spring.buckets[0].end - spring.buckets[0].start == 82_800)
    let fall = bucket.apply(
      [session("2025-10-26T10:00:00+01:00")], calendar: oslo, asOf: at("2025-10-27T23:59:59+01:00"))
    #expect(
      rows(fall) == [Row("2025-10-26T00:00:00+02:00", "2025-10-27T00:00:00+01:00", sessions: 1)])
    #expect(fall.buckets[0].end - fall.buckets[0].start == 90_000)
  }

  @Test func monthBucketsAcrossAYearBoundary() {
    // 3m at month granularity up to 15 Jan 2026 in Oslo: the window starts 15 Oct 2025, so
    // October, November, December and January. 23:30 on 31 December is December's; midnight
    // on 1 January is January's. October starts in summer time (+02:00).
    let sessions = [
      session("2025-10-02T18:00:00+02:00"), session("2025-12-31T23:30:00+01:00"),
      session("2026-01-01T00:00:00+01:00"),
    ]
    let series = FillGaps().apply(
      Bucket(range: .threeMonths, granularity: .month, measures: [.sessions])
        .apply(sessions, calendar: oslo, asOf: at("2026-01-15T23:59:59+01:00")))
    #expect(series.granularity == .month)
    #expect(
      rows(series) == [
        Row("2025-10-01T00:00:00+02:00", "2025-11-01T00:00:00+01:00", sessions: 1),
        Row("2025-11-01T00:00:00+01:00", "2025-12-01T00:00:00+01:00", sessions: 0),
        Row("2025-12-01T00:00:00+01:00", "2026-01-01T00:00:00+01:00", sessions: 1),
        Row("2026-01-01T00:00:00+01:00", "2026-02-01T00:00:00+01:00", partial: true, sessions: 1),
      ])
  }

  @Test func leapDay() {
    // A month back from 31 March 2024 is 29 February (a leap year), a year back from 29
    // February 2024 is 28 February 2023: calendar arithmetic clamps to the month's last day.
    // Both keep the as-of's local time of day, 23:59:59.
    let oneMonth = Bucket(range: .oneMonth, measures: [.sessions])
    #expect(
      oneMonth.windowStart([], calendar: utc, asOf: at("2024-03-31T23:59:59Z"))
        == at("2024-02-29T23:59:59Z"))
    let oneYear = Bucket(range: .oneYear, measures: [.sessions])
    #expect(
      oneYear.windowStart([], calendar: utc, asOf: at("2024-02-29T23:59:59Z"))
        == at("2023-02-28T23:59:59Z"))
    // 29 February is a day bucket like any other, ending at 1 March.
    let series = Bucket(range: .oneWeek, measures: [.sessions])
      .apply([session("2024-02-29T07:00:00Z")], calendar: utc, asOf: at("2024-03-02T23:59:59Z"))
    #expect(rows(series) == [Row("2024-02-29T00:00:00Z", "2024-03-01T00:00:00Z", sessions: 1)])
  }

  @Test func sessionAtLocalMidnightBelongsToTheNewDay() {
    // 23:59:59 on 1 June is the old day; 00:00:00 on 2 June (Oslo, +02:00) is the new one.
    let series = Bucket(range: .oneWeek, measures: [.sessions]).apply(
      [session("2025-06-01T23:59:59+02:00"), session("2025-06-02T00:00:00+02:00")], calendar: oslo,
      asOf: at("2025-06-03T23:59:59+02:00"))
    #expect(
      rows(series) == [
        Row("2025-06-01T00:00:00+02:00", "2025-06-02T00:00:00+02:00", sessions: 1),
        Row("2025-06-02T00:00:00+02:00", "2025-06-03T00:00:00+02:00", sessions: 1),
      ])
  }

  @Test func partialLastBucketAndWholeFirstBucket() {
    // 1w by day up to 10 June: the window starts 3 June 23:59:59, so the first bucket is the
    // whole of 3 June and counts the 08:00 session before the window start (SPEC 9.2); 8
    // buckets, 3 … 10 June. As-of at the end of 10 June is that day's last second, so the day
    // is finished and no bucket is partial (SPEC 11.9); as-of at 18:00 leaves the last one
    // partial, 18 h + 1 s of 24 elapsed. Measures: one session of 1 set, 60 min = 3600 s,
    // 5 × 100 kg = 500 kg.
    let bucket = Bucket(range: .oneWeek, measures: [.sessions, .sets, .durationSeconds, .volumeKg])
    let sessions = [session("2025-06-03T08:00:00Z"), session("2025-06-10T18:00:00Z")]
    let series = FillGaps().apply(bucket.apply(sessions, calendar: utc, asOf: at("2025-06-10T23:59:59Z")))
    #expect(series.buckets.count == 8)
    #expect(series.buckets.map(\.partial) == [false, false, false, false, false, false, false, false])
    let evening = FillGaps().apply(bucket.apply(sessions, calendar: utc, asOf: at("2025-06-10T18:00:00Z")))
    #expect(evening.buckets.map(\.partial) == [false, false, false, false, false, false, false, true])
    #expect(Emit.elapsed(evening.buckets[7], asOf: evening.asOf) == 64_801.0 / 86_400)
    #expect(series.buckets[0].start == at("2025-06-03T00:00:00Z"))
    #expect(
      series.buckets[0].values == [.sessions: 1, .sets: 1, .durationSeconds: 3600, .volumeKg: 500])
    #expect(series.buckets[7].start == at("2025-06-10T00:00:00Z"))
    #expect(series.buckets[7].end == at("2025-06-11T00:00:00Z"))
  }

  @Test(arguments: [
    // As-of Saturday 2025-11-29 23:59:59 UTC, Monday weeks. (range, window start, first bucket
    // start, number of periods):
    // 1w → 22 Nov 23:59:59; by day 22 … 29 Nov = 8 days.
    (BucketRange.oneWeek, "2025-11-22T23:59:59Z", "2025-11-22T00:00:00Z", 8),
    // 1m → 29 Oct; by day 29 Oct … 29 Nov = 3 + 29 = 32 days.
    (.oneMonth, "2025-10-29T23:59:59Z", "2025-10-29T00:00:00Z", 32),
    // 3m → 29 Aug (a Friday); by week from Monday 25 Aug to Monday 24 Nov: 91 days = 13 weeks
    // apart, so 14 weeks.
    (.threeMonths, "2025-08-29T23:59:59Z", "2025-08-25T00:00:00Z", 14),
    // 6m → 29 May (a Thursday); weeks from Monday 26 May to 24 Nov: 182 days = 26 weeks apart, 27.
    (.sixMonths, "2025-05-29T23:59:59Z", "2025-05-26T00:00:00Z", 27),
    // 1y → 29 Nov 2024; by month November 2024 … November 2025 = 13 months.
    (.oneYear, "2024-11-29T23:59:59Z", "2024-11-01T00:00:00Z", 13),
    // all → the first session, 15 Jan 2025 09:00; by month January … November = 11 months.
    (.all, "2025-01-15T09:00:00Z", "2025-01-01T00:00:00Z", 11),
  ])
  func windowForEachRange(
    range: BucketRange, windowStart: String, firstBucket: String, periods: Int
  ) {
    let sessions = [session("2025-01-15T09:00:00Z"), session("2025-11-28T09:00:00Z")]
    let bucket = Bucket(range: range, measures: [.sessions])
    let asOf = at("2025-11-29T23:59:59Z")
    #expect(bucket.windowStart(sessions, calendar: utc, asOf: asOf) == at(windowStart))
    let series = bucket.apply(sessions, calendar: utc, asOf: asOf)
    #expect(series.periods?.count == periods)
    #expect(series.periods?.start(0) == at(firstBucket))
  }

  @Test func autoGranularity() {
    // Up to 31 days → day (1w, 1m, 31d, 4w); up to 186 → week (32d, 5w, 3m, 6m, 26w); beyond and
    // all → month (27w = 189 days, 7m, 1y, 18m, 2y); an explicit granularity wins.
    let ranges = ["1w", "1m", "31d", "4w", "32d", "5w", "3m", "6m", "26w", "27w", "7m", "1y", "18m", "2y", "all"]
    let resolved = ranges.map { Bucket(range: BucketRange(rawValue: $0)!, measures: []).resolvedGranularity }
    #expect(
      resolved == [
        .day, .day, .day, .day, .week, .week, .week, .week, .week, .month, .month, .month, .month, .month, .month,
      ])
    #expect(Bucket(range: .oneYear, granularity: .week, measures: []).resolvedGranularity == .week)
  }

  @Test func rangesAreACountAndAUnitUpToTenYears() {
    #expect(BucketRange(rawValue: "18m")?.count == 18)
    #expect(BucketRange(rawValue: "18m")?.unit == .month)
    #expect(BucketRange(rawValue: "3660d")?.rawValue == "3660d")
    #expect(BucketRange(rawValue: "10y") != nil)
    // One spelling per range, and nothing past ten years or below one unit.
    for refused in ["0d", "07d", "+2y", "-1m", "11y", "121m", "523w", "3661d", "2", "y", "2Y", "2 y", "1.5y", ""] {
      #expect(BucketRange(rawValue: refused) == nil, "\(refused)")
    }
  }

  @Test func aYearAndAHalfBackCountsMonthsInTheUsersCalendar() {
    // 18 months back from 31 August 2025 23:59:59 UTC is the last day of February 2024, a leap
    // year: 29 February 23:59:59. By month the window's first bucket is February 2024, and
    // February 2024 … August 2025 is 19 periods.
    let bucket = Bucket(range: BucketRange(rawValue: "18m")!, granularity: .month, measures: [.sessions])
    let asOf = at("2025-08-31T23:59:59Z")
    #expect(bucket.windowStart([], calendar: utc, asOf: asOf) == at("2024-02-29T23:59:59Z"))
    let series = bucket.apply([session("2024-02-10T09:00:00Z")], calendar: utc, asOf: asOf)
    #expect(series.periods?.count == 19)
    #expect(series.periods?.start(0) == at("2024-02-01T00:00:00Z"))
    #expect(series.buckets.count == 1)
  }

  @Test func inactiveUserGetsTrailingZeroBuckets() {
    // Last trained 5 March; as-of 15 August. 6m by month: the window starts 15 February, so
    // February … August, 7 buckets. February counts the 10 Feb session although it is before
    // the window start (whole first bucket). Filled, April … August are zeros and August is
    // partial: the chart shows five empty months instead of ending in March.
    let raw = Bucket(range: .sixMonths, granularity: .month, measures: [.sessions]).apply(
      [session("2025-02-10T09:00:00Z"), session("2025-03-05T09:00:00Z")], calendar: utc,
      asOf: at("2025-08-15T23:59:59Z"))
    // Unfilled, only the two months with sessions remain, and neither contains as-of.
    #expect(
      rows(raw) == [
        Row("2025-02-01T00:00:00Z", "2025-03-01T00:00:00Z", sessions: 1),
        Row("2025-03-01T00:00:00Z", "2025-04-01T00:00:00Z", sessions: 1),
      ])
    let filled = FillGaps().apply(raw)
    #expect(filled.buckets.map { $0.values[.sessions] } == [1, 1, 0, 0, 0, 0, 0])
    #expect(filled.buckets.last?.start == at("2025-08-01T00:00:00Z"))
    #expect(filled.buckets.last?.partial == true)
  }

  @Test func sessionsAfterAsOfAreNotUsed() {
    // The 11 June session is after as-of (10 June 23:59:59) and counts nowhere; one at exactly
    // as-of counts (SPEC 9.1: at or before), in a day finished at as-of (SPEC 11.9).
    let series = Bucket(range: .oneWeek, measures: [.sessions]).apply(
      [session("2025-06-10T23:59:59Z"), session("2025-06-11T00:00:00Z")], calendar: utc,
      asOf: at("2025-06-10T23:59:59Z"))
    #expect(
      rows(series) == [
        Row("2025-06-10T00:00:00Z", "2025-06-11T00:00:00Z", partial: false, sessions: 1)
      ])
  }

  @Test func allWithNoSessionsHasNoBuckets() {
    // SPEC 9.8: nothing at or before as-of, so no window; the only session is after as-of.
    let series = Bucket(range: .all, measures: [.sessions])
      .apply([session("2025-07-01T09:00:00Z")], calendar: utc, asOf: at("2025-06-30T23:59:59Z"))
    #expect(series.buckets.isEmpty)
    #expect(series.periods == nil)
    #expect(FillGaps().apply(series).buckets.isEmpty)
  }
}

@Suite struct BucketPerSetMeasureTests {
  let measures: [Measure] = [.topSetKg, .e1rmKg, .reps, .distanceM, .volumeKg]

  @Test func perSetMeasuresByHand() {
    // Week of 2 Mar: 100 × 5 and 110 × 1 squats, then a 3 km run; week of 9 Mar: nothing
    // weighted, only pull-ups at body weight.
    let sessions = [
      session(
        "2026-03-02T18:00:00Z", [trained("Squat", [8], kg: 100, reps: 5), trained("Squat", [8], kg: 110, reps: 1)]),
      session(
        "2026-03-04T07:00:00Z",
        [
          (
            TrainedExercise(name: "Run", muscleGroupIds: [], isUnmapped: false),
            TrainedSet(type: .normal, weightKg: 0, reps: 0, distanceMeters: 3000)
          )
        ]),
      session("2026-03-10T18:00:00Z", [trained("Pull Up", [9], kg: 0, reps: 8)]),
    ]
    let series = Bucket(range: .oneMonth, granularity: .week, measures: measures)
      .apply(sessions, calendar: utc, asOf: at("2026-03-11T23:59:59Z"))
    // e1RM: 100 × (1 + 5/30) = 116.66…, beating 110 × 1 = 110.
    let e1rm: Double = 100 * (1 + 5.0 / 30)
    let first: MeasureValues = [.topSetKg: 110, .e1rmKg: e1rm, .reps: 6, .distanceM: 3000, .volumeKg: 610]
    #expect(series.buckets[0].values == first)
    // A bucket without a weighted set has no best, not a best of 0.
    let second: MeasureValues = [.reps: 8, .distanceM: 0, .volumeKg: 0]
    #expect(series.buckets[1].values == second)
  }

  @Test func fillGapsSmoothAndEmitSkipAMissingBest() {
    let sessions = [
      session("2026-03-02T18:00:00Z", [trained("Squat", [8], kg: 100, reps: 5)]),
      session("2026-03-16T18:00:00Z", [trained("Squat", [8], kg: 110, reps: 5)]),
    ]
    let bucketed = Bucket(range: .oneMonth, granularity: .week, measures: [.topSetKg, .sets])
      .apply(sessions, calendar: utc, asOf: at("2026-03-18T23:59:59Z"))
    // A month back from 18 Mar is 18 Feb: the weeks of 16 Feb, 23 Feb, 2, 9 and 16 Mar.
    let filled = FillGaps().apply(bucketed)
    #expect(filled.buckets.map { $0.values[.topSetKg] } == [nil, nil, 100, nil, 110])
    #expect(filled.buckets.map { $0.values[.sets] } == [0, 0, 1, 0, 1])
    let smoothed = Smooth(method: .centeredMean, window: 3).apply(filled)
    // Each window averages the values it has, the week of 16 Mar (as-of's, partial) being no
    // input: none, (100), (100), (100), none — its 110 is not evidence yet.
    #expect(smoothed.buckets.map { $0.trend?[.topSetKg] } == [nil, 100, 100, 100, nil])
    let output = Emit().apply(smoothed, user: "u", chart: "c", calendar: utc)
    // Over the four complete weeks: topSetKg over the one that has one; sets (0 + 0 + 1 + 0) / 4.
    let average: MeasureValues = [.topSetKg: 100, .sets: 0.25]
    #expect(output.average == average)
  }

  @Test func ewmaCarriesOverAGapAndAMeanOfNothingIsMissing() {
    #expect(Smooth(method: .ewma(alpha: 0.5)).apply([nil, 4, nil, 8]) == [nil, 4, 4, 6])
    #expect(Smooth(method: .trailingMean, window: 2).apply([nil, nil, 3]) == [nil, nil, 3])
    // Without gaps the column smooths exactly as before.
    #expect(Smooth(method: .centeredMean, window: 5).apply([1, 2, 3, 4, 5] as [Double?]) == [2, 2.5, 3, 3.5, 4])
  }
}
