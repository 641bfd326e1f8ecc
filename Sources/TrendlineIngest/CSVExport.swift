import Foundation
import TrendlineSchema
import TrendlineSupport

/// A field that could not be read, by its index in the record: the row is rejected.
struct FieldProblem: Error {
  var index: Int
  var reason: String
}

/// What one record of an export turned out to be.
enum RowOutcome {
  /// One set, which the parser wrote into the set it was given; `dropped` is a value the row
  /// stated that was impossible and is left unknown (SPEC 10.2), the set kept; `repaired` is a
  /// value read other than as written (a negative weight on an assisted exercise, SPEC 11.3),
  /// which lists the row as repaired.
  case set(dropped: FieldProblem? = nil, repaired: FieldProblem? = nil)
  /// Several sets from one record: a StrongLifts row is a whole workout, an older Fitbod row
  /// may state several identical sets; `repaired` as for ``set(dropped:repaired:)``.
  case sets([ExportSet], repaired: FieldProblem? = nil)
  /// Not a set (a pseudo-row, a skipped set); the reason is counted and listed.
  case ignored(String)
}

/// A format's reading of one CSV record, once its header is known.
protocol CSVRowParser: AnyObject {
  /// Reads the record now in `reader.fields` (which has the header's field count, unless
  /// ``readsAnyFieldCount``); a record of one set is written into `set` (``ExportSet/assign``).
  ///
  /// One set, refilled row after row, rather than a new one returned per row: a returned set
  /// was copied into its outcome and out again, and each copy retained and released its three
  /// strings, which a refilled set keeps while the row repeats them (a tenth of reading).
  func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome

  /// The format writes records of varying length (StrongLifts leaves off empty exercise
  /// blocks), so the parser reads each whatever its field count.
  var readsAnyFieldCount: Bool { get }

  /// Tries to read a record whose field count differs from the header's by repairing a known
  /// exporter bug: the outcome and what was repaired, or nil when no repair is unambiguous.
  /// Formats without such a bug keep the default, which repairs nothing.
  func repair(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem)
    -> (outcome: RowOutcome, repair: String)?
}

extension CSVRowParser {
  var readsAnyFieldCount: Bool { false }
  func repair(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem)
    -> (outcome: RowOutcome, repair: String)?
  { nil }
}

/// The column names of a CSV export, looked up by any of their spellings.
final class CSVHeader {
  let names: [String]
  /// Each column's byte column on the header line, for messages.
  let columns: [Int]
  /// The columns a parser looked up: only these must be unambiguous.
  private var used: [Int] = []

  init(_ reader: CSVReader) {
    // NFC, so a header saved on a Mac (`Durée` as `e` + U+0301) matches the names looked for.
    names = (0..<reader.fieldCount).map { normalizedName(reader.string($0)) }
    columns = reader.fields.map(\.column)
  }

  /// The index of the first column named any of `candidates` (exact, then case-insensitive).
  func index(_ candidates: String...) -> Int? {
    index(candidates)
  }

  func index(_ candidates: [String]) -> Int? {
    let found = lookUp(candidates)
    if let found { used.append(found) }
    return found
  }

  /// The first of `candidates` the header has, with what its name says (a column named by
  /// its unit, such as `Weight (kg)`).
  func index<Meaning>(_ candidates: [(name: String, unit: Meaning)]) -> (Int, Meaning)? {
    for candidate in candidates {
      if let found = index(candidate.name) { return (found, candidate.unit) }
    }
    return nil
  }

  /// Whether a column has this name (in any case); looking does not make it used.
  func has(_ name: String) -> Bool { lookUp([name]) != nil }

  private func lookUp(_ candidates: [String]) -> Int? {
    for candidate in candidates {
      if let index = names.firstIndex(of: candidate) { return index }
    }
    let lowered = names.map { $0.lowercased() }
    for candidate in candidates {
      if let index = lowered.firstIndex(of: candidate.lowercased()) { return index }
    }
    return nil
  }

  /// Fails the file when a column a parser reads is named twice (in any case): which of the
  /// two holds the values is a guess, and a wrong guess would be silent. Duplicates among
  /// columns nobody reads (two `Notes`) do no harm.
  ///
  /// - Complexity: O(*c* × *u*), where *c* is the number of columns and *u* of those used.
  func checkUsedColumnsAreUnique(_ file: String) throws(ExportError) {
    for index in Set(used).sorted() {
      let name = names[index].lowercased()
      if let twin = names.indices.first(where: { $0 != index && names[$0].lowercased() == name }) {
        let (first, second) = (min(index, twin), max(index, twin))
        throw ExportError(
          file: file, line: 1, column: columns[second],
          message:
            "column '\(names[second])' appears twice in the header (columns \(first + 1) and \(second + 1)); "
            + "remove or rename one"
        )
      }
    }
  }

  /// Like ``index(_:)`` but the column must exist. A format's reader calls this for every
  /// column the export always has, so that one under an unfamiliar name fails the file instead
  /// of being read as empty (SPEC 10.1).
  func require(_ file: String, format: String, _ candidates: String..., hint: String? = nil) throws(ExportError) -> Int
  {
    try require(file, format: format, candidates, hint: hint)
  }

  func require(_ file: String, format: String, _ candidates: [String], hint: String? = nil) throws(ExportError) -> Int {
    if let index = index(candidates) { return index }
    throw missing(file, format: format, column: candidates[0], looked: candidates, hint: hint)
  }

