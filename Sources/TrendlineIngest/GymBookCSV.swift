import Foundation
import TrendlineSchema
import TrendlineSupport

/// GymBook's CSV export (iOS; EXPORT-FORMATS §9.7): one set per row, the header and the
/// values in the app's language (each record is one line in the file, wrapped here) —
///
///     Data,Programma,Orario,Esercizio,Zona,Gruppi muscolari (Primari),…,
///       Set / Set di riscaldamento / Set di defaticamento,Ripetizioni / Tempo,Peso / Distanza,Appunti,Saltato
///     09/01/25,"AltoScheda Giorno 4",19:30,"Alzate di Gambe alla Macchina",Addome,…,Set,"20 ripetizioni",
///       "0,00 kg",,No
///
/// A session is a program on a date, starting at the time of its first set (`Orario` is the
/// time of each set); the export states no duration, so it is unknown. Units are inside the
/// values (`20 ripetizioni`, `1 minuti`, `62,50 kg`, `2,50 km`), with a decimal comma in
/// Italian. A warm-up set is a warm-up; a cool-down set, not being work either, is read as a
/// warm-up too. A set marked skipped (`Saltato` `Si`) was not done and is ignored, listed.
/// Dates are `dd/mm/yy` or `mm/dd/yy` as the phone's region writes them (``DateOrder``).
enum GymBookCSV {
  /// GymBook's words in one language. Italian is verified in real exports; English is the
  /// app's own English wording, not yet seen in a real file (`Guides/ExportFormats.md`).
  struct Language {
    var name: String
    var date: String
    var program: String
    var time: String
    var exercise: String
    var kind: String
    var repsOrTime: String
    var weightOrDistance: String
    var skipped: String
    var warmupSets: [String]
    var cooldownSets: [String]
    var yes: [String]
    var repsUnits: [String]
    var secondsUnits: [String]
    var minutesUnits: [String]
  }

  static let languages: [Language] = [
    Language(
      name: "Italian", date: "Data", program: "Programma", time: "Orario", exercise: "Esercizio",
      kind: "Set / Set di riscaldamento / Set di defaticamento", repsOrTime: "Ripetizioni / Tempo",
      weightOrDistance: "Peso / Distanza", skipped: "Saltato", warmupSets: ["Set di riscaldamento"],
      cooldownSets: ["Set di defaticamento"], yes: ["Si", "Sì"], repsUnits: ["ripetizioni", "ripetizione"],
      secondsUnits: ["secondi", "secondo", "s"], minutesUnits: ["minuti", "minuto", "min"]),
    Language(
      name: "English", date: "Date", program: "Program", time: "Time", exercise: "Exercise",
      kind: "Set / Warm-up Set / Cool-down Set", repsOrTime: "Repetitions / Time",
      weightOrDistance: "Weight / Distance",
      skipped: "Skipped", warmupSets: ["Warm-up Set", "Warmup Set"], cooldownSets: ["Cool-down Set", "Cooldown Set"],
      yes: ["Yes"], repsUnits: ["repetitions", "repetition", "reps", "rep"],
      secondsUnits: ["seconds", "second", "sec", "s"],
      minutesUnits: ["minutes", "minute", "min"]),
  ]

