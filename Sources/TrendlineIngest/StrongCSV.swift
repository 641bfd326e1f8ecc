import Foundation
import TrendlineSchema
import TrendlineSupport

/// Strong's CSV export, every header variant (EXPORT-FORMATS §1): `,` or `;`, quoted or not,
/// the duration as text (`2h 38m`), in seconds (`Duration (sec)`), last (`Workout Duration`)
/// or absent; the weight unit absent, per row (`Weight Unit`) or in the header
/// (`Weight (kg)`). Columns are found by name, never by position.
///
/// `Set Order` holds the set number, or `W`/`D`/`F` for warm-up, drop and failure sets;
/// `Note` and `Rest Timer` rows are not sets and are counted as ignored. A row with every
/// value empty (Strong writes such placeholders) is a set of 0 × 0, as SPEC 9.5 reads empty
/// values: it adds to the set count and nothing to volume.
enum StrongCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    try readCSVExport(file: file, bytes: bytes, format: .strongCSV, limits: limits) {
      (header) throws(ExportError) -> any CSVRowParser in
      try Parser(header: header, file: file, settings: settings)
    }
  }

  /// What a `Set Order` cell says.
  enum SetOrder: Equatable {
    case number(Int), warmup, dropset, failure, note, restTimer, invalid
  }

  /// Reads a `Set Order` cell (surrounding spaces allowed) without making a `String`.
  static func setOrder(_ bytes: UnsafeBufferPointer<UInt8>) -> SetOrder {
    var start = 0
    var end = bytes.count
    while start < end && bytes[start] == ASCII.space { start += 1 }
    while end > start && bytes[end - 1] == ASCII.space { end -= 1 }
    let count = end - start
    guard count > 0 else { return .invalid }
    if count == 1 {
      switch bytes[start] {
      case UInt8(ascii: "W"): return .warmup
      case UInt8(ascii: "D"): return .dropset
      case UInt8(ascii: "F"): return .failure
      default: break
      }
    }
    if count <= 9, (start..<end).allSatisfy({ bytes[$0] >= ASCII.zero && bytes[$0] <= ASCII.nine }) {
      return .number((start..<end).reduce(0) { $0 * 10 + Int(bytes[$1] - ASCII.zero) })
    }
    let cell = UnsafeBufferPointer(rebasing: bytes[start..<end])
    if cell.elementsEqual("Note".utf8) { return .note }
    if cell.elementsEqual("Rest Timer".utf8) { return .restTimer }
    return .invalid
  }

  final class Parser: CSVRowParser {
    let date: Int
    let workoutName: Int
    let exercise: Int
    let setOrder: Int
    let duration: Int?
    let weight: Int?
    let weightUnitColumn: Int?
    let reps: Int?
    let distance: Int?
    let distanceUnitColumn: Int?
    let seconds: Int?
    /// The unit the header states (`Weight (kg)`), else the user's.
    let headerWeightUnit: WeightUnit?
    let headerDistanceUnit: DistanceUnit?
    let settings: ReadSettings
    let fields: FieldDecoder

    init(header: CSVHeader, file: String, settings: ReadSettings) throws(ExportError) {
      // German names are Strong's own localized headers (EXPORT-FORMATS §1.1).
      date = try header.require(file, "Date", "Datum")
      workoutName = try header.require(file, "Workout Name", "Workout-Name")
      exercise = try header.require(file, "Exercise Name", "Name der Übung")
      setOrder = try header.require(file, "Set Order", "Reihenfolge festlegen")
      duration = header.index(
        "Duration", "Duration (sec)", "Workout Duration", "Dauer", "Workout-Dauer")
      reps = header.index("Reps", "Wiederh.")
      seconds = header.index("Seconds", "Sekunden")
      weightUnitColumn = header.index("Weight Unit")
      distanceUnitColumn = header.index("Distance Unit")
      if let index = header.index("Weight (kg)") {
        (weight, headerWeightUnit) = (index, .kilograms)
      } else if let index = header.index("Weight (lbs)", "Weight (lb)") {
        (weight, headerWeightUnit) = (index, .pounds)
      } else {
        (weight, headerWeightUnit) = (header.index("Weight", "Gewicht"), nil)
      }
      if let index = header.index("Distance (meters)", "Distance (m)") {
        (distance, headerDistanceUnit) = (index, .meters)
      } else if let index = header.index("Distance (km)") {
        (distance, headerDistanceUnit) = (index, .kilometers)
      } else if let index = header.index("Distance (miles)", "Distance (mi)") {
        (distance, headerDistanceUnit) = (index, .miles)
      } else {
        (distance, headerDistanceUnit) = (header.index("Distance", "Entfernung"), nil)
      }
      self.settings = settings
      self.fields = FieldDecoder(timeZone: settings.timeZone)
    }

    func parse(_ reader: CSVReader, line: Int) throws(FieldProblem) -> RowOutcome {
      // Set Order first: pseudo-rows carry no set values at all. Read from the bytes, since
      // every row has one and a String per row would cost more than the rest of the field.
      var type = SetType.normal
      var index: Int?
      switch StrongCSV.setOrder(reader.field(setOrder)) {
      case .number(let number): index = number
      case .warmup: type = .warmup
      case .dropset: type = .dropset
      case .failure: type = .failure
      case .note: return .ignored("Strong note row")
      case .restTimer: return .ignored("Strong rest timer row")
      case .invalid:
        throw FieldProblem(
          index: setOrder,
          reason: "'\(reader.string(setOrder))' is not a set number, W, D, F, Note or Rest Timer")
      }

      let start = try fields.instant(reader, date)
      let name = fields.text(reader, workoutName)
      let exerciseName = fields.text(reader, exercise)
      guard !exerciseName.isEmpty else {
        throw FieldProblem(index: exercise, reason: "the exercise name is empty")
      }
      var durationSeconds: Int64?
      var dropped: FieldProblem?
      if let duration { (durationSeconds, dropped) = try fields.workoutDuration(reader, duration) }

      // A unit stated by the header wins over one per row, which wins over the user's (SPEC 9.4).
      let rowWeight = headerWeightUnit == nil ? try fields.weightUnit(reader, weightUnitColumn) : nil
      let rowDistance = headerDistanceUnit == nil ? try fields.distanceUnit(reader, distanceUnitColumn) : nil
      let weightUnit = headerWeightUnit ?? rowWeight ?? settings.weightUnit
      let distanceUnit = headerDistanceUnit ?? rowDistance ?? settings.distanceUnit
      let weightKg = try fields.weightKg(reader, weight, unit: weightUnit)
      let repCount = try fields.reps(reader, reps)
      let meters = try fields.meters(reader, distance, unit: distanceUnit)
      let secondCount = try fields.seconds(reader, seconds)

      return .set(
        ExportSet(
          line: line, sessionKey: fields.sessionKey(start: start, name: name), sessionName: name,
          start: start, durationSeconds: durationSeconds, exercise: exerciseName,
          setIndex: index, type: type, weightKg: weightKg, reps: repCount,
          distanceMeters: meters, seconds: secondCount),
        dropped: dropped)
    }
  }
}
