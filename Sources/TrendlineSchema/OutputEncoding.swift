import Foundation

/// The one way Trendline writes an output: the same value gives the same bytes on every run.
///
/// Keys come in the order each type declares them (`schema` first, then SPEC 7's order), and
/// a dictionary's keys (the per-measure values) sorted, so no order ever depends on a hash
/// seed. Instants go through ``RFC3339`` in the user's zone. The output ends with a newline so
/// that files concatenate and diff cleanly.
///
/// This is a small `Encoder` of its own rather than Foundation's `JSONEncoder`: on Linux that
/// writes keyed containers in hash order (so only `.sortedKeys` is stable) and it took most of
/// the time of a run that reads its sessions from the cache.
///
/// An app does not need this type to read an output: `JSONDecoder` with `.iso8601` decodes
/// every file written here (see ``OutputEncoder/makeDecoder()``).
public enum OutputEncoder {
  /// Encodes `value` as indented JSON, instants in `timeZone`'s offset.
  ///
  /// Throws `EncodingError.invalidValue` for a NaN or infinite number, which JSON cannot
  /// hold: a stage that produced one has a bug, and a file with `null` in its place would hide it.
  ///
  /// - Complexity: O(*n* + *d* log *d*), where *n* is the size of the output and *d* the
  ///   number of keys of its dictionaries.
  public static func encode<T: Encodable>(_ value: T, timeZone: TimeZone) throws -> Data {
    let root = NodeBox()
    try value.encode(to: TreeEncoder(box: root, context: EncodingContext(timeZone: timeZone), codingPath: []))
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    write(root, indent: 0, into: &out)
    out.append(UInt8(ascii: "\n"))
    return Data(out)
  }

  /// A decoder for outputs: `JSONDecoder` with `.iso8601` dates, exactly what an app would set up.
  ///
  /// - Complexity: O(1).
  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  // MARK: Writing

  private static func write(_ node: NodeBox, indent: Int, into out: inout [UInt8]) {
    switch node.kind {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool, .number: out.append(contentsOf: node.text.utf8)
    case .string: writeString(node.text, into: &out)
    case .array:
      guard !node.items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
      out.append(UInt8(ascii: "["))
      for (index, item) in node.items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(indent + 1, into: &out)
        write(item, indent: indent + 1, into: &out)
      }
      newline(indent, into: &out)
      out.append(UInt8(ascii: "]"))
    case .object:
      guard !node.members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
      let ordered =
        node.sorted
        ? node.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : node.members
      out.append(UInt8(ascii: "{"))
      for (index, member) in ordered.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(indent + 1, into: &out)
        writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        out.append(UInt8(ascii: " "))
        write(member.value, indent: indent + 1, into: &out)
      }
      newline(indent, into: &out)
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func newline(_ indent: Int, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\n"))
    out.append(contentsOf: repeatElement(0x20, count: 2 * indent))
  }

  /// RFC 8259 string escaping: `"`, `\`, and control characters; everything else as UTF-8.
  private static func writeString(_ text: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Nearly every string needs no escape: copy it whole.
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      out.append(contentsOf: text.utf8)
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [0x5C, 0x22]
      case UInt8(ascii: "\\"): out += [0x5C, 0x5C]
      case 0x0A: out += [0x5C, UInt8(ascii: "n")]
      case 0x0D: out += [0x5C, UInt8(ascii: "r")]
      case 0x09: out += [0x5C, UInt8(ascii: "t")]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// A number as JSON text: whole values without a fraction (`4524`, not `4524.0`), others in
  /// the shortest form that reads back as the same `Double`.
  static func number(_ value: Double, codingPath: [any CodingKey]) throws -> String {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written as JSON"))
    }
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
      return String(Int64(value))
    }
    return "\(value)"
  }
}

// MARK: - The encoder

/// A JSON value being built, in a box a container fills in later (containers hand out nested
/// containers before the values in them are known). Arrays and objects grow in place.
private final class NodeBox {
  enum Kind { case null, bool, number, string, array, object }
  var kind = Kind.null
  /// The text of a number or string, or `true`/`false`.
  var text = ""
  var items: [NodeBox] = []
  var members: [(key: String, value: NodeBox)] = []
  /// An object that came from a dictionary, whose member order is a hash seed's: sorted when written.
  var sorted = false

  func set(_ kind: Kind, _ text: String = "") {
    self.kind = kind
    self.text = text
  }
}

