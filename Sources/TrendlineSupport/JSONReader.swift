/// Reads RFC 8259 JSON from UTF-8 bytes, with a 1-based line and column for every error and,
/// on request, for every value.
///
/// The reader works on bytes and never builds a `String` for anything but string values and
/// number text, so it is fast enough for exports of tens of megabytes. It is iterative (an
/// explicit stack, not recursion), and it stops at `maxDepth` levels of nesting, so hostile
/// input such as 100,000 `[` is rejected at the 513th byte instead of overflowing the stack.
///
/// What it deliberately does not do: it does not repair input (no comments, trailing commas,
/// single quotes, `NaN`, or replacement of invalid UTF-8), because an export we silently "fix"
/// is an export whose numbers nobody can vouch for. The choices for the cases RFC 8259 leaves
/// open are listed in `Guides/JSONReader.md`.
public struct JSONReader: Sendable {
  /// The default nesting limit. An empirically generous bound: real exports nest 4–6 levels,
  /// and 512 still passes the conformance suite's 500-level file.
  public static let defaultMaxDepth = 512

  /// The deepest nesting accepted; a top-level array or object is depth 1.
  ///
  /// Values are released and re-serialized recursively, so a limit far above the default (tens
  /// of thousands) moves the stack-overflow risk from the reader to its callers.
  public var maxDepth: Int

  /// The longest string (or member key) accepted, in bytes as written between its quotes:
  /// a bound on what one hostile string can cost. A string is abandoned at the limit, not
  /// scanned to its closing quote. No limit by default; exports pass `source.limits.maxFieldKB`.
  public var maxStringBytes: Int

  public init(maxDepth: Int = JSONReader.defaultMaxDepth, maxStringBytes: Int = .max) {
    precondition(maxDepth >= 0, "JSONReader.maxDepth must not be negative")
    precondition(maxStringBytes >= 0, "JSONReader.maxStringBytes must not be negative")
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
  }

