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
  case liftosaurCSV = "liftosaur-csv"
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
    if LiftosaurCSV.isHeader(has) { return .liftosaurCSV }
    if has("isWarmup") && has("Weight(kg)") { return .fitbodCSV }
    // Fitbod's older layout: `Date,Exercise,Sets,Reps,Weight,isWarmup,Note`.
    if has("isWarmup") && has("Sets") && has("Weight") && has("Exercise") { return .fitbodCSV }
    if has("Exercise") && has("Category") && has("Date") { return .fitNotesCSV }
    if has("workoutActivityType") && has("startDate") { return .appleHealthCSV }
    // A header in a language no reader names: Strong by the shape of its columns and values.
    let byStructure = bytes.withUnsafeBufferPointer {
      StrongCSV.hasStructure(UnsafeBufferPointer(rebasing: $0[start..<min($0.count, start + (1 << 16))]))
    }
    if byStructure { return .strongCSV }
    return nil
  }

  /// What a file is that no workout log can be read from, recognised by its header, with what
  /// to export instead; nil for any other file. An activity list such as Garmin Connect's
  /// `Activities.csv` holds one row per activity — its time, distance, calories — and no set,
  /// so reading it would give sessions of nothing: it is refused, saying so (SPEC 11.3).
  ///
  /// Garmin translates the header into the app's language (`Tipo de atividade,Data,Favorito,
  /// Título,…`, `Aktivitätstyp,Datum,Favorit,Titel,…`), so it is recognised by its structure
  /// (SPEC 11.1) as well as by its English names: at least 20 columns, and a first row with a
  /// date and time in the second column and an activity's clock time (`00:59:49`, `00:36:26.5`)
  /// in the sixth or seventh — type, date, [favourite,] title, distance, calories, time.
  ///
  /// - Complexity: O(*h*), where *h* is the length of the first two records.
  public static func notAWorkoutLog(_ bytes: [UInt8]) -> String? {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn].contains(bytes[start]) {
      start += 1
    }
    let reader = CSVReader(bytes: Array(bytes[start...]))
    guard case .record = reader.next() else { return nil }
    let columns = reader.fieldCount
    let names = Set((0..<columns).map { normalizedName(reader.string($0)).lowercased() })
    func has(_ column: String) -> Bool { names.contains(column.lowercased()) }
    // Garmin Connect's English names: the activity list page's export (`Activity Type,Date,
    // Favorite,Title,Distance,Calories,Time,…`) and the account export's (`Start Time,End Time,
    // Activity ID,Activity Name,…,Activity Type,…`).
    var garmin =
      has("Activity Type")
      && ((has("Date") && has("Title") && (has("Calories") || has("Distance")))
        || (has("Activity ID") && (has("Activity Name") || has("Start Time"))))
    if !garmin && columns >= 20 {
      var event = reader.next()
      while case .blankLine = event { event = reader.next() }
      if case .record = event, reader.fieldCount >= 7,
        let date = TimestampParser.parse(reader.field(1)), date.hasTime
      {
        garmin = isClockTime(reader.field(5)) || isClockTime(reader.field(6))
      }
    }
    guard garmin else { return nil }
    return
      "this is Garmin Connect's activity list (Activities.csv): one row per activity with its time, distance "
      + "and calories, and no sets, so Trendline cannot read workouts from it; export your log from the app you "
      + "record sets in (Strong, Hevy, FitNotes, Fitbod, Liftosaur, StrongLifts, GymBook) and read that file instead"
  }

  /// Whether `bytes` are a clock time `H:MM:SS` or `HH:MM:SS`, with an optional fraction.
  private static func isClockTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func digit(_ position: Int) -> Bool { position < bytes.count && bytes[position] >= 0x30 && bytes[position] <= 0x39 }
    let hours = digit(1) ? 2 : 1
    guard digit(0), hours + 6 <= bytes.count, bytes[hours] == UInt8(ascii: ":"), digit(hours + 1), digit(hours + 2),
      bytes[hours + 3] == UInt8(ascii: ":"), digit(hours + 4), digit(hours + 5)
    else { return false }
    let end = hours + 6
    if end == bytes.count { return true }
    return bytes[end] == ASCII.dot && end + 1 < bytes.count && (end + 1..<bytes.count).allSatisfy(digit)
  }
}
