import Foundation
import TrendlineSchema

/// A records output as what an app lists and plots: a row per exercise with its read-out, and
/// every record as a `PointMark` at when it was set, with its sentence.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** Text is the
/// output's `label`s, in the user's units; a record's x is its `at`, its y its `value` (kg, or
/// reps for a reps-at-weight record: plot those apart).
struct RecordsMarks: Sendable, Equatable {
  struct Row: Identifiable, Sendable, Equatable {
    var id: String { exercise }
    var exercise: String
    var accessibilityLabel: String
    var records: [Record]
  }

  struct Record: Identifiable, Sendable, Equatable {
    var id: String
    var kind: RecordsOutput.Record.Kind
    var x: Date
    var y: Double
    var accessibilityLabel: String
  }

  var rows: [Row]

  /// - Complexity: O(*r*) for *r* records.
  init(_ output: RecordsOutput) {
    rows = output.exercises.map { exercise in
      Row(
        exercise: exercise.exercise, accessibilityLabel: exercise.label,
        records: exercise.records.map {
          Record(id: $0.id, kind: $0.kind, x: $0.at, y: $0.value, accessibilityLabel: $0.label)
        })
    }
  }
}