  /// The error for a column not found: what was looked for, the header as it is, and what to
  /// do (by default: read a CSV the format reader does not know with a column mapping).
  func missing(_ file: String, format: String, column: String, looked: [String], hint: String? = nil) -> ExportError {
    let alternatives = looked.count > 1 ? " (looked for \(looked.map { "'\($0)'" }.joined(separator: ", ")))" : ""
    let hint =
      hint
      ?? "if this is another app's CSV, or a variant Trendline does not know, read it with source.format \"csv\" and a "
      + "source.csv column mapping"
    return ExportError(
      file: file,
      message:
        "\(format): the header has no '\(column)' column\(alternatives); the header is: "
        + "\(names.joined(separator: ", ")); \(hint)"
    )
  }
}

/// Reads the whole of one CSV export: the header, then every record, each either a set, a
/// reject with its line, column and reason, a duplicate, or an ignored row.
///
/// - Complexity: O(*n*), where *n* is the file's size in bytes.
func readCSVExport<Parser: CSVRowParser>(
  file: String, bytes: [UInt8], format: ExportFormat, delimiter: UInt8? = nil, limits: ReadLimits,
  makeParser: (CSVHeader) throws(ExportError) -> Parser
) throws(ExportError) -> FileIngest {
  // Only a file that is not valid UTF-8 pays for checking each record.
  let checksUTF8 = !isValidUTF8(bytes)
  // The reader borrows the file's bytes for the whole read: a copy of its own would double
  // what a large export costs. `withUnsafeBufferPointer` rethrows untyped errors, so the
  // typed one is carried out through a Result.
  let result: Result<FileIngest, ExportError> = bytes.withUnsafeBufferPointer { buffer in
    let reader = CSVReader(
      borrowing: buffer, delimiter: delimiter, maximumFieldBytes: limits.maxFieldBytes,
      maximumFields: limits.maxColumns)
    do throws(ExportError) {
      return .success(
        try readCSVRecords(
          reader, file: file, format: format, checksUTF8: checksUTF8, limits: limits,
          expectedSets: expectedSetCount(lines: lineCount(buffer), bytes: buffer.count), makeParser: makeParser))
    } catch {
      return .failure(error)
    }
  }
  return try result.get()
}

/// How many sets to make room for before reading a file of `lines` lines and `bytes` bytes:
/// a set per line, but never more than one per ``minimumBytesPerRow``. A file of 200 MB of
/// line feeds (blank lines, which are no sets) asked for 30 GB at once and was killed; past
/// the bound the array grows by doubling as any other.
///
/// - Complexity: O(1).
package func expectedSetCount(lines: Int, bytes: Int) -> Int {
  min(lines, bytes / minimumBytesPerRow)
}

/// Fewer bytes than any real set row of any format holds (a date, a name, a number and their
/// separators): the shortest set row in the real exports surveyed is 67 bytes (Strong).
package let minimumBytesPerRow = 40

/// The number of lines in `bytes`, counting a last line without its line feed: at least the
/// number of records, so at least the sets of every format but StrongLifts' (a set per row).
///
/// - Complexity: O(*n*), where *n* is the number of bytes; `memchr` scans them.
func lineCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
  guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
  var lines = 0
  var position = 0
  while position < bytes.count {
    guard let found = memchr(base + position, 0x0A, bytes.count - position) else { return lines + 1 }
    lines += 1
    position = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
  }
  return lines
}

