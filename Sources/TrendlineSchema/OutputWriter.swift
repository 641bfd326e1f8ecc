import Foundation

/// Writes outputs as JSON straight into one byte buffer: the one way Trendline writes a chart or
/// cohort file, and the same value gives the same bytes on every run.
///
/// The layout is fixed: two-space indentation, `"key": value`, `[]` and `{}` for empty
/// containers, and a final newline so that files concatenate and diff cleanly. Each output type
/// writes its own keys, in SPEC 7's order with `schema` first (``SeriesOutput/write(to:)`` and
/// its siblings), and a dictionary's keys sorted by their UTF-8 bytes, so no order depends on a
/// hash seed. Instants go through ``RFC3339`` in the writer's zone.
///
/// It replaced a Codable `Encoder` that built a tree of boxes, one heap object per JSON value,
/// and then wrote the tree: about 550 ns a value, 13.6 % of the CPU time of a 2,000-user run
/// and a third of a run that reads its sessions from the cache. This writer allocates nothing
/// per value; on the 200-user benchmark corpus encoding fell from 2,104 M to 403 M
/// instructions (callgrind). (Foundation's `JSONEncoder`, which that encoder replaced, writes
/// keys in hash order on Linux.) The output types are `Decodable` but not `Encodable`, so no
/// second way of writing them can drift from this one.
///
/// It does not check that its calls form valid JSON (a key inside an array, a container left
/// open): its callers are the output types' `write(to:)` methods, and the tests decode every
/// output they write. An app does not need it to read an output: `JSONDecoder` with `.iso8601`
/// decodes every file written here (see ``makeDecoder()``).
public struct OutputWriter: ~Copyable {
  /// The JSON written so far.
  public var bytes: [UInt8] { buffer.array }

  /// 64 KiB: a chart of a few years of weeks is 30–140 KB, and each doubling from a smaller
  /// start copied what was written so far (1.8 % of a night served from the cache).
  private var buffer = Buffer(capacity: 65_536)
  /// Where `Double.write(to:)` puts a fraction's digits, kept between numbers.
  private var digits = Digits()
  private let instants: RFC3339.Formatter
  private let layout: Layout
  /// The number of containers open around the next value.
  private var depth = 0
  /// True from a container's opening bracket to its first member, so that an empty one is
  /// written `[]` or `{}` and the first member gets no comma.
  private var containerIsEmpty = true
  /// True between a key and its value, which follows on the same line.
  private var valueFollowsKey = false

  /// A writer of instants in `timeZone`'s offset at each instant.
  ///
  /// - Complexity: O(1).
  public init(timeZone: TimeZone) {
    self.init(layout: .outputs, timeZone: timeZone)
  }

  /// A writer in `layout`, for the files whose bytes were fixed before this writer wrote them.
  ///
  /// - Complexity: O(1).
  package init(layout: Layout, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!) {
    instants = RFC3339.Formatter(timeZone: timeZone)
    self.layout = layout
  }

