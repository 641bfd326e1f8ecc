import Foundation
import TrendlineSchema
import TrendlineSupport

/// Fitbod's `WorkoutExport.csv` (EXPORT-FORMATS §4): kilograms always (pound entries arrive
/// as unrounded conversions such as `20.41168092460379`), timestamps with a `+0000` offset,
/// newest rows first, blank lines between some rows, a leading space in `Reps`.
///
/// A workout is the rows sharing one timestamp; the format records no workout name or
/// length, so the name is empty and the duration unknown (0). `isWarmup` marks warm-ups.
/// `multiplier` (2 for dumbbell pairs) is not applied: volume is weight × reps as written,
/// the same rule as every other format.
enum FitbodCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    try readCSVExport(file: file, bytes: bytes, format: .fitbodCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings)
    }
  }

  final class Parser: CSVRowParser {
    let date: Int
    let exercise: Int
    let reps: Int?
    let weight: Int?
    let seconds: Int?
    let distance: Int?
    let isWarmup: Int?
    let fields: FieldDecoder

    init(header: CSVHeader, file: String, settings: ReadSettings) throws(ExportError) {
      date = try header.require(file, format: "Fitbod", "Date")
      exercise = try header.require(file, format: "Fitbod", "Exercise")
      reps = try header.require(file, format: "Fitbod", "Reps")
      weight = try header.require(file, format: "Fitbod", "Weight(kg)")
      seconds = header.index("Duration(s)")
      distance = header.index("Distance(m)")
      isWarmup = header.index("isWarmup")
      fields = FieldDecoder(timeZone: settings.timeZone)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      let start = try fields.instant(reader, date)
      let exerciseName = try fields.text(reader, exercise)
      guard !exerciseName.isEmpty else {
        throw FieldProblem(index: exercise, reason: "the exercise name is empty")
      }
      var type = SetType.normal
      if let isWarmup, !reader.isEmpty(isWarmup) {
        switch reader.string(isWarmup).trimmingCharacters(in: .whitespaces).lowercased() {
        case "true": type = .warmup
        case "false": type = .normal
        default:
          throw FieldProblem(index: isWarmup, reason: "'\(reader.string(isWarmup))' is not true or false")
        }
      }
      let weightKg = try fields.weightKg(reader, weight, unit: .kilograms)
      let repCount = try fields.reps(reader, reps)
      let meters = try fields.meters(reader, distance, unit: .meters)
      let secondCount = try fields.seconds(reader, seconds)
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: ""), sessionName: "",
        start: start, durationSeconds: nil, exercise: exerciseName, setIndex: nil, type: type,
        weightKg: weightKg, reps: repCount, distanceMeters: meters, seconds: secondCount)
      return .set()
    }
  }
}
