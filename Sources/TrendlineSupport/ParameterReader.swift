import Foundation

/// Typed reads of the values of one JSON document, recording every problem as a
/// ``Diagnostic`` with its line, column and JSON path instead of stopping at the first.
///
/// Each read returns `nil` after recording why, so a caller falls back to a placeholder and goes
/// on checking the rest of the document: one edit of a pipeline file fixes everything (AP
/// validators collect them all). The pipeline loader is one; each stage reads its own parameters
/// through the same methods, so a stage's checks speak exactly as the loader's do.
///
/// It is a class, not a struct, because the stages and the loader share one list of problems
/// while each reads its own part of the document. It is not `Sendable`: one reader serves one
/// load, on one thread.
open class ParameterReader {
  public let document: JSONDocument
  /// The file's name as diagnostics show it.
  public let display: String
  /// Diagnostics with where they sort: their place in the file (a catalog problem sorts at
  /// `source.catalog`), then the order they were found.
  private var found: [(line: Int, column: Int, diagnostic: Diagnostic)] = []

  public init(document: JSONDocument, display: String) {
    self.document = document
    self.display = display
  }

  /// Every problem recorded, in file order.
  ///
  /// - Complexity: O(*d* log *d*) for *d* diagnostics.
  public var sortedDiagnostics: [Diagnostic] {
    found.enumerated()
      .sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
      .map(\.element.diagnostic)
  }

  // MARK: Reporting

  /// Records a problem with the value at `path` (or its member key, with `atKey`).
  ///
  /// - Complexity: O(*p*) for a path of *p* components.
  public func report(
    _ path: JSONPath, _ message: String, hint: String? = nil, atKey: Bool = false, shownPath: JSONPath? = nil
  ) {
    let position = (atKey ? document.keyLocation(of: path) : document.location(of: path)) ?? (line: 1, column: 1)
    let location = SourceLocation(file: display, line: position.line, column: position.column)
    let diagnostic = Diagnostic(.error, at: location, path: (shownPath ?? path).description, message, hint: hint)
    found.append((position.line, position.column, diagnostic))
  }

  /// Records a problem found in another file (the catalog), sorted where `path` points.
  ///
  /// - Complexity: O(*p*) for a path of *p* components.
  public func report(_ diagnostic: Diagnostic, sortedAt path: JSONPath) {
    let position = document.location(of: path) ?? (line: 1, column: 1)
    found.append((position.line, position.column, diagnostic))
  }

  /// Where `path` is in the document, as a diagnostic names it.
  ///
  /// - Complexity: O(*p*) for a path of *p* components.
  public func location(of path: JSONPath) -> SourceLocation? {
    document.sourceLocation(of: path, file: display)
  }

  // MARK: Typed reads

  /// One of an enumeration's cases by its raw value, exactly as written.
  ///
  /// - Complexity: O(*c*) for *c* cases.
  public func choice<Value: RawRepresentable & CaseIterable>(
    _ value: JSONValue, at path: JSONPath, what: String
  ) -> Value? where Value.RawValue == String {
    choice(value, at: path, Value.allCases.map(\.rawValue), what: what).flatMap(Value.init(rawValue:))
  }

  /// The members of an object, last one winning, after reporting a wrong type, repeated,
  /// unknown and missing keys.
  public func object(_ value: JSONValue, at path: JSONPath, keys allowed: [String], required: [String] = [])
    -> [String: JSONValue]?
  {
    guard let members = value.objectMembers else {
      report(path, "expected an object, found \(kind(of: value))")
      return nil
    }
    var result: [String: JSONValue] = [:]
    var reported: Set<String> = []
    for member in members {
      if result[member.key] != nil, reported.insert(member.key).inserted {
        // JSON allows it, but one of the two is a mistake, and which one wins differs by reader.
        report(
          path.appending(member.key), "key '\(member.key)' is given more than once", hint: "Keep one",
          atKey: true, shownPath: path)
      }
      result[member.key] = member.value
      if !allowed.contains(member.key), reported.insert(member.key).inserted {
        report(
          path.appending(member.key), "unknown key '\(member.key)'",
          hint: suggestion(member.key, in: allowed, noun: "keys"), atKey: true, shownPath: path)
      }
    }
    for key in required where result[key] == nil {
      report(path, "missing key '\(key)'")
    }
    return result.filter { allowed.contains($0.key) }
  }

  public func string(_ value: JSONValue, at path: JSONPath, nonEmpty: Bool = false) -> String? {
    guard let text = value.stringValue else {
      report(path, "expected a string, found \(kind(of: value))")
      return nil
    }
    if nonEmpty && text.trimmingCharacters(in: .whitespaces).isEmpty {
      report(path, "expected a non-empty string")
      return nil
    }
    return text
  }

  public func array(_ value: JSONValue, at path: JSONPath, nonEmpty: Bool = false) -> [JSONValue]? {
    guard let elements = value.arrayValue else {
      report(path, "expected an array, found \(kind(of: value))")
      return nil
    }
    if nonEmpty && elements.isEmpty {
      report(path, "expected at least one element, found an empty array")
      return nil
    }
    return elements
  }

  public func number(_ value: JSONValue, at path: JSONPath) -> Double? {
    guard value.numberText != nil else {
      report(path, "expected a number, found \(kind(of: value))")
      return nil
    }
    guard let number = value.doubleValue else {
      report(path, "the number \(text(of: value)) is too large")
      return nil
    }
    return number
  }

  /// A whole number in `range`; `what` names it in the message.
  public func integer(
    _ value: JSONValue, at path: JSONPath, in range: ClosedRange<Int>, what: String, checkRange: Bool = true
  ) -> Int? {
    guard value.numberText != nil else {
      report(path, "expected a whole number, found \(kind(of: value))")
      return nil
    }
    guard let wide = value.int64Value, let number = Int(exactly: wide) else {
      report(path, "expected a whole number, found \(text(of: value))")
      return nil
    }
    guard !checkRange || range.contains(number) else {
      if range.upperBound == Int.max {
        report(path, "\(what) must be at least \(range.lowerBound), found \(number)")
      } else {
        report(path, "\(what) must be between \(range.lowerBound) and \(range.upperBound), found \(number)")
      }
      return nil
    }
    return number
  }

  /// One of `names`, exactly as written.
  public func choice(_ value: JSONValue, at path: JSONPath, _ names: [String], what: String) -> String? {
    guard let text = string(value, at: path) else { return nil }
    guard names.contains(text) else {
      report(path, "unknown \(what) '\(text)'", hint: suggestion(text, in: names, noun: "values"))
      return nil
    }
    return text
  }

  /// `a string`, `a number`, … for "expected X, found Y".
  public func kind(of value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// A scalar as the file wrote it, for messages that quote a value.
  public func text(of value: JSONValue) -> String {
    switch value {
    case .number(let text): return text
    case .string(let text): return "'\(text)'"
    default: return kind(of: value)
    }
  }

  /// An array of muscle-group ids: whole numbers from 0.
  ///
  /// - Complexity: O(*n*) for *n* elements.
  public func muscleGroupIds(_ value: JSONValue, at path: JSONPath, nonEmpty: Bool = false) -> [Int]? {
    guard let elements = array(value, at: path, nonEmpty: nonEmpty) else { return nil }
    var ids: [Int] = []
    var valid = true
    for (index, element) in elements.enumerated() {
      if let id = integer(element, at: path.appending(index), in: 0...Int.max, what: "a muscle-group id") {
        ids.append(id)
      } else {
        valid = false
      }
    }
    return valid ? ids : nil
  }
}