  /// `value` as indented JSON with a final newline, instants in `timeZone`'s offset.
  ///
  /// Throws ``NonFiniteNumber`` for a NaN or infinite number, which JSON cannot hold: a stage
  /// that produced one has a bug, and a file with `null` in its place would hide it.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  public static func encode(_ value: some OutputWritable, timeZone: TimeZone) throws -> Data {
    try encode(value, layout: .outputs, timeZone: timeZone)
  }

  /// `value` in `layout`, with a final newline.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  package static func encode(
    _ value: some OutputWritable, layout: Layout, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
  ) throws -> Data {
    var writer = OutputWriter(layout: layout, timeZone: timeZone)
    try value.write(to: &writer)
    writer.buffer.append(UInt8(ascii: "\n"))
    return writer.buffer.data()
  }

  /// A decoder for outputs: `JSONDecoder` with `.iso8601` dates, exactly what an app would set up.
  ///
  /// - Complexity: O(1).
  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  // MARK: Containers

  /// - Complexity: O(1) amortized.
  public mutating func beginObject() { open(UInt8(ascii: "{")) }

  /// - Complexity: O(*d*), where *d* is the depth of the object.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// - Complexity: O(1) amortized.
  public mutating func beginArray() { open(UInt8(ascii: "[")) }

  /// - Complexity: O(*d*), where *d* is the depth of the array.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Starts an object's member named in the program (`"start"`); its value follows.
  ///
  /// The name is copied as it is, without the escape scan a string gets: every such name is
  /// a plain ASCII word of SPEC 7, and scanning them was 6 % of a night read from the cache.
  ///
  /// - Complexity: O(*k* + *d*), where *k* is the length of `name` and *d* the depth.
  public mutating func key(_ name: StaticString) {
    nextMember()
    // Written in one reservation with its quotes and separator, where a call per piece cost
    // more than the bytes. A one-letter literal (`"t"`) is kept as a scalar, not as UTF-8.
    let length = name.utf8CodeUnitCount
    let text = buffer.reserve(length + 2 + layout.afterKey.count)
    text[0] = UInt8(ascii: "\"")
    if name.hasPointerRepresentation {
      (text + 1).update(from: name.utf8Start, count: length)
    } else {
      name.withUTF8Buffer { (text + 1).update(from: $0.baseAddress!, count: length) }
    }
    text[length + 1] = UInt8(ascii: "\"")
    layout.afterKey.write(at: text + length + 2)
    buffer.commit(length + 2 + layout.afterKey.count)
    valueFollowsKey = true
  }

  /// Starts an object's member whose name comes from data (a quantile's name), escaped as
  /// any string is; its value follows.
  ///
  /// - Complexity: O(*k* + *d*), where *k* is the length of `name` and *d* the depth.
  public mutating func key(escaping name: String) {
    nextMember()
    appendQuoted(name)
    layout.afterKey.write(at: buffer.reserve(layout.afterKey.count))
    buffer.commit(layout.afterKey.count)
    valueFollowsKey = true
  }

  // MARK: Values

  /// - Complexity: O(*k* + *d*), where *k* is the length of `text` and *d* the depth.
  public mutating func string(_ text: String) {
    startValue()
    appendQuoted(text)
  }

  /// Whole values below 2⁵³ without a fraction (`4524`, not `4524.0`, which is how the
  /// outputs have always been written), others in the shortest form that reads back as the
  /// same `Double` (`0.1`, `1e-07`, `9007199254740992.0`).
  ///
  /// Throws ``NonFiniteNumber`` for NaN and ±infinity, which JSON cannot hold.
  ///
  /// - Complexity: O(*d*), where *d* is the depth.
  public mutating func number(_ value: Double) throws {
    startValue()
    guard value.isFinite else {
      throw NonFiniteNumber(value: value, path: Self.path(after: buffer.array))
    }
    if layout.trimsNumbers {
      // Foundation's form: the shortest digits, less a trailing `.0` (`-0`, `1e+20`).
      var text = value.description
      if text.hasSuffix(".0") { text.removeLast(2) }
      buffer.append(text)
    } else if NumberText.isWhole(value) {
      appendInteger(Int64(value))
    } else {
      // The digits of `"\(value)"`, without making a `String` of them.
      value.write(to: &digits)
      buffer.append(digits.bytes)
      digits.bytes.removeAll(keepingCapacity: true)
    }
  }

  /// A number as its JSON text, which the caller has checked against RFC 8259's grammar (a
  /// number read from a file keeps its source text: `1e400`, `-0`, `0.10`).
  ///
  /// - Complexity: O(*k* + *d*), where *k* is the length of `text` and *d* the depth.
  package mutating func number(text: String) {
    startValue()
    buffer.append(text)
  }

  /// - Complexity: O(*d*), where *d* is the depth.
  public mutating func number(_ value: Int) {
    startValue()
    appendInteger(Int64(value))
  }

  /// `2026-08-24T00:00:00+02:00`: whole seconds, rounded down, in the zone's offset at the
  /// instant.
  ///
  /// - Complexity: O(*d*) amortized over rising instants, where *d* is the depth.
  public mutating func instant(_ date: Date) {
    startValue()
    let text = buffer.reserve(RFC3339.byteCount + 2)
    text[0] = UInt8(ascii: "\"")
    instants.write(date.epochSeconds, into: text + 1)
    text[RFC3339.byteCount + 1] = UInt8(ascii: "\"")
    buffer.commit(RFC3339.byteCount + 2)
  }

  /// - Complexity: O(*d*), where *d* is the depth.
  public mutating func bool(_ value: Bool) {
    startValue()
    buffer.append(value ? Self.trueBytes : Self.falseBytes)
  }

  /// - Complexity: O(*d*), where *d* is the depth.
  public mutating func null() {
    startValue()
    buffer.append(Self.nullBytes)
  }

  // MARK: Members and collections

  /// A member whose value is a string.
  ///
  /// - Complexity: O(*k* + *d*), where *k* is the length of `name` and `value`.
  public mutating func member(_ name: StaticString, _ value: String) {
    key(name)
    string(value)
  }

  /// - Complexity: O(*k* + *d*), where *k* is the length of `name`.
  public mutating func member(_ name: StaticString, _ value: Double) throws {
    key(name)
    try number(value)
  }

  /// - Complexity: O(*k* + *d*), where *k* is the length of `name`.
  public mutating func member(_ name: StaticString, _ value: Int) {
    key(name)
    number(value)
  }

  /// - Complexity: O(*k* + *d*), where *k* is the length of `name`.
  public mutating func member(_ name: StaticString, _ value: Bool) {
    key(name)
    bool(value)
  }

  /// A member whose value is an instant.
  ///
  /// - Complexity: O(*k* + *d*), where *k* is the length of `name`.
  public mutating func member(_ name: StaticString, _ value: Date) {
    key(name)
    instant(value)
  }

  /// Opens a per-user output's object with the members every one of them starts with, in
  /// SPEC 7's order: `schema, user, chart, timeZone, units, asOf`. Its own members follow.
  ///
  /// - Complexity: O(*k* + *d*), where *k* is the length of the strings.
  public mutating func beginUserOutput(_ header: UserChartHeader) {
    beginObject()
    member("schema", header.schema)
    member("user", header.user)
    member("chart", header.chart)
    member("timeZone", header.timeZone)
    key("units")
    header.units.write(to: &self)
    member("asOf", header.asOf)
  }

  /// An array of values that write themselves.
  ///
  /// - Complexity: O(*n*), where *n* is the size of what the elements write.
  public mutating func array(_ elements: [some OutputWritable]) throws {
    beginArray()
    for element in elements { try element.write(to: &self) }
    endArray()
  }

  /// An array written by `writeElement`, one call per element.
  ///
  /// - Complexity: O(*n*) calls of `writeElement`, where *n* is the number of elements.
  public mutating func array<Element>(
    _ elements: [Element], _ writeElement: (inout OutputWriter, Element) throws -> Void
  ) rethrows {
    beginArray()
    for element in elements { try writeElement(&self, element) }
    endArray()
  }

  /// An object keyed by measure (the only dictionaries outputs hold), keys in UTF-8 byte order
  /// (`distanceM`, `durationSeconds`, `e1rmKg`, `records`, `reps`, `sessions`, `sets`,
  /// `topSetKg`, `volumeKg`) whatever order the dictionary holds them in, which changes with
  /// the process's hash seed.
  ///
  /// - Complexity: O(*m*) calls of `writeValue`, where *m* is the number of measures.
  public mutating func object<Value>(
    _ values: [Measure: Value], _ writeValue: (inout OutputWriter, Value) throws -> Void
  ) rethrows {
    beginObject()
    // One pass over the dictionary into a slot per measure, then the slots in key order: a
    // hashed look-up per measure cost more than writing the object.
    try withUnsafeTemporaryAllocation(of: Value?.self, capacity: Measure.allCases.count) { slots in
      slots.initialize(repeating: nil)
      for (measure, value) in values { slots[measure.ordinal] = value }
      for measure in Measure.inKeyOrder {
        guard let value = slots[measure.ordinal] else { continue }
        key(escaping: measure.rawValue)
        try writeValue(&self, value)
      }
      slots.deinitialize()
    }
    endObject()
  }

  /// An object with one member per measure of `measures`, in UTF-8 key order: its value in
  /// `values`, or `null` when `values` has none. Unknown is written as `null`, never left out
  /// and never 0 (SPEC 10.3), so a decoder sees every measure the chart counts.
  ///
  /// - Complexity: O(*m*), where *m* is the number of measures.
  public mutating func measures(_ measures: [Measure], _ values: MeasureValues) throws {
    beginObject()
    // A bit per measure ordinal (there are 9), not an array allocated per bucket.
    var listed: UInt64 = 0
    for measure in measures { listed |= 1 << measure.ordinal }
    for measure in Measure.inKeyOrder where listed & (1 << measure.ordinal) != 0 {
      key(escaping: measure.rawValue)
      if let value = values[measure] { try number(value) } else { null() }
    }
    endObject()
  }

  /// An object keyed by strings from data (chart names, reasons), keys in UTF-8 byte order.
  ///
  /// - Complexity: O(*m* log *m*) for *m* keys, plus *m* calls of `writeValue`.
  package mutating func object<Value>(
    sortingKeys values: [String: Value], _ writeValue: (inout OutputWriter, Value) throws -> Void
  ) rethrows {
    beginObject()
    for (name, value) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
      key(escaping: name)
      try writeValue(&self, value)
    }
    endObject()
  }

  /// An object keyed by days (a cohort's rows), each `YYYY-MM-DD`, in day order: the UTF-8
  /// order of their text, for the four-digit years days are read back in (``LocalDay/init(text:)``).
  ///
  /// - Complexity: O(*m* log *m*) for *m* keys, plus *m* calls of `writeValue`.
  package mutating func object<Value>(
    rows values: [LocalDay: Value], _ writeValue: (inout OutputWriter, Value) throws -> Void
  ) rethrows {
    beginObject()
    for (day, value) in values.sorted(by: { $0.key < $1.key }) {
      key(escaping: day.text)
      try writeValue(&self, value)
    }
    endObject()
  }

  // MARK: Layout

  private mutating func open(_ bracket: UInt8) {
    startValue()
    buffer.append(bracket)
    depth += 1
    containerIsEmpty = true
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    if !containerIsEmpty {
      newline()
    } else if layout.spacing == .foundation {
      // Foundation's pretty printer writes an empty container over two lines, `[` and `]`.
      buffer.append(UInt8(ascii: "\n"))
      newline()
    }
    buffer.append(bracket)
    // The container just closed is a member of the one around it.
    containerIsEmpty = false
  }

  /// Before a value: nothing after a key or at the top level, else a new array element.
  private mutating func startValue() {
    if valueFollowsKey {
      valueFollowsKey = false
    } else if depth > 0 {
      nextMember()
    }
  }

  /// A comma after the previous member, then a new line at the depth.
  private mutating func nextMember() {
    if !containerIsEmpty {
      buffer.append(UInt8(ascii: ","))
      if layout.spacing == .inline { buffer.append(0x20) }
    }
    containerIsEmpty = false
    newline()
  }

  private mutating func newline() {
    guard layout.spacing != .compact && layout.spacing != .inline else { return }
    let count = 1 + 2 * depth
    let line = buffer.reserve(count)
    line[0] = UInt8(ascii: "\n")
    (line + 1).update(repeating: 0x20, count: 2 * depth)
    buffer.commit(count)
  }

  private mutating func appendInteger(_ value: Int64) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var rest = value.magnitude
    var width = 1
    var scale: UInt64 = 10
    while width < 20 && rest >= scale {
      width += 1
      scale = scale &* 10
    }
    // Filled from the last digit back, the order they come out in.
    let digits = buffer.reserve(width)
    for index in stride(from: width - 1, through: 0, by: -1) {
      digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    buffer.commit(width)
  }

  /// RFC 8259 string escaping: `"`, `\` and control characters; everything else as UTF-8.
  private mutating func appendQuoted(_ text: String) {
    // Through the string's own bytes: the `utf8` view's generic paths cost more per key than
    // the rest of the key's writing.
    var text = text
    let escapesSlashes = layout.escapesSlashes
    let plain = text.withUTF8 { Self.needsNoEscape($0, escapesSlashes: escapesSlashes) }
    buffer.append(UInt8(ascii: "\""))
    // Nearly every string needs no escape: copy it whole.
    if plain {
      buffer.append(text)
    } else {
      for byte in text.utf8 { appendEscaped(byte) }
    }
    buffer.append(UInt8(ascii: "\""))
  }

  /// True when no byte of `utf8` needs an escape. Eight bytes are tested at a time: a byte at
  /// a time was 10 instructions a byte, a fifth of what writing a heat map cost.
  static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>, escapesSlashes: Bool) -> Bool {
    guard let base = utf8.baseAddress else { return true }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    /// Nonzero when a byte of `word` is 0 (a borrow may mark bytes above the one that is, never
    /// a word that has none).
    func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }
    var offset = 0
    while offset + 8 <= utf8.count {
      let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
      // Below 0x20: subtracting 0x20 borrows into the high bit, which `~word` keeps only for
      // bytes below 0x80.
      var found = (word &- 0x20 &* ones) & ~word & highBits
      found |= zeroBytes(word ^ (0x22 &* ones)) | zeroBytes(word ^ (0x5C &* ones))
      if escapesSlashes { found |= zeroBytes(word ^ (0x2F &* ones)) }
      if found != 0 { return false }
      offset += 8
    }
    return !utf8[offset...].contains { needsEscape($0, escapesSlashes: escapesSlashes) }
  }

  private static func needsEscape(_ byte: UInt8, escapesSlashes: Bool) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      || (byte == UInt8(ascii: "/") && escapesSlashes)
  }

  private mutating func appendEscaped(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): appendEscape(byte)
    case UInt8(ascii: "/") where layout.escapesSlashes: appendEscape(byte)
    case 0x08 where layout.shortEscapes: appendEscape(UInt8(ascii: "b"))
    case 0x0C where layout.shortEscapes: appendEscape(UInt8(ascii: "f"))
    case 0x0A: appendEscape(UInt8(ascii: "n"))
    case 0x0D: appendEscape(UInt8(ascii: "r"))
    case 0x09: appendEscape(UInt8(ascii: "t"))
    case 0..<0x20:
      buffer.append(#"\u00"#)
      buffer.append(Self.hexDigits[Int(byte >> 4)])
      buffer.append(Self.hexDigits[Int(byte & 15)])
    default: buffer.append(byte)
    }
  }

  private mutating func appendEscape(_ letter: UInt8) {
    buffer.append(UInt8(ascii: "\\"))
    buffer.append(letter)
  }

  private static let trueBytes = Array("true".utf8)
  private static let falseBytes = Array("false".utf8)
  private static let nullBytes = Array("null".utf8)
  private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A value ``OutputWriter`` can write: an output, or a part of one.
