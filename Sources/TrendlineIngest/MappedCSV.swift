import Foundation
import TrendlineSchema
import TrendlineSupport

/// A CSV layout given in the pipeline file (`source.csv`), for exports of apps Trendline does
/// not know: which column holds what, how dates are written, and the units.
///
///     "csv": {"delimiter": ";", "decimalSeparator": ",", "dateFormat": "dd.MM.yyyy HH:mm",
///             "weightUnit": "kg",
///             "columns": {"start": "day", "exercise": "lift", "weight": "kg", "reps": "reps",
///                         "session": "session"}}
///
/// `start` and `exercise` are required; every other column is optional. Without `session`,
/// a workout is the rows sharing one start. Without `dateFormat`, dates are read like every
/// other export (ISO dates, RFC 3339, `15 Sep 2025, 07:48`, …).
public struct MappedCSVLayout: Sendable, Equatable, Codable {
  public struct Columns: Sendable, Equatable, Codable {
    public var start: String
    public var exercise: String
    public var session: String?
    public var end: String?
    public var duration: String?
    public var weight: String?
    public var reps: String?
    public var setType: String?
    public var setIndex: String?
    public var distance: String?
    public var seconds: String?

    public init(
      start: String, exercise: String, session: String? = nil, end: String? = nil,
      duration: String? = nil, weight: String? = nil, reps: String? = nil,
      setType: String? = nil, setIndex: String? = nil, distance: String? = nil,
      seconds: String? = nil
    ) {
      self.start = start
      self.exercise = exercise
      self.session = session
      self.end = end
      self.duration = duration
      self.weight = weight
      self.reps = reps
      self.setType = setType
      self.setIndex = setIndex
      self.distance = distance
      self.seconds = seconds
    }
  }

  public var columns: Columns
  /// `,`, `;` or `\t`; sniffed when left out.
  public var delimiter: String?
  /// `.` (default) or `,` for files written with decimal commas (`62,5`).
  public var decimalSeparator: String?
  /// A pattern of `yyyy MM M dd d HH H hh h mm ss a MMM` and literal characters.
  public var dateFormat: String?
  public var weightUnit: WeightUnit?
  public var distanceUnit: DistanceUnit?

  public init(
    columns: Columns, delimiter: String? = nil, decimalSeparator: String? = nil,
    dateFormat: String? = nil, weightUnit: WeightUnit? = nil, distanceUnit: DistanceUnit? = nil
  ) {
    self.columns = columns
    self.delimiter = delimiter
    self.decimalSeparator = decimalSeparator
    self.dateFormat = dateFormat
    self.weightUnit = weightUnit
    self.distanceUnit = distanceUnit
  }
}