  /// Parses one JSON text.
  ///
  /// - Throws: `JSONSyntaxError` with the line and column of the first offending byte.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    try parseBuffer(bytes, recordLocations: false).value
  }

  /// Parses one JSON text from memory the caller owns (a mapped file, a `Data`).
  ///
  /// - Throws: `JSONSyntaxError` with the line and column of the first offending byte.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
    var parser = _JSONParser(bytes, maxDepth: maxDepth, recordLocations: false, maxStringBytes: maxStringBytes)
    return try parser.parseText()
  }

  /// Parses one JSON text and keeps the source position of every value and member key, for
  /// callers that report problems in the file's terms (a pipeline file).
  ///
  /// - Throws: `JSONSyntaxError` with the line and column of the first offending byte.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func parseDocument(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
    try parseBuffer(bytes, recordLocations: true)
  }

  /// Parses one JSON text as ``parseDocument(_:)`` does, but hands each element of the array
  /// that starts at byte `arrayOffset` to `body` as soon as it is complete, as a document of
  /// its own, and keeps only `null` in its place.
  ///
  /// For a reader of one large array (the sessions of an export): its elements are decoded
  /// and dropped one at a time, so the whole tree, many times the size of the file, never
  /// exists at once. `body` may see elements of a text that turns out invalid further on; the
  /// call then throws as ``parseDocument(_:)`` does.
  ///
  /// - Throws: `JSONSyntaxError` with the line and column of the first offending byte.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func parseDocument(
    _ bytes: [UInt8], streamingElementsAt arrayOffset: Int, _ body: @escaping (JSONDocument) -> Void
  ) throws(JSONSyntaxError) -> JSONDocument {
    try parseBuffer(bytes, recordLocations: true, stream: (arrayOffset, body))
  }

  /// Where each member of the top-level object starts and ends, by key, without building any
  /// value: a scan of strings and brackets, a small part of a parse. Nil when the text is no
  /// object or the scan finds it malformed (a parse then says where).
  ///
  /// Lets a reader learn what an object's later members say before it reads its earlier ones.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func topLevelMembers(_ bytes: [UInt8]) -> [(key: String, value: Range<Int>)]? {
    bytes.withUnsafeBufferPointer { buffer in
      var parser = _JSONParser(
        buffer, maxDepth: maxDepth, recordLocations: false, maxStringBytes: maxStringBytes)
      return parser.scanTopLevelMembers()
    }
  }

  private func parseBuffer(
    _ bytes: [UInt8], recordLocations: Bool, stream: (Int, (JSONDocument) -> Void)? = nil
  ) throws(JSONSyntaxError) -> JSONDocument {
    // `withUnsafeBufferPointer` rethrows untyped errors, so the typed error is carried out
    // through a Result.
    let result: Result<JSONDocument, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      var parser = _JSONParser(
        buffer, maxDepth: maxDepth, recordLocations: recordLocations, maxStringBytes: maxStringBytes)
      let lineStarts = recordLocations ? _lineStarts(buffer) : []
      if let (offset, body) = stream {
        parser.streamOffset = offset
        parser.streamBody = { value, entries in
          body(JSONDocument(value: value, entries: entries, lineStarts: lineStarts))
        }
      }
      do throws(JSONSyntaxError) {
        let value = try parser.parseText()
        return .success(JSONDocument(value: value, entries: parser.entries, lineStarts: lineStarts))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

// MARK: - Errors

/// Why a JSON text was rejected, and where: the offending byte's 1-based line and byte column.
///
/// The message text is produced in one place (`message`) so tests can pin it.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was expected where the reader stopped, for "unexpected character" messages.
  public enum Expectation: Sendable, Equatable {
    case value
    case digit
    case memberKey
    case colon
    case commaOrCloseBracket
    case commaOrCloseBrace
    case literal(String)
    case endOfInput

    var text: String {
      switch self {
      case .value: return "a value"
      case .digit: return "a digit"
      case .memberKey: return "a string key"
      case .colon: return "':'"
      case .commaOrCloseBracket: return "',' or ']'"
      case .commaOrCloseBrace: return "',' or '}'"
      case .literal(let word): return "'\(word)'"
      case .endOfInput: return "end of input"
      }
    }
  }

  public enum Kind: Sendable, Equatable {
    case unexpectedByte(UInt8, expected: Expectation)
    case unexpectedEndOfInput(expected: Expectation)
    /// The position is the opening quote, which is where a user has to look.
    case unterminatedString
    case controlCharacterInString(UInt8)
    case invalidEscape(UInt8)
    case invalidUnicodeEscape
    /// A `\uXXXX` surrogate without its partner, which no `String` can hold.
    case loneSurrogate(UInt16)
    /// The lead byte of a sequence that is not well-formed UTF-8.
    case invalidUTF8(UInt8)
    case leadingZero
    case nestingTooDeep(limit: Int)
    /// A string longer than the reader's `maxStringBytes`; the position is its opening quote.
    case stringTooLong(limit: Int)
    /// The file starts like UTF-16 or UTF-32; the name of the encoding guessed.
    case notUTF8(String)
  }

  public var kind: Kind
  /// 0-based byte offset of the offending byte (`count` for the end of input).
  public var offset: Int
  public var line: Int
  public var column: Int

  public init(_ kind: Kind, offset: Int, line: Int, column: Int) {
    self.kind = kind
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// The one place error text is written.
  public var message: String {
    switch kind {
    case .unexpectedByte(let byte, let expected):
      return "unexpected \(Self.describe(byte)), expected \(expected.text)"
    case .unexpectedEndOfInput(let expected):
      return "unexpected end of input, expected \(expected.text)"
    case .unterminatedString:
      return "unterminated string"
    case .controlCharacterInString(let byte):
      return "unescaped control character \(Self.hex(byte)) in string"
    case .invalidEscape(let byte):
      if byte >= 0x21 && byte < 0x7F {
        return "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in string"
      }
      return "invalid escape: backslash followed by \(Self.describe(byte))"
    case .invalidUnicodeEscape:
      return "invalid \\u escape, expected 4 hex digits"
    case .loneSurrogate(let unit):
      let digits = String(unit, radix: 16, uppercase: true)
      return "lone surrogate '\\u\(digits)' in string"
    case .invalidUTF8(let byte):
      return "invalid UTF-8 byte \(Self.hex(byte)) in string"
    case .leadingZero:
      return "leading zero in number"
    case .nestingTooDeep(let limit):
      return "nesting deeper than \(limit) levels"
    case .stringTooLong(let limit):
      return "string is longer than the limit of \(limit) bytes"
    case .notUTF8(let encoding):
      return "input is \(encoding), expected UTF-8"
    }
  }

  /// `line:column: message`, for logs and test failures.
  public var description: String { "\(line):\(column): \(message)" }

  /// This error as a diagnostic in `file`.
  ///
  /// - Complexity: O(1).
  public func diagnostic(file: String) -> Diagnostic {
    Diagnostic(.error, at: SourceLocation(file: file, line: line, column: column), message)
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (byte < 0x10 ? "0" : "") + digits
  }

  /// Printable ASCII is quoted as typed; anything else is shown as a byte, so a NUL or a stray
  /// Latin-1 byte is visible in a terminal.
  static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
    return "byte \(hex(byte))"
  }
}

// MARK: - Documents with locations

/// A parsed value plus the source position of each value and member key inside it.
///
/// Positions are kept beside the value, not inside it, so `JSONValue` stays a plain value that
/// tests can write literally, and callers that never report positions pay nothing.
public struct JSONDocument: Sendable {
  public let value: JSONValue
  /// One entry per value in document (pre-)order: where it starts, where its member key starts
  /// (-1 outside objects), and how many values it contains, so a lookup can skip a sibling's
  /// whole subtree in one step.
  let entries: [_JSONEntry]
  /// Byte offsets at which lines 2, 3, … start.
  let lineStarts: [Int]

  init(value: JSONValue, entries: [_JSONEntry], lineStarts: [Int]) {
    self.value = value
    self.entries = entries
    self.lineStarts = lineStarts
  }

  /// The 1-based line and byte column where the value at `path` starts, or `nil` when the path
  /// leads nowhere.
  ///
  /// - Complexity: O(*s*), where *s* is the number of siblings passed along the path (plus
  ///   O(log *l*) for *l* lines).
  public func location(of path: JSONPath) -> (line: Int, column: Int)? {
    guard let index = entryIndex(of: path) else { return nil }
    return lineAndColumn(entries[index].offset)
  }

  /// Where the member key of the last path component starts (the `"` of `"smoth"`), or, for a
  /// path that does not end in a key, where the value starts.
  ///
  /// - Complexity: as `location(of:)`.
  public func keyLocation(of path: JSONPath) -> (line: Int, column: Int)? {
    guard let index = entryIndex(of: path) else { return nil }
    let entry = entries[index]
    return lineAndColumn(entry.keyOffset >= 0 ? entry.keyOffset : entry.offset)
  }

  /// `location(of:)` as a `SourceLocation` in `file`.
  ///
  /// - Complexity: as `location(of:)`.
  public func sourceLocation(of path: JSONPath, file: String) -> SourceLocation? {
    location(of: path).map { SourceLocation(file: file, line: $0.line, column: $0.column) }
  }

  /// A value of the document with its place among the positions, to walk down from without
  /// starting at the root again: a reader that reports problems in the *n*th of many sets
  /// steps to it once, where `location(of:)` would pass its *n* − 1 siblings each time.
  public struct Node: Sendable {
    public let value: JSONValue
    let entry: Int
  }

  /// The whole document.
  public var root: Node { Node(value: value, entry: 0) }

  /// The elements of an array node, in order (empty for anything else).
  ///
  /// - Complexity: O(*e*), where *e* is the number of elements.
  public func elements(of node: Node) -> [Node] {
    guard case .array(let values) = node.value else { return [] }
    var nodes: [Node] = []
    nodes.reserveCapacity(values.count)
    var child = node.entry + 1
    for value in values {
      nodes.append(Node(value: value, entry: child))
      child += 1 + entries[child].descendants
    }
    return nodes
  }

  /// The value of member `key` of an object node (the last one, as lookups read it), or nil.
  ///
  /// - Complexity: O(*m*), where *m* is the number of members.
  public func member(_ key: String, of node: Node) -> Node? {
    guard case .object(let members) = node.value,
      let position = members.lastIndex(where: { $0.key == key })
    else { return nil }
    var child = node.entry + 1
    for _ in 0..<position { child += 1 + entries[child].descendants }
    return Node(value: members[position].value, entry: child)
  }

  /// Where `node`'s value starts.
  ///
  /// - Complexity: O(log *l*) for *l* lines.
  public func location(of node: Node) -> (line: Int, column: Int) {
    lineAndColumn(entries[node.entry].offset)
  }

  private func entryIndex(of path: JSONPath) -> Int? {
    var value = self.value
    var index = 0
    for component in path.components {
      switch (component, value) {
      case (.index(let wanted), .array(let elements)):
        guard elements.indices.contains(wanted) else { return nil }
        var child = index + 1
        for _ in 0..<wanted { child += 1 + entries[child].descendants }
        index = child
        value = elements[wanted]
      case (.key(let wanted), .object(let members)):
        guard let position = members.lastIndex(where: { $0.key == wanted }) else { return nil }
        var child = index + 1
        for _ in 0..<position { child += 1 + entries[child].descendants }
        index = child
        value = members[position].value
      default:
        return nil
      }
    }
    return index
  }

  private func lineAndColumn(_ offset: Int) -> (line: Int, column: Int) {
    // Binary search for the number of line starts at or before `offset`.
    var low = 0
    var high = lineStarts.count
    while low < high {
      let mid = (low + high) / 2
      if lineStarts[mid] <= offset { low = mid + 1 } else { high = mid }
    }
    let lineStart = low == 0 ? 0 : lineStarts[low - 1]
    return (low + 1, offset - lineStart + 1)
  }
}

struct _JSONEntry: Sendable {
  var offset: Int
  var keyOffset: Int
  var descendants: Int
}

/// Offsets just past each LF. Raw LF can only occur in whitespace (strings reject it), so every
/// LF in valid JSON is a line break; a lone CR is not one, as in the compilers.
func _lineStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
  var starts: [Int] = []
  for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
  return starts
}