public protocol OutputWritable {
  /// Writes the value as one JSON value, with its keys in SPEC 7's order.
  func write(to writer: inout OutputWriter) throws
}

extension OutputWriter {
  /// The bytes around the values: the outputs' layout, or one of the layouts that files
  /// written before this writer existed have always had. Those files' bytes are compared and
  /// hashed (a partial's checksum, a cache key, a log collector's lines), so they keep them.
  package struct Layout: Sendable {
    package enum Spacing: Sendable, Equatable {
      /// Two-space indentation, one member per line, `"key": value`.
      case indented
      /// Foundation's pretty printer: as `indented`, but `"key" : value`, and an empty
      /// container over two lines.
      case foundation
      /// No whitespace at all: one line.
      case compact
      /// One line as a person writes JSON inline, `{"key": value, "other": [1, 2]}`: the
      /// generated exports and the mapping a refused CSV is offered.
      case inline
    }

    package let spacing: Spacing
    /// `\/` for `/`, as `JSONSerialization` writes it.
    package let escapesSlashes: Bool
    /// `\b` and `\f` for backspace and form feed (RFC 8259's short forms) rather than `\u0008`.
    package let shortEscapes: Bool
    /// Numbers as Foundation writes them, the shortest digits less a trailing `.0` (`-0`,
    /// `9007199254740992`), rather than the outputs' whole numbers below 2⁵³.
    package let trimsNumbers: Bool
    /// What follows a key's closing quote, worked out once: the writer appends it per key.
    let afterKey: Separator

    package init(spacing: Spacing, escapesSlashes: Bool = false, shortEscapes: Bool = true, trimsNumbers: Bool = true) {
      self.spacing = spacing
      self.escapesSlashes = escapesSlashes
      self.shortEscapes = shortEscapes
      self.trimsNumbers = trimsNumbers
      switch spacing {
      case .indented, .inline: afterKey = Separator(": ")
      case .foundation: afterKey = Separator(" : ")
      case .compact: afterKey = Separator(":")
      }
    }

    /// A few ASCII bytes kept in the layout itself, written without an array's retain and
    /// release per key.
    struct Separator: Sendable {
      let count: Int
      private let bytes: UInt32

      init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount <= 4, "a separator is at most 4 bytes")
        count = text.utf8CodeUnitCount
        // Through the buffer: a one-character literal (`":"`) has no `utf8Start`.
        bytes = text.withUTF8Buffer { utf8 in
          utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
        }
      }

