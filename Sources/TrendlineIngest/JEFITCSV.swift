import Foundation
import TrendlineSchema
import TrendlineSupport

/// JEFIT's export (SPEC 11.3, EXPORT-FORMATS §5 and §10.6): one CSV of sections, each opened
/// by a banner line `### NAME ####…`, closed by a line of `#`, with a header of its own:
///
///     ### WORKOUT SESSIONS #################################
///     rowid,_id,USERID,edit_time,day_id,total_time,…,starttime,endtime,…
///     26067261,2,19597,1571085575,1,298,0,0,0,4,14725,3,1418783153,1418783451,0,"2021-03-15 22:17:34",0,
///     ######################################################
///     ### EXERCISE LOGS ####################################
///     USERID,TIMESTAMP,belongSys,logs,_id,record,mydate,eid,ename,day_item_id,belongsession,logTime,…
///     19597,"2019-10-07 21:02:27",1,"50.0x15,50.0x15",1,75,2010-11-28,26,"Dumbbell Bench Press",0,2,…
///
/// A row of EXERCISE LOGS is one exercise in one workout, its sets packed in `logs` as
/// `weight x reps` items; it is joined to its workout by `belongsession` (the session's `_id`),
/// whose `starttime` (Unix seconds) and `total_time` (seconds) give the session's start and
/// length. A row, for the accounting, is a CSV record, as in every CSV format: an exercise log
/// is one row however many sets it packs; every other record — banners, dividers, section
/// headers, the rows of the sections not read as sets — is an ignored row with a reason naming
/// its section, so the accounting identity holds for the whole file.
///
/// What it deliberately does not read: EXERCISE SET LOGS, which the real exports fill for
/// recent workouts with the same sets as their packed logs (560 of 600 logs identical, the
/// other 40 with the weight left empty): read both and those workouts count twice; CARDIO LOGS,
/// which hold no sets; ROUTINES, which are plans, not work done.
enum JEFITCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    // The sessions, the unit and the custom exercises may come after the logs that need
    // them: a first pass over the records reads them, the second reads the logs.
    let context = try scan(file: file, bytes: bytes, settings: settings, limits: limits)
    return try readCSVExport(
      file: file, bytes: bytes, format: .jefitCSV, delimiter: ASCII.comma, limits: limits
    ) { (header) throws(ExportError) -> Parser in
      Parser(context: context, settings: settings, firstRecord: header.names)
    }
  }

  /// Whether the first line is a JEFIT banner (`### SETTING ####…`): no other export opens so.
  ///
  /// - Complexity: O(*h*), where *h* is the length of the first line.
  static func sniff(_ bytes: [UInt8], from start: Int) -> Bool {
    var end = start
    while end < bytes.count && bytes[end] != ASCII.newline && bytes[end] != ASCII.carriageReturn { end += 1 }
    return section(bytes[start..<end]) != nil
  }

  /// The section a banner line names (`### EXERCISE LOGS ####` → `EXERCISE LOGS`), or nil for
  /// a line that is no banner. The name is upper-case letters and spaces, as every real one is.
  static func section<Bytes: Collection<UInt8>>(_ line: Bytes) -> String? {
    let hash = UInt8(ascii: "#")
    guard line.starts(with: [hash, hash, hash, ASCII.space]) else { return nil }
    let name = line.dropFirst(4).prefix { $0 != hash }
    let rest = line.dropFirst(4 + name.count)
    guard !rest.isEmpty, rest.allSatisfy({ $0 == hash || $0 == ASCII.space }),
      name.allSatisfy({ ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == ASCII.space })
    else { return nil }
    let text = String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    return text.isEmpty ? nil : text
  }

  /// Whether a line is a divider, `#` only.
  static func isDivider<Bytes: Collection<UInt8>>(_ line: Bytes) -> Bool {
    line.count >= 3 && line.allSatisfy { $0 == UInt8(ascii: "#") }
  }

  /// A workout session, by its `_id`.
  struct Session {
    /// Nil when the session states no start (`starttime` 0 or empty): its logs use their date.
    var start: Int64?
    var durationSeconds: Int64?
    /// Why the session's row cannot be read; its logs are rejected with it.
    var problem: String?
  }

  /// What the first pass learns.
  struct Context {
    var sessions: [String: Session] = [:]
    /// The weight unit SETTING states (`mass`: ` lbs`), nil when it states none.
    var weightUnit: WeightUnit?
    /// Custom exercises' names by `_id`, for a log whose `ename` is empty.
    var customNames: [String: String] = [:]
  }

  /// The columns of EXERCISE LOGS a reader needs: without them every weight would be lost.
  static let requiredLogColumns = ["logs", "belongsession", "mydate", "ename"]

  /// The first pass: SETTING, WORKOUT SESSIONS and CUSTOM EXERCISES, and a check that the file
  /// has an EXERCISE LOGS section with the columns the second pass reads (SPEC 10.1).
  private static func scan(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits)
    throws(ExportError) -> Context
  {
    // The reader borrows the file's bytes, as the second pass's does: a copy would double
    // what a large export costs. The typed error is carried out through a Result.
    let result: Result<Context, ExportError> = bytes.withUnsafeBufferPointer { buffer in
      let reader = CSVReader(
        borrowing: buffer, delimiter: ASCII.comma, maximumFieldBytes: limits.maxFieldBytes,
        maximumFields: limits.maxColumns)
      do throws(ExportError) {
        return .success(try scan(reader, file: file, settings: settings))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func scan(_ reader: CSVReader, file: String, settings: ReadSettings) throws(ExportError) -> Context {
    var context = Context()
    var section: String?
    var header: [String]?
    var sawLogs = false
    let fields = FieldDecoder(timeZone: settings.timeZone)
    loop: while true {
      switch reader.next() {
      case .end: break loop
      case .blankLine, .malformed: continue
      case .record(let line):
        if reader.fieldCount == 1, let name = Self.section(reader.field(0)) {
          (section, header) = (name, nil)
          continue
        }
        if reader.fieldCount == 1 && isDivider(reader.field(0)) {
          (section, header) = (nil, nil)
          continue
        }
        guard let current = section else { continue }
        guard let names = header else {
          header = (0..<reader.fieldCount).map { normalizedName(reader.string($0)) }
          if current == "EXERCISE LOGS" {
            sawLogs = true
            for column in requiredLogColumns where !header!.contains(column) {
              throw ExportError(
                file: file, line: line, column: 1,
                message:
                  "JEFIT: the EXERCISE LOGS header has no '\(column)' column; the header is: "
                  + "\(header!.joined(separator: ", "))")
            }
          }
          continue
        }
        func value(_ column: String) -> String? {
          guard let index = names.firstIndex(of: column), index < reader.fieldCount else { return nil }
          return reader.string(index)
        }
        switch current {
        case "SETTING":
          if let mass = value("mass"), let unit = WeightUnit(spelling: mass) { context.weightUnit = unit }
        case "WORKOUT SESSIONS":
          guard let id = value("_id") else { continue }
          context.sessions[id] = session(reader, names: names, fields: fields)
        case "CUSTOM EXERCISES":
          if let id = value("_id"), let name = value("name") {
            let text = normalizedName(name)
            if !text.isEmpty && NameLimit.problem(text) == nil { context.customNames[id] = text }
          }
        default: break
        }
      }
    }
    guard sawLogs else {
      throw ExportError(
        file: file,
        message:
          "JEFIT: the file has no EXERCISE LOGS section, which holds the sets; export the full history from JEFIT")
    }
    return context
  }

  /// A WORKOUT SESSIONS row: `starttime` (or the misspelled `starttimie` an older version
  /// writes) in Unix seconds, and `total_time` in seconds. A length over 24 hours is dropped
  /// (SPEC 10.2): the session's row says so, its sets are kept.
  private static func session(_ reader: CSVReader, names: [String], fields: FieldDecoder) -> Session {
    func index(_ column: String) -> Int? {
      names.firstIndex(of: column).flatMap { $0 < reader.fieldCount ? $0 : nil }
    }
    var result = Session()
    for column in ["starttime", "starttimie"] {
      guard let at = index(column) else { continue }
      switch NumberParser.decimal(reader.field(at)) {
      case .empty: continue
      case .invalid:
        result.problem = "\(column) '\(reader.string(at))' is not a time (Unix seconds)"
        return result
      case .number(let seconds):
        if seconds == 0 { continue }
        guard seconds == seconds.rounded(), abs(seconds) <= Double(StartLimits.range.upperBound) else {
          result.problem = "\(column) '\(reader.string(at))' is not a time (Unix seconds)"
          return result
        }
        if let problem = StartLimits.problem(Int64(seconds), text: reader.string(at)) {
          result.problem = problem
          return result
        }
        result.start = Int64(seconds)
      }
      break
    }
    if let at = index("total_time") {
      switch NumberParser.decimal(reader.field(at)) {
      case .number(let seconds) where WorkoutLength.problem(seconds, text: "") == nil:
        result.durationSeconds = Int64(seconds.rounded(.down))
      case .invalid:
        result.problem = "total_time '\(reader.string(at))' is not a number of seconds"
      default: break
      }
    }
    return result
  }

  final class Parser: CSVRowParser {
    let context: Context
    let weightUnit: WeightUnit
    let stated: StatedUnits
    let fields: FieldDecoder
    private var section: String?
    private var header: CSVColumns?
    /// The reasons rows are ignored for, per section, built once per section.
    private var reasons = Reasons(section: "")

    var readsAnyFieldCount: Bool { true }

    init(context: Context, settings: ReadSettings, firstRecord: [String]) {
      self.context = context
      // The unit SETTING states wins over the user's (SPEC 9.4).
      weightUnit = context.weightUnit ?? settings.weightUnit
      stated = StatedUnits(weight: context.weightUnit)
      fields = FieldDecoder(timeZone: settings.timeZone)
      // The file's first record is taken as its header by the shared CSV reading: it is the
      // first banner.
      if firstRecord.count == 1 {
        section = JEFITCSV.section(Array(firstRecord[0].utf8))
        reasons = Reasons(section: section ?? "")
      }
    }

    struct CSVColumns {
      var names: [String]
      func index(_ name: String) -> Int? { names.firstIndex(of: name) }
    }

    struct Reasons {
      var header: String
      var row: String
      init(section: String) {
        let name = String(section.prefix(40))
        header = "JEFIT \(name) section: its header"
        switch name {
        case "WORKOUT SESSIONS": row = "JEFIT WORKOUT SESSIONS section: a workout, joined to its EXERCISE LOGS"
        case "SETTING": row = "JEFIT SETTING section: settings (its weight unit is read)"
        case "EXERCISE SET LOGS":
          row = "JEFIT EXERCISE SET LOGS section: the sets of EXERCISE LOGS again, read there"
        default: row = "JEFIT \(name) section: not a workout log"
        }
      }
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      if reader.fieldCount == 1 {
        if let name = JEFITCSV.section(reader.field(0)) {
          (section, header) = (name, nil)
          reasons = Reasons(section: name)
          return .ignored("JEFIT section banner")
        }
        if JEFITCSV.isDivider(reader.field(0)) {
          (section, header) = (nil, nil)
          return .ignored("JEFIT section divider")
        }
      }
      guard let section else { return .ignored("JEFIT: a line outside any section") }
      guard let header else {
        self.header = CSVColumns(names: (0..<reader.fieldCount).map { normalizedName(reader.string($0)) })
        return .ignored(reasons.header)
      }
      switch section {
      case "EXERCISE LOGS":
        do throws(FieldProblem) {
          return try exerciseLog(reader, header: header, line: line)
        } catch {
          // The shared reading names a field by the file's first header, here a banner: the
          // reason names the section's column instead.
          let name = error.index < header.names.count ? header.names[error.index] : ""
          throw FieldProblem(index: error.index, reason: name.isEmpty ? error.reason : "\(name): \(error.reason)")
        }
      case "WORKOUT SESSIONS":
        if let id = header.index("_id"), id < reader.fieldCount,
          let problem = context.sessions[reader.string(id)]?.problem
        {
          throw FieldProblem(index: id, reason: problem)
        }
        if let at = header.index("total_time"), at < reader.fieldCount,
          case .number(let seconds) = NumberParser.decimal(reader.field(at)),
          let problem = WorkoutLength.problem(seconds, text: reader.string(at))
        {
          // Listed at the session's line: its sets are kept, its length unknown (SPEC 10.2).
          return .ignored("JEFIT WORKOUT SESSIONS section: a workout; \(problem)")
        }
        return .ignored(reasons.row)
      default:
        return .ignored(reasons.row)
      }
    }

    /// One exercise in one workout: its sets unpacked from `logs`.
    private func exerciseLog(_ reader: CSVReader, header: CSVColumns, line: Int) throws(FieldProblem) -> RowOutcome {
      func column(_ name: String) throws(FieldProblem) -> Int {
        guard let index = header.index(name) else {
          throw FieldProblem(index: 0, reason: "the EXERCISE LOGS header has no '\(name)' column")
        }
        guard index < reader.fieldCount else {
          throw FieldProblem(
            index: reader.fieldCount - 1,
            reason: "expected \(header.names.count) fields as in the section's header, found \(reader.fieldCount)")
        }
        return index
      }
      let logs = try column("logs")
      let ename = try column("ename")
      let belongs = try column("belongsession")
      let mydate = try column("mydate")

      var exercise = try fields.text(reader, ename)
      if exercise.isEmpty, let eid = header.index("eid"), eid < reader.fieldCount,
        let custom = context.customNames[reader.string(eid)]
      {
        // A custom exercise named only by its id: its name is in CUSTOM EXERCISES.
        exercise = custom
      }
      guard !exercise.isEmpty else { throw FieldProblem(index: ename, reason: "the exercise name (ename) is empty") }

      let start: Int64
      var duration: Int64?
      let sessionID = reader.string(belongs)
      if let session = context.sessions[sessionID], session.problem == nil, let sessionStart = session.start {
        start = sessionStart
        duration = session.durationSeconds
      } else if let session = context.sessions[sessionID], let problem = session.problem {
        throw FieldProblem(index: belongs, reason: "its workout session \(sessionID) cannot be read: \(problem)")
      } else {
        // No session to join (or one without a start): the log's own date, a date-only session
        // as FitNotes writes them, its length unknown.
        start = try fields.instant(reader, mydate)
      }
      let key = fields.sessionKey(start: start, name: "")

      // `50.0x15,50.0x15`: items split at commas, each at its `x`.
      let packed = reader.field(logs)
      var sets: [ExportSet] = []
      var itemStart = 0
      var position = 0
      while itemStart <= packed.count {
        var itemEnd = itemStart
        while itemEnd < packed.count && packed[itemEnd] != ASCII.comma { itemEnd += 1 }
        let item = UnsafeBufferPointer(rebasing: packed[itemStart..<itemEnd])
        defer { itemStart = itemEnd + 1 }
        if item.allSatisfy({ $0 == ASCII.space }) {
          // `logs` empty: a row with no set. An empty item between commas is malformed.
          if packed.allSatisfy({ $0 == ASCII.space }) { break }
          throw FieldProblem(index: logs, reason: "'\(reader.string(logs))' has an empty item; expected weight x reps")
        }
        guard let cross = item.firstIndex(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }) else {
          throw FieldProblem(
            index: logs, reason: "'\(String(decoding: item, as: UTF8.self))' is not weight x reps (like 60x10)")
        }
        let weightText = UnsafeBufferPointer(rebasing: item[..<cross])
        let repsText = UnsafeBufferPointer(rebasing: item[(cross + 1)...])
        func number(_ bytes: UnsafeBufferPointer<UInt8>) throws(FieldProblem) -> Double {
          switch NumberParser.decimal(bytes) {
          case .number(let value): return value
          case .empty: return 0  // SPEC 9.5: `x5` is a body-weight set
          case .invalid:
            throw FieldProblem(
              index: logs, reason: "'\(String(decoding: item, as: UTF8.self))' is not weight x reps (like 60x10)")
          }
        }
        let weightKg = weightUnit.kilograms(try number(weightText))
        try SetLimits.checkWeight(weightKg, index: logs, text: String(decoding: weightText, as: UTF8.self))
        let reps = try number(repsText)
        try SetLimits.checkReps(reps, index: logs, text: String(decoding: repsText, as: UTF8.self))
        var set = ExportSet(
          line: line, sessionKey: key, sessionName: "", start: start, durationSeconds: duration, exercise: exercise,
          setIndex: position, type: .normal, weightKg: weightKg, reps: reps, stated: stated)
        set.sharesRowWithPrevious = position > 0
        sets.append(set)
        position += 1
        if itemEnd == packed.count { break }
      }
      return .sets(sets)
    }
  }
}
