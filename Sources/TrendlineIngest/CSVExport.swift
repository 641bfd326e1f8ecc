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
      result.counts.read += 1
      result.ignoreBlankLine()
      continue
    case .malformed(let bad):
      result.counts.read += 1
      // The reject names the record's first line, as every other reject does; a quote that
      // ran on into later lines says where the reader finally noticed.
      let sameLine = bad.line == bad.recordLine
      let message = limitHint(bad.message)
      result.note(
        .rejected, line: bad.recordLine, column: sameLine ? bad.column : 1, field: "",
        reason: sameLine ? message : "\(message) (at line \(bad.line), column \(bad.column))")
      continue
    case .record(let line):
      result.counts.read += 1
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
/// than as written (`repaired`) — with one note however many it needed: `rows.repaired` counts
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
