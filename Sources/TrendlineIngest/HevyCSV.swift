import Foundation
import TrendlineSchema
import TrendlineSupport

/// Hevy's CSV export (EXPORT-FORMATS §2): one set per row, newest first, times like
/// `15 Sep 2025, 07:48` in the user's zone. The weight and distance units are named by the
/// header (`weight_kg` or `weight_lbs`, `distance_km` or `distance_miles`), independently of
/// each other and of the user's settings (SPEC 9.4). A workout lasts `end_time − start_time`.
///
/// Month names are in the phone's language (`30 abr 2024`, `11 Nis 2026`; SPEC 11.1): a file
/// is read in English, and when a date held a name English does not read, read again in the
/// one language all its dates read in (``MonthNames/choose(for:)``). Two readings of such a
/// file, rather than a first pass over every file to find its language: nearly every export
/// is English and pays nothing.
enum HevyCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    let english = MonthReading()
    let first = try read(file: file, bytes: bytes, settings: settings, limits: limits, months: english)
    guard english.hasUnread else { return first }
    switch MonthNames.choose(for: english.tokens) {
    case .language(let language) where language == english.language:
      return first
    case .language(let language):
      return try read(file: file, bytes: bytes, settings: settings, limits: limits, months: MonthReading(language))
    case .ambiguous(let token, let languages):
      let names = languages.map { "\($0.name) (\($0.month(token).map(monthNumber) ?? "?"))" }
      let spelling = english.spellings[token] ?? (token, 1)
      throw ExportError(
        file: file, line: spelling.line, column: 1,
        message:
          "the month '\(spelling.text)' in its dates reads as a different month in \(names.joined(separator: ", ")), "
          + "and no other date says which language the file is in; export it again with the phone in English")
    case .unreadable(let token):
      let spelling = english.spellings[token] ?? (token, 1)
      throw ExportError(
        file: file, line: spelling.line, column: 1,
        message:
          "the dates name their month '\(spelling.text)', which is not a month in any language Trendline reads; "
          + "export it again with the phone in English")
    }
  }

  /// `7` as `month 7`, for a message that shows what a name would mean.
  private static func monthNumber(_ month: Int) -> String { "month \(month)" }

  private static func read(
    file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits, months: MonthReading
  ) throws(ExportError) -> FileIngest {
    try readCSVExport(file: file, bytes: bytes, format: .hevyCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings, months: months)
    }
  }

  final class Parser: CSVRowParser {
    let title: Int
    let startTime: Int
    let endTime: Int?
    let exercise: Int
    let setIndex: Int?
    let setType: Int?
    let weight: Int?
    let weightUnit: WeightUnit
    let reps: Int?
    let distance: Int?
    let distanceUnit: DistanceUnit
    let seconds: Int?
    let fields: FieldDecoder
    /// Hevy names its weight column by the user's unit, and its distance column too when the
    /// file has one: every set states them.
    let stated: StatedUnits
    /// The last row's end time and its session, since every set of a workout repeats them.
    private var lastEnd: (bytes: [UInt8], start: Int64, length: (seconds: Int64?, dropped: FieldProblem?))?

    init(header: CSVHeader, file: String, settings: ReadSettings, months: MonthReading) throws(ExportError) {
      title = try header.require(file, format: "Hevy", "title")
      startTime = try header.require(file, format: "Hevy", "start_time")
      endTime = header.index("end_time")
      exercise = try header.require(file, format: "Hevy", "exercise_title")
      setIndex = header.index("set_index")
      setType = header.index("set_type")
      reps = try header.require(file, format: "Hevy", "reps")
      seconds = header.index("duration_seconds")
      if let index = header.index("weight_lbs") {
        (weight, weightUnit) = (index, .pounds)
      } else {
        (weight, weightUnit) = (try header.require(file, format: "Hevy", "weight_kg", "weight_lbs"), .kilograms)
      }
      if let index = header.index("distance_miles") {
        (distance, distanceUnit) = (index, .miles)
      } else if let index = header.index("distance_meters") {
        (distance, distanceUnit) = (index, .meters)
      } else {
        (distance, distanceUnit) = (header.index("distance_km"), .kilometers)
      }
      stated = StatedUnits(weight: weightUnit, distance: distance == nil ? nil : distanceUnit)
      fields = FieldDecoder(timeZone: settings.timeZone)
      fields.months = months
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      fields.months?.line = line
      let start = try fields.instant(reader, startTime)
      let name = try fields.text(reader, title)
      let exerciseName = try fields.exerciseName(reader, exercise, called: "title")
      var durationSeconds: Int64?
      var dropped: FieldProblem?
      if let endTime, !reader.isEmpty(endTime) {
        (durationSeconds, dropped) = try duration(reader, endTime, start: start)
      }

      let type = try fields.setType(reader, setType)
      let index = try fields.setIndex(reader, setIndex)
      let (weightKg, assistance) = try fields.loadKg(reader, weight, unit: weightUnit, exercise: exerciseName)
      let repCount = try fields.reps(reader, reps)
      let meters = try fields.meters(reader, distance, unit: distanceUnit)
      let secondCount = try fields.seconds(reader, seconds)
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: name), sessionName: name,
        start: start, durationSeconds: durationSeconds, exercise: exerciseName, setIndex: index,
        type: type, weightKg: weightKg, reps: repCount, distanceMeters: meters,
        seconds: secondCount, stated: stated)
      return .set(dropped: dropped, repaired: assistance)
    }

    /// `end_time − start_time`, the end read as the earliest instant with its wall time that is
    /// not before the start (SPEC 9.6). An end before the start or over 24 hours after it is
    /// dropped, the sets kept (SPEC 10.2).
    private func duration(_ reader: CSVReader, _ column: Int, start: Int64) throws(FieldProblem)
      -> (seconds: Int64?, dropped: FieldProblem?)
    {
      if let last = lastEnd, last.start == start, last.bytes.elementsEqual(reader.field(column)) {
        return last.length
      }
      let parsed = try fields.localTime(reader, column)
      let end: Int64
      if let offset = parsed.offsetSeconds {
        end = parsed.civil.localSeconds - Int64(offset)
      } else {
        end = fields.resolver.instant(localSeconds: parsed.civil.localSeconds, notBefore: start)
      }
      let seconds = end - start
      var length: (seconds: Int64?, dropped: FieldProblem?) = (seconds, nil)
      if seconds < 0 {
        length = (
          nil,
          FieldProblem(
            index: column,
            reason: "end_time '\(reader.string(column))' is before start_time; the duration is dropped, the sets kept")
        )
      } else if Double(seconds) > WorkoutLength.maximumSeconds {
        length = (
          nil,
          FieldProblem(
            index: column,
            reason:
              "end_time '\(reader.string(column))' is more than 24 hours after start_time (a timer left running); "
              + "the duration is dropped, the sets kept"
          )
        )
      }
      lastEnd = (Array(reader.field(column)), start, length)
      return length
    }
  }
}
