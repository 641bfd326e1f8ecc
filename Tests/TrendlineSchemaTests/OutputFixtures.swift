import Foundation
import TrendlineSchema

/// One value of every output type with every field set, the optional ones both present and
/// absent, and the strings and numbers that are easy to get wrong: escapes, fractions that
/// have no exact binary form, `-0.0`, values past 2⁵³, zones with negative and
/// quarter-hour offsets, and an instant before 1972 in a zone whose offset then was not a
/// whole number of minutes.
enum OutputFixtures {
  /// `"`, `\`, newline, tab, carriage return, two other control characters, `/`, and
  /// non-ASCII text, which is written as UTF-8, not escaped.
  static let awkward = "a\"b\\c\nd\te\rf\u{01}g\u{1F}h/é😀"

  /// Epoch seconds, from UTC: 2025-10-26T01:00:00Z = 1 761 440 400 is the Oslo fall-back
  /// (02:00 summer time → 01:00 winter time); one second before it is 02:59:59+02:00, the
  /// instant itself 02:00:00+01:00.
  static let beforeFallBack: Int64 = 1_761_440_399
  static let atFallBack: Int64 = 1_761_440_400

  static let series = SeriesOutput(
    user: awkward, chart: "training-volume", timeZone: "America/St_Johns",
    asOf: Date(epochSeconds: 1_764_475_199), range: .threeMonths, granularity: .week,
    measures: [.volumeKg, .sessions, .sets, .durationSeconds],
    domain: Extent(start: Date(epochSeconds: -1), end: Date(epochSeconds: 1)),
    asOfBucket: 1, yAxis: [.sessions: YAxis(measure: .sessions, largest: 2.5, units: .metric)],
    bands: ValueBands(
      measure: .sessions, levels: [.init(from: 0, label: "Rest \"zero\""), .init(from: 2.5, label: "Ok")]),
    buckets: [
      .init(
        id: "2025-10-27", start: Date(epochSeconds: beforeFallBack), end: Date(epochSeconds: atFallBack),
        partial: false,
        values: [.volumeKg: 0.1, .sessions: 3, .sets: -0.0, .durationSeconds: 1e-7],
        trend: [
          .volumeKg: 1e300, .sessions: 2.5, .sets: 9_007_199_254_740_991,
          .durationSeconds: 9_007_199_254_740_992,
        ],
        bar: Extent(start: Date(epochSeconds: 0), end: Date(epochSeconds: 1_700_000_000)),
        label: "Week of 27 Oct 2025: \"all\" · 3"),
      .init(
        id: "2025-11-02", start: Date(epochSeconds: atFallBack), end: Date(epochSeconds: atFallBack + 604_800),
        partial: true,
        values: [:], trend: nil,
        bar: Extent(start: Date(epochSeconds: atFallBack), end: Date(epochSeconds: atFallBack))),
    ],
    average: [.sessions: -1.5, .volumeKg: 1234.5678, .durationSeconds: 5e-324, .sets: -1e16])

  /// No buckets: `domain` is written as `null`, `buckets` as `[]`, an empty dictionary as `{}`.
  static let emptySeries = SeriesOutput(
    user: "ada", chart: "c", timeZone: "UTC", asOf: Date(epochSeconds: 0), range: .all,
    granularity: .day,
    measures: [], domain: nil, buckets: [], average: [:])

  static let radar = RadarOutput(
    user: "ada", chart: "muscle-balance", timeZone: "Asia/Kathmandu",
    asOf: Date(epochSeconds: 1_764_437_399),
    axes: [.init(id: "back", label: "Back \"upper\""), .init(id: "legs", label: "Legs")],
    periods: [
      .init(
        id: "2025-10-01", start: Date(epochSeconds: 1_759_257_900), end: Date(epochSeconds: 1_761_936_300),
        partial: false,
        sessions: 7, counts: [4, 0], scale: [2.0 / 3.0, 0]),
      .init(
        id: "2025-11-01", start: Date(epochSeconds: 1_761_936_300), end: Date(epochSeconds: 1_764_528_300),
        partial: true, elapsed: 0.5,
        sessions: 0, counts: [], scale: []),
    ],
    unmappedExercises: [
      .init(name: "Atlas Stone", sessions: 12), .init(name: "Zercher\tCarry", sessions: 1),
    ])

  static let emptyRadar = RadarOutput(
    user: "ada", chart: "r", timeZone: "UTC", asOf: Date(epochSeconds: 0), axes: [], periods: [],
    unmappedExercises: [])

  /// Amsterdam in 1900 was 19 min 32 s ahead of UTC: not a whole number of minutes, so the
  /// instant is written in UTC. 1900-01-01T00:00:00Z = −2 208 988 800.
  static let heatmap = HeatmapOutput(
    user: "ada", chart: "body", timeZone: "Europe/Amsterdam",
    asOf: Date(epochSeconds: -2_208_988_800),
    periods: [
      .init(
        id: "1900-01-01", start: Date(epochSeconds: -2_208_988_800), end: Date(epochSeconds: 1_764_437_399),
        partial: true,
        groups: [
          .init(id: 1, name: "Chest", sessions: 3, intensity: 1),
          .init(id: 27, name: "Neck", sessions: 0, intensity: 0),
          .init(id: -4, name: "", sessions: 1, intensity: 0.3333333333333333),
        ]),
      .init(
        id: "1970-01-01", start: Date(epochSeconds: 0), end: Date(epochSeconds: 86_400), partial: false, groups: []),
    ])

