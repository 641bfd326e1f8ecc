import Foundation
import TrendlineSchema
import TrendlineSupport

/// Personal records per exercise up to as-of (`trendline/records@1`): each exercise's best top
/// set, best estimated one-rep max and best reps at each weight, with the date each was set,
/// and every record in the order it was set (``RecordBook`` has the rules).
///
/// It takes no parameters: which exercises it covers is said by a `filter` before it, so
/// "records for the big three" is the same filter as their trend charts use.
public struct Records: Sendable, Equatable {
  public init() {}

  /// The records chart of `sessions` (sorted by start).
  ///
  /// - Complexity: that of ``RecordBook``, plus O(*e* log *e*) to order *e* exercises and
  ///   their weights.
  public func apply(
    _ sessions: [Session], calendar: UserCalendar, asOf: Int64, user: String, chart: String
  ) -> RecordsOutput {
    let book = RecordBook(sessions, through: asOf)
    func best(_ mark: RecordBook.Mark) -> RecordsOutput.Best {
      RecordsOutput.Best(
        value: mark.value, weightKg: mark.weightKg, reps: mark.reps, at: Date(epochSeconds: mark.start))
    }
    // Built once: `exercises` makes its dictionary on every read.
    let byName = book.exercises
    let exercises = byName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
      let entry = byName[name]!
      return RecordsOutput.Exercise(
        exercise: name, topSetKg: entry.topSet.map(best), e1rmKg: entry.e1rm.map(best),
        repsAtWeight: entry.repsAtWeight.keys.sorted(by: >).map { best(entry.repsAtWeight[$0]!) },
        records: entry.records.map {
          RecordsOutput.Record(
            kind: $0.kind, at: Date(epochSeconds: $0.mark.start), value: $0.mark.value, previous: $0.previous,
            weightKg: $0.mark.weightKg, reps: $0.mark.reps)
        })
    }
    return RecordsOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName, asOf: Date(epochSeconds: asOf), exercises: exercises)
  }
}

extension Records: SessionChartStage {
  public static let key = "records"
  public static let summary =
    "Personal records per exercise: best top set, e1RM and reps at each weight, and when each was set."
  public static let reads: [StageData] = [.sessions]
  public static let produces = StageData.chart

  /// `{}`: the stage has no parameters.
  ///
  /// - Complexity: O(1).
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Records? {
    context.reader.object(value, at: path, keys: []).map { _ in Records() }
  }

  public var settings: [String] { ["personal records per exercise"] }

  /// ``apply(_:calendar:asOf:user:chart:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:calendar:asOf:user:chart:)``.
  public func apply(_ sessions: [Session], in context: ChartContext) -> ChartOutput {
    ChartOutput(
      apply(sessions, calendar: context.calendar, asOf: context.asOf, user: context.user, chart: context.chart))
  }
}

/// What makes a records board: the stage registry reaches this stage through its kind (``StagedChartKind``).
extension RecordsOutput: StagedChartKind {
  public static var stage: any StageUnit.Type { Records.self }
}
