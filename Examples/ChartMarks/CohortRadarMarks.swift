import Foundation
import TrendlineSchema

/// A cohort radar as the marks an app draws: spokes at their angles, rings at round counts, the
/// median polygon and the middle half (25th and 75th percentiles) as dashed polygons, each
/// spoke with its read-out.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** Angles are
/// `axisAngles`, rings `rings.ticks[k]`, a vertex an axis's quantile from `counts`; placing
/// (angle, count) on the screen is the drawing's job, as for a user's radar (``RadarMarks``).
struct CohortRadarMarks: Sendable, Equatable {
  /// One spoke and what the cohort did on it.
  struct Spoke: Identifiable, Sendable, Equatable {
    var id: String
    var label: String
    var angle: Double
    /// `counts.p50`, or the mean without one: the median polygon's vertex.
    var median: Double
    /// `counts.p25` and `counts.p75`, when the pipeline asked for both: the dashed polygons.
    var middleHalf: ClosedRange<Double>?
    /// `readOut`, what a screen reader says at the spoke.
    var accessibilityLabel: String
  }

  var spokes: [Spoke]
  var rings: [YAxis.Tick]
  var radialDomain: ClosedRange<Double>
  /// The period is still running for some user: "so far".
  var partial: Bool

  /// The marks with `labelCount` rings; nil without rings for that count or with angles that do
  /// not match the axes.
  ///
  /// - Complexity: O(*a* × *q*) for *a* axes and *q* quantiles.
  init?(_ output: CohortRadarOutput, labelCount: Int) {
    let angles = output.axisAngles
    guard let rings = output.rings.ticks[labelCount], let bottom = rings.first, let top = rings.last,
      angles.count == output.axes.count
    else { return nil }
    spokes = zip(output.axes, angles).map { axis, angle in
      let low = axis.counts.quantile("p25")
      let high = axis.counts.quantile("p75")
      return Spoke(
        id: axis.id, label: axis.label, angle: angle, median: axis.counts.quantile("p50") ?? axis.counts.mean,
        middleHalf: low.flatMap { low in high.map { low...$0 } }, accessibilityLabel: axis.readOut)
    }
    self.rings = rings
    radialDomain = bottom.value...top.value
    partial = output.partial
  }
}