/// Reads a CSV export through a ``MappedCSVLayout``.
enum MappedCSV {
  static func read(
    file: String, bytes: [UInt8], settings: ReadSettings, layout: MappedCSVLayout, limits: ReadLimits
  ) throws(ExportError) -> FileIngest {
    let delimiter = layout.delimiter.flatMap { $0 == "\\t" ? ASCII.tab : $0.utf8.first }
    let pattern = layout.dateFormat.map(DatePattern.init)
    return try readCSVExport(file: file, bytes: bytes, format: .mappedCSV, delimiter: delimiter, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings, layout: layout, pattern: pattern)
    }
  }

  final class Parser: CSVRowParser {
    let start: Int
    let exercise: Int
    /// The columns a layout may leave out, nil when it does.
    let session, end, duration, weight, reps, setType, setIndex, distance, seconds: Int?
    let weightUnit: WeightUnit
    let distanceUnit: DistanceUnit
    /// The layout's units, when it names them: the export's own, stated for every set.
    let stated: StatedUnits
    let pattern: DatePattern?
    let fields: FieldDecoder

    init(
      header: CSVHeader, file: String, settings: ReadSettings, layout: MappedCSVLayout,
      pattern: DatePattern?
    ) throws(ExportError) {
      let columns = layout.columns
      let hint = "source.csv.columns in the pipeline names it; check the spelling against the header"
      func optional(_ name: String?) throws(ExportError) -> Int? {
        guard let name else { return nil }
        return try header.require(file, format: "Mapped CSV", name, hint: hint)
      }
      start = try header.require(file, format: "Mapped CSV", columns.start, hint: hint)
      exercise = try header.require(file, format: "Mapped CSV", columns.exercise, hint: hint)
      session = try optional(columns.session)
      end = try optional(columns.end)
      duration = try optional(columns.duration)
      weight = try optional(columns.weight)
      reps = try optional(columns.reps)
      setType = try optional(columns.setType)
      setIndex = try optional(columns.setIndex)
      distance = try optional(columns.distance)
      seconds = try optional(columns.seconds)
      weightUnit = layout.weightUnit ?? settings.weightUnit
      distanceUnit = layout.distanceUnit ?? settings.distanceUnit
      stated = StatedUnits(weight: layout.weightUnit, distance: layout.distanceUnit)
      self.pattern = pattern
      fields = FieldDecoder(timeZone: settings.timeZone, decimalComma: layout.decimalSeparator == ",")
    }

    private func timestamp(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> Int64 {
      guard let pattern else { return try fields.instant(reader, index) }
      guard let parsed = pattern.parse(reader.field(index)) else {
        throw FieldProblem(
          index: index,
          reason: "'\(reader.string(index))' does not match the date format '\(pattern.text)'")
      }
      return try fields.checkedInstant(parsed, reader, index)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      let startInstant = try timestamp(reader, start)
      let name = try session.map { (column) throws(FieldProblem) in try fields.text(reader, column) } ?? ""
      let exerciseName = try fields.exerciseName(reader, exercise)
      // An impossible length is dropped and the sets kept, as in every format (SPEC 10.2).
      var durationSeconds: Int64?
      var dropped: FieldProblem?
      if let duration {
        (durationSeconds, dropped) = try fields.workoutDuration(reader, duration)
      } else if let end, !reader.isEmpty(end) {
        let length = try timestamp(reader, end) - startInstant
        if let problem = WorkoutLength.problem(Double(length), text: "\(length) s from start to end") {
          dropped = FieldProblem(index: end, reason: problem)
        } else {
          durationSeconds = length
        }
      }
      let type = try fields.setType(reader, setType)
      let index = try fields.setIndex(reader, setIndex)
      let (weightKg, assistance) = try fields.loadKg(reader, weight, unit: weightUnit, exercise: exerciseName)
      let repCount = try fields.reps(reader, reps)
      let meters = try fields.meters(reader, distance, unit: distanceUnit)
      let secondCount = try fields.seconds(reader, seconds)
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: startInstant, name: name), sessionName: name,
        start: startInstant, durationSeconds: durationSeconds, exercise: exerciseName,
        setIndex: index, type: type, weightKg: weightKg, reps: repCount,
        distanceMeters: meters, seconds: secondCount, stated: stated)
      return .set(dropped: dropped, repaired: assistance)
    }
  }
}

/// A date pattern for mapped CSV files, read from bytes with no formatter.
///
/// Tokens: `yyyy` (year), `yy` (two-digit year, its century by ``TwoDigitYear``: 00–69 are
/// 2000–2069, 70–99 are 1970–1999), `MM`/`M` (month, padded or not), `MMM` (English month name),
/// `dd`/`d`, `HH`/`H` (24-hour), `hh`/`h` (12-hour, with `a` for am/pm), `mm`, `ss`.
/// Any other character must appear as written; a space also matches a no-break space.
public struct DatePattern: Sendable, Equatable {
  enum Token: Equatable {
    case year, twoDigitYear, month, monthName, day, hour24, hour12, minute, second, meridiem
    case literal(UInt8)
  }
  let tokens: [Token]
  public let text: String

  /// Why `text` is no usable pattern, or nil when it is one. The pipeline loader refuses a
  /// pattern with this, so `validate` and `run` read patterns by the same rule.
  public static func problem(_ text: String) -> String? {
    guard let (pattern, _) = split(text) else {
      return "dateFormat '\(text)' has a quote that is never closed; write literal text as 'UTC' and a quote as ''"
    }
    let missing = [("y", "year (yyyy or yy)"), ("M", "month (MM)"), ("d", "day (dd)")].filter {
      !pattern.contains($0.0)
    }
    if !missing.isEmpty { return "dateFormat '\(text)' has no \(missing.map(\.1).joined(separator: ", "))" }
    // Any other letter, unquoted, is a mistake or a placeholder (`CHECK: yyyy MM dd`) that no
    // date would match, and `run` would reject every row: refused here, before any input.
    if let letter = pattern.first(where: { $0.isLetter && !"yMdHhmsaT".contains($0) }) {
      return
        "dateFormat '\(text)' has '\(letter)', which is not a pattern letter (yyyy or yy, MM or MMM, dd, HH or hh, "
        + "mm, ss, a, and T between a date and a time); quote literal text, as in 'UTC'"
    }
    let bytes = Array(pattern.utf8)
    var index = 0
    while index < bytes.count {
      var run = 1
      while index + run < bytes.count && bytes[index + run] == bytes[index] { run += 1 }
      if bytes[index] == UInt8(ascii: "y") && run != 2 && run != 4 {
        return
          "dateFormat '\(text)' has a year of \(run) letter\(run == 1 ? "" : "s"); write yyyy (four digits) or yy (two)"
      }
      index += run
    }
    return nil
  }