/// What one `encode` call shares across its containers: the zone's instant formatter and
/// which key types are a dictionary's.
private final class EncodingContext {
  let instants: RFC3339.Formatter
  private var dictionaryKeys: [ObjectIdentifier: Bool] = [:]

  init(timeZone: TimeZone) { instants = RFC3339.Formatter(timeZone: timeZone) }

  /// Dictionaries encode through the standard library's private key type; the type's name is
  /// looked at once per type, not once per container.
  func isDictionaryKey<Key: CodingKey>(_ type: Key.Type) -> Bool {
    if let known = dictionaryKeys[ObjectIdentifier(type)] { return known }
    let answer = String(describing: type).hasPrefix("_DictionaryCodingKey")
    dictionaryKeys[ObjectIdentifier(type)] = answer
    return answer
  }
}

/// The containers keep `codingPath` empty: building a path per value (an array per key) cost
/// more than encoding the value, and the only error this encoder raises (a number JSON
/// cannot hold) names the value itself.
private struct TreeEncoder: Encoder {
  let box: NodeBox
  let context: EncodingContext
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // Dictionaries encode through the standard library's private key type; their members
    // are sorted when written, every other object keeps its declared order.
    if box.kind != .object {
      box.set(.object)
      box.sorted = context.isDictionaryKey(Key.self)
    }
    return KeyedEncodingContainer(KeyedContainer<Key>(box: box, context: context, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if box.kind != .array { box.set(.array) }
    return UnkeyedContainer(box: box, context: context, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleContainer(box: box, context: context, codingPath: codingPath)
  }
}

/// Encodes one value into `box`: the primitives directly, `Date` as RFC 3339 in the zone,
/// anything else through its own `encode(to:)`.
private func encodeValue<T: Encodable>(
  _ value: T, into box: NodeBox, context: EncodingContext, codingPath: [any CodingKey]
) throws {
  // Exact type comparisons, not `as?` casts: a dynamic cast per value cost more than writing
  // the value. The bit casts are between identical types.
  if T.self == Double.self {
    box.set(.number, try OutputEncoder.number(unsafeBitCast(value, to: Double.self), codingPath: codingPath))
  } else if T.self == Date.self {
    box.set(.string, context.instants.string(unsafeBitCast(value, to: Date.self).epochSeconds))
  } else if T.self == Int.self {
    box.set(.number, String(unsafeBitCast(value, to: Int.self)))
  } else if T.self == String.self {
    box.set(.string, unsafeBitCast(value, to: String.self))
  } else if T.self == Bool.self {
    box.set(.bool, unsafeBitCast(value, to: Bool.self) ? "true" : "false")
  } else if T.self == Int64.self {
    box.set(.number, String(unsafeBitCast(value, to: Int64.self)))
  } else {
    try value.encode(to: TreeEncoder(box: box, context: context, codingPath: codingPath))
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: NodeBox
  let context: EncodingContext
  var codingPath: [any CodingKey]

  private func append(_ key: Key) -> NodeBox {
    let child = NodeBox()
    box.members.append((key.stringValue, child))
    return child
  }

  mutating func encodeNil(forKey key: Key) throws { append(key).set(.null) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encodeValue(value, into: append(key), context: context, codingPath: codingPath)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    TreeEncoder(box: append(key), context: context, codingPath: codingPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeEncoder(box: append(key), context: context, codingPath: codingPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    TreeEncoder(box: append(Key(stringValue: "super")!), context: context, codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    TreeEncoder(box: append(key), context: context, codingPath: codingPath)
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let box: NodeBox
  let context: EncodingContext
  var codingPath: [any CodingKey]

  var count: Int { box.items.count }

  private func append() -> NodeBox {
    let child = NodeBox()
    box.items.append(child)
    return child
  }

  mutating func encodeNil() throws { append().set(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try encodeValue(value, into: append(), context: context, codingPath: codingPath)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    TreeEncoder(box: append(), context: context, codingPath: codingPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    TreeEncoder(box: append(), context: context, codingPath: codingPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    TreeEncoder(box: append(), context: context, codingPath: codingPath)
  }
}

private struct SingleContainer: SingleValueEncodingContainer {
  let box: NodeBox
  let context: EncodingContext
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { box.set(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try encodeValue(value, into: box, context: context, codingPath: codingPath)
  }
}
