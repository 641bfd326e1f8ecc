import Foundation
import TrendlineSchema

/// A heat map output as the marks an app draws: a cell per group and period shaded by its
/// `intensity`, the legend's top, the period a body figure shows first, and a read-out per
/// period.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** The shade is
/// `intensity` (0…1 of `largest`), the period shown is `shownPeriod`; the body's regions are the
/// app's own artwork, found by the group's `id` or `name`, as the report's figure finds them.
struct HeatmapMarks: Sendable, Equatable {
  /// One `RectangleMark` of the grid, or one region of a body figure.
  struct Cell: Identifiable, Sendable, Equatable {
    /// The period's id and the group's, `2026-11-23/4`: unique in the grid.
    var id: String
    var period: String
    var group: Int
    var name: String
    var sessions: Int
    var intensity: Double
  }

  struct Period: Identifiable, Sendable, Equatable {
    var id: String
    var partial: Bool
    var accessibilityLabel: String
  }

  var cells: [Cell]
  var periods: [Period]
  /// `largest`: the legend's top, where `intensity` is 1.
  var largest: Int
  /// `shownPeriod`: the period a body figure opens on; nil without periods.
  var shownPeriod: String?

  /// - Complexity: O(*p* × *g*) for *p* periods and *g* groups.
  init(_ output: HeatmapOutput) {
    cells = output.periods.flatMap { period in
      period.groups.map {
        Cell(
          id: period.id + "/" + String($0.id), period: period.id, group: $0.id, name: $0.name, sessions: $0.sessions,
          intensity: $0.intensity)
      }
    }
    periods = output.periods.map { Period(id: $0.id, partial: $0.partial, accessibilityLabel: $0.label) }
    largest = output.largest
    // Checked, not trusted: an index past the periods would trap.
    shownPeriod = output.shownPeriod.flatMap { output.periods.indices.contains($0) ? output.periods[$0].id : nil }
  }
}