/// The body of ``readCSVExport``, over a reader that lives only as long as the call.
///
/// Generic over the format's parser, so each format gets a reader of its own with its `parse`
/// called directly, not through an existential.
private func readCSVRecords<Parser: CSVRowParser>(
  _ reader: CSVReader, file: String, format: ExportFormat, checksUTF8: Bool, limits: ReadLimits,
  expectedSets: Int, makeParser: (CSVHeader) throws(ExportError) -> Parser
) throws(ExportError) -> FileIngest {
  var result = FileIngest(file: file, format: format)
  // Room for a set per line from the start: grown by doubling, the array of a 173 MB export
  // held its old and new buffers at once at its last growth, and kept up to half of it unused.
  result.sets.reserveCapacity(expectedSets)

  // The header is the first record; blank lines before it are not rows.
  var headerEvent = reader.next()
  while case .blankLine = headerEvent { headerEvent = reader.next() }
  switch headerEvent {
  case .end:
    throw ExportError(file: file, message: "the file is empty; export it again from the app")
  case .malformed(let bad):
    if bad.message.hasPrefix(CSVReader.tooManyFieldsMessage) {
      throw ExportError(
        file: file, line: bad.line, column: 1,
        message:
          "the header has more than \(limits.maxColumns) columns, over the limit; "
          + "raise source.limits.maxColumns to read the file"
      )
    }
    throw ExportError(
      file: file, line: bad.line, column: bad.column, message: "header: \(bad.message)")
  case .blankLine, .record: break
  }
  let header = CSVHeader(reader)
  let parser = try makeParser(header)
  try header.checkUsedColumnsAreUnique(file)
  var duplicates = DuplicateSetFilter()
  var set = ExportSet()

  while true {
    let event = reader.next()
    switch event {
    case .end:
      if format == .strongCSV { result.moveRepeatedWorkouts() }
      return result
    case .blankLine:
      result.rowsRead += 1
      result.ignoreBlankLine()
      continue
    case .malformed(let bad):
      result.rowsRead += 1
      // The reject names the record's first line, as every other reject does; a quote that
      // ran on into later lines says where the reader finally noticed.
      let sameLine = bad.line == bad.recordLine
      let message = limitHint(bad.message)
      result.note(
        .rejected, line: bad.recordLine, column: sameLine ? bad.column : 1, field: "",
        reason: sameLine ? message : "\(message) (at line \(bad.line), column \(bad.column))")
      continue
    case .record(let line):
      result.rowsRead += 1
      if checksUTF8, let bad = firstInvalidUTF8Field(reader) {
        result.note(
          .rejected, line: reader.fields[bad.index].line, column: reader.fields[bad.index].column,
          field: bad.index < header.names.count ? header.names[bad.index] : "",
          reason: "invalid UTF-8 (byte 0x\(String(bad.byte, radix: 16, uppercase: true))); save the file as UTF-8")
        continue
      }
      do throws(FieldProblem) {
        let outcome: RowOutcome
        var repair: String?
        if reader.fieldCount == header.names.count || parser.readsAnyFieldCount {
          outcome = try parser.parse(reader, line: line, into: &set)
        } else if let repaired = try parser.repair(reader, line: line, into: &set) {
          (outcome, repair) = repaired
        } else {
          let column = reader.fields.last.map { $0.column } ?? 1
          result.note(
            .rejected, line: line, column: column, field: "",
            reason: "expected \(header.names.count) fields as in the header, found \(reader.fieldCount)")
          continue
        }
        switch consume outcome {
        case .ignored(let reason):
          result.note(.ignored, line: line, column: 1, field: "", reason: reason)
        case .set(let dropped, let repaired):
          if let original = duplicates.original(of: set) {
            result.note(.duplicate, line: line, column: 1, field: "", reason: DuplicateSetFilter.reason(original))
            continue
          }
          noteRepairs(repaired, repair: repair, line: line, reader: reader, header: header, into: &result)
          if let dropped {
            let index = min(dropped.index, reader.fieldCount - 1)
            result.note(
              .valueDropped, line: reader.fields[index].line, column: reader.fields[index].column,
              field: index < header.names.count ? header.names[index] : "", reason: dropped.reason)
            set.droppedValueLine = Int32(clamping: reader.fields[index].line)
          }
          result.sets.append(set)
        case .sets(let sets, let repaired):
          // A whole-workout row is one row: it holds no repeat of itself to find. A row of no
          // set is still a row, and counted.
          guard !sets.isEmpty else {
            result.note(.ignored, line: line, column: 1, field: "", reason: "a row with no set")
            continue
          }
          noteRepairs(repaired, repair: repair, line: line, reader: reader, header: header, into: &result)
          for (position, var set) in sets.enumerated() {
            set.sharesRowWithPrevious = position > 0
            result.sets.append(set)
          }
        }
      } catch {
        let index = min(error.index, reader.fieldCount - 1)
        let field = index < header.names.count ? header.names[index] : ""
        result.note(
          .rejected, line: reader.fields[index].line, column: reader.fields[index].column, field: field,
          reason: error.reason)
      }
    }
  }
}

/// Lists a row read only after repairs — a known exporter bug (`repair`), a value read other
/// than as written (`repaired`) — with one note however many it needed: `rowsRepaired` counts
/// rows. The note sits at the repaired value's column when there is one.
private func noteRepairs(
  _ repaired: FieldProblem?, repair: String?, line: Int, reader: CSVReader, header: CSVHeader,
  into result: inout FileIngest
) {
  guard let repaired else {
    if let repair { result.note(.repaired, line: line, column: 1, field: "", reason: repair) }
    return
  }
  let index = min(repaired.index, reader.fieldCount - 1)
  let field = reader.fields[index]
  result.note(
    .repaired, line: line, column: field.line == line ? field.column : 1,
    field: index < header.names.count ? header.names[index] : "",
    reason: repair.map { "\($0); \(repaired.reason)" } ?? repaired.reason)
}

/// Finds rows that repeat a set already read from the same file (SPEC 10.5).
///
/// A row is a duplicate only when it repeats the same set of the same exercise block — the
/// same set index within its block — *and* says the same thing (type, weight, reps, distance,
/// time). A block is a run of consecutive sets of one session and exercise whose numbers do not
/// go back: Hevy and Strong number sets per block, so an exercise done twice in one workout —
/// apart, or twice in a row — repeats its numbers with real sets, and dropping those would lose
/// real work. A block, once left, never continues (coming back to an exercise starts a new
/// one), so only the block being read needs remembering: a few sets, searched per row.
struct DuplicateSetFilter {
  private struct Key: Equatable {
    var index: Int
    var type: SetType
    var weightKg: Double
    var reps: Double
    var distanceMeters: Double
    var seconds: Double
  }
  private var session = ""
  private var exercise = ""
  private var lastIndex: Int?
  /// The current block's numbered sets and, at the same positions, their lines.
  private var keys: [Key] = []
  private var lines: [Int] = []

  /// The line of the set that `set` repeats (0 for a set without a line), or nil when it is
  /// a set of its own. Every set passes through, so that blocks are told apart right.
  mutating func original(of set: ExportSet) -> Int? {
    let restarts = set.setIndex.map { index in lastIndex.map { index < $0 } ?? false } ?? false
    if set.sessionKey != session || set.exercise != exercise || restarts {
      session = set.sessionKey
      exercise = set.exercise
      keys.removeAll(keepingCapacity: true)
      lines.removeAll(keepingCapacity: true)
      lastIndex = nil
    }
    // A warm-up (no number) between blocks does not hide where the numbers start again.
    guard let index = set.setIndex else { return nil }
    lastIndex = index
    let key = Key(
      index: index, type: set.type, weightKg: set.weightKg, reps: set.reps, distanceMeters: set.distanceMeters,
      seconds: set.seconds)
    // Numbers do not go down within a block, so the sets with this one are the last few: the
    // search stops at the first smaller number, and one long block stays linear.
    var position = keys.count - 1
    while position >= 0 && keys[position].index == index {
      if keys[position] == key { return lines[position] }
      position -= 1
    }
    keys.append(key)
    lines.append(set.line)
    return nil
  }

