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
  /// Row key → measure → every known value of the row, ascending.
  private let sorted: [String: [Measure: [Double]]]
  private let granularity: Granularity
  private let rowWeekday: Weekday

  /// The ranks of one gathered chart: `part`'s values sorted once, for every user's lookup.
  ///
  /// - Complexity: O(*v* log *v*) for the part's *v* values.
  public init(_ part: Compare.SeriesPart, compare: Compare) {
    sorted = part.buckets.mapValues { measures in measures.mapValues { $0.sorted() } }
    granularity = part.granularity
    rowWeekday = compare.rowWeekday
  }

  /// `series`' rank in each bucket, per measure of the part, parallel to `series.buckets`; nil
  /// where the user's value is unknown or the row holds no known value.
  ///
  /// - Complexity: O(*b* × *m* × log *u*) for *b* buckets, *m* measures and *u* users in a row.
  public func ranks(of series: SeriesOutput) -> [Measure: [Double?]] {
    var values: [Measure: [Double?]] = [:]
    for measure in series.measures { values[measure] = series.buckets.map { $0.values[measure] } }
    return ranks(ids: series.buckets.map(\.id), values: values, measures: series.measures)
  }

  /// The same from a chart's bucket ids (their local start dates) and each measure's values,
  /// as ``CohortStamp`` reads them from a written file without decoding it whole.
  public func ranks(ids: [String], values: [Measure: [Double?]], measures: [Measure]) -> [Measure: [Double?]] {
    let keys = ids.map { Compare.dateKey(localDate: $0, granularity: granularity, rowWeekday: rowWeekday) }
    var ranks: [Measure: [Double?]] = [:]
    for measure in measures {
      let known = values[measure] ?? []
      ranks[measure] = keys.indices.map { index in
        guard index < known.count, let value = known[index], let key = keys[index],
          let row = sorted[key]?[measure]
        else { return nil }
        return Self.percentileRank(value, in: row)
      }
    }
    return ranks
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
