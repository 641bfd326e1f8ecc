import Foundation
import TrendlineSchema
import TrendlineSupport

/// Strong's CSV export, every header variant (EXPORT-FORMATS §1 and §9): `,` or `;`, quoted or
/// not, the header in one of the app's languages (``languages``), the duration as text
/// (`2h 38m`, `35min`), in seconds (`Duration (sec)`), last (`Workout Duration`) or absent;
/// the weight unit absent, per row (`Weight Unit`) or in the header (`Weight (kg)`, or the
/// 2015–2017 app's bare `kg`/`lbs`). Columns are found by name, never by position.
///
/// A workout whose duration is impossible (a timer left running: `42h 13m`) keeps its sets;
/// only the duration is dropped and listed (SPEC 10.2).
///
/// `Set Order` holds the set number (from 1, or from 0 in the 2015–2017 app), or `W`/`D`/`F`
/// (`WARM_UP`/`DROP_SET`/`FAILURE` in the automatic export) for warm-up, drop and failure sets;
/// `Note` and `Rest Timer` rows are not sets and are counted as ignored. A row with every
/// value empty (Strong writes such placeholders) is a set of 0 × 0, as SPEC 9.5 reads empty
/// values: it adds to the set count and nothing to volume.
enum StrongCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    try readCSVExport(file: file, bytes: bytes, format: .strongCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings)
    }
  }

  /// The reason a note or rest-timer row in a language whose word for it is not known is
  /// ignored. One reason for every such word: a reason is a category, counted per file in the
  /// manifest, so a file of a million different words must not make a million of them.
  static let pseudoRowInAnotherLanguage =
    "Strong note or rest timer row (a word in the set-order column, no set values)"

  /// What a `Set Order` cell says.
  enum SetOrder: Equatable {
    case number(Int)
    case warmup, dropset, failure, note, restTimer, invalid
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
    // Strong's automatic export writes the set kinds as words (`WARM_UP`, `FAILURE`).
    if cell.elementsEqual("WARM_UP".utf8) { return .warmup }
    if cell.elementsEqual("DROP_SET".utf8) { return .dropset }
    if cell.elementsEqual("FAILURE".utf8) { return .failure }
    if cell.elementsEqual("Note".utf8) { return .note }
    // German writes its rest rows as `Ruhezeit`; `W`, `D` and `F` stay untranslated.
    if cell.elementsEqual("Rest Timer".utf8) || cell.elementsEqual("Ruhezeit".utf8) { return .restTimer }
    return .invalid
  }

  /// Strong's column names in one app language. The app translates its header (not the
  /// exercise names of its own library) into the phone's language, and otherwise writes the
  /// same columns in the same order (EXPORT-FORMATS §1.1, §9.2; `Guides/ExportFormats.md`
  /// says which languages are verified in a real file). Adding a language is one row.
  struct Language {
    var name: String
    var date: String
    var workoutName: String
    var duration: [String]
    var exercise: String
    var setOrder: String
    var weight: String
    var reps: String
    var distance: String
    var seconds: String
  }

  static let languages: [Language] = [
    Language(
      name: "English", date: "Date", workoutName: "Workout Name",
      duration: ["Duration", "Duration (sec)", "Workout Duration"], exercise: "Exercise Name", setOrder: "Set Order",
      weight: "Weight", reps: "Reps", distance: "Distance", seconds: "Seconds"),
    Language(
      name: "German", date: "Datum", workoutName: "Workout-Name", duration: ["Dauer", "Workout-Dauer"],
      exercise: "Name der Übung", setOrder: "Reihenfolge festlegen", weight: "Gewicht", reps: "Wiederh.",
      distance: "Entfernung", seconds: "Sekunden"),
    Language(
      name: "French", date: "Date", workoutName: "Nom de l'entraînement", duration: ["Durée"],
      exercise: "Nom de l'exercice", setOrder: "Ordre de la série", weight: "Poids", reps: "Réps",
      distance: "Distance", seconds: "Secondes"),
    Language(
      name: "Portuguese", date: "Data", workoutName: "Nome do treino", duration: ["Duração"],
      exercise: "Nome do exercício", setOrder: "Ordem da série", weight: "Peso", reps: "Reps",
      distance: "Distância", seconds: "Segundos"),
  ]

  /// Weight and distance columns named by their unit: `Weight (kg)` in the newest variant,
  /// bare `kg` or `lbs` in the 2015–2017 app (EXPORT-FORMATS §9.1).
  static let weightColumnsWithUnit: [(name: String, unit: WeightUnit)] = [
    ("Weight (kg)", .kilograms), ("Weight (lbs)", .pounds), ("Weight (lb)", .pounds), ("kg", .kilograms),
    ("lbs", .pounds), ("lb", .pounds),
  ]
  static let distanceColumnsWithUnit: [(name: String, unit: DistanceUnit)] = [
    ("Distance (meters)", .meters), ("Distance (m)", .meters), ("Distance (km)", .kilometers),
    ("Distance (miles)", .miles), ("Distance (mi)", .miles), ("km", .kilometers), ("mi", .miles), ("miles", .miles),
  ]

  /// The language whose exercise and set-order columns the header has: what makes a CSV a
  /// Strong export.
  static func language(of header: (String) -> Bool) -> Language? {
    languages.first { header($0.exercise) && header($0.setOrder) }
  }

  /// Strong's twelve-column layout, read by position when its header is in a language the
  /// table above does not name (SPEC 11.1: Chinese `日期,锻炼名称,时长,运动名称,设置顺序,重量,次,距离,秒,
  /// 备注,锻炼备注,RPE`): the app translates each name and keeps the order.
  static let columnsByPosition = 12

  /// Whether `bytes`, a CSV whose header names no Strong language, has the structure of
  /// Strong's twelve-column export: a header of twelve names, and records (the first 20 looked at) each
  /// with a date and time first, a duration or nothing third, and numbers or nothing in the
  /// weight, reps, distance and seconds columns; at least one with a set number (or `W`, `D`,
  /// `F`) fifth.
  ///
  /// - Complexity: O(*r*) for the first 20 records' *r* bytes.
  static func hasStructure(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let reader = CSVReader(borrowing: bytes, delimiter: nil, maximumFieldBytes: 4096, maximumFields: 64)
    var event = reader.next()
    while case .blankLine = event { event = reader.next() }
    // A header of names: a file whose header is missing starts with a set, which must not be
    // taken for the header and lost.
    guard case .record = event, reader.fieldCount == columnsByPosition, TimestampParser.parse(reader.field(0)) == nil,
      !(5...8).contains(where: { NumberParser.decimal(reader.field($0)) != .invalid })
    else { return false }
    var numbered = 0
    for _ in 0..<20 {
      event = reader.next()
      if case .blankLine = event { continue }
      guard case .record = event else { break }
      guard reader.fieldCount == columnsByPosition, let start = TimestampParser.parse(reader.field(0)),
        start.hasTime, reader.isEmpty(2) || NumberParser.duration(reader.field(2)) != .invalid,
        (5...8).allSatisfy({ NumberParser.decimal(reader.field($0)) != .invalid })
      else { return false }
      switch setOrder(reader.field(4)) {
      case .number, .warmup, .dropset, .failure: numbered += 1
      case .note, .restTimer, .invalid: break
      }
    }
    return numbered > 0
  }

  final class Parser: CSVRowParser {
    let date: Int
    let workoutName: Int
    let exercise: Int
    let setOrder: Int
    let duration: Int?
    let weight: Int
    let weightUnitColumn: Int?
    let reps: Int
    let distance: Int?
    let distanceUnitColumn: Int?
    let seconds: Int?
    /// The unit the header states (`Weight (kg)`, `lbs`), else the user's.
    let headerWeightUnit: WeightUnit?
    let headerDistanceUnit: DistanceUnit?
    let settings: ReadSettings
    let fields: FieldDecoder

    /// Finds every column by name. The value columns every set has (weight, reps) must be
    /// found: under an unfamiliar name they would read as empty, and every weight would
    /// silently become 0 kg (SPEC 10.1). Distance and seconds are read where the header has
    /// them.
    init(header: CSVHeader, file: String, settings: ReadSettings) throws(ExportError) {
      guard let language = StrongCSV.language(of: { header.has($0) }) else {
        guard header.names.count == StrongCSV.columnsByPosition else {
          throw header.missing(
            file, format: "Strong", column: "exercise name and set order", looked: ["Exercise Name", "Set Order"])
        }
        (date, workoutName, duration, exercise, setOrder) = (0, 1, 2, 3, 4)
        (weight, reps, distance, seconds) = (5, 6, 7, 8)
        (weightUnitColumn, distanceUnitColumn, headerWeightUnit, headerDistanceUnit) = (nil, nil, nil, nil)
        self.settings = settings
        self.fields = FieldDecoder(timeZone: settings.timeZone)
        return
      }
      let format = "Strong (\(language.name) header)"
      date = try header.require(file, format: format, language.date)
      workoutName = try header.require(file, format: format, language.workoutName)
      exercise = try header.require(file, format: format, language.exercise)
      setOrder = try header.require(file, format: format, language.setOrder)
      duration = header.index(language.duration)
      reps = try header.require(file, format: format, language.reps)
      seconds = header.index(language.seconds)
      weightUnitColumn = header.index("Weight Unit")
      distanceUnitColumn = header.index("Distance Unit")
      if let (index, unit) = header.index(StrongCSV.weightColumnsWithUnit) {
        (weight, headerWeightUnit) = (index, unit)
      } else {
        let looked = [language.weight] + StrongCSV.weightColumnsWithUnit.map(\.name)
        (weight, headerWeightUnit) = (try header.require(file, format: format, looked), nil)
      }
      if let (index, unit) = header.index(StrongCSV.distanceColumnsWithUnit) {
        (distance, headerDistanceUnit) = (index, unit)
      } else {
        (distance, headerDistanceUnit) = (header.index(language.distance), nil)
      }
      self.settings = settings
      self.fields = FieldDecoder(timeZone: settings.timeZone)
    }

    /// Whether the row's set order is a word (holding a letter) and its weight, reps and
    /// distance are all empty or zero: the shape of Strong's note and rest-timer rows.
    private func isPseudoRow(_ reader: CSVReader) -> Bool {
      guard reader.field(setOrder).contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 >= 0x80 })
      else { return false }
      return [weight, reps, distance].allSatisfy { column in
        guard let column else { return true }
        switch NumberParser.decimal(reader.field(column)) {
        case .empty: return true
        case .number(let value): return value == 0
        case .invalid: return false
        }
      }
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
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
      case .invalid where isPseudoRow(reader):
        // Strong translates `Note` and `Rest Timer` (German `Ruhezeit`): a word with no set
        // values is one of them in a language whose word is not known, and holds no set to lose.
        return .ignored(StrongCSV.pseudoRowInAnotherLanguage)
      case .invalid:
        throw FieldProblem(
          index: setOrder,
          reason:
            "'\(reader.string(setOrder))' is not a set number, W, D, F (or WARM_UP, DROP_SET, FAILURE), "
            + "Note or Rest Timer (Ruhezeit)"
        )
      }

      let start = try fields.instant(reader, date)
      let name = try fields.text(reader, workoutName)
      let exerciseName = try fields.exerciseName(reader, exercise)
      var durationSeconds: Int64?
      var dropped: FieldProblem?
      if let duration { (durationSeconds, dropped) = try fields.workoutDuration(reader, duration) }

      // A unit stated by the header wins over one per row, which wins over the user's (SPEC 9.4).
      let rowWeight = headerWeightUnit == nil ? try fields.weightUnit(reader, weightUnitColumn) : nil
      let rowDistance = headerDistanceUnit == nil ? try fields.distanceUnit(reader, distanceUnitColumn) : nil
      let weightUnit = headerWeightUnit ?? rowWeight ?? settings.weightUnit
      let distanceUnit = headerDistanceUnit ?? rowDistance ?? settings.distanceUnit
      let (weightKg, assistance) = try fields.loadKg(reader, weight, unit: weightUnit, exercise: exerciseName)
      let repCount = try fields.reps(reader, reps)
      let meters = try fields.meters(reader, distance, unit: distanceUnit)
      let secondCount = try fields.seconds(reader, seconds)

      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: name), sessionName: name,
        start: start, durationSeconds: durationSeconds, exercise: exerciseName,
        setIndex: index, type: type, weightKg: weightKg, reps: repCount,
        distanceMeters: meters, seconds: secondCount,
        stated: StatedUnits(weight: headerWeightUnit ?? rowWeight, distance: headerDistanceUnit ?? rowDistance))
      return .set(dropped: dropped, repaired: assistance)
    }
  }
}
