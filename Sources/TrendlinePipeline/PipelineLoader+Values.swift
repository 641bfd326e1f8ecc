import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

// Typed reads of JSON values. Each returns `nil` after recording why, so a caller falls back to
// a placeholder and goes on checking the rest of the file.
extension PipelineChecker {
  /// The members of an object, last one winning, after reporting a wrong type, repeated,
  /// unknown and missing keys.
  func object(_ value: JSONValue, at path: JSONPath, keys allowed: [String], required: [String] = [])
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

  func string(_ value: JSONValue, at path: JSONPath, nonEmpty: Bool = false) -> String? {
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

  func array(_ value: JSONValue, at path: JSONPath, nonEmpty: Bool = false) -> [JSONValue]? {
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

  func number(_ value: JSONValue, at path: JSONPath) -> Double? {
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
  func integer(
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
  func choice(_ value: JSONValue, at path: JSONPath, _ names: [String], what: String) -> String? {
    guard let text = string(value, at: path) else { return nil }
    guard names.contains(text) else {
      report(path, "unknown \(what) '\(text)'", hint: suggestion(text, in: names, noun: "values"))
      return nil
    }
    return text
  }

  func measure(_ value: JSONValue, at path: JSONPath) -> Measure? {
    choice(value, at: path, Measure.allCases.map(\.rawValue), what: "measure").flatMap(Measure.init(rawValue:))
  }

  func granularity(_ value: JSONValue, at path: JSONPath, what: String) -> Granularity? {
    choice(value, at: path, Granularity.allCases.map(\.rawValue), what: what).flatMap(Granularity.init(rawValue:))
  }

  func timeZone(_ value: JSONValue, at path: JSONPath) -> TimeZone? {
    guard let text = string(value, at: path) else { return nil }
    if let zone = TimeZone(identifier: text) { return zone }
    let near = nearMiss(text, in: TimeZone.knownTimeZoneIdentifiers)
    report(
      path, "unknown time zone '\(text)'",
      hint: near.map { "Did you mean '\($0)'?" } ?? "Use an IANA name such as Europe/Oslo or UTC")
    return nil
  }

  func weightUnit(_ value: JSONValue, at path: JSONPath) -> WeightUnit? {
    guard let text = string(value, at: path) else { return nil }
    if let unit = WeightUnit(spelling: text) { return unit }
    report(
      path, "unknown weight unit '\(text)'",
      hint: suggestion(text, in: WeightUnit.allCases.map(\.rawValue), noun: "values"))
    return nil
  }

  func distanceUnit(_ value: JSONValue, at path: JSONPath) -> DistanceUnit? {
    guard let text = string(value, at: path) else { return nil }
    if let unit = DistanceUnit(spelling: text) { return unit }
    report(
      path, "unknown distance unit '\(text)'",
      hint: suggestion(text, in: DistanceUnit.allCases.map(\.rawValue), noun: "values"))
    return nil
  }

  /// `a string`, `a number`, … for "expected X, found Y".
  func kind(of value: JSONValue) -> String {
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
  func text(of value: JSONValue) -> String {
    switch value {
    case .number(let text): return text
    case .string(let text): return "'\(text)'"
    default: return kind(of: value)
    }
  }
}
