import Foundation
import TrendlineSchema

/// A streak output as the marks an app draws: a square per period, filled where the target was
/// met, dashed for the period under way that has not met it yet, and the summary read out.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** Which squares are
/// filled is `met`; the sentence under the strip is `label`.
struct StreakMarks: Sendable, Equatable {
  struct Square: Identifiable, Sendable, Equatable {
    var id: String
    var met: Bool
    /// Dashed, not a miss: the period is still under way.
    var partial: Bool
    var accessibilityLabel: String
  }

  var squares: [Square]
  var current: Int
  var longest: Int
  var accessibilityLabel: String

  /// - Complexity: O(*p*) for *p* periods.
  init(_ output: StreakOutput) {
    squares = output.periods.map { Square(id: $0.id, met: $0.met, partial: $0.partial, accessibilityLabel: $0.label) }
    current = output.current.length
    longest = output.longest.length
    accessibilityLabel = output.label
  }
}