// MARK: - The parser

/// The state machine behind `JSONReader`. A value is started in the outer loop; a finished
/// value is attached to the innermost open container in the inner loop, which also closes
/// containers, so neither direction recurses.
struct _JSONParser {
  let base: UnsafePointer<UInt8>?
  let end: Int
  var index = 0
  let maxDepth: Int
  let recordLocations: Bool
  var entries: [_JSONEntry] = []
  /// Key offset waiting for the member value that follows it.
  var pendingKeyOffset = -1
  /// Reused for strings with escapes, so each such string costs one copy, not one buffer.
  var scratch: [UInt8] = []
  let maxStringBytes: Int
  /// The start of the array whose elements go to `streamBody` (with their entries, offsets
  /// absolute) instead of into the tree; -1 for none.
  var streamOffset = -1
  var streamBody: ((JSONValue, [_JSONEntry]) -> Void)?

  init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, recordLocations: Bool, maxStringBytes: Int = .max) {
    self.base = buffer.baseAddress
    self.end = buffer.count
    self.maxDepth = maxDepth
    self.recordLocations = recordLocations
    self.maxStringBytes = maxStringBytes
  }

  private struct Frame {
    /// The array whose elements are streamed (``_JSONParser/streamOffset``).
    var streams = false
    var isObject: Bool
    /// Where this container's children start in the value (and key) stacks.
    var valueStart: Int
    var keyStart: Int
    var entry: Int
  }

  @inline(__always) private func byte(_ at: Int) -> UInt8 { base.unsafelyUnwrapped[at] }

  mutating func parseText() throws(JSONSyntaxError) -> JSONValue {
    try checkEncoding()
    // RFC 8259 §8.1 lets a parser ignore a UTF-8 byte order mark; Windows tools write one.
    if end >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF { index = 3 }

    // Children of every open container, on one shared stack, so a container's elements are
    // one contiguous slice when it closes and no per-container array grows and copies.
    var values: [JSONValue] = []
    var keys: [String] = []
    var frames: [Frame] = []
    var result = JSONValue.null

    outer: while true {
      skipWhitespace()
      guard index < end else { throw error(.unexpectedEndOfInput(expected: .value), at: index) }
      let start = index
      let entry = recordEntry(start)
      // The entry of the value finished last: `entry`, or a container's when it closes.
      var valueEntry = entry
      var value: JSONValue
      switch byte(index) {
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        let isObject = byte(index) == UInt8(ascii: "{")
        guard frames.count < maxDepth else {
          throw error(.nestingTooDeep(limit: maxDepth), at: index)
        }
        index += 1
        skipWhitespace()
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if index < end && byte(index) == close {
          index += 1
          value = isObject ? .object([]) : .array([])
          closeEntry(entry)
        } else {
          frames.append(
            Frame(
              streams: !isObject && start == streamOffset && recordLocations, isObject: isObject,
              valueStart: values.count, keyStart: keys.count, entry: entry))
          if isObject { keys.append(try parseMemberKey()) }
          continue outer
        }
      case UInt8(ascii: "\""):
        value = .string(try parseString())
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = .number(try parseNumber())
      case UInt8(ascii: "t"):
        try expectLiteral("true")
        value = .bool(true)
      case UInt8(ascii: "f"):
        try expectLiteral("false")
        value = .bool(false)
      case UInt8(ascii: "n"):
        try expectLiteral("null")
        value = .null
      case let other:
        throw error(.unexpectedByte(other, expected: .value), at: index)
      }

      // Attach `value` to its container; close containers as long as they end here.
      while true {
        guard let frame = frames.last else {
          result = value
          break outer
        }
        if frame.streams, let streamBody {
          // Handed over with its subtree's entries, then forgotten but for a placeholder, so
          // positions of later values are still found by skipping siblings.
          streamBody(value, Array(entries[valueEntry...]))
          entries.removeSubrange((valueEntry + 1)...)
          entries[valueEntry].descendants = 0
          value = .null
        }
        values.append(value)
        skipWhitespace()
        guard index < end else {
          throw error(
            .unexpectedEndOfInput(expected: frame.isObject ? .commaOrCloseBrace : .commaOrCloseBracket),
            at: index)
        }
        let next = byte(index)
        if next == UInt8(ascii: ",") {
          index += 1
          if frame.isObject {
            skipWhitespace()
            keys.append(try parseMemberKey())
          }
          continue outer
        }
        if frame.isObject && next == UInt8(ascii: "}") {
          index += 1
          var members: [(key: String, value: JSONValue)] = []
          members.reserveCapacity(values.count - frame.valueStart)
          for offset in 0..<(values.count - frame.valueStart) {
            members.append((keys[frame.keyStart + offset], values[frame.valueStart + offset]))
          }
          keys.removeSubrange(frame.keyStart...)
          values.removeSubrange(frame.valueStart...)
          value = .object(members)
        } else if !frame.isObject && next == UInt8(ascii: "]") {
          index += 1
          let elements = Array(values[frame.valueStart...])
          values.removeSubrange(frame.valueStart...)
          value = .array(elements)
        } else {
          throw error(
            .unexpectedByte(next, expected: frame.isObject ? .commaOrCloseBrace : .commaOrCloseBracket),
            at: index)
        }
        closeEntry(frame.entry)
        valueEntry = frame.entry
        frames.removeLast()
      }
    }

    skipWhitespace()
    if index < end { throw error(.unexpectedByte(byte(index), expected: .endOfInput), at: index) }
    return result
  }
}