  static let sparklines = SparklinesOutput(
    user: "ada", chart: "trends", timeZone: "Europe/Oslo", units: Units(weight: .lb, distance: .mi),
    asOf: Date(epochSeconds: 1_764_457_199), value: .e1rmKg, windowDays: 91,
    domain: Extent(
      start: Date(epochSeconds: 1_756_594_800), end: Date(epochSeconds: 1_764_457_199)),
    lines: [
      .init(
        exercise: "Squat (Barbell)",
        points: [
          .init(t: Date(epochSeconds: beforeFallBack), v: 116.66666666666667),
          .init(t: Date(epochSeconds: atFallBack), v: 1e21),
        ]),
      .init(exercise: "Überzug", points: []),
    ])

  static let cohortSeries = CohortSeriesOutput(
    chart: "training-volume", asOf: "2025-11-29", range: .sixMonths, granularity: .month,
    measures: [.sessions, .volumeKg], users: 3,
    domain: Extent(start: Date(epochSeconds: 1_757_937_600), end: Date(epochSeconds: 1_763_251_200)),
    buckets: [
      .init(
        day: LocalDay(text: "2025-10-01")!, granularity: .month, partial: false, n: 2, active: 2, activeShare: 2.0 / 3,
        values: [
          .volumeKg: CohortStats(
            n: 2, mean: 1500.25, min: 0, max: 3000.5,
            quantiles: [
              .init(name: "p5", value: 75.5), .init(name: "p12.5", value: 375.0625),
              .init(name: "p50", value: 1500.25),
            ]),
          .sessions: CohortStats(n: 2, mean: 2, min: 1, max: 3, quantiles: []),
        ]),
      .init(
        day: LocalDay(text: "2025-11-01")!, granularity: .month, partial: true, n: 1, active: 1, activeShare: 1.0 / 3,
        values: [:]),
    ],
    yAxis: [
      .volumeKg: YAxis(measure: .volumeKg, largest: 3000.5, units: .metric),
      .sessions: YAxis(measure: .sessions, largest: 3, units: .metric),
    ],
    ranking: .init(
      measure: .volumeKg, top: 2,
      users: [.init(user: "bo", value: 3000.5), .init(user: awkward, value: 0.1)]))

  static let cohortSeriesWithoutRanking = CohortSeriesOutput(
    chart: "c", asOf: "2025-11-29", range: .all, granularity: .week, measures: [], users: 0, buckets: [],
    yAxis: [:], ranking: nil)

  static let cohortRadar = CohortRadarOutput(
    chart: "muscle-balance", asOf: "2025-11-29T23:59:59+01:00", period: .month, partial: true, users: 3,
    axes: [
      .init(
        id: "back", label: "Back",
        counts: CohortStats(
          n: 3, mean: 4.333333333333333, min: 1, max: 8,
          quantiles: [.init(name: "p25", value: 2.5), .init(name: "p90", value: 7.2)])),
      .init(id: "legs", label: "Legs", counts: CohortStats(n: 3, mean: 0, min: 0, max: 0, quantiles: [])),
    ])

  static let emptyCohortRadar = CohortRadarOutput(
    chart: "r", asOf: "2025-11-29", period: .day, partial: false, users: 0, axes: [])
}

extension OutputFixtures {
  /// 3 November 2026, 18:00 UTC: a Tuesday evening.
  static let recordDay = Date(epochSeconds: 1_793_728_800)

  /// Bench Press with a record of each kind, and an exercise never done with weight.
  static let records = RecordsOutput(
    user: "ada", chart: "records", timeZone: "UTC", asOf: Date(epochSeconds: 1_796_169_599),
    exercises: [
      .init(
        exercise: "Bench Press", topSetKg: .init(value: 102.5, weightKg: 102.5, reps: 1, at: recordDay),
        e1rmKg: .init(value: 350.0 / 3, weightKg: 100, reps: 5, at: recordDay),
        repsAtWeight: [.init(value: 8, weightKg: 80, reps: 8, at: recordDay)],
        records: [
          .init(kind: .topSetKg, at: recordDay, value: 102.5, previous: 100, weightKg: 102.5, reps: 1),
          .init(kind: .e1rmKg, at: recordDay, value: 350.0 / 3, previous: 110, weightKg: 100, reps: 5),
          .init(kind: .repsAtWeight, at: recordDay, value: 8, previous: 6, weightKg: 80, reps: 8),
        ]),
      .init(exercise: "Plank", topSetKg: nil, e1rmKg: nil, repsAtWeight: [], records: []),
    ])

  /// Four Monday weeks in UTC from 2 November 2026, the last under way: 2, 1, 3 sessions and
  /// none so far, at least 2 a week.
  static let streak: StreakOutput = {
    let weeks = (0..<4).map { Date(epochSeconds: 1_793_577_600 + Int64($0) * 7 * 86_400) }
    let values: [Double?] = [2, 1, nil, 0]
    let periods = weeks.indices.map { index in
      StreakOutput.Period(
        id: ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"][index], start: weeks[index],
        end: weeks[index].addingTimeInterval(7 * 86_400), partial: index == 3, value: values[index],
        met: index == 0)
    }
    return StreakOutput(
      user: "ada", chart: "twice-a-week", timeZone: "UTC", asOf: Date(epochSeconds: 1_796_169_599),
      range: .oneMonth, granularity: .week, measure: .sessions, atLeast: 2,
      current: .init(length: 0, start: nil, end: nil, includesPartial: false),
      longest: .init(length: 1, start: weeks[0], end: weeks[1], includesPartial: false), complete: 3, met: 1,
      share: 1.0 / 3, periods: periods)
  }()
}
