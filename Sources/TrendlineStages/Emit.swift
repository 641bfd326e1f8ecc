import Foundation
import TrendlineSchema

/// Turns a bucketed series into `trendline/series@1`: the chart geometry an app draws as given
/// (SPEC 5 and 9.9).
///
/// Bars are centred on the bucket start and the domain is padded by half a bucket at each end,
/// so the first and last bars are not clipped by the plot area. All geometry is integer
/// seconds with halves rounded up; nothing is computed in floating point and truncated, which
/// would shift a bar by a second depending on the platform.
public struct Emit: Sendable, Equatable {
  public init() {}

  /// `round(length / 2)`, halves up, in whole seconds.
  ///
  /// - Complexity: O(1).
  public static func halfLength(_ length: Int64) -> Int64 { (length + 1) / 2 }

  /// `round(0.35 × length)`, halves up, in whole seconds: (35 × length + 50) / 100.
  ///
  /// - Complexity: O(1).
  public static func barHalfWidth(_ length: Int64) -> Int64 { (35 * length + 50) / 100 }

  /// The output for `series` of `user`'s chart `chart`, instants in `calendar`'s zone.
  ///
  /// `domain` runs from the first bucket's start minus half *its* length to the last bucket's
  /// start plus half *its* length (months differ), and is nil without buckets. `average` is the
  /// mean of each measure over the buckets written that have it (0 without buckets; a best
  /// no bucket has is left out), so with `FillGaps` it counts empty periods and without it does not.
  ///
  /// - Complexity: O(*n* × *m*), where *n* is the number of buckets and *m* of measures.
  public func apply(_ series: BucketedSeries, user: String, chart: String, calendar: UserCalendar)
    -> SeriesOutput
  {
    var domain: Extent?
    if let first = series.buckets.first, let last = series.buckets.last {
      domain = Extent(
        start: Date(epochSeconds: first.start - Self.halfLength(first.end - first.start)),
        end: Date(epochSeconds: last.start + Self.halfLength(last.end - last.start)))
    }
    let buckets = series.buckets.map { bucket in
      let half = Self.barHalfWidth(bucket.end - bucket.start)
      return SeriesOutput.Bucket(
        start: Date(epochSeconds: bucket.start), end: Date(epochSeconds: bucket.end),
        partial: bucket.partial, values: bucket.values, trend: bucket.trend,
        bar: Extent(
          start: Date(epochSeconds: bucket.start - half),
          end: Date(epochSeconds: bucket.start + half)))
    }
    var average: [Measure: Double] = [:]
    for measure in series.measures {
      var sum = 0.0
      var count = 0
      for bucket in series.buckets {
        guard let value = bucket.values[measure] else { continue }
        sum += value
        count += 1
      }
      // A best no bucket has is left out; a total over no buckets is 0.
      if count > 0 {
        average[measure] = sum / Double(count)
      } else if !measure.isBest {
        average[measure] = 0
      }
    }
    return SeriesOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName,
      asOf: Date(epochSeconds: series.asOf),
      range: series.range, granularity: series.granularity, measures: series.measures,
      domain: domain,
      buckets: buckets, average: average)
  }
}