      func write(at text: UnsafeMutablePointer<UInt8>) {
        for index in 0..<count { text[index] = UInt8(truncatingIfNeeded: bytes >> (8 * index)) }
      }
    }

    /// Chart and cohort files.
    package static let outputs = Layout(spacing: .indented, shortEscapes: false, trimsNumbers: false)
  }

  /// A NaN or infinite number in an output, which JSON cannot hold: a stage that produced one
  /// has a bug, and a file with `null` in its place would hide it.
  public struct NonFiniteNumber: Error, CustomStringConvertible {
    public var value: Double
    /// Where the number was, as a JSON path: `buckets[3].values.volumeKg`.
    public var path: String

    public var description: String { "\(value) at \(path) cannot be written as JSON" }
  }

  /// The path of the value that would follow `bytes`, read back from the JSON written so far:
  /// only a write that fails needs it, so the writes that succeed do not pay for keeping it.
  static func path(after bytes: [UInt8]) -> String {
    enum Level {
      case object(key: String)
      case array(index: Int)
    }
    var levels: [Level] = []
    var index = 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "{"): levels.append(.object(key: ""))
      case UInt8(ascii: "["): levels.append(.array(index: 0))
      case UInt8(ascii: "}"), UInt8(ascii: "]"): levels.removeLast()
      case UInt8(ascii: ","):
        if case .array(let count) = levels.last {
          levels[levels.count - 1] = .array(index: count + 1)
        }
      case UInt8(ascii: "\""):
        var end = index + 1
        while bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
        // A string followed by a colon is the key of the member being written.
        if end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ":"), case .object = levels.last {
          levels[levels.count - 1] = .object(
            key: String(decoding: bytes[index + 1..<end], as: UTF8.self))
        }
        index = end
      default: break
      }
      index += 1
    }
    var path = ""
    for level in levels {
      switch level {
      case .object(let key): path += path.isEmpty ? key : "." + key
      case .array(let index): path += "[\(index)]"
      }
    }
    return path
  }
}

