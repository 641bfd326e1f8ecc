/// Reads RFC 4180 CSV from bytes, one record at a time, without a `String` per field.
///
/// Fields are kept as byte ranges into the file; a caller asks for a field's bytes (to parse a
/// number or a date in place) or, only when it needs one, its `String`. The reader never
/// writes to the file's bytes, so it can read them where they are
/// (``init(borrowing:delimiter:maximumFieldBytes:maximumFields:)``) instead of holding a second
/// copy of a file that may be hundreds of megabytes. The reader handles quoted fields, doubled
/// quotes, line breaks inside quotes (kept as written, `\r\n` included), CRLF or LF records, a
/// missing final line break, and a UTF-8 byte order mark.
/// The delimiter is `,`, `;` or tab, sniffed from the first record unless given.
///
/// A malformed record (a bare quote inside an unquoted field, text after a closing quote, a
/// quote never closed, a field over the size limit) is reported with the line and column of
/// the offending byte, and reading resumes at the start of the line after the one where that
/// record began: one broken quote costs one record, not the rest of the file.
///
/// The reader does not interpret fields (no trimming, no numbers): that is each format's job,
/// because exports disagree about what a space or an empty field means.
public final class CSVReader {
  /// A field's place in the file: `bytes[start..<end]` between any enclosing quotes.
  public struct Field: Sendable, Equatable {
    public var start: Int
    public var end: Int
    /// True when the field held a doubled quote (`""`); ``CSVReader/field(_:)`` then gives
    /// its unescaped copy, and `start..<end` stays the field as written.
    public var hasEscapedQuote: Bool
    /// Where the field begins (its opening quote, if quoted): 1-based line and byte column.
    public var line: Int
    public var column: Int
    /// Where the unescaped copy of a field with ``hasEscapedQuote`` sits in the reader's
    /// per-record buffer.
    @usableFromInline var unescapedStart = 0
    @usableFromInline var unescapedEnd = 0
  }

  /// What one call to ``next()`` found.
  public enum Event: Equatable, Sendable {
    /// A record is in ``fields``; `line` is the 1-based line it starts on.
    case record(line: Int)
    /// An empty line: no fields at all. Formats count these as ignored rows.
    case blankLine(line: Int)
    /// A record that is not valid CSV; reading goes on with the next line.
    case malformed(Malformation)
    /// The end of the input.
    case end
  }

  /// Why a record was not valid CSV, and where.
  public struct Malformation: Equatable, Sendable {
    /// The line the record began on.
    public var recordLine: Int
    public var line: Int
    public var column: Int
    public var message: String
  }

  /// The file's bytes, read in place: a pointer, not an array, so that reading a field needs
  /// no closure around `Array.withUnsafeBufferPointer` (which costs more than the field's
  /// parse). Owned (and freed) by the reader only when it made the copy itself.
  public let bytes: UnsafeBufferPointer<UInt8>
  private let ownsBytes: Bool
  /// The unescaped copies of the current record's fields that held a doubled quote. Fields
  /// with `""` are rare, and unescaping them here instead of in the file's bytes is what lets
  /// the reader borrow those bytes: nothing of the file is ever changed, so recovery after a
  /// malformed record reads it as written.
  @usableFromInline @exclusivity(unchecked) var unescaped: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var unescapedCapacity = 64
  @exclusivity(unchecked) private var unescapedCount = 0
  /// The delimiter in use: given, or sniffed from the first record.
  public let delimiter: UInt8
  /// The fields of the last record returned, valid until the next call to ``next()``.
  ///
  /// A buffer the reader owns rather than an array: appending a field to an array paid a
  /// uniqueness check and a capacity check per field, and reading one from another module
  /// paid a dynamic exclusivity check (together about a tenth of a whole run).
  public var fields: UnsafeBufferPointer<Field> { UnsafeBufferPointer(start: fieldStorage, count: fieldCount) }
  /// The number of fields in the last record.
  @exclusivity(unchecked) public private(set) var fieldCount = 0
  @usableFromInline @exclusivity(unchecked) var fieldStorage: UnsafeMutablePointer<Field>
  @exclusivity(unchecked) private var fieldCapacity = 16
  /// Per byte value, whether it can end an unquoted field or break it (delimiter, line feed,
  /// carriage return, quote): one table look-up per byte instead of four comparisons.
  private let stops: UnsafeMutableBufferPointer<Bool>
  /// The same inside quotes: the closing quote, or a line break to count.
  private let quotedStops: UnsafeMutableBufferPointer<Bool>
  /// The longest field accepted, in bytes: a bound on what one hostile field can cost.
  public let maximumFieldBytes: Int
  /// The most fields in one record: a bound on what a line of commas can cost (a field
  /// is 40 bytes of bookkeeping, so a 100 MB line of commas would otherwise take 4 GB).
  public let maximumFields: Int
  /// How the malformation for a record over ``maximumFields`` begins, for callers that
  /// explain the limit in their own terms.
  public static let tooManyFieldsMessage = "a record has more than"

