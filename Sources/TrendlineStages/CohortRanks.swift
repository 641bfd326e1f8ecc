import Foundation
import TrendlineSchema

/// Where each user stands in a compared series chart's cohort: per bucket and measure, the
/// user's percentile rank among the users of the cohort row the bucket joins
/// (``SeriesOutput/cohortRank``, `Guides/Compare.md`).
///
/// The rank of a value *v* among the *n* known values of its row is
/// 100 × (#below *v* + ½ × #equal to *v*) ÷ *n*, the user's own value included: the middle of
/// the ranks *v* shares, as `scipy.stats.percentileofscore(values, v, kind="mean")` computes it.
/// So the only user of a row is at 50, the lowest of four distinct values at 12.5 and the
/// highest at 87.5, and ties share one rank: a rank never depends on the order users were seen.
public struct CohortRanks: Sendable {
  /// Row → per measure of the part, in its order, every known value of the row, ascending.
  private let sorted: [LocalDay: [[Double]]]
  private let measures: [Measure]
  private let granularity: Granularity
  private let rowWeekday: Weekday

  /// What a user's ranks need of their chart, kept compact for every user of a run until the
  /// cohort is known: each bucket's local start day and each measure's value (NaN: unknown).
  public struct Buckets: Sendable {
    public let measures: [Measure]
    /// Each bucket's local start date, in days since 1970-01-01; ``noDay`` for an id that is no
    /// date (a number rather than an optional: every user's are held until the cohort is known).
    let days: [Int64]
    /// Bucket by bucket, a value per measure; NaN for an unknown one.
    let values: [Double]

    /// From a chart computed in this run.
    public init(_ series: SeriesOutput) {
      self.init(measures: series.measures, ids: series.buckets.map(\.id)) { bucket, measure in
        series.buckets[bucket].values[measure]
      }
    }

    /// From each bucket's `id` (its local start date, `2025-11-24`) and `value(bucket, measure)`:
    /// a chart read back from its file. A bucket whose id is no date joins no row.
    public init(measures: [Measure], ids: [String], value: (Int, Measure) -> Double?) {
      self.measures = measures
      days = ids.map { LocalDay(text: $0)?.number ?? CohortRanks.noDay }
      var values: [Double] = []
      values.reserveCapacity(ids.count * measures.count)
      for bucket in ids.indices { for measure in measures { values.append(value(bucket, measure) ?? .nan) } }
      self.values = values
    }
  }

  /// The ranks of one gathered chart: `part`'s values sorted once, for every user's lookup and
  /// for the reduction's statistics (``Compare/reduce(_:chart:asOf:)``, which makes these).
  ///
  /// - Complexity: O(*v* log *v*) for the part's *v* values.
  init(_ part: Compare.SeriesPart, compare: Compare) {
    var sorted: [LocalDay: [[Double]]] = [:]
    for (row, values) in part.buckets {
      sorted[row] = part.measures.map { (values[$0] ?? []).sorted() }
    }
    self.sorted = sorted
    measures = part.measures
    granularity = part.granularity
    rowWeekday = compare.rowWeekday
  }

  /// The user's rank in each bucket per measure, parallel to the buckets; nil where the user's
  /// value is unknown or the row holds no known value.
  ///
  /// - Complexity: O(*b* × *m* × log *u*) for *b* buckets, *m* measures and *u* users in a row.
  public func ranks(of buckets: Buckets) -> [Measure: [Double?]] {
    let rows = buckets.days.map { row(of: $0).flatMap { sorted[$0] } }
    var ranks: [Measure: [Double?]] = [:]
    for (index, measure) in buckets.measures.enumerated() {
      let position = measures.firstIndex(of: measure)
      ranks[measure] = rows.indices.map { bucket in
        let value = buckets.values[bucket * buckets.measures.count + index]
        guard !value.isNaN, let position, let row = rows[bucket]?[position] else { return nil }
        return Self.percentileRank(value, in: row)
      }
    }
    return ranks
  }

  /// The `date` of the cohort row each bucket joins (``SeriesOutput/cohortRows``), parallel to
  /// the buckets: the same date, or for a week starting on another day the row week holding its
  /// start (``Compare/rowDay(_:granularity:rowWeekday:)``); nil where the cohort has no such row.
  /// Given to the app, so that overlaying a user's line on the cohort needs no calendar.
  ///
  /// - Complexity: O(*b*) for *b* buckets.
  public func rows(of buckets: Buckets) -> [String?] {
    buckets.days.map { day in
      guard let row = row(of: day), sorted[row] != nil else { return nil }
      return row.text
    }
  }

  /// Per measure of the part, in its order, the known values of `row` ascending; nil for a row
  /// that holds none.
  ///
  /// - Complexity: O(1).
  func ascendingValues(of row: LocalDay) -> [[Double]]? { sorted[row] }

  /// A bucket whose id is no date: it joins no row. Never a day's number (years ±25 quadrillion),
  /// and never moved back to a week's start, where it would overflow.
  static let noDay = Int64.min

  /// The row a bucket starting on day `day` joins; nil for ``noDay``.
  private func row(of day: Int64) -> LocalDay? {
    day == Self.noDay ? nil : LocalDay(Compare.rowDay(day, granularity: granularity, rowWeekday: rowWeekday))
  }

  /// 100 × (#below + ½ × #equal) ÷ *n* for `value` in the ascending `values`; nil when empty.
  ///
  /// - Complexity: O(log *n*).
  public static func percentileRank(_ value: Double, in values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    func firstIndex(where isAfter: (Double) -> Bool) -> Int {
      var low = 0
      var high = values.count
      while low < high {
        let middle = (low + high) / 2
        if isAfter(values[middle]) { high = middle } else { low = middle + 1 }
      }
      return low
    }
    let below = firstIndex { $0 >= value }
    let notAbove = firstIndex { $0 > value }
    return 100 * (Double(below) + Double(notAbove - below) / 2) / Double(values.count)
  }
}
