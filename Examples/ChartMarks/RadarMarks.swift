import Foundation
import TrendlineSchema

/// A radar output as the marks an app draws: spokes at their angles, rings at round counts for
/// the label count the screen has room for, and a polygon per period with its read-out.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** Angles are
/// `axisAngles` (degrees clockwise from the top), rings `rings.ticks[k]`, a vertex is a period's
/// count on the radial scale 0 … the last ring. Turning (angle, count) into a point on the
/// screen is the drawing's job, as a Swift Charts scale's is; Swift Charts has no polar chart,
/// so a radar is a `Path` (README.md beside this file).
struct RadarMarks: Sendable, Equatable {
  /// One spoke: `axes[i]` at `axisAngles[i]`.
  struct Spoke: Identifiable, Sendable, Equatable {
    var id: String
    var label: String
    var angle: Double
  }

  /// One period's polygon: its counts in spoke order, on the shared rings.
  struct Polygon: Identifiable, Sendable, Equatable {
    var id: String
    var counts: [Int]
    /// Dashed: the period under way.
    var partial: Bool
    var accessibilityLabel: String
  }

  var spokes: [Spoke]
  /// `rings.ticks[labelCount]`: a ring per tick, labelled as written.
  var rings: [YAxis.Tick]
  /// 0 … the last ring: the radial scale.
  var radialDomain: ClosedRange<Double>
  var polygons: [Polygon]

  /// The marks with `labelCount` rings (``YAxis/labelCounts``); nil when the output has no rings
  /// for that count or its angles do not match its axes.
  ///
  /// - Complexity: O(*p* × *a*) for *p* periods and *a* axes.
  init?(_ output: RadarOutput, labelCount: Int) {
    guard let rings = output.rings.ticks[labelCount], let bottom = rings.first, let top = rings.last,
      output.axisAngles.count == output.axes.count
    else { return nil }
    spokes = zip(output.axes, output.axisAngles).map { Spoke(id: $0.id, label: $0.label, angle: $1) }
    self.rings = rings
    radialDomain = bottom.value...top.value
    polygons = output.periods.map {
      Polygon(id: $0.id, counts: $0.counts, partial: $0.partial, accessibilityLabel: $0.label)
    }
  }
}
