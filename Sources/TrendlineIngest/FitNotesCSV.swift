import Foundation
import TrendlineSchema
import TrendlineSupport

/// FitNotes' CSV export (EXPORT-FORMATS §3): one set per row, dates without a time of day,
/// so a workout is a calendar day starting at local midnight, with no name and no recorded
/// length. The weight unit is in the header (`Weight (lbs)`, `Weight (kgs)`) or in a per-row
/// `Weight Unit` column (`kgs`, `lbs`); the distance unit is per row, and ignored on a row
/// without a distance.
///
/// FitNotes never quotes exercise names, so a name with a comma
/// (`Overhead Press (Each Side, Dumbbells)`) splits into extra fields. When the extra fields
/// can only belong to the name — everything after it then reads as the header says — the row
/// is repaired and counted in `rows.repaired`; any other over-long row is rejected (SPEC 2).
/// There is no set number, so no row is ever a duplicate of another (SPEC 9.3).
enum FitNotesCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    try readCSVExport(file: file, bytes: bytes, format: .fitNotesCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings)
    }
  }

  final class Parser: CSVRowParser {
    let columnCount: Int
    let date: Int
    let exercise: Int
    let weight: Int?
    let headerWeightUnit: WeightUnit?
    let weightUnitColumn: Int?
    let reps: Int?
    let distance: Int?
    let distanceUnitColumn: Int?
    let time: Int?
    let category: Int?
    let comment: Int?
    let settings: ReadSettings
    let fields: FieldDecoder

    init(header: CSVHeader, file: String, settings: ReadSettings) throws(ExportError) {
      columnCount = header.names.count
      date = try header.require(file, format: "FitNotes", "Date")
      exercise = try header.require(file, format: "FitNotes", "Exercise")
      if let index = header.index("Weight (lbs)", "Weight (lb)") {
        (weight, headerWeightUnit) = (index, .pounds)
      } else if let index = header.index("Weight (kgs)", "Weight (kg)") {
        (weight, headerWeightUnit) = (index, .kilograms)
      } else {
        let looked = ["Weight", "Weight (kgs)", "Weight (kg)", "Weight (lbs)", "Weight (lb)"]
        (weight, headerWeightUnit) = (try header.require(file, format: "FitNotes", looked), nil)
      }
      weightUnitColumn = header.index("Weight Unit")
      reps = try header.require(file, format: "FitNotes", "Reps")
      distance = header.index("Distance")
      distanceUnitColumn = header.index("Distance Unit")
      time = header.index("Time")
      category = header.index("Category")
      comment = header.index("Comment", "Notes")
      self.settings = settings
      fields = FieldDecoder(timeZone: settings.timeZone)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      try parse(reader, line: line, shift: 0, into: &set)
    }

    /// Reads a row with `shift` extra fields, all taken to be commas in the exercise name.
    /// The repair stands only if every field after the name then reads as its column says,
    /// the shifted `Category` is a word (not empty, not a number), and a `Comment` column, which
    /// FitNotes always quotes, was quoted — else the extra comma may sit elsewhere and the row
    /// is rejected rather than guessed at.
    func repair(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem)
      -> (outcome: RowOutcome, repair: String)?
    {
      let shift = reader.fieldCount - columnCount
      guard shift > 0 else { return nil }
      if let category {
        let text = reader.string(category + shift).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, Double(text) == nil else { return nil }
      }
      if let comment {
        let field = reader.fields[comment + shift]
        let quoted = field.start > 0 && reader.bytes[field.start - 1] == ASCII.quote
        guard quoted else { return nil }
      }
      do throws(FieldProblem) {
        let repair =
          "unquoted comma in the exercise name: \(reader.fieldCount) fields under \(columnCount) columns, "
          + "the extra \(shift == 1 ? "one fits" : "ones fit") only the name"
        return (try parse(reader, line: line, shift: shift, into: &set), repair)
      } catch {
        return nil
      }
    }

    private func parse(_ reader: CSVReader, line: Int, shift: Int, into set: inout ExportSet) throws(FieldProblem)
      -> RowOutcome
    {
      // Columns after the exercise move right by `shift`.
      func at(_ column: Int) -> Int { column > exercise ? column + shift : column }

      let start = try fields.instant(reader, at(date))
      var exerciseName = try fields.text(reader, exercise)
      if shift > 0 {
        exerciseName = normalizedName(
          (exercise...(exercise + shift)).map { reader.string($0) }.joined(separator: ","))
        if let problem = NameLimit.problem(exerciseName) { throw FieldProblem(index: exercise, reason: problem) }
      }
      guard !exerciseName.isEmpty else {
        throw FieldProblem(index: exercise, reason: "the exercise name is empty")
      }
      let rowWeight = headerWeightUnit == nil ? try fields.weightUnit(reader, weightUnitColumn.map(at)) : nil
      let (weightKg, assistance) = try fields.loadKg(
        reader, weight.map(at), unit: headerWeightUnit ?? rowWeight ?? settings.weightUnit, exercise: exerciseName)
      let repCount = try fields.reps(reader, reps.map(at))
      // A unit on an empty or zero distance means nothing (FitNotes writes `0.0,kg` on a side
      // plank: EXPORT-FORMATS §9.5), so it is read only when there is a distance to measure.
      let rawMeters = try fields.meters(reader, distance.map(at), unit: .meters)
      let rowDistance = rawMeters == 0 ? nil : try fields.distanceUnit(reader, distanceUnitColumn.map(at))
      let meters = rawMeters == 0 ? 0 : (rowDistance ?? settings.distanceUnit).meters(rawMeters)
      if let column = distance.map(at) {
        try SetLimits.checkDistance(meters, index: column, text: reader.string(column))
      }
      let seconds = try fields.seconds(reader, time.map(at))
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: ""), sessionName: "",
        start: start, durationSeconds: nil, exercise: exerciseName, setIndex: nil,
        type: .normal, weightKg: weightKg, reps: repCount, distanceMeters: meters,
        seconds: seconds, stated: StatedUnits(weight: headerWeightUnit ?? rowWeight, distance: rowDistance))
      return .set(repaired: assistance)
    }
  }
}