  /// The reason listed for a duplicate of the set at `line`.
  static func reason(_ line: Int) -> String {
    line > 0
      ? "repeats line \(line): the same set of the same exercise block, with the same values"
      : "repeats an earlier set: the same set of the same exercise block, with the same values"
  }
}

extension FileIngest {
  /// Moves to duplicates every workout written twice over in one file: a session whose rows
  /// are one sequence of numbered sets and then the same sequence again, set for set (seen in
  /// four real Strong exports, where a sync wrote whole workouts twice). That is a repeat of the same
  /// sets, not an exercise done twice — the second copy is listed, naming the line it repeats.
  ///
  /// - Complexity: O(*n*) in the number of sets; a session is compared only when it has an
  ///   even number of sets, and stops at its first difference.
  mutating func moveRepeatedWorkouts() {
    // Read from a copy (the same storage, shared): `note` changes `self` while the runs are read.
    let sets = self.sets
    var kept: [Int] = []
    var moved = Set<Int>()
    sets.forEachSessionRun { _, run in
      let start = run.lowerBound
      let half = run.count / 2
      // Only sets that carry their number can show a repeat: without one, two equal halves
      // are as likely to be a routine done twice (3 × 10 at 60 kg, then again).
      let repeated =
        half > 0 && run.count % 2 == 0 && sets.hasSetIndex(start)
        && sets.isWholeWorkout(start..<(start + half))
        && (0..<half).allSatisfy { sets.sameSet(start + $0, start + half + $0) }
      if repeated {
        if moved.isEmpty { kept = Array(0..<start) }
        kept += start..<(start + half)
        for offset in 0..<half {
          let line = sets.line(start + half + offset)
          moved.insert(line)
          note(
            .duplicate, line: line, column: 1, field: "",
            reason: "repeats line \(sets.line(start + offset)): the whole workout is written twice in the file")
        }
      } else if !moved.isEmpty {
        kept += run
      }
    }
    guard !moved.isEmpty else { return }
    self.sets.keep(kept)
    // A repeated row is a duplicate and nothing else: a value it dropped is not counted twice.
    let before = notes.count
    notes.removeAll { $0.outcome == .valueDropped && moved.contains($0.line) }
    rowsValueDropped -= before - notes.count
    notes.sort { $0.line < $1.line }
  }
}

extension FileSets {
  /// Whether the sets at `half` look like a workout rather than a round of one: at least two
  /// exercise blocks and a block of at least two sets. One exercise done twice (`1, 2` and
  /// `1, 2`) or a circuit of single sets (`Curl 1, Dip 1` twice) is real work repeated, never
  /// moved.
  func isWholeWorkout(_ half: Range<Int>) -> Bool {
    var blocks = 1
    var longest = 1
    var run = 1
    for position in half.dropFirst() {
      if kind(of: position).exercise == kind(of: position - 1).exercise {
        run += 1
        longest = Swift.max(longest, run)
      } else {
        blocks += 1
        run = 1
      }
    }
    return blocks >= 2 && longest >= 2
  }

  /// Whether the sets at `a` and `b` are the same set, wherever each was read: every value but
  /// the line.
  func sameSet(_ a: Int, _ b: Int) -> Bool {
    let (first, second) = (records[a], records[b])
    return first.setIndex == second.setIndex && first.weightKg == second.weightKg && first.reps == second.reps
      && first.distanceMeters == second.distanceMeters && first.seconds == second.seconds
      && kind(of: a).type == kind(of: b).type && kind(of: a).exercise == kind(of: b).exercise
  }
}

/// Turns fields into values for one format, with the reject reasons written in one place.
///
/// Strings repeat down a file (a workout's name and date on each of its rows, an exercise's
/// name on each of its sets), so each text column keeps its last bytes and `String`: a
/// repeated value costs a byte comparison, not a decode and a Unicode normalization.
///
/// The memo properties are read on every row, so they skip Swift's dynamic exclusivity
/// checks, which cost more than the comparisons they guard: a decoder belongs to one file's
/// parser on one thread, and no method holds an access across a call to another.
final class FieldDecoder {
  /// Per column: the last bytes seen and their text (indexed by column, grown on demand).
  @exclusivity(unchecked) private var lastBytes: [[UInt8]?] = []
  @exclusivity(unchecked) private var lastText: [String] = []
  @exclusivity(unchecked) private var lastTimestampBytes: [UInt8] = []
  @exclusivity(unchecked) private var lastTimestamp: Int64 = 0
  @exclusivity(unchecked) private var lastKey: (start: Int64, name: String, key: String)?
  @exclusivity(unchecked) private var lastDuration:
    (index: Int, bytes: [UInt8], reading: (seconds: Int64?, dropped: FieldProblem?))?
  let resolver: ZoneResolver
  /// Numbers are written with a decimal comma (`62,5`), as in a mapped CSV that says so.
  let decimalComma: Bool
  /// How dates spelling their month read it (Hevy); nil reads English names.
  var months: MonthReading?

  init(timeZone: TimeZone, decimalComma: Bool = false) {
    resolver = ZoneResolver(timeZone: timeZone)
    self.decimalComma = decimalComma
  }