/// The writer's bytes, written through a pointer and grown by doubling.
///
/// An `[UInt8]` cost about 100 instructions per `append(contentsOf:)` (a key, an indentation, a
/// date), more than the bytes it appended: encoding was two fifths of what each snapshot of a
/// backfill costs beyond reading. Non-copyable, so that the memory it owns has one owner and is
/// freed once.
private struct Buffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit { base.deallocate() }

  var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
  /// The bytes as `Data` that owns this memory from now on: no copy of the output.
  consuming func data() -> Data {
    let data = Data(bytesNoCopy: base, count: count, deallocator: .custom { bytes, _ in bytes.deallocate() })
    discard self
    return data
  }

  /// Room for `extra` more bytes: where they go, to be counted by ``commit(_:)`` once written.
  @inline(__always)
  mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if capacity - count < extra { grow(toHold: count + extra) }
    return base + count
  }

  /// Counts `written` bytes put where ``reserve(_:)`` said.
  @inline(__always)
  mutating func commit(_ written: Int) { count += written }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: count + 1) }
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    reserve(bytes.count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  private mutating func grow(toHold needed: Int) {
    var grown = capacity
    while grown < needed { grown *= 2 }
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity = grown
  }
}

/// Where `Double.write(to:)` puts a number's digits.
private struct Digits: TextOutputStream {
  var bytes: [UInt8] = []

  mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

  /// `Double.write(to:)` hands its digits here. The default would first make a `String` of them,
  /// a heap allocation for the 16 or more characters most fractions take (`0.6666666666666666`).
  /// Should the standard library stop calling it, `write(_:)` gets the same digits.
  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }
}