// MARK: - Tokens

extension _JSONParser {
  @inline(__always) mutating func skipWhitespace() {
    while index < end {
      switch byte(index) {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  @inline(__always) mutating func recordEntry(_ offset: Int) -> Int {
    guard recordLocations else { return -1 }
    entries.append(_JSONEntry(offset: offset, keyOffset: pendingKeyOffset, descendants: 0))
    pendingKeyOffset = -1
    return entries.count - 1
  }

  @inline(__always) mutating func closeEntry(_ entry: Int) {
    guard recordLocations else { return }
    entries[entry].descendants = entries.count - entry - 1
  }

  /// Reads `"key"` and the `:` after it, leaving `index` at the member's value.
  mutating func parseMemberKey() throws(JSONSyntaxError) -> String {
    guard index < end else { throw error(.unexpectedEndOfInput(expected: .memberKey), at: index) }
    guard byte(index) == UInt8(ascii: "\"") else {
      throw error(.unexpectedByte(byte(index), expected: .memberKey), at: index)
    }
    let keyOffset = index
    let key = try parseString()
    skipWhitespace()
    guard index < end else { throw error(.unexpectedEndOfInput(expected: .colon), at: index) }
    guard byte(index) == UInt8(ascii: ":") else {
      throw error(.unexpectedByte(byte(index), expected: .colon), at: index)
    }
    index += 1
    pendingKeyOffset = keyOffset
    return key
  }

  mutating func expectLiteral(_ word: String) throws(JSONSyntaxError) {
    for expected in word.utf8 {
      guard index < end else {
        throw error(.unexpectedEndOfInput(expected: .literal(word)), at: index)
      }
      guard byte(index) == expected else {
        throw error(.unexpectedByte(byte(index), expected: .literal(word)), at: index)
      }
      index += 1
    }
  }

  /// Checks the RFC 8259 number grammar and returns the source text unchanged.
  mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = index
    if byte(index) == UInt8(ascii: "-") { index += 1 }
    guard index < end else { throw error(.unexpectedEndOfInput(expected: .digit), at: index) }
    let first = byte(index)
    if first == UInt8(ascii: "0") {
      index += 1
      if index < end && isDigit(byte(index)) { throw error(.leadingZero, at: index) }
    } else if isDigit(first) {
      skipDigits()
    } else {
      throw error(.unexpectedByte(first, expected: .digit), at: index)
    }
    if index < end && byte(index) == UInt8(ascii: ".") {
      index += 1
      try requireDigits()
    }
    if index < end && (byte(index) == UInt8(ascii: "e") || byte(index) == UInt8(ascii: "E")) {
      index += 1
      if index < end && (byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-")) {
        index += 1
      }
      try requireDigits()
    }
    return String(
      decoding: UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: index - start),
      as: UTF8.self)
  }

  @inline(__always) func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  @inline(__always) mutating func skipDigits() {
    while index < end && isDigit(byte(index)) { index += 1 }
  }

  mutating func requireDigits() throws(JSONSyntaxError) {
    guard index < end else { throw error(.unexpectedEndOfInput(expected: .digit), at: index) }
    guard isDigit(byte(index)) else {
      throw error(.unexpectedByte(byte(index), expected: .digit), at: index)
    }
    skipDigits()
  }

  /// Reads a string starting at its opening quote.
  ///
  /// A string without escapes becomes a `String` straight from the input bytes; only escapes
  /// send it through `scratch`. Non-ASCII bytes are validated here, because `String(decoding:)`
  /// would silently replace invalid UTF-8 with U+FFFD and the file's bytes would be lost.
  mutating func parseString() throws(JSONSyntaxError) -> String {
    let quote = index
    index += 1
    var runStart = index
    var escaped = false
    // Scanning stops one byte past the longest string allowed (room for its closing quote),
    // so a hostile string costs the limit, not the rest of the file.
    let limit = maxStringBytes >= end - index ? end : index + maxStringBytes + 1
    while true {
      guard index < limit else {
        throw error(limit == end ? .unterminatedString : .stringTooLong(limit: maxStringBytes), at: quote)
      }
      let current = byte(index)
      if current == UInt8(ascii: "\"") {
        defer { index += 1 }
        let run = UnsafeBufferPointer(start: base.unsafelyUnwrapped + runStart, count: index - runStart)
        if !escaped { return String(decoding: run, as: UTF8.self) }
        scratch.append(contentsOf: run)
        return String(decoding: scratch, as: UTF8.self)
      } else if current == UInt8(ascii: "\\") {
        if !escaped {
          escaped = true
          scratch.removeAll(keepingCapacity: true)
        }
        scratch.append(
          contentsOf: UnsafeBufferPointer(start: base.unsafelyUnwrapped + runStart, count: index - runStart))
        try parseEscape(quote: quote)
        runStart = index
      } else if current < 0x20 {
        throw error(.controlCharacterInString(current), at: index)
      } else if current < 0x80 {
        index += 1
      } else {
        guard let length = validUTF8Length(at: index) else {
          throw error(.invalidUTF8(current), at: index)
        }
        index += length
      }
    }
  }

  /// Decodes the escape at `index` (a backslash) into `scratch`.
  mutating func parseEscape(quote: Int) throws(JSONSyntaxError) {
    let backslash = index
    guard backslash + 1 < end else { throw error(.unterminatedString, at: quote) }
    let letter = byte(backslash + 1)
    index += 2
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      guard let unit = hex4(at: backslash + 2) else {
        throw error(.invalidUnicodeEscape, at: backslash)
      }
      index = backslash + 6
      var scalarValue = UInt32(unit)
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate counts only with a low one right after it; alone it is not a
        // character, and replacing it with U+FFFD would change the data.
        guard index + 1 < end, byte(index) == UInt8(ascii: "\\"), byte(index + 1) == UInt8(ascii: "u"),
          let low = hex4(at: index + 2), (0xDC00...0xDFFF).contains(low)
        else { throw error(.loneSurrogate(unit), at: backslash) }
        index += 6
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      case 0xDC00...0xDFFF:
        throw error(.loneSurrogate(unit), at: backslash)
      default:
        break
      }
      // Surrogates were handled above, so the value is always a valid scalar.
      scratch.append(contentsOf: Unicode.Scalar(scalarValue).unsafelyUnwrapped.utf8)
    default:
      throw error(.invalidEscape(letter), at: backslash)
    }
  }

  func hex4(at start: Int) -> UInt16? {
    guard start + 4 <= end else { return nil }
    var value: UInt16 = 0
    for offset in 0..<4 {
      let digit = byte(start + offset)
      let nibble: UInt8
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt16(nibble)
    }
    return value
  }

  /// The length of the well-formed UTF-8 sequence starting at `start`, or `nil`.
  ///
  /// Follows Unicode's table of well-formed byte sequences (Table 3-7), which rules out
  /// overlong forms, encoded surrogates (ED A0…) and values above U+10FFFF.
  func validUTF8Length(at start: Int) -> Int? {
    let lead = byte(start)
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return nil
    }
    guard start + length <= end else { return nil }
    let second = byte(start + 1)
    guard second >= low && second <= high else { return nil }
    for offset in 2..<length {
      let next = byte(start + offset)
      guard next >= 0x80 && next <= 0xBF else { return nil }
    }
    return length
  }

  /// Rejects UTF-16 and UTF-32 up front (RFC 8259 §8.1 requires UTF-8), with a message naming
  /// the encoding instead of "unexpected byte 0xFF". The patterns are RFC 4627's: a JSON text
  /// starts with an ASCII character, so zero bytes around it give the encoding away.
  func checkEncoding() throws(JSONSyntaxError) {
    func at(_ offset: Int) -> UInt8? { offset < end ? byte(offset) : nil }
    var encoding: String?
    switch (at(0), at(1), at(2), at(3)) {
    case (0xFF, 0xFE, 0x00, 0x00): encoding = "UTF-32LE"
    case (0x00, 0x00, 0xFE, 0xFF): encoding = "UTF-32BE"
    case (0xFE, 0xFF, _, _): encoding = "UTF-16BE"
    case (0xFF, 0xFE, _, _): encoding = "UTF-16LE"
    case (0x00, 0x00, 0x00, .some): encoding = "UTF-32BE"
    case (.some, 0x00, 0x00, 0x00): encoding = "UTF-32LE"
    case (0x00, .some, _, _): encoding = "UTF-16BE"
    case (.some, 0x00, .some, 0x00): encoding = "UTF-16LE"
    default: break
    }
    if let encoding { throw error(.notUTF8(encoding), at: 0) }
  }

  /// Builds the error for the byte at `offset`. Lines are counted only now, so valid input
  /// never pays for position tracking it does not ask for.
  func error(_ kind: JSONSyntaxError.Kind, at offset: Int) -> JSONSyntaxError {
    var line = 1
    var lineStart = 0
    var position = 0
    while position < offset {
      if byte(position) == UInt8(ascii: "\n") {
        line += 1
        lineStart = position + 1
      }
      position += 1
    }
    return JSONSyntaxError(kind, offset: offset, line: line, column: offset - lineStart + 1)
  }
}

