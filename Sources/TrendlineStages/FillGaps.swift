import TrendlineSchema
import TrendlineSupport

/// Puts back every period of the window that had no sessions, as zeros (SPEC 5).
///
/// Without it an empty week silently disappears, the bars close ranks and the trend line
/// climbs straight over the gap: the chart lies about the user's inactivity. It fills the
/// *trailing* periods too, up to the one containing as-of, so a user who stopped months ago
/// gets a row of zeros instead of a chart that just ends early.
public struct FillGaps: Sendable, Equatable {
  /// What an empty period becomes. Only `zero` exists: interpolating sessions that did not
  /// happen would invent training.
  public enum Fill: String, Sendable, CaseIterable {
    case zero
  }

  public var with: Fill

  public init(with: Fill = .zero) {
    self.with = with
  }

  /// One bucket per period of `series.periods`: the existing buckets as they are, every other
  /// period with each total 0 and no best.
  ///
  /// A total the user's exports never record (``BucketedSeries/unrecorded``) stays unknown in
  /// the empty periods too. A filled bucket has no `trend`; `Smooth` runs after this stage,
  /// never before it.
  ///
  /// - Complexity: O(*p*), where *p* is the number of periods in the window.
  public func apply(_ series: BucketedSeries) -> BucketedSeries {
    guard let periods = series.periods else { return series }
    var zeros: MeasureValues = [:]
    // A best (`topSetKg`) of a period without sessions is unknown, not 0: it stays out.
    for measure in series.measures where !measure.isBest && !series.unrecorded.contains(measure) {
      zeros[measure] = 0
    }
    var filled: [BucketedSeries.Bucket] = []
    filled.reserveCapacity(periods.count)
    var existing = series.buckets.makeIterator()
    var next = existing.next()
    for index in 0..<periods.count {
      if let bucket = next, bucket.start == periods.start(index) {
        filled.append(bucket)
        next = existing.next()
      } else {
        filled.append(
          BucketedSeries.Bucket(
            start: periods.start(index), end: periods.end(index),
            partial: periods.isPartial(index, asOf: series.asOf),
            values: zeros))
      }
    }
    precondition(next == nil, "every bucket of a series starts at one of its periods")
    var result = series
    result.buckets = filled
    return result
  }
}

extension FillGaps: SeriesStage {
  public static let key = "fillGaps"
  public static let summary =
    "Puts back every period of the window that had no sessions: totals 0, bests unknown (SPEC 5)."
  public static let reads: [StageData] = [.buckets]
  public static let produces = StageData.buckets

  /// `{"with": "zero"}`, or `{}` for the default.
  ///
  /// - Complexity: O(1).
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> FillGaps? {
    guard let members = context.reader.object(value, at: path, keys: ["with"]) else { return nil }
    guard let value = members["with"] else { return FillGaps() }
    return context.reader.choice(value, at: path.appending("with"), what: "fill").map { FillGaps(with: $0) }
  }

  public var settings: [String] { ["with \(with.rawValue)"] }
}
