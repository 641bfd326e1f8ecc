import Foundation
import TrendlineSchema
import TrendlineSupport

/// StrongLifts 5×5's spreadsheet export (EXPORT-FORMATS §9.6): one row per workout, its
/// exercises side by side in blocks of the same columns, the names repeating —
///
///     Date,Note,Body Weight (KG),Body Weight (LB),Exercise 1,Weight (KG),Weight (LB),Set 1,…,Set 5,Exercise 2,…
///     19/11/18,,91,,Squat,40,,5,5,5,5,5,Overhead Press,30,,5,5,5,5,5,Deadlift,40,,,,,,,,,,,,,
///
/// A row is one session on its date, at local midnight (the export has no time of day and no
/// duration); each filled `Set N` cell is a set of that many reps at the block's weight, and
/// an empty cell is a set not done. Rows leave off their empty trailing blocks, so a row may
/// be shorter than the header. Dates are `dd/mm/yy` or `mm/dd/yy` as the phone's region
/// writes them, read in one order for the whole file (``DateOrder``). An older layout adds a
/// `Workout` column (`A`/`B`), which names the session. Body weight is not a set and is not
/// read.
///
/// Where both weight columns are filled (each rounded on its own: 60 kg beside 135 lb), the
/// one in the user's weight unit is read, being the one they loaded the bar by.
enum StrongLiftsCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    let order = try DateOrderEvidence.order(
      of: file, bytes: bytes, format: "StrongLifts", dateColumn: "Date", settings: settings, limits: limits)
    return try readCSVExport(file: file, bytes: bytes, format: .strongLiftsCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings, order: order)
    }
  }

  /// Whether a header names StrongLifts' columns.
  static func isHeader(_ has: (String) -> Bool) -> Bool {
    has("Exercise 1") && has("Set 1") && (has("Weight (KG)") || has("Weight (LB)"))
  }

  /// One exercise block's columns.
  struct Block {
    var exercise: Int
    var weightKG: Int?
    var weightLB: Int?
    /// The `Set N` columns, in order.
    var sets: [Int]
  }

  final class Parser: CSVRowParser {
    let date: Int
    let workout: Int?
    let blocks: [Block]
    let columnCount: Int
    let order: DateOrder
    let settings: ReadSettings
    let fields: FieldDecoder

    var readsAnyFieldCount: Bool { true }

    init(header: CSVHeader, file: String, settings: ReadSettings, order: DateOrder) throws(ExportError) {
      date = try header.require(file, format: "StrongLifts", "Date")
      workout = header.index("Workout")
      var blocks: [Block] = []
      for (index, name) in header.names.enumerated() {
        if name.hasPrefix("Exercise "), Int(name.dropFirst("Exercise ".count)) != nil {
          blocks.append(Block(exercise: index, sets: []))
        } else if !blocks.isEmpty {
          switch name {
          case "Weight (KG)": blocks[blocks.count - 1].weightKG = index
          case "Weight (LB)": blocks[blocks.count - 1].weightLB = index
          case _ where name.hasPrefix("Set "): blocks[blocks.count - 1].sets.append(index)
          default: break
          }
        }
      }
      // Every block carries a weight and its sets; one without them would read as nothing.
      for block in blocks where (block.weightKG == nil && block.weightLB == nil) || block.sets.isEmpty {
        let what = block.sets.isEmpty ? "Set 1" : "Weight (KG)"
        throw header.missing(
          file, format: "StrongLifts", column: what, looked: [what],
          hint: "each 'Exercise N' column is followed by 'Weight (KG)', 'Weight (LB)' and 'Set 1'…'Set 5'")
      }
      self.blocks = blocks
      columnCount = header.names.count
      self.order = order
      self.settings = settings
      fields = FieldDecoder(timeZone: settings.timeZone)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      // A longer row holds values under no column: which block they belong to is a guess.
      if reader.fieldCount > columnCount,
        let extra = (columnCount..<reader.fieldCount).first(where: { !reader.isEmpty($0) })
      {
        throw FieldProblem(
          index: extra,
          reason: "a value past the header's \(columnCount) columns; which exercise it belongs to is unknown")
      }
      func has(_ index: Int?) -> Bool { index.map { $0 < reader.fieldCount && !reader.isEmpty($0) } ?? false }

      guard date < reader.fieldCount else {
        throw FieldProblem(index: reader.fieldCount - 1, reason: "the row has no date")
      }
      guard let written = SlashDate.parse(reader.field(date)), let civil = written.civil(order) else {
        let shape = order == .dayFirst ? "dd/mm/yy" : "mm/dd/yy"
        throw FieldProblem(
          index: date, reason: "'\(reader.string(date))' is not a date in the file's \(order.rawValue) order (\(shape))"
        )
      }
      let parsed = ParsedTimestamp(civil: civil, hasTime: false)
      let start = try fields.checkedInstant(parsed, reader, date)
      let name = has(workout) ? "Workout " + (try fields.text(reader, workout!)) : ""
      let key = fields.sessionKey(start: start, name: name)

      var sets: [ExportSet] = []
      for block in blocks where has(block.exercise) {
        let exercise = try fields.text(reader, block.exercise)
        guard !exercise.isEmpty else { throw FieldProblem(index: block.exercise, reason: "the exercise name is empty") }
        let weightKg: Double
        let preferPounds = settings.weightUnit == .pounds && has(block.weightLB)
        if has(block.weightKG) && !preferPounds {
          weightKg = try fields.weightKg(reader, block.weightKG, unit: .kilograms)
        } else if has(block.weightLB) {
          weightKg = try fields.weightKg(reader, block.weightLB, unit: .pounds)
        } else {
          weightKg = 0
        }
        // One weight column filled states the unit the bar was loaded in; both filled state
        // nothing, the app having converted one of them.
        var stated = StatedUnits()
        switch (has(block.weightKG), has(block.weightLB)) {
        case (true, false): stated.weight = .kilograms
        case (false, true): stated.weight = .pounds
        default: break
        }
        for (number, column) in block.sets.enumerated() where has(column) {
          sets.append(
            ExportSet(
              line: line, sessionKey: key, sessionName: name, start: start, durationSeconds: nil, exercise: exercise,
              setIndex: number + 1, type: .normal, weightKg: weightKg, reps: try fields.reps(reader, column),
              stated: stated))
        }
      }
      return sets.isEmpty ? .ignored("StrongLifts workout with no set") : .sets(sets)
    }
  }
}