  static func language(of has: (String) -> Bool) -> Language? {
    languages.first { has($0.exercise) && has($0.repsOrTime) && has($0.weightOrDistance) }
  }

  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    let order = try DateOrderEvidence.order(
      of: file, bytes: bytes, format: "GymBook", dateColumn: languages.map(\.date), settings: settings, limits: limits)
    return try readCSVExport(file: file, bytes: bytes, format: .gymBookCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings, order: order)
    }
  }

  /// A value with its unit inside it: `62,50 kg`, `20 ripetizioni`.
  struct Quantity {
    var value: Double
    var unit: String
  }

  final class Parser: CSVRowParser {
    let language: Language
    let date: Int
    let program: Int?
    let time: Int?
    let exercise: Int
    let kind: Int?
    let repsOrTime: Int
    let weightOrDistance: Int
    let skipped: Int?
    let order: DateOrder
    let fields: FieldDecoder
    /// Each session's start: the date at the time of its first set.
    private var starts: [String: Int64] = [:]

    init(header: CSVHeader, file: String, settings: ReadSettings, order: DateOrder) throws(ExportError) {
      guard let language = GymBookCSV.language(of: { header.has($0) }) else {
        throw header.missing(file, format: "GymBook", column: "Esercizio", looked: ["Esercizio", "Exercise"])
      }
      self.language = language
      let format = "GymBook (\(language.name) header)"
      date = try header.require(file, format: format, language.date)
      program = header.index(language.program)
      time = header.index(language.time)
      exercise = try header.require(file, format: format, language.exercise)
      kind = header.index(language.kind)
      repsOrTime = try header.require(file, format: format, language.repsOrTime)
      weightOrDistance = try header.require(file, format: format, language.weightOrDistance)
      skipped = header.index(language.skipped)
      self.order = order
      fields = FieldDecoder(timeZone: settings.timeZone, decimalComma: true)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      if let skipped, language.yes.contains(reader.string(skipped).trimmingCharacters(in: .whitespaces)) {
        return .ignored("GymBook set marked skipped")
      }
      guard let written = SlashDate.parse(reader.field(date)), var civil = written.civil(order) else {
        let shape = order == .dayFirst ? "dd/mm/yy" : "mm/dd/yy"
        throw FieldProblem(
          index: date, reason: "'\(reader.string(date))' is not a date in the file's \(order.rawValue) order (\(shape))"
        )
      }
      let name = try program.map { (column) throws(FieldProblem) in try fields.text(reader, column) } ?? ""
      let day = fields.sessionKey(start: civil.localSeconds, name: name)
      // Every row's time is checked; the session starts at its first accepted set's.
      if let time, !reader.isEmpty(time) {
        guard
          let clock = TimestampParser.parse("2000-01-01 " + reader.string(time).trimmingCharacters(in: .whitespaces)),
          clock.hasTime
        else {
          throw FieldProblem(index: time, reason: "'\(reader.string(time))' is not a time of day (HH:MM)")
        }
        (civil.hour, civil.minute, civil.second) = (clock.civil.hour, clock.civil.minute, clock.civil.second)
      }
      let start: Int64
      if let known = starts[day] {
        start = known
      } else {
        start = try fields.checkedInstant(ParsedTimestamp(civil: civil), reader, date)
      }
      let exerciseName = try fields.exerciseName(reader, exercise)

      var type = SetType.normal
      if let kind {
        let word = reader.string(kind).trimmingCharacters(in: .whitespaces)
        if language.warmupSets.contains(word) || language.cooldownSets.contains(word) { type = .warmup }
      }
      var reps = 0.0
      var seconds = 0.0
      if let amount = try quantity(reader, repsOrTime) {
        if language.repsUnits.contains(amount.unit) || amount.unit.isEmpty {
          reps = amount.value
          try SetLimits.checkReps(reps, index: repsOrTime, text: reader.string(repsOrTime))
        } else if language.secondsUnits.contains(amount.unit) {
          seconds = amount.value
        } else if language.minutesUnits.contains(amount.unit) {
          seconds = amount.value * 60
        } else {
          throw FieldProblem(
            index: repsOrTime, reason: "'\(reader.string(repsOrTime))' is neither repetitions nor a time")
        }
        try SetLimits.checkNonNegative(seconds, index: repsOrTime, what: "time", text: reader.string(repsOrTime))
        guard seconds <= WorkoutLength.maximumSeconds else {
          throw FieldProblem(index: repsOrTime, reason: "time '\(reader.string(repsOrTime))' is longer than 24 hours")
        }
      }
      var weightKg = 0.0
      var meters = 0.0
      // The unit is in the cell (`62,5 kg`): each set states its own.
      var stated = StatedUnits()
      var assistance: FieldProblem?
      if let amount = try quantity(reader, weightOrDistance) {
        if let unit = WeightUnit(spelling: amount.unit) {
          stated.weight = unit
          (weightKg, assistance) = try AssistedExercise.load(
            unit.kilograms(amount.value), exercise: exerciseName, index: weightOrDistance,
            text: reader.string(weightOrDistance))
        } else if let unit = DistanceUnit(spelling: amount.unit) {
          meters = unit.meters(amount.value)
          stated.distance = unit
          try SetLimits.checkDistance(meters, index: weightOrDistance, text: reader.string(weightOrDistance))
        } else {
          throw FieldProblem(
            index: weightOrDistance, reason: "'\(reader.string(weightOrDistance))' is neither a weight nor a distance")
        }
      }
      starts[day] = start
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: name), sessionName: name, start: start,
        durationSeconds: nil, exercise: exerciseName, setIndex: nil, type: type, weightKg: weightKg, reps: reps,
        distanceMeters: meters, seconds: seconds, stated: stated)
      return .set(repaired: assistance)
    }

    /// Field `index` as a number and the word after it, nil when empty.
    private func quantity(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> Quantity? {
      let text = reader.string(index).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { return nil }
      let number = text.prefix { $0.isNumber || $0 == "," || $0 == "." || $0 == "-" }
      let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
      // The last of `,` and `.` is the decimal mark (`62,50`, `1.000,5`, `1,000.5`); the other
      // groups thousands.
      let decimalMark: Character =
        (number.lastIndex(of: ",") ?? number.startIndex) > (number.lastIndex(of: ".") ?? number.startIndex) ? "," : "."
      let grouping: Character = decimalMark == "," ? "." : ","
      let plain = String(number.filter { $0 != grouping }.map { $0 == decimalMark ? "." : $0 })
      guard case .number(let value) = NumberParser.decimal(plain) else {
        throw FieldProblem(index: index, reason: "'\(text)' is not a number with a unit")
      }
      return Quantity(value: value, unit: unit)
    }
  }
}