  /// Field `index` as a name (of an exercise, a workout): trimmed NFC text, at most
  /// ``NameLimit/maximumCharacters`` long.
  ///
  /// - Throws: ``FieldProblem`` for a name over the limit.
  /// - Complexity: O(*m*) for a field of *m* bytes; a repeat of the column's last value
  ///   allocates nothing.
  func text(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> String {
    while lastBytes.count <= index {
      lastBytes.append(nil)
      lastText.append("")
    }
    let bytes = reader.field(index)
    if let last = lastBytes[index], equal(last, bytes) { return lastText[index] }
    let text = normalizedName(bytes)
    if let problem = NameLimit.problem(text) { throw FieldProblem(index: index, reason: problem) }
    lastBytes[index] = Array(bytes)
    lastText[index] = text
    return text
  }

  /// Field `index` as an exercise's name: ``text(_:_:)``, and never empty, since a set of no
  /// exercise maps to no muscle and is drawn on no chart; `noun` is what the format calls it
  /// (Hevy's `title`), for the reason `the exercise name is empty`.
  ///
  /// - Complexity: as ``text(_:_:)``.
  func exerciseName(_ reader: CSVReader, _ index: Int, called noun: String = "name") throws(FieldProblem) -> String {
    let name = try text(reader, index)
    guard !name.isEmpty else { throw FieldProblem(index: index, reason: "the exercise \(noun) is empty") }
    return name
  }

  /// The session key of a row, built once per session rather than once per row.
  func sessionKey(start: Int64, name: String) -> String {
    if let last = lastKey, last.start == start, last.name == name { return last.key }
    let key = TrendlineIngest.sessionKey(start: start, name: name)
    lastKey = (start, name, key)
    return key
  }

  /// Field `index` as a number; empty is `empty` (SPEC 9.5: an empty weight is 0 kg).
  func number(_ reader: CSVReader, _ index: Int, empty: Double = 0) throws(FieldProblem) -> Double {
    let bytes = reader.field(index)
    let value: NumberParser.Value
    if decimalComma && bytes.contains(ASCII.comma) {
      let swapped = bytes.map { $0 == ASCII.comma ? ASCII.dot : $0 }
      value = swapped.withUnsafeBufferPointer { NumberParser.decimal($0) }
    } else {
      value = NumberParser.decimal(bytes)
    }
    switch value {
    case .number(let number): return number
    case .empty: return empty
    case .invalid:
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a number")
    }
  }

  /// Field `index` as a weight in kilograms, `unit` being what the file writes; empty is a
  /// body-weight set of 0 kg (SPEC 9.5), and 0…1500 kg is the possible range (SPEC 3).
  func weightKg(_ reader: CSVReader, _ index: Int?, unit: WeightUnit) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    let kilograms = unit.kilograms(try number(reader, index))
    try SetLimits.checkWeight(kilograms, index: index, text: reader.string(index))
    return kilograms
  }

  /// Field `index` as the load of a set of `exercise`: as ``weightKg(_:_:unit:)``, except that
  /// a negative weight on an assisted exercise (``AssistedExercise``) is the machine's
  /// assistance, not a load: the set counts with no load — 0 kg, what an empty weight reads as
  /// (SPEC 9.5) — and the problem returned lists the row as repaired (SPEC 11.3). On any other
  /// exercise a negative weight still rejects the row.
  ///
  /// - Complexity: O(*m*) for a field of *m* bytes, plus O(*e*) for an exercise name of *e*
  ///   bytes when the weight is negative.
  func loadKg(_ reader: CSVReader, _ index: Int?, unit: WeightUnit, exercise: String) throws(FieldProblem)
    -> (kilograms: Double, assistance: FieldProblem?)
  {
    guard let index else { return (0, nil) }
    return try AssistedExercise.load(
      unit.kilograms(try number(reader, index)), exercise: exercise, index: index, text: reader.string(index))
  }

  /// Field `index` as reps: empty is 0, 0…1000 the possible range.
  func reps(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    let reps = try number(reader, index)
    try SetLimits.checkReps(reps, index: index, text: reader.string(index))
    return reps
  }

