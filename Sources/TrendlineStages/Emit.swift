import Foundation
import TrendlineSchema

/// Turns a bucketed series into `trendline/series@2`: the chart geometry an app draws as given
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

  /// How much of `bucket`'s period had passed at `asOf`: ``Extent/elapsed(start:end:asOf:)``
  /// for the partial bucket, 1 for a complete one.
  ///
  /// - Complexity: O(1).
  public static func elapsed(_ bucket: BucketedSeries.Bucket, asOf: Int64) -> Double {
    bucket.partial ? Extent.elapsed(start: bucket.start, end: bucket.end, asOf: asOf) : 1
  }

  /// The output for `series` of `user`'s chart `chart`, instants in `calendar`'s zone, read-outs
  /// and axes in `units`, with the chart's `bands` (its `bands` stage).
  ///
  /// `domain` runs from the first bucket's start minus half *its* length to the last bucket's
  /// start plus half *its* length (months differ), and is nil without buckets. `average` is the
  /// mean of each measure over the *complete* buckets written that have it (SPEC 10.6: the
  /// period holding as-of is not evidence yet), unknown when none has; with `FillGaps` it
  /// counts empty periods and without it does not. `yAxis` covers everything drawn (values,
  /// trends, averages, the top band's label) with round ticks in `units`; `asOfBucket` is the
  /// index of the bucket holding as-of; each bucket's `id` is its local start date and its
  /// `label` the report's read-out.
  ///
  /// - Complexity: O(*n* × *m*), where *n* is the number of buckets and *m* of measures.
  public func apply(
    _ series: BucketedSeries, user: String, chart: String, calendar: UserCalendar, units: Units = .metric,
    bands: ValueBands? = nil
  ) -> SeriesOutput {
    var domain: Extent?
    if let first = series.buckets.first, let last = series.buckets.last {
      domain = Extent(
        start: Date(epochSeconds: first.start - Self.halfLength(first.end - first.start)),
        end: Date(epochSeconds: last.start + Self.halfLength(last.end - last.start)))
    }
    let dates = RFC3339.Formatter(timeZone: calendar.timeZone)
    let buckets = series.buckets.map { bucket in
      SeriesOutput.Bucket(
        id: dates.localDate(bucket.start),
        start: Date(epochSeconds: bucket.start), end: Date(epochSeconds: bucket.end), partial: bucket.partial,
        elapsed: Self.elapsed(bucket, asOf: series.asOf), sessions: bucket.sessions, values: bucket.values,
        trend: bucket.trend,
        bar: Extent.bar(start: bucket.start, end: bucket.end))
    }
    var average: MeasureValues = [:]
    for measure in series.measures {
      var sum = 0.0
      var count = 0
      for bucket in series.buckets where !bucket.partial {
        guard let value = bucket.values[measure] else { continue }
        sum += value
        count += 1
      }
      if count > 0 { average[measure] = sum / Double(count) }
    }
    var output = SeriesOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName, units: units,
      asOf: Date(epochSeconds: series.asOf),
      range: series.range, granularity: series.granularity, measures: series.measures,
      domain: domain, asOfBucket: series.buckets.firstIndex { $0.start <= series.asOf && series.asOf < $0.end },
      bands: bands, buckets: buckets, average: average)
    for measure in series.measures where measure.mark == .line {
      output.recordBuckets[measure] = Self.records(measure, of: series)
    }
    return output.withDerivedFields(zone: calendar.timeZone)
  }

  /// The indexes of `series`' buckets whose `measure` beats every earlier value, the best
  /// before the window included (SPEC 11.8). The first value ever is no record, and a value
  /// equal to the best is none either: a record is a new best.
  ///
  /// - Complexity: O(*b*) for *b* buckets.
  static func records(_ measure: Measure, of series: BucketedSeries) -> [Int] {
    var best = series.bestBefore[measure]
    var records: [Int] = []
    for (index, bucket) in series.buckets.enumerated() {
      guard let value = bucket.values[measure] else { continue }
      if let previous = best, value > previous { records.append(index) }
      best = max(best ?? value, value)
    }
    return records
  }
}
