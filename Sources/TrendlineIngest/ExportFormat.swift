import Foundation
import TrendlineSupport

/// The export formats Trendline reads (SPEC section 2), by their pipeline names.
public enum ExportFormat: String, Sendable, Codable, CaseIterable {
  case strongCSV = "strong-csv"
  case hevyCSV = "hevy-csv"
  case fitNotesCSV = "fitnotes-csv"
  case fitbodCSV = "fitbod-csv"
  case strongLiftsCSV = "stronglifts-csv"
  case gymBookCSV = "gymbook-csv"
  case nativeJSON = "native-json"
  /// Hevy's workouts API: a page of workouts, an array of them, or one (SPEC 11.3).
  case hevyJSON = "hevy-json"
  /// JEFIT's multi-section export: workout sessions joined with their exercise logs.
  case jefitCSV = "jefit-csv"
  case ndjson = "ndjson"
  case mappedCSV = "csv"
  /// Apple Health workouts as the `applehealthdata` converter writes them: recognized so
  /// that such a file is reported for what it is (workouts without sets), not as garbage.
  case appleHealthCSV = "apple-health-csv"

  /// Names a pipeline file may give `source.format`, including `auto`.
  public static var pipelineNames: [String] {
    ["auto"] + allCases.filter { $0 != .appleHealthCSV }.map(\.rawValue)
  }

  /// Works out a file's format from its first bytes: the first JSON value, or the CSV
  /// header's column names (whole names, any case).
  ///
  /// - Complexity: O(*h*), where *h* is the length of the first line.
  public static func sniff(_ bytes: [UInt8], fileName: String) -> ExportFormat? {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count,
      [ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn].contains(bytes[start])
    {
      start += 1
    }
    guard start < bytes.count else { return nil }
    let lowerName = fileName.lowercased()
    if lowerName.hasSuffix(".ndjson") || lowerName.hasSuffix(".jsonl") { return .ndjson }
    if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
      if HevyJSON.sniff(bytes, from: start) { return .hevyJSON }
      // Native JSON is one object holding `sessions`; NDJSON has one set object per line, so
      // its first line already closes.
      var end = start
      while end < bytes.count && bytes[end] != ASCII.newline { end += 1 }
      let firstLine = String(decoding: bytes[start..<end], as: UTF8.self)
      if firstLine.contains("\"sessions\"") { return .nativeJSON }
      if firstLine.contains("\"session\"") { return .ndjson }
      // A first line that is a whole JSON object followed by more is one NDJSON set per line.
      let firstIsWhole = (try? JSONReader().parse(Array(bytes[start..<end]))) != nil
      let more = bytes[min(end, bytes.count)...].contains { $0 > ASCII.space }
      return firstIsWhole && more ? .ndjson : .nativeJSON
    }

    if JEFITCSV.sniff(bytes, from: start) { return .jefitCSV }
    var end = start
    while end < bytes.count && bytes[end] != ASCII.newline { end += 1 }
    // Whole column names, any case, as the readers look them up: a substring would take
    // `My Exercise Name` for Strong's `Exercise Name`.
    let reader = CSVReader(bytes: Array(bytes[start..<end]))
    guard case .record = reader.next() else { return nil }
    let names = Set((0..<reader.fieldCount).map { normalizedName(reader.string($0)).lowercased() })
    func has(_ column: String) -> Bool { names.contains(column.lowercased()) }
    if has("exercise_title") && has("start_time") { return .hevyCSV }
    if StrongCSV.language(of: has) != nil { return .strongCSV }
    if StrongLiftsCSV.isHeader(has) { return .strongLiftsCSV }
    if GymBookCSV.language(of: has) != nil { return .gymBookCSV }
    if has("isWarmup") && has("Weight(kg)") { return .fitbodCSV }
    if has("Exercise") && has("Category") && has("Date") { return .fitNotesCSV }
    if has("workoutActivityType") && has("startDate") { return .appleHealthCSV }
    return nil
  }
}
