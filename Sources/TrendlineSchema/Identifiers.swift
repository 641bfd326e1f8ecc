import Foundation

// Every list an app iterates has elements with a stable identity, so a SwiftUI `ForEach` or a
// chart animates a new night's data instead of redrawing everything. Periods and buckets write
// an `id` (their local start date); the other elements are identified by a key they already
// hold, unique within their list, named here once (see `Guides/AppGeometry.md`). A sparkline's
// points are not marks of their own but one line, drawn in order: two sessions may start at
// the same instant, so no key of a point is unique.

extension SeriesOutput.Bucket: Identifiable {}
extension RadarOutput.Period: Identifiable {}
extension HeatmapOutput.Period: Identifiable {}
extension StreakOutput.Period: Identifiable {}

/// Spokes: the pipeline's axis id.
extension RadarOutput.Axis: Identifiable {}
extension CohortRadarOutput.Axis: Identifiable {}
/// Muscle groups: the catalog's id.
extension HeatmapOutput.Group: Identifiable {}

extension RadarOutput.UnmappedExercise: Identifiable {
  /// The exercise's name, listed once.
  public var id: String { name }
}

extension SparklinesOutput.Line: Identifiable {
  /// The exercise, one line each.
  public var id: String { exercise }
}

extension RecordsOutput.Exercise: Identifiable {
  /// The exercise, listed once.
  public var id: String { exercise }
}

extension RecordsOutput.Best: Identifiable {
  /// In `repsAtWeight`, one best per weight.
  public var id: Double { weightKg }
}

extension RecordsOutput.Record: Identifiable {
  /// Kind, instant and weight: one set sets at most one record of a kind.
  public var id: String { "\(kind.rawValue)@\(at.epochSeconds)@\(weightKg)" }
}

extension CohortSeriesOutput.Bucket: Identifiable {
  /// The row's local start date.
  public var id: String { date }
}

extension CohortSeriesOutput.Ranking.Entry: Identifiable {
  /// The user, ranked once.
  public var id: String { user }
}