// MARK: - Scanning without a tree

extension _JSONParser {
  /// See ``JSONReader/topLevelMembers(_:)``. Keys are read as the parser reads them (escapes
  /// decoded), so `"\u0073essions"` is found as `sessions`.
  mutating func scanTopLevelMembers() -> [(key: String, value: Range<Int>)]? {
    if end >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF { index = 3 }
    skipWhitespace()
    guard index < end, byte(index) == UInt8(ascii: "{") else { return nil }
    index += 1
    skipWhitespace()
    var members: [(key: String, value: Range<Int>)] = []
    if index < end && byte(index) == UInt8(ascii: "}") { return members }
    while true {
      skipWhitespace()
      guard let key = try? parseMemberKey() else { return nil }
      skipWhitespace()
      let start = index
      guard skipValue(), index > start else { return nil }
      members.append((key, start..<index))
      skipWhitespace()
      guard index < end else { return nil }
      switch byte(index) {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"): return members
      default: return nil
      }
    }
  }

  /// Moves past one value by counting brackets outside strings, checking nothing else: a
  /// scalar ends where a delimiter or whitespace starts.
  mutating func skipValue() -> Bool {
    var depth = 0
    while index < end {
      switch byte(index) {
      case UInt8(ascii: "\""):
        index += 1
        while index < end && byte(index) != UInt8(ascii: "\"") {
          index += byte(index) == UInt8(ascii: "\\") ? 2 : 1
        }
        guard index < end else { return false }
        index += 1
        if depth == 0 { return true }
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        index += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        if depth == 0 { return true }
        depth -= 1
        index += 1
        if depth == 0 { return true }
      case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
        if depth == 0 { return true }
        index += 1
      default:
        index += 1
      }
    }
    return depth == 0
  }
}
