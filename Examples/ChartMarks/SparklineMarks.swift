import Foundation
import TrendlineSchema

/// A sparklines output as the marks an app draws: per exercise a small line on the window's
/// time axis and its own y domain, the latest value beside it, or "no load recorded" in words.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** The x domain is the
/// output's `domain` (every line shares it, so a line that stops early shows it), the y domain
/// the line's `yDomain`, the number beside it `latestLabel` in the user's units.
struct SparklineMarks: Sendable, Equatable {
  struct Point: Identifiable, Sendable, Equatable {
    var id: Date { x }
    var x: Date
    var y: Double
  }

  struct Line: Identifiable, Sendable, Equatable {
    var id: String { exercise }
    var exercise: String
    /// Empty when `noLoad`: the line is said, not drawn.
    var points: [Point]
    var noLoad: Bool
    /// nil when `noLoad`.
    var yDomain: ClosedRange<Double>?
    var latestLabel: String?
    var accessibilityLabel: String
  }

  var xDomain: ClosedRange<Date>
  var lines: [Line]

  /// - Complexity: O(*p*) for *p* points.
  init(_ output: SparklinesOutput) {
    xDomain = output.domain.start...output.domain.end
    lines = output.lines.map { line in
      Line(
        exercise: line.exercise, points: line.noLoad ? [] : line.points.map { Point(x: $0.t, y: $0.v) },
        noLoad: line.noLoad, yDomain: line.yDomain.map { $0.min...$0.max }, latestLabel: line.latestLabel,
        accessibilityLabel: line.label)
    }
  }
}
