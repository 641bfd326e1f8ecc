import Foundation
import TrendlineSchema

/// The seed chart of one measure of a series output — bars or a line with its records, trend
/// line, average rule, "now", on the output's own x and y axes — as the marks a Swift Charts
/// `Chart` draws (README.md beside this file has that `Chart`).
///
/// **The rule: no arithmetic beyond reading fields.** Every date, number and string here is a
/// field of the decoded ``SeriesOutput``, copied as it is: nothing is added, subtracted,
/// multiplied, divided, rounded, converted to another unit, moved in a calendar or searched for
/// a largest value. The axis runs from the first of `ticks[k]` to the last, as ``YAxis`` states:
/// from 0 for a bar, fitted around the values for a line (SPEC 11.8). An unknown value (JSON
/// `null`) is left out, never drawn as 0. So this app draws the chart Trendline's SVG draws; if
/// it needed a number the output does not hold, that would be a gap in the schema to report,
/// not a formula to write here.
///
/// It deliberately chooses neither the measure nor the label count: a phone in portrait may
/// draw 3 labels and an iPad 7, and both come from the same file.
struct SeedChartMarks: Sendable, Equatable {
  /// One known value: a `BarMark` from `xStart` to `xEnd` when the mark is `bar`; a `PointMark`
  /// (joined by a `LineMark`) at `x` when it is `line`. `bucket.bar` is already centred on the
  /// bucket's start, 0.35 × its length each side, in the user's calendar (a week across a DST
  /// change is not 7 × 24 hours).
  struct Value: Identifiable, Sendable, Equatable {
    /// `bucket.id`, the local start date: stable across nights, so a chart animates new data.
    var id: String
    /// `bucket.start`, where a line's point goes.
    var x: Date
    var xStart: Date
    var xEnd: Date
    var y: Double
    /// The bucket holding as-of, still filling up: hatch it (a hollow point on a line), and
    /// `elapsed` says how much of the period had passed (0…1).
    var partial: Bool
    var elapsed: Double
    /// The bucket is in `recordBuckets[measure]`: a new best, ringed.
    var isRecord: Bool
    /// `bucket.label`, the read-out a screen reader says.
    var accessibilityLabel: String
  }

  /// One point of the trend line, at the bucket's start: the centre of its bar.
  struct TrendPoint: Identifiable, Sendable, Equatable {
    var id: String
    var x: Date
    var y: Double
  }

  /// The bucket holding as-of, where "now" is drawn.
  struct Now: Sendable, Equatable {
    /// `asOfBucket`, its index in `buckets`.
    var index: Int
    var id: String
    var x: Date
  }

  var measure: Measure
  var labelCount: Int
  /// `mark[measure]`: bars for "how much", a line for "which way".
  var mark: SeriesMark
  /// One per bucket with a known value, oldest first.
  var values: [Value]
  /// One per bucket with a known trend; empty without a `smooth` stage.
  var trend: [TrendPoint]
  /// `average[measure]`: nil when no complete bucket has a value, and then no rule is drawn.
  var average: Double?
  /// `domain`: nil when the output has no buckets.
  var xDomain: ClosedRange<Date>?
  var yDomain: ClosedRange<Double>
  /// `yAxis[measure].ticks[labelCount]`, lowest first: the values, in the JSON's units, and
  /// labels in the unit shown (a thin space U+2009 groups thousands: `1 500`).
  var ticks: [YAxis.Tick]
  /// What the labels count in (`kg`, `lb`, `min`, `sessions`): the axis title.
  var unit: String
  /// `xAxis.ticks[labelCount]`: the buckets labelled on the time axis and their labels, in the
  /// user's zone, for `AxisMarks(values:)` on x: fewer at a larger text size.
  var xTicks: [XAxis.Tick]
  var now: Now?

  /// The tick values, for `AxisMarks(values:)`.
  var tickValues: [Double] { ticks.map(\.value) }

  /// The marks of `measure` with `labelCount` tick labels (3, 4, 5 or 7: ``YAxis/labelCounts``);
  /// nil when the output has no axis or mark for that measure or no ticks for that count, since
  /// one made up here would break the rule.
  ///
  /// - Complexity: O(*b*), where *b* is the number of buckets.
  init?(_ output: SeriesOutput, measure: Measure, labelCount: Int) {
    guard let axis = output.yAxis[measure], let ticks = axis.ticks[labelCount], let bottom = ticks.first,
      let top = ticks.last, let mark = output.mark[measure]
    else { return nil }
    self.measure = measure
    self.labelCount = labelCount
    self.mark = mark
    let records = Set(output.recordBuckets[measure] ?? [])
    values = output.buckets.enumerated().compactMap { index, bucket in
      // Unknown is no mark: a 0 would claim "nothing", where the read-out says "unknown".
      guard let value = bucket.values[measure] else { return nil }
      return Value(
        id: bucket.id, x: bucket.start, xStart: bucket.bar.start, xEnd: bucket.bar.end, y: value,
        partial: bucket.partial, elapsed: bucket.elapsed, isRecord: records.contains(index),
        accessibilityLabel: bucket.label)
    }
    trend = output.buckets.compactMap { bucket in
      guard let value = bucket.trend?[measure] else { return nil }
      return TrendPoint(id: bucket.id, x: bucket.start, y: value)
    }
    average = output.average[measure]
    xDomain = output.domain.map { $0.start...$0.end }
    yDomain = bottom.value...top.value
    self.ticks = ticks
    unit = axis.unit
    xTicks = output.xAxis.ticks[labelCount] ?? []
    // Checked, not trusted: an index past the buckets would trap, and "no now" is a valid chart.
    now = output.asOfBucket.flatMap { index in
      output.buckets.indices.contains(index)
        ? Now(index: index, id: output.buckets[index].id, x: output.buckets[index].start) : nil
    }
  }
}
