import TrendlineSchema

/// A JSON value exactly as a file stated it.
///
/// Numbers keep their source text (`1e400`, `-0`, a 30-digit integer), because converting them
/// here would lose what the file said before the caller had a chance to choose a type: use
/// `doubleValue` or `int64Value` at the point where the meaning is known. Objects keep every
/// member in file order, duplicates included (RFC 8259 allows them), so re-serializing a value
/// never reorders or drops anything.
///
/// `JSONValue` deliberately does not conform to `Hashable` or offer numeric equality: `==`
/// compares the source text of numbers (`1.0 != 1`) and member order, which is what tests of a
/// reader need, not what arithmetic needs.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// The number's source text, already checked against the RFC 8259 grammar by the reader.
  case number(String)
  case string(String)
  case array([JSONValue])
  /// Members in file order; a key may appear more than once.
  case object([(key: String, value: JSONValue)])

  /// Structural equality: numbers by source text, objects by members in order.
  ///
  /// - Complexity: O(*n*), where *n* is the number of values in the smaller tree.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      for (x, y) in zip(a, b) where x.key != y.key || x.value != y.value { return false }
      return true
    default: return false
    }
  }
}

// MARK: - Accessors

extension JSONValue {
  /// The value of the *last* member named `key`, or `nil` when there is none or this is not an
  /// object.
  ///
  /// The last one wins because that is what most readers (JavaScript, Foundation) do, so a file
  /// with a repeated key means here what it means elsewhere.
  ///
  /// - Complexity: O(*m*), where *m* is the number of members. Build a dictionary from
  ///   `objectMembers` when looking up many keys in a large object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last(where: { $0.key == key })?.value
  }

  /// The element at `index`, or `nil` when out of range or this is not an array.
  ///
  /// - Complexity: O(1).
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// - Complexity: O(1).
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// - Complexity: O(1).
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// - Complexity: O(1).
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The source text of a number, for callers that need a type other than `Double` or `Int64`.
  ///
  /// - Complexity: O(1).
  public var numberText: String? {
    if case .number(let text) = self { return text }
    return nil
  }

  /// The number as the nearest `Double`, or `nil` when this is not a number or the number is
  /// too large for a `Double`.
  ///
  /// Overflow is `nil` rather than infinity so that `1e400` kilograms is reported, not charted.
  /// Underflow (`1e-400`) rounds to zero, as every other reader does.
  ///
  /// - Complexity: O(*d*), where *d* is the number of digits.
  public var doubleValue: Double? {
    guard case .number(let text) = self, let value = Double(text), value.isFinite else {
      return nil
    }
    return value
  }

  /// The number as an `Int64`, or `nil` when this is not a number, the number is written with a
  /// fraction or exponent, or it does not fit.
  ///
  /// `5.0` and `5e0` are `nil` on purpose: a count written as a real number is suspicious, and
  /// callers that accept it can use `doubleValue`.
  ///
  /// - Complexity: O(*d*), where *d* is the number of digits.
  public var int64Value: Int64? {
    guard case .number(let text) = self else { return nil }
    return Int64(text)
  }

  /// - Complexity: O(1).
  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The members of an object in file order, duplicates included.
  ///
  /// - Complexity: O(1).
  public var objectMembers: [(key: String, value: JSONValue)]? {
    if case .object(let members) = self { return members }
    return nil
  }
}

// MARK: - Writing

extension JSONValue: OutputWritable {
  /// Writes the value as it was read: numbers as their source text, so `1e400` is not rounded
  /// to infinity, and members in their stored order, duplicates included. Nothing is checked:
  /// values built by ``JSONReader`` always hold valid number text, and code that builds values
  /// by hand writes numbers with Swift's own formatting (`String(describing: 1.5)`).
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  public func write(to writer: inout OutputWriter) {
    switch self {
    case .null: writer.null()
    case .bool(let flag): writer.bool(flag)
    case .number(let text): writer.number(text: text)
    case .string(let text): writer.string(text)
    case .array(let elements):
      writer.beginArray()
      for element in elements { element.write(to: &writer) }
      writer.endArray()
    case .object(let members):
      writer.beginObject()
      for member in members {
        writer.key(escaping: member.key)
        member.value.write(to: &writer)
      }
      writer.endObject()
    }
  }

  /// The value as JSON without a final newline: on one line, or indented two spaces a level
  /// (`"key": value`). Strings escape only what RFC 8259 requires (`"`, `\`, control
  /// characters, in the short forms where they exist); everything else is written as UTF-8.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  public func serialized(indented: Bool = false) -> [UInt8] {
    var writer = OutputWriter(layout: OutputWriter.Layout(spacing: indented ? .indented : .compact))
    write(to: &writer)
    return writer.bytes
  }
}

// MARK: - Paths

/// Where a value sits inside a document: `charts.training-volume[2]`.
///
/// A `.key` step selects the last member with that name, as the `JSONValue` subscript does, so a
/// path built while walking values with that subscript finds the same value's location.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  public enum Component: Sendable, Hashable {
    case key(String)
    case index(Int)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// This path extended by one member name.
  ///
  /// - Complexity: O(*n*), where *n* is the number of components (the path is copied).
  public func appending(_ key: String) -> JSONPath {
    JSONPath(components + [.key(key)])
  }

  /// This path extended by one array index.
  ///
  /// - Complexity: O(*n*), where *n* is the number of components (the path is copied).
  public func appending(_ index: Int) -> JSONPath {
    JSONPath(components + [.index(index)])
  }

  /// Keys joined with `.`, indices in brackets; the empty path is `(root)` so a diagnostic's
  /// ` at …` suffix never ends in nothing.
  public var description: String {
    if components.isEmpty { return "(root)" }
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }
}