  /// Field `index` as a distance in metres, `unit` being what the file writes.
  func meters(_ reader: CSVReader, _ index: Int?, unit: DistanceUnit) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    let value = try number(reader, index)
    try SetLimits.checkNonNegative(value, index: index, what: "distance", text: reader.string(index))
    let meters = unit.meters(value)
    try SetLimits.checkDistance(meters, index: index, text: reader.string(index))
    return meters
  }

  /// Field `index` as seconds of a timed set: a number, or a duration such as `0:09:21`.
  func seconds(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    return Double(try duration(reader, index) ?? 0)
  }

  /// Field `index` as a set number within its exercise, or nil when empty.
  func setIndex(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> Int? {
    guard let index, !reader.isEmpty(index) else { return nil }
    let value = try number(reader, index)
    // A set index beyond a million is no set number; `Int(_:)` would also trap on 1e20.
    guard value >= 0, value <= 1_000_000, value == value.rounded() else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a set index")
    }
    return Int(value)
  }

  private static let normalBytes = Array("normal".utf8)
  private static let warmupBytes = Array("warmup".utf8)

  /// Field `index` as a set type in the words apps use (`normal`, `warmup`/`warm-up`/`w`,
  /// `dropset`/`drop set`/`d`, `failure`/`f`), any case; empty is normal.
  func setType(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> SetType {
    guard let index, !reader.isEmpty(index) else { return .normal }
    // The common spellings straight from the bytes: this runs on every row of a Hevy export.
    let bytes = reader.field(index)
    if equal(Self.normalBytes, bytes) { return .normal }
    if equal(Self.warmupBytes, bytes) { return .warmup }
    switch reader.string(index).trimmingCharacters(in: .whitespaces).lowercased() {
    case "normal", "n": return .normal
    case "warmup", "warm_up", "warm-up", "warm up", "w": return .warmup
    case "dropset", "drop_set", "drop-set", "drop set", "drop", "d": return .dropset
    case "failure", "f": return .failure
    default:
      throw FieldProblem(
        index: index, reason: "'\(reader.string(index))' is not a set type (normal, warmup, dropset, failure)")
    }
  }

  /// A per-row unit column (`Weight Unit`: `kg`, `kgs`, `lbs`), nil when absent or empty.
  func weightUnit(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> WeightUnit? {
    guard let index, !reader.isEmpty(index) else { return nil }
    guard let unit = WeightUnit(spelling: reader.string(index)) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a weight unit (kg or lbs)")
    }
    return unit
  }

  /// A per-row unit column (`Distance Unit`: `km`, `mi.`, `m`), nil when absent or empty.
  func distanceUnit(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> DistanceUnit? {
    guard let index, !reader.isEmpty(index) else { return nil }
    guard let unit = DistanceUnit(spelling: reader.string(index)) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a distance unit (km, mi or m)")
    }
    return unit
  }

  /// Field `index` as a workout's length in seconds: nil when empty. A length that is negative
  /// or over 24 hours (a timer left running: `42h 13m`) is no length at all, but the sets
  /// are real, so it is dropped — unknown, with the problem to list — rather than rejecting
  /// the row (SPEC 10.2). Text that is no duration at all still rejects the row.
  ///
  /// Every row of a workout repeats its length, so a repeat of the column's last text is given
  /// the last reading, dropped or not, without parsing it again.
  func workoutDuration(_ reader: CSVReader, _ index: Int) throws(FieldProblem)
    -> (seconds: Int64?, dropped: FieldProblem?)
  {
    let bytes = reader.field(index)
    if let last = lastDuration, last.index == index, equal(last.bytes, bytes) { return last.reading }
    let reading: (seconds: Int64?, dropped: FieldProblem?)
    switch NumberParser.duration(bytes) {
    case .number(let seconds):
      if let problem = WorkoutLength.problem(seconds, text: reader.string(index)) {
        reading = (nil, FieldProblem(index: index, reason: problem))
      } else {
        reading = (Int64(seconds.rounded(.down)), nil)
      }
    case .empty: reading = (nil, nil)
    case .invalid:
      throw FieldProblem(
        index: index,
        reason: "'\(reader.string(index))' is not a duration (like 1h 5m, 45m, 01:05:00 or seconds)")
    }
    lastDuration = (index, Array(bytes), reading)
    return reading
  }

  /// Field `index` as a duration in seconds, or nil when empty.
  func duration(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> Int64? {
    switch NumberParser.duration(reader.field(index)) {
    case .number(let seconds):
      guard seconds >= 0 else {
        throw FieldProblem(index: index, reason: "duration '\(reader.string(index))' is negative")
      }
      guard seconds <= 86_400 else {
        throw FieldProblem(
          index: index, reason: "duration '\(reader.string(index))' is longer than 24 hours")
      }
      return Int64(seconds.rounded(.down))
    case .empty: return nil
    case .invalid:
      throw FieldProblem(
        index: index,
        reason: "'\(reader.string(index))' is not a duration (like 1h 5m, 45m, 01:05:00 or seconds)")
    }
  }

  /// Field `index` as an instant: a stated offset is used as it is, a local time is read in
  /// the user's zone. Before 1970 is impossible for a workout log (SPEC 3).
  func instant(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> Int64 {
    let bytes = reader.field(index)
    if !bytes.isEmpty && equal(lastTimestampBytes, bytes) { return lastTimestamp }
    guard let parsed = TimestampParser.parse(bytes, months: months) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a date and time")
    }
    let value = try checkedInstant(parsed, reader, index)
    lastTimestampBytes = Array(bytes)
    lastTimestamp = value
    return value
  }

  /// Field `index` as a local wall time (seconds since 1970 on the wall clock), for end times
  /// that must be placed after a start.
  func localTime(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> ParsedTimestamp {
    guard let parsed = TimestampParser.parse(reader.field(index), months: months) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a date and time")
    }
    return parsed
  }

  func checkedInstant(_ parsed: ParsedTimestamp, _ reader: CSVReader, _ index: Int)
    throws(FieldProblem) -> Int64
  {
    let value: Int64
    if let offset = parsed.offsetSeconds {
      value = parsed.civil.localSeconds - Int64(offset)
    } else {
      value = resolver.instant(localSeconds: parsed.civil.localSeconds)
    }
    if let problem = StartLimits.problem(value, text: reader.string(index)) {
      throw FieldProblem(index: index, reason: problem)
    }
    return value
  }
}

/// Byte-wise equality by `memcmp`.
@inline(__always)
func equal(_ array: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard array.count == bytes.count else { return false }
  guard let base = bytes.baseAddress else { return true }
  return array.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
}

/// `normalizedName` of UTF-8 bytes: ASCII text (nearly every name) is trimmed and made into a
/// `String` directly, without Foundation's trimming, which costs more than the rest of a row.
func normalizedName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  var start = 0
  var end = bytes.count
  var ascii = true
  for byte in bytes where byte >= 0x80 {
    ascii = false
    break
  }
  guard ascii else { return normalizedName(String(decoding: bytes, as: UTF8.self)) }
  func isSpace(_ byte: UInt8) -> Bool { byte == ASCII.space || (byte >= 0x09 && byte <= 0x0D) }
  while start < end && isSpace(bytes[start]) { start += 1 }
  while end > start && isSpace(bytes[end - 1]) { end -= 1 }
  return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
}

/// Trimmed, Unicode NFC: the one spelling of a name that comparisons and outputs use, so
/// `Rücken` typed on a Mac (NFD) and on a phone (NFC) is one exercise.
public func normalizedName(_ text: String) -> String {
  // ASCII text is already NFC, and trimmed by its bytes: Foundation's trimming cost more than
  // the rest of a catalog look-up, which every user makes for every exercise name.
  if text.utf8.allSatisfy({ $0 < 0x80 }) {
    var copy = text
    return copy.withUTF8 { normalizedName($0) }
  }
  return text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
}