  private var position: Int
  private var line = 1
  /// Byte offset where the current line starts, for columns.
  private var lineStart: Int

  /// Creates a reader over its own copy of a whole file's bytes.
  ///
  /// - Parameters:
  ///   - bytes: the file, with or without a UTF-8 byte order mark.
  ///   - delimiter: `,`, `;` or tab; nil sniffs it from the first record.
  ///   - maximumFieldBytes: a longer field makes its record malformed (default 1 MiB).
  ///   - maximumFields: a record with more fields is malformed (default: no limit).
  /// - Complexity: O(*n*) for the copy of *n* bytes.
  public convenience init(
    bytes: [UInt8], delimiter: UInt8? = nil, maximumFieldBytes: Int = 1 << 20, maximumFields: Int = .max
  ) {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = copy.initialize(from: bytes)
    self.init(
      UnsafeBufferPointer(rebasing: copy[..<bytes.count]), owned: true, delimiter: delimiter,
      maximumFieldBytes: maximumFieldBytes, maximumFields: maximumFields)
  }

  /// Creates a reader over bytes the caller owns and keeps unchanged for the reader's life
  /// (inside `withUnsafeBufferPointer`): a whole export is read with no copy of it.
  ///
  /// - Complexity: O(*h*), where *h* is the length of the first record, for sniffing.
  public convenience init(
    borrowing bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8? = nil, maximumFieldBytes: Int = 1 << 20,
    maximumFields: Int = .max
  ) {
    self.init(
      bytes, owned: false, delimiter: delimiter, maximumFieldBytes: maximumFieldBytes, maximumFields: maximumFields)
  }

  private init(
    _ bytes: UnsafeBufferPointer<UInt8>, owned: Bool, delimiter: UInt8?, maximumFieldBytes: Int, maximumFields: Int
  ) {
    self.bytes = bytes
    ownsBytes = owned
    unescaped = .allocate(capacity: unescapedCapacity)
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    self.position = start
    self.lineStart = start
    self.maximumFieldBytes = maximumFieldBytes
    self.maximumFields = maximumFields
    let chosen = delimiter ?? CSVReader.sniffDelimiter(bytes, from: start)
    self.delimiter = chosen
    stops = .allocate(capacity: 256)
    stops.initialize(repeating: false)
    for byte in [chosen, ASCII.newline, ASCII.carriageReturn, ASCII.quote] { stops[Int(byte)] = true }
    quotedStops = .allocate(capacity: 256)
    quotedStops.initialize(repeating: false)
    for byte in [ASCII.newline, ASCII.carriageReturn, ASCII.quote] { quotedStops[Int(byte)] = true }
    fieldStorage = .allocate(capacity: fieldCapacity)
  }

