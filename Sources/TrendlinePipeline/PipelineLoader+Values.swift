import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

// Typed reads of JSON values. Each returns `nil` after recording why, so a caller falls back to
// a placeholder and goes on checking the rest of the file.
extension PipelineChecker {
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
}