/// The possible length of a workout: 0 to 24 hours. Outside it the length is dropped and the
/// sets kept (SPEC 10.2), in every format.
enum WorkoutLength {
  static let maximumSeconds = 86_400.0

  /// Why `seconds` cannot be a workout's length, or nil when it can.
  static func problem(_ seconds: Double, text: @autoclosure () -> String) -> String? {
    if seconds < 0 { return "workout duration '\(text())' is negative; the duration is dropped, the sets kept" }
    if seconds > maximumSeconds {
      return
        "workout duration '\(text())' is longer than 24 hours (a timer left running); the duration is dropped, "
        + "the sets kept"
    }
    return nil
  }
}

/// The longest exercise or workout name a row may have, in every format: a longer one rejects
/// its row.
///
/// Names are what charts show (an axis label, a legend, a table row), and every chart repeats
/// them, so an unbounded one made a 100 MB name into a 315 MB SVG. A real exercise name is
/// a few words (the apps' own libraries stay under 60 characters), so a name of hundreds is
/// another column mapped wrongly or junk. Rejected rather than truncated: two long names cut
/// to one prefix would silently merge into one exercise on a chart.
enum NameLimit {
  /// An empirically generous bound: three times the longest name in the built-in catalog and
  /// in the apps' libraries we know.
  static let maximumCharacters = 200
  static let maximumBytes = 4 * maximumCharacters

  /// Why `name` cannot be a name on a chart, or nil when it can.
  ///
  /// - Complexity: O(1) for a name of at most ``maximumCharacters`` UTF-8 bytes, else O(*m*).
  static func problem(_ name: String) -> String? {
    // A character is at least one byte, so only a name of more bytes needs counting.
    guard name.utf8.count > maximumCharacters else { return nil }
    let count = name.count
    if count > maximumCharacters {
      return
        "the name is \(count) characters long ('\(name.prefix(40))…'), "
        + "over the limit of \(maximumCharacters) characters for a name on a chart"
    }
    // A character may carry any number of combining marks: its bytes are bounded too, by four
    // per character (the most UTF-8 spends on one scalar).
    guard name.utf8.count > maximumBytes else { return nil }
    return
      "the name is \(name.utf8.count) bytes long "
      + "('\(String(String.UnicodeScalarView(name.unicodeScalars.prefix(40))))…'), "
      + "over the limit of \(maximumBytes) bytes for a name on a chart"
  }
}

/// The instants a session may start at, in every format: from 1970-01-01T00:00:00Z (no
/// workout log holds earlier ones) through 9999-12-31T23:59:59Z, the last second RFC 3339's
/// four-digit year can write (a local time in year 9999 with a negative offset ends up after
/// it, and would be written as year 0000).
enum StartLimits {
  static let range: ClosedRange<Int64> = 0...253_402_300_799

  /// Why `start` cannot be a session's start, or nil when it can.
  static func problem(_ start: Int64, text: @autoclosure () -> String) -> String? {
    if start < range.lowerBound { return "'\(text())' is before 1970, which no workout log holds" }
    if start > range.upperBound { return "'\(text())' is after 9999, which no workout log holds" }
    return nil
  }
}

/// Exercises whose weight an app may write as negative because it is assistance (a counterweight
/// lifting part of the body), not load: `Assisted Pull-Up`, `Pull Up (Assisted)`, `Assisted
/// Dip Machine` (EXPORT-FORMATS §10.4; SPEC 11.3). Recognised by the word's stem in the name, in
/// any case, in the languages the apps' libraries are written in: English, French, Italian and
/// Portuguese `assist` (`Trazioni assistite`, `Barra fixa assistida`), Spanish `asist`
/// (`Dominadas asistidas`), Turkish `yardım` (`Barfiks (Yardımlı)`), German `unterstütz`. It
/// does not look at muscle groups or the catalog, which a reader does not have.
enum AssistedExercise {
  private static let stems = ["assist", "asist", "yardım", "unterstütz"].map { Array($0.utf8) }

  /// Whether `name` contains one of the stems in any case (ASCII case folding: the stems'
  /// other letters are lower case as every library writes them).
  ///
  /// - Complexity: O(*e*), where *e* is the number of bytes of the name.
  static func contains(_ name: String) -> Bool {
    var utf8 = Array(name.utf8)
    for position in utf8.indices where utf8[position] >= 0x41 && utf8[position] <= 0x5A { utf8[position] |= 0x20 }
    return stems.contains { stem in
      guard utf8.count >= stem.count else { return false }
      return (0...(utf8.count - stem.count)).contains { start in
        utf8[start] == stem[0] && utf8[start..<(start + stem.count)].elementsEqual(stem)
      }
    }
  }

  /// `kilograms` as the load of a set of `exercise`, range-checked (``SetLimits/checkWeight``):
  /// a negative weight on an assisted exercise is no load (0 kg) with the problem to list as a
  /// repair; any other negative weight, or assistance over 1500 kg, rejects the row.
  ///
  /// - Complexity: O(1), plus O(*e*) for an exercise name of *e* bytes when the weight is
  ///   negative.
  static func load(_ kilograms: Double, exercise: String, index: Int, text: @autoclosure () -> String)
    throws(FieldProblem) -> (kilograms: Double, assistance: FieldProblem?)
  {
    if kilograms < 0, contains(exercise) {
      // Assistance beyond the heaviest load is no machine's: still impossible, still rejected.
      try SetLimits.checkWeight(-kilograms, index: index, text: text())
      return (0, FieldProblem(index: index, reason: reason(text())))
    }
    try SetLimits.checkWeight(kilograms, index: index, text: text())
    return (kilograms, nil)
  }

