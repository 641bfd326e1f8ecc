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
    let zone = TimeZone(identifier: series.timeZone) ?? TimeZone(identifier: "UTC")!
    let keys = series.buckets.map {
      Compare.dateKey($0.start, zone: zone, granularity: granularity, rowWeekday: rowWeekday)
    }
    var ranks: [Measure: [Double?]] = [:]
    for measure in series.measures {
      ranks[measure] = zip(series.buckets, keys).map { bucket, key in
        guard let value = bucket.values[measure], let values = sorted[key]?[measure] else { return nil }
        return Self.percentileRank(value, in: values)
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