  deinit {
    if ownsBytes { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
    unescaped.deallocate()
    stops.deallocate()
    quotedStops.deallocate()
    fieldStorage.deallocate()
  }

  /// The candidate delimiter that occurs most often outside quotes in the first record;
  /// a comma when none occurs (a one-column file) or on a tie.
  ///
  /// - Complexity: O(*h*), where *h* is the length of the first record.
  public static func sniffDelimiter(_ bytes: [UInt8], from start: Int = 0) -> UInt8 {
    bytes.withUnsafeBufferPointer { sniffDelimiter($0, from: start) }
  }

  static func sniffDelimiter(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt8 {
    var counts: [UInt8: Int] = [ASCII.comma: 0, ASCII.semicolon: 0, ASCII.tab: 0]
    var inQuotes = false
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.quote {
        inQuotes.toggle()
      } else if !inQuotes && (byte == ASCII.newline || byte == ASCII.carriageReturn) {
        break
      } else if !inQuotes, counts[byte] != nil {
        counts[byte]! += 1
      }
      index += 1
    }
    let best = [ASCII.comma, ASCII.semicolon, ASCII.tab].max { counts[$0]! < counts[$1]! }!
    return counts[best]! > counts[ASCII.comma]! ? best : ASCII.comma
  }

  /// Reads the next record into ``fields``.
  ///
  /// The scanning state lives in locals for the length of a record and is stored back once:
  /// touching the reader's stored properties byte by byte would pay a dynamic exclusivity
  /// check each time, which cost more than the scanning itself.
  ///
  /// - Complexity: O(*r*), where *r* is the length of the record.
  public func next() -> Event {
    var fieldCount = 0
    unescapedCount = 0
    var position = self.position
    var line = self.line
    var lineStart = self.lineStart
    defer {
      self.fieldCount = fieldCount
      self.position = position
      self.line = line
      self.lineStart = lineStart
    }
    let buffer = bytes
    let count = bytes.count
    let delimiter = self.delimiter
    let stopAt = UnsafeBufferPointer(stops)
    let quotedStopAt = UnsafeBufferPointer(quotedStops)
    let maximumFieldBytes = self.maximumFieldBytes
    let maximumFields = self.maximumFields
    guard position < count else { return .end }
    let recordLine = line
    let recordLineStart = lineStart

    func append(_ field: Field) {
      if fieldCount == fieldCapacity {
        let grown = UnsafeMutablePointer<Field>.allocate(capacity: 2 * fieldCapacity)
        grown.moveInitialize(from: fieldStorage, count: fieldCount)
        fieldStorage.deallocate()
        fieldStorage = grown
        fieldCapacity *= 2
      }
      (fieldStorage + fieldCount).initialize(to: field)
      fieldCount += 1
    }

    func consumeLineBreak() {
      if position < count && buffer[position] == ASCII.carriageReturn { position += 1 }
      if position < count && buffer[position] == ASCII.newline { position += 1 }
      line += 1
      lineStart = position
    }
    /// Reports a malformed record and moves to the line after the one the record began on.
    ///
    /// Resuming there, not after the bad byte, keeps a stray quote from swallowing the rows
    /// that follow it: they are read again as records of their own.
    func malformed(line badLine: Int, column: Int, _ message: String) -> Event {
      var cursor = recordLineStart
      while cursor < count && bytes[cursor] != ASCII.newline && bytes[cursor] != ASCII.carriageReturn { cursor += 1 }
      if cursor + 1 < count && bytes[cursor] == ASCII.carriageReturn && bytes[cursor + 1] == ASCII.newline {
        cursor += 1
      }
      position = min(cursor + 1, count)
      line = recordLine + 1
      lineStart = position
      fieldCount = 0
      return .malformed(Malformation(recordLine: recordLine, line: badLine, column: column, message: message))
    }

    // An empty line is not a record of one empty field: exports put blank lines between
    // rows (Fitbod), and counting them as rows with missing columns would reject them.
    if buffer[position] == ASCII.newline || buffer[position] == ASCII.carriageReturn {
      consumeLineBreak()
      return .blankLine(line: recordLine)
    }

    while true {
      // At the start of a field.
      if position < count && buffer[position] == ASCII.quote {
        let quoteLine = line
        let quoteColumn = position - lineStart + 1
        position += 1
        let start = position
        // Stop at the limit instead of at the closing quote, which may be megabytes away or
        // missing: a hostile field costs the limit, not the file.
        let limit = maximumFieldBytes >= count - start ? count : start + maximumFieldBytes + 1
        var escaped = false
        while true {
          while position < limit && !quotedStopAt[Int(buffer[position])] { position += 1 }
          guard position < limit else {
            if limit == count {
              return malformed(line: quoteLine, column: quoteColumn, "quoted field is never closed")
            }
            return malformed(
              line: quoteLine, column: quoteColumn, "field is longer than the limit of \(maximumFieldBytes) bytes")
          }
          let byte = buffer[position]
          if byte == ASCII.quote {
            if position + 1 < count && buffer[position + 1] == ASCII.quote {
              escaped = true
              position += 2
              continue
            }
            break
          }
          // A line break inside quotes is kept, and counted: LF, CRLF (at its LF) or a lone CR.
          if byte == ASCII.newline || position + 1 >= count || buffer[position + 1] != ASCII.newline {
            line += 1
            lineStart = position + 1
          }
          position += 1
        }
        let end = position
        position += 1  // the closing quote
        if end - start > maximumFieldBytes {
          return malformed(
            line: quoteLine, column: quoteColumn, "field is longer than the limit of \(maximumFieldBytes) bytes")
        }
        if fieldCount == maximumFields {
          return malformed(line: quoteLine, column: quoteColumn, "\(Self.tooManyFieldsMessage) \(maximumFields) fields")
        }
        var field = Field(start: start, end: end, hasEscapedQuote: escaped, line: quoteLine, column: quoteColumn)
        if escaped { (field.unescapedStart, field.unescapedEnd) = unescape(start, end) }
        append(field)
        if position >= count { return .record(line: recordLine) }
        let byte = buffer[position]
        if byte == delimiter {
          position += 1
          continue
        }
        if byte == ASCII.newline || byte == ASCII.carriageReturn {
          consumeLineBreak()
          return .record(line: recordLine)
        }
        return malformed(
          line: line, column: position - lineStart + 1,
          "unexpected \(describe(byte)) after a closing quote; quote the whole field and double any quote inside it")
      }

      // An unquoted field runs to the delimiter or the end of the line.
      let start = position
      while position < count {
        let byte = buffer[position]
        if !stopAt[Int(byte)] {
          position += 1
          continue
        }
        if byte == delimiter || byte == ASCII.newline || byte == ASCII.carriageReturn { break }
        if byte == ASCII.quote {
          return malformed(
            line: line, column: position - lineStart + 1,
            "quote inside an unquoted field; quote the whole field and double the quote")
        }
        position += 1
      }
      if position - start > maximumFieldBytes {
        return malformed(
          line: line, column: start - lineStart + 1, "field is longer than the limit of \(maximumFieldBytes) bytes")
      }
      if fieldCount == maximumFields {
        return malformed(
          line: line, column: start - lineStart + 1, "\(Self.tooManyFieldsMessage) \(maximumFields) fields")
      }
      append(Field(start: start, end: position, hasEscapedQuote: false, line: line, column: start - lineStart + 1))
      if position >= count { return .record(line: recordLine) }
      if buffer[position] == delimiter {
        position += 1
        continue
      }
      consumeLineBreak()
      return .record(line: recordLine)
    }
  }

  /// The bytes of field `index`, unescaped, valid until the next call to ``next()``.
  ///
  /// A doubled quote was already replaced by one when the record was read (in the reader's
  /// per-record buffer), so every field is a plain slice: no allocation, no closure, and no
  /// generic call for a caller in another module to pay for. Inlinable, so that the formats'
  /// parsers, in another module, read a field in place instead of calling for it.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    precondition(index >= 0 && index < fieldCount, "field \(index) of a record of \(fieldCount)")
    let field = fieldStorage[index]
    if field.hasEscapedQuote {
      return UnsafeBufferPointer(
        start: unescaped + field.unescapedStart, count: field.unescapedEnd - field.unescapedStart)
    }
    return UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
  }

