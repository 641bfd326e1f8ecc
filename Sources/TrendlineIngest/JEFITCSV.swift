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
    var parser: Parser?
    var result = try readCSVExport(
      file: file, bytes: bytes, format: .jefitCSV, delimiter: ASCII.comma, limits: limits
    ) { (header) throws(ExportError) -> Parser in
      let made = Parser(context: context, settings: settings, firstRecord: header.names)
      parser = made
      return made
    }
    parser?.amend(&result)
    return result
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
    /// The column of the session's row that `problem` is about.
    var problemIndex: Int?
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

  /// A section's header, with the index of each column either pass reads found once, when the
  /// header is read: looked up by name per row, a hostile header of 999 names made every row
  /// cost up to 999 comparisons per column (a 4 MB file of such headers took 188 s to parse
  /// and print against 47 s with 6 columns; now 47 s either way, debug build). A name written
  /// twice is its first column, as a lookup by name finds it.
  ///
  /// - Complexity: O(*c*) to make, for a header of *c* columns; each index is then O(1).
  struct Columns {
    var names: [String]
    var id: Int?
    var logs: Int?
    var ename: Int?
    var belongsession: Int?
    var mydate: Int?
    var eid: Int?
    var totalTime: Int?
    var starttime: Int?
    /// `starttimie`, the misspelling an older version writes.
    var starttimie: Int?
    var mass: Int?
    var name: Int?

    init(names: [String]) {
      self.names = names
      // Backwards, so that the first of two columns of one name is the one kept.
      for (index, name) in names.enumerated().reversed() {
        switch name {
        case "_id": id = index
        case "logs": logs = index
        case "ename": ename = index
        case "belongsession": belongsession = index
        case "mydate": mydate = index
        case "eid": eid = index
        case "total_time": totalTime = index
        case "starttime": starttime = index
        case "starttimie": starttimie = index
        case "mass": mass = index
        case "name": self.name = index
        default: break
        }
      }
    }

    /// Column `index` of this section, when the record has it.
    static func field(_ index: Int?, in reader: CSVReader) -> Int? {
      index.flatMap { $0 < reader.fieldCount ? $0 : nil }
    }
  }

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
    var header: Columns?
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
        guard let columns = header else {
          let names = (0..<reader.fieldCount).map { normalizedName(reader.string($0)) }
          if current == "EXERCISE LOGS" {
            sawLogs = true
            for column in requiredLogColumns where !names.contains(column) {
              throw ExportError(
                file: file, line: line, column: 1,
                message:
                  "JEFIT: the EXERCISE LOGS header has no '\(column)' column; the header is: "
                  + "\(names.joined(separator: ", "))")
            }
          }
          header = Columns(names: names)
          continue
        }
        func value(_ index: Int?) -> String? {
          Columns.field(index, in: reader).map { reader.string($0) }
        }
        switch current {
        case "SETTING":
          if let mass = value(columns.mass), let unit = WeightUnit(spelling: mass) { context.weightUnit = unit }
        case "WORKOUT SESSIONS":
          guard let id = value(columns.id) else { continue }
          context.sessions[id] = session(reader, columns: columns, fields: fields)
        case "CUSTOM EXERCISES":
          if let id = value(columns.id), let name = value(columns.name) {
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
  /// (SPEC 10.2): the session's row says so, its sets are kept. A `total_time` of 0 (under a
  /// second) or empty is a length JEFIT did not record, unknown rather than 0 s (SPEC 10.3), as
  /// a `starttime` of 0 is no start.
  private static func session(_ reader: CSVReader, columns: Columns, fields: FieldDecoder) -> Session {
    var result = Session()
    for (column, index) in [("starttime", columns.starttime), ("starttimie", columns.starttimie)] {
      guard let at = Columns.field(index, in: reader) else { continue }
      switch NumberParser.decimal(reader.field(at)) {
      case .empty: continue
      case .invalid:
        (result.problem, result.problemIndex) = ("\(column) '\(reader.string(at))' is not a time (Unix seconds)", at)
        return result
      case .number(let seconds):
        if seconds == 0 { continue }
        guard seconds == seconds.rounded(), abs(seconds) <= Double(StartLimits.range.upperBound) else {
          (result.problem, result.problemIndex) = ("\(column) '\(reader.string(at))' is not a time (Unix seconds)", at)
          return result
        }
        if let problem = StartLimits.problem(Int64(seconds), text: reader.string(at)) {
          (result.problem, result.problemIndex) = (problem, at)
          return result
        }
        result.start = Int64(seconds)
      }
      break
    }
    if let at = Columns.field(columns.totalTime, in: reader) {
      switch NumberParser.decimal(reader.field(at)) {
      case .number(let seconds) where WorkoutLength.problem(seconds, text: "") == nil:
        let whole = Int64(seconds.rounded(.down))
        result.durationSeconds = whole > 0 ? whole : nil
      case .invalid:
        (result.problem, result.problemIndex) = ("total_time '\(reader.string(at))' is not a number of seconds", at)
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
    private var header: Columns?
    /// The reasons rows are ignored for, per section, built once per section.
    private var reasons = Reasons(section: "")
    /// The exercise logs accepted, by `_id`, with their line.
    private var logLines: [String: Int] = [:]
    /// The rows returned as ignored for ``repeatedLog``, by line, with the line of the log each
    /// repeats: ``amend(_:)`` lists them as duplicates.
    private var repeats: [Int: Int] = [:]
    /// The section's column at fault for each row rejected or repaired here, by the line its
    /// note is listed on.
    private var faults: [Int: String] = [:]
    /// Set while a row is parsed when its problem is the whole record's, not one column's.
    private var wholeRecord = false

    /// What a repeated log is returned as, until ``amend(_:)`` makes it a duplicate: no cell
    /// text, so that it is one reason however many logs repeat.
    static let repeatedLog = "JEFIT EXERCISE LOGS section: a log repeated"

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
        self.header = Columns(names: (0..<reader.fieldCount).map { normalizedName(reader.string($0)) })
        return .ignored(reasons.header)
      }
      do throws(FieldProblem) {
        switch section {
        case "EXERCISE LOGS":
          return try exerciseLog(reader, header: header, line: line)
        case "WORKOUT SESSIONS":
          if let id = Columns.field(header.id, in: reader), let session = context.sessions[reader.string(id)],
            let problem = session.problem
          {
            throw FieldProblem(index: session.problemIndex ?? id, reason: problem)
          }
          if let at = Columns.field(header.totalTime, in: reader),
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
      } catch {
        // Listed by the shared reading at the field's line, as it places every reject.
        let index = min(error.index, reader.fieldCount - 1)
        remember(error, at: reader.fields[index].line, reader: reader, header: header)
        wholeRecord = false
        throw error
      }
    }

    /// Remembers the section's column `problem` is at, for the note listed at `line`: none
    /// when the whole record is at fault.
    private func remember(_ problem: FieldProblem, at line: Int, reader: CSVReader, header: Columns) {
      let index = min(problem.index, reader.fieldCount - 1)
      faults[line] = !wholeRecord && index >= 0 && index < header.names.count ? header.names[index] : ""
    }

    /// Puts right the notes of what the shared reading could not know. It names a row's field
    /// by the file's first record, here a banner (`### SETTING ####…`), not by the section's
    /// header: each rejected or repaired row names the section's column at fault, or none (a
    /// record rejected before it is parsed, for invalid UTF-8). And a parser returns no
    /// duplicate: each log returned as ``repeatedLog`` is made one, naming the line it repeats.
    ///
    /// - Complexity: O(*k*), where *k* is the number of notes.
    func amend(_ result: inout FileIngest) {
      for position in result.notes.indices {
        let note = result.notes[position]
        switch note.outcome {
        case .rejected, .repaired, .valueDropped:
          result.notes[position].field = faults[note.line] ?? ""
        case .ignored where note.reason == Self.repeatedLog:
          guard let original = repeats[note.line] else { continue }
          result.notes[position].outcome = .duplicate
          result.notes[position].reason =
            "repeats line \(original): the same exercise log (its _id) is written twice in the file"
        case .ignored, .duplicate:
          break
        }
      }
      if let count = result.ignored.removeValue(forKey: Self.repeatedLog) {
        result.counts.ignored -= count
        result.counts.duplicate += count
      }
    }

    /// One exercise in one workout: its sets unpacked from `logs`. A log whose `_id` is one
    /// already accepted (a section pasted twice) is the same log again: returned as
    /// ``repeatedLog``, its sets not counted twice.
    private func exerciseLog(_ reader: CSVReader, header: Columns, line: Int) throws(FieldProblem) -> RowOutcome {
      func column(_ index: Int?, _ name: String) throws(FieldProblem) -> Int {
        guard let index else {
          wholeRecord = true
          throw FieldProblem(index: 0, reason: "the EXERCISE LOGS header has no '\(name)' column")
        }
        guard index < reader.fieldCount else {
          wholeRecord = true
          throw FieldProblem(
            index: reader.fieldCount - 1,
            reason: "expected \(header.names.count) fields as in the section's header, found \(reader.fieldCount)")
        }
        return index
      }
      let logs = try column(header.logs, "logs")
      let ename = try column(header.ename, "ename")
      let belongs = try column(header.belongsession, "belongsession")
      let mydate = try column(header.mydate, "mydate")

      var exercise = try fields.text(reader, ename)
      if exercise.isEmpty, let eid = Columns.field(header.eid, in: reader),
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
      // The first item that is assistance (SPEC 11.3): the row is listed repaired once.
      var repaired: FieldProblem?
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
        // A negative weight on an assisted exercise is its assistance: no load, the row
        // repaired, as in every reader (SPEC 11.3).
        let (weightKg, assistance) = try AssistedExercise.load(
          weightUnit.kilograms(try number(weightText)), exercise: exercise, index: logs,
          text: String(decoding: weightText, as: UTF8.self))
        if repaired == nil { repaired = assistance }
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
      if !sets.isEmpty, let id = Columns.field(header.id, in: reader), !reader.field(id).isEmpty {
        let text = reader.string(id)
        if let original = logLines[text] {
          repeats[line] = original
          return .ignored(Self.repeatedLog)
        }
        logLines[text] = line
      }
      // Listed by the shared reading at the row's line, as it lists every repair.
      if let repaired { remember(repaired, at: line, reader: reader, header: header) }
      return .sets(sets, repaired: repaired)
    }
  }
}