  /// `text` without its quoted parts (the pattern's letters), and the tokens of the whole, or
  /// nil when a quote is never closed. Text between quotes is literal (`'UTC'`), and `''` is a
  /// quote, as in ICU's patterns.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  private static func split(_ text: String) -> (pattern: String, tokens: [Token])? {
    var tokens: [Token] = []
    var pattern: [UInt8] = []
    let bytes = Array(text.utf8)
    let quote = UInt8(ascii: "'")
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote {
        if index + 1 < bytes.count && bytes[index + 1] == quote {
          tokens.append(.literal(quote))
          index += 2
          continue
        }
        // Quoted text up to the lone quote that closes it; `''` inside is a quote too.
        index += 1
        while true {
          guard index < bytes.count else { return nil }
          if bytes[index] == quote {
            guard index + 1 < bytes.count && bytes[index + 1] == quote else { break }
            index += 1
          }
          tokens.append(.literal(bytes[index]))
          index += 1
        }
        index += 1
        continue
      }
      var run = 1
      while index + run < bytes.count && bytes[index + run] == byte { run += 1 }
      pattern += bytes[index..<(index + run)]
      switch Character(Unicode.Scalar(byte)) {
      case "y": tokens.append(run == 2 ? .twoDigitYear : .year)
      case "M": tokens.append(run >= 3 ? .monthName : .month)
      case "d": tokens.append(.day)
      case "H": tokens.append(.hour24)
      case "h": tokens.append(.hour12)
      case "m": tokens.append(.minute)
      case "s": tokens.append(.second)
      case "a": tokens.append(.meridiem)
      default:
        for _ in 0..<run { tokens.append(.literal(byte)) }
      }
      index += run
    }
    return (String(decoding: pattern, as: UTF8.self), tokens)
  }

  /// The pattern `text`, which ``problem(_:)`` found none in (an unclosed quote reads the rest
  /// as literal text).
  public init(_ text: String) {
    self.text = text
    self.tokens = DatePattern.split(text)?.tokens ?? DatePattern.split(text + "'")?.tokens ?? []
  }

  /// The wall time in `bytes`, or nil when it does not match or is not a real date.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ParsedTimestamp? {
    var scanner = ByteScanner(bytes)
    scanner.skipSpaces()
    var civil = CivilDateTime(year: 1970, month: 1, day: 1)
    var hasTime = false
    var pm: Bool?
    var hour12: Int?
    for token in tokens {
      switch token {
      case .year:
        guard let value = scanner.digits(maxCount: 4), value.count == 4 else { return nil }
        civil.year = value.value
      case .twoDigitYear:
        guard let value = scanner.digits(maxCount: 2), value.count == 2 else { return nil }
        civil.year = TwoDigitYear.expand(value.value)
      case .month:
        guard let value = scanner.digits(maxCount: 2) else { return nil }
        civil.month = value.value
      case .monthName:
        guard let value = scanner.monthName(nil) else { return nil }
        civil.month = value
      case .day:
        guard let value = scanner.digits(maxCount: 2) else { return nil }
        civil.day = value.value
      case .hour24:
        guard let value = scanner.digits(maxCount: 2) else { return nil }
        civil.hour = value.value
        hasTime = true
      case .hour12:
        guard let value = scanner.digits(maxCount: 2) else { return nil }
        hour12 = value.value
        hasTime = true
      case .minute:
        guard let value = scanner.digits(maxCount: 2), value.count == 2 else { return nil }
        civil.minute = value.value
      case .second:
        guard let value = scanner.digits(maxCount: 2), value.count == 2 else { return nil }
        civil.second = value.value
      case .meridiem:
        guard let value = scanner.meridiem() else { return nil }
        pm = value
      case .literal(let byte):
        if byte == ASCII.space {
          let before = scanner.position
          scanner.skipSpaces()
          if scanner.position == before { return nil }
        } else if !scanner.take(byte) {
          return nil
        }
      }
    }
    scanner.skipSpaces()
    guard scanner.isAtEnd else { return nil }
    if let hour12 {
      guard hour12 >= 1 && hour12 <= 12, let pm else { return nil }
      civil.hour = hour12 % 12 + (pm ? 12 : 0)
    }
    guard civil.month >= 1, civil.month <= 12, civil.day >= 1,
      civil.day <= CivilDateTime.daysInMonth(year: civil.year, month: civil.month),
      civil.hour <= 23, civil.minute <= 59, civil.second <= 59
    else { return nil }
    return ParsedTimestamp(civil: civil, hasTime: hasTime)
  }
}