  /// The text of field `index`, unescaped; invalid UTF-8 becomes U+FFFD.
  ///
  /// - Complexity: O(*m*), where *m* is the field's length.
  public func string(_ index: Int) -> String {
    String(decoding: field(index), as: UTF8.self)
  }

  /// True when field `index` has no bytes.
  public func isEmpty(_ index: Int) -> Bool { field(index).isEmpty }

  /// Copies `bytes[start..<end]` with each doubled quote made one into the per-record buffer,
  /// and returns where the copy sits there.
  private func unescape(_ start: Int, _ end: Int) -> (Int, Int) {
    if unescapedCount + (end - start) > unescapedCapacity {
      // Offsets, not pointers, are kept, so moving the buffer loses nothing.
      let capacity = max(2 * unescapedCapacity, unescapedCount + (end - start))
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      grown.initialize(from: unescaped, count: unescapedCount)
      unescaped.deallocate()
      unescaped = grown
      unescapedCapacity = capacity
    }
    let first = unescapedCount
    var read = start
    while read < end {
      let byte = bytes[read]
      unescaped[unescapedCount] = byte
      unescapedCount += 1
      read += byte == ASCII.quote ? 2 : 1
    }
    return (first, unescapedCount)
  }

  private func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true)
  }
}

/// The ASCII bytes the readers look for, by name.
public enum ASCII {
  public static let tab: UInt8 = 0x09
  public static let newline: UInt8 = 0x0A
  public static let carriageReturn: UInt8 = 0x0D
  public static let space: UInt8 = 0x20
  public static let quote: UInt8 = 0x22
  public static let slash: UInt8 = 0x2F
  public static let plus: UInt8 = 0x2B
  public static let comma: UInt8 = 0x2C
  public static let minus: UInt8 = 0x2D
  public static let dot: UInt8 = 0x2E
  public static let colon: UInt8 = 0x3A
  public static let semicolon: UInt8 = 0x3B
  public static let zero: UInt8 = 0x30
  public static let nine: UInt8 = 0x39
}
