import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

extension ParseCommand {
  /// `parse --format export`: the file read as `run` reads it — the format found, the counts,
  /// and every row in line order with its outcome; an accepted row also shows the set read and
  /// the muscle groups the built-in catalog gives it (null: unmapped, so no radar counts it).
  ///
  ///     {"file": "strong.csv", "format": "strong-csv", "rowsRead": 3, …, "rows": [
  ///       {"line": 2, "outcome": "accepted", "start": "2020-12-30T16:51:52Z", "session": "Evening Workout",
  ///        "exercise": "Snatch (Barbell)", "type": "normal", "weightKg": 40, "reps": 3, "setIndex": 1,
  ///        "muscleGroupIds": [27, 14, 8], …},
  ///       {"line": 3, "outcome": "rejected", "column": 52, "field": "Reps", "reason": "reps '-5' is negative"}]}
  ///
  /// - Throws: `Diagnostic` when the file cannot be read as an export at all.
  /// - Complexity: O(*n* log *n*) in the number of rows.
  static func renderExport(
    _ data: Data, file: String, format: ExportReader.FormatChoice, settings: ReadSettings
  ) throws -> [UInt8] {
    let name = URL(fileURLWithPath: file).lastPathComponent
    let ingest: FileIngest
    do throws(ExportError) {
      ingest = try ExportReader.read(file: name, bytes: [UInt8](data), format: format, settings: settings)
    } catch {
      throw Diagnostic(at: SourceLocation(file: file, line: error.line, column: error.column), error.message)
    }
    func number(_ value: Double) -> JSONValue { .number(NumberText.text(value)) }
    func int(_ value: Int) -> JSONValue { .number(String(value)) }

    // Accepted sets and noted rows, merged by line (a StrongLifts row holds several sets; a
    // repaired or value-dropped row appears as its set followed by its note).
    let lookup = ExerciseLookup(catalog: .builtIn)
    var rows: [(line: Int, order: Int, value: JSONValue)] = []
    for (order, set) in ingest.sets.enumerated() {
      var members: [(key: String, value: JSONValue)] = [
        ("line", int(set.line)), ("outcome", .string("accepted")),
        ("start", .string(RFC3339.format(seconds: set.start, timeZone: settings.timeZone))),
        ("session", .string(set.sessionName)), ("exercise", .string(set.exercise)),
        ("type", .string(set.type.rawValue)), ("weightKg", number(set.weightKg)), ("reps", number(set.reps)),
      ]
      if let index = set.setIndex { members.append(("setIndex", int(index))) }
      // What a radar would count it as, by the set's own groups or the built-in catalog.
      let groups =
        set.muscleGroupIds ?? lookup.find(set.exercise)?.muscleGroupIds
        ?? set.muscleNames.flatMap { lookup.muscleGroupIds(named: $0) }
      members.append(("muscleGroupIds", groups.map { .array($0.map(int)) } ?? .null))
      if set.distanceMeters != 0 { members.append(("distanceMeters", number(set.distanceMeters))) }
      if set.seconds != 0 { members.append(("seconds", number(set.seconds))) }
      members.append(("durationSeconds", set.durationSeconds.map { int(Int($0)) } ?? .null))
      rows.append((set.line, order, .object(members)))
    }
    for (order, note) in ingest.notes.enumerated() {
      rows.append(
        (
          note.line, ingest.sets.count + order,
          .object([
            ("line", int(note.line)), ("outcome", .string(note.outcome.rawValue)), ("column", int(note.column)),
            ("field", .string(note.field)), ("reason", .string(note.reason)),
          ])
        ))
    }
    rows.sort { $0.line != $1.line ? $0.line < $1.line : $0.order < $1.order }

    let document: JSONValue = .object([
      ("file", .string(name)), ("format", .string(ingest.format.rawValue)), ("rowsRead", int(ingest.rows.read)),
      ("rowsAccepted", int(ingest.rows.accepted)), ("rowsRejected", int(ingest.rows.rejected)),
      ("rowsDuplicate", int(ingest.rows.duplicate)), ("rowsIgnored", int(ingest.rows.ignored)),
      ("rowsRepaired", int(ingest.rows.repaired)), ("rowsValueDropped", int(ingest.rows.valueDropped)),
      ("sessions", int(Set(ingest.sets.map(\.sessionKey)).count)),
      ("rows", .array(rows.map(\.value))),
    ])
    return document.serialized(indented: true)
  }
}
