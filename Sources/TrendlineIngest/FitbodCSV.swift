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
///
/// Fitbod's older layout (2018–2019, EXPORT-FORMATS §10.4), `Date,Exercise,Sets,Reps,Weight,
/// isWarmup,Note`, is read by the same parser, told apart by its `Weight` column (no unit in
/// its name): dates without a time (a workout is a local day, as FitNotes'), and a `Sets`
/// count per row — 1 in every file seen. Its weights are in the user's unit (their settings'
/// `weightUnit`; the column does not say), as EXPORT-FORMATS §10.4 has it: of the four real
/// files found, two write whole pounds (`45`, an empty barbell, for a back squat), one a kg
/// user's values (`6.803893642`, 15 lb entered and shown in kilograms), and 2017's writes its
/// dates as JavaScript does (`Sun Jul 09 2017 10:55:21 GMT+0000 (UTC)`). A larger `Sets` count
/// is that many identical sets from the one row (the row counted once, as a StrongLifts row
/// is): the column says how many were done, and dropping all but one would lose work. 0 sets is
/// a row of no set, ignored and listed. Its assisted exercises carry a negative weight, read as
/// no load (``AssistedExercise``).
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
    /// The older layout's `Sets` column; nil in the newer layout, one set a row.
    let setCount: Int?
    /// Kilograms in the newer layout, which says so; the user's unit in the older one.
    let weightUnit: WeightUnit
    let fields: FieldDecoder

    /// The most sets one older-layout row may state: an empirically generous bound (every
    /// row seen states 1); a larger count is another column or junk, and would make one row
    /// hold thousands of sets.
    static let maximumSetsPerRow = 100

    init(header: CSVHeader, file: String, settings: ReadSettings) throws(ExportError) {
      date = try header.require(file, format: "Fitbod", "Date")
      exercise = try header.require(file, format: "Fitbod", "Exercise")
      reps = try header.require(file, format: "Fitbod", "Reps")
      // The newer layout names its unit; without that name, `Weight` and `Sets` make the older
      // one, and any other header is missing the newer layout's weight column, as before.
      if !header.has("Weight(kg)"), header.has("Weight"), header.has("Sets") {
        weight = try header.require(file, format: "Fitbod (older layout)", "Weight")
        setCount = try header.require(file, format: "Fitbod (older layout)", "Sets")
        weightUnit = settings.weightUnit
      } else {
        weight = try header.require(file, format: "Fitbod", "Weight(kg)")
        setCount = nil
        weightUnit = .kilograms
      }
      seconds = header.index("Duration(s)")
      distance = header.index("Distance(m)")
      isWarmup = header.index("isWarmup")
      fields = FieldDecoder(timeZone: settings.timeZone)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      let start = try fields.instant(reader, date)
      let exerciseName = try fields.exerciseName(reader, exercise)
      var type = SetType.normal
      if let isWarmup, !reader.isEmpty(isWarmup) {
        switch reader.string(isWarmup).trimmingCharacters(in: .whitespaces).lowercased() {
        case "true": type = .warmup
        case "false": type = .normal
        default:
          throw FieldProblem(index: isWarmup, reason: "'\(reader.string(isWarmup))' is not true or false")
        }
      }
      let (weightKg, assistance) = try fields.loadKg(reader, weight, unit: weightUnit, exercise: exerciseName)
      let repCount = try fields.reps(reader, reps)
      let meters = try fields.meters(reader, distance, unit: .meters)
      let secondCount = try fields.seconds(reader, seconds)
      let count = try sets(reader)
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: ""), sessionName: "",
        start: start, durationSeconds: nil, exercise: exerciseName, setIndex: nil, type: type,
        weightKg: weightKg, reps: repCount, distanceMeters: meters, seconds: secondCount)
      switch count {
      case 0: return .ignored("Fitbod row of 0 sets")
      case 1: return .set(repaired: assistance)
      default: return .sets(Array(repeating: set, count: count), repaired: assistance)
      }
    }

    /// The older layout's `Sets`: empty is one set (the row is a set), else a whole number
    /// from 0 to ``maximumSetsPerRow``. Always 1 in the newer layout.
    private func sets(_ reader: CSVReader) throws(FieldProblem) -> Int {
      guard let setCount, !reader.isEmpty(setCount) else { return 1 }
      let value = try fields.number(reader, setCount)
      guard value >= 0, value <= Double(Self.maximumSetsPerRow), value == value.rounded() else {
        throw FieldProblem(
          index: setCount,
          reason: "'\(reader.string(setCount))' is not a number of sets (a whole number from 0 to "
            + "\(Self.maximumSetsPerRow))")
      }
      return Int(value)
    }
  }
}