  /// The reason a row with assistance `text` is listed as repaired.
  static func reason(_ text: String) -> String {
    "weight '\(text.trimmingCharacters(in: .whitespaces))' is negative on an assisted exercise: "
      + "the assistance is not a load, so the set counts with no load"
  }
}

/// The checks every set gets, whatever its format (SPEC 3: impossible values are rejected).
///
/// Every number of a set is bounded, not only finite, so that no sum or statistic over any
/// number of sets can overflow (SPEC 11.6): two sets of 1e305 km, each finite, summed to
/// infinity and stopped a whole run. At these bounds a history of a billion sets sums to under
/// 1e18 in every measure.
enum SetLimits {
  static let maximumReps = 1000.0
  static let maximumWeightKg = 1500.0
  /// 1,000 km: more than any one effort a training log records (the 24-hour cycling record is
  /// under 950 km).
  static let maximumDistanceMeters = 1_000_000.0
  /// A day, as a workout's length is bounded.
  static let maximumSeconds = 86_400.0

  /// `meters` as a set's distance: finite, not negative, at most ``maximumDistanceMeters``.
  static func checkDistance(_ meters: Double, index: Int, text: @autoclosure () -> String) throws(FieldProblem) {
    try checkNonNegative(meters, index: index, what: "distance", text: text())
    guard meters <= maximumDistanceMeters else {
      throw FieldProblem(index: index, reason: "distance '\(text())' is more than 1000 km")
    }
  }

  static func checkReps(_ reps: Double, index: Int, text: @autoclosure () -> String)
    throws(FieldProblem)
  {
    guard reps >= 0 else { throw FieldProblem(index: index, reason: "reps '\(text())' is negative") }
    guard reps <= maximumReps else {
      throw FieldProblem(index: index, reason: "reps '\(text())' is more than 1000")
    }
  }

  static func checkWeight(_ kilograms: Double, index: Int, text: @autoclosure () -> String)
    throws(FieldProblem)
  {
    guard kilograms >= 0 else {
      throw FieldProblem(index: index, reason: "weight '\(text())' is negative")
    }
    guard kilograms <= maximumWeightKg else {
      throw FieldProblem(index: index, reason: "weight '\(text())' is more than 1500 kg")
    }
  }

  static func checkNonNegative(_ value: Double, index: Int, what: String, text: @autoclosure () -> String)
    throws(FieldProblem)
  {
    guard value >= 0 else {
      throw FieldProblem(index: index, reason: "\(what) '\(text())' is negative")
    }
  }
}

/// The session key shared by every format: the start instant and the NFC name, so two
/// exports of one workout agree whatever their date spelling or variant.
@inline(__always)
func sessionKey(start: Int64, name: String) -> String {
  "\(start)|\(name)"
}

/// Whether `bytes` are all valid UTF-8.
///
/// Validated in chunks cut at character boundaries, so a large file costs no second copy:
/// `String(validating:)` builds the string it validates.
///
/// - Complexity: O(*n*), where *n* is the number of bytes.
func isValidUTF8(_ bytes: [UInt8]) -> Bool {
  let chunk = 1 << 16  // An empirically cheap size: the copy stays in cache.
  return bytes.withUnsafeBufferPointer { buffer in
    var start = 0
    while start < buffer.count {
      var end = min(start + chunk, buffer.count)
      // Back up over continuation bytes (10xxxxxx) so no character is cut in two.
      var backed = 0
      while end < buffer.count && backed < 3 && buffer[end] & 0xC0 == 0x80 {
        end -= 1
        backed += 1
      }
      let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
      if !isASCII(slice) && String(validating: slice, as: UTF8.self) == nil { return false }
      start = end
    }
    return true
  }
}

/// Whether every byte is below 0x80, eight bytes at a time: nearly every export is ASCII,
/// and a byte-by-byte test was 3 % of a whole run.
///
/// - Complexity: O(*n*), where *n* is the number of bytes.
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
  let words = bytes.count / 8
  var high: UInt64 = 0
  for index in 0..<words { high |= base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
  for index in words * 8..<bytes.count { high |= UInt64(bytes[index]) }
  return high & 0x8080_8080_8080_8080 == 0
}

/// The first field of the current record that is not valid UTF-8, and its first bad byte.
///
/// - Complexity: O(*r*), where *r* is the length of the record.
func firstInvalidUTF8Field(_ reader: CSVReader) -> (index: Int, byte: UInt8)? {
  for index in 0..<reader.fieldCount {
    let field = reader.field(index)
    guard field.contains(where: { $0 >= 0x80 }), String(validating: field, as: UTF8.self) == nil else { continue }
    var decoder = UTF8()
    var iterator = field.makeIterator()
    var offset = 0
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: break loop
      // `offset` is where the bad sequence starts: the widths of the scalars before it.
      case .error: return (index, field[min(offset, field.count - 1)])
      }
    }
    return (index, field[0])
  }
  return nil
}

/// A JSON syntax error's message, with the `source.limits` key that raises the limit when it
/// is a limit.
func limitHint(_ error: JSONSyntaxError) -> String {
  switch error.kind {
  case .stringTooLong: return error.message + "; raise source.limits.maxFieldKB to read it"
  default: return error.message
  }
}

/// A reader's limit message with the `source.limits` key that raises the limit.
func limitHint(_ message: String) -> String {
  if message.hasPrefix("field is longer than the limit") {
    return message + "; raise source.limits.maxFieldKB to read it"
  }
  if message.hasPrefix(CSVReader.tooManyFieldsMessage) {
    return message + "; raise source.limits.maxColumns to read it"
  }
  return message
}
