import Foundation
import TrendlineSchema
import TrendlineSupport

/// Turns fields into values for one format, with the reject reasons written in one place.
///
/// Strings repeat down a file (a workout's name and date on each of its rows, an exercise's
/// name on each of its sets), so each text column keeps its last bytes and `String`: a
/// repeated value costs a byte comparison, not a decode and a Unicode normalization.
///
/// The memo properties are read on every row, so they skip Swift's dynamic exclusivity
/// checks, which cost more than the comparisons they guard: a decoder belongs to one file's
/// parser on one thread, and no method holds an access across a call to another.
final class FieldDecoder {
  /// Per column: the last bytes seen and their text (indexed by column, grown on demand).
  @exclusivity(unchecked) private var lastBytes: [[UInt8]?] = []
  @exclusivity(unchecked) private var lastText: [String] = []
  @exclusivity(unchecked) private var lastTimestampBytes: [UInt8] = []
  @exclusivity(unchecked) private var lastTimestamp: Int64 = 0
  @exclusivity(unchecked) private var lastKey: (start: Int64, name: String, key: String)?
  @exclusivity(unchecked) private var lastDuration:
    (index: Int, bytes: [UInt8], reading: (seconds: Int64?, dropped: FieldProblem?))?
  let resolver: ZoneResolver
  /// Numbers are written with a decimal comma (`62,5`), as in a mapped CSV that says so.
  let decimalComma: Bool
  /// How dates spelling their month read it (Hevy); nil reads English names.
  var months: MonthReading?

  init(timeZone: TimeZone, decimalComma: Bool = false) {
    resolver = ZoneResolver(timeZone: timeZone)
    self.decimalComma = decimalComma
  }

  /// Field `index` as a name (of an exercise, a workout): trimmed NFC text, at most
  /// ``NameLimit/maximumCharacters`` long.
  ///
  /// - Throws: ``FieldProblem`` for a name over the limit.
  /// - Complexity: O(*m*) for a field of *m* bytes; a repeat of the column's last value
  ///   allocates nothing.
  func text(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> String {
    while lastBytes.count <= index {
      lastBytes.append(nil)
      lastText.append("")
    }
    let bytes = reader.field(index)
    if let last = lastBytes[index], equal(last, bytes) { return lastText[index] }
    let text = normalizedName(bytes)
    if let problem = NameLimit.problem(text) { throw FieldProblem(index: index, reason: problem) }
    lastBytes[index] = Array(bytes)
    lastText[index] = text
    return text
  }

  /// Field `index` as an exercise's name: ``text(_:_:)``, and never empty, since a set of no
  /// exercise maps to no muscle and is drawn on no chart; `noun` is what the format calls it
  /// (Hevy's `title`), for the reason `the exercise name is empty`.
  ///
  /// - Complexity: as ``text(_:_:)``.
  func exerciseName(_ reader: CSVReader, _ index: Int, called noun: String = "name") throws(FieldProblem) -> String {
    let name = try text(reader, index)
    guard !name.isEmpty else { throw FieldProblem(index: index, reason: "the exercise \(noun) is empty") }
    return name
  }

  /// The session key of a row, built once per session rather than once per row.
  func sessionKey(start: Int64, name: String) -> String {
    if let last = lastKey, last.start == start, last.name == name { return last.key }
    let key = TrendlineIngest.sessionKey(start: start, name: name)
    lastKey = (start, name, key)
    return key
  }

  /// Field `index` as a number; empty is `empty` (SPEC 9.5: an empty weight is 0 kg).
  func number(_ reader: CSVReader, _ index: Int, empty: Double = 0) throws(FieldProblem) -> Double {
    let bytes = reader.field(index)
    let value: NumberParser.Value
    if decimalComma && bytes.contains(ASCII.comma) {
      let swapped = bytes.map { $0 == ASCII.comma ? ASCII.dot : $0 }
      value = swapped.withUnsafeBufferPointer { NumberParser.decimal($0) }
    } else {
      value = NumberParser.decimal(bytes)
    }
    switch value {
    case .number(let number): return number
    case .empty: return empty
    case .invalid:
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a number")
    }
  }

  /// Field `index` as a weight in kilograms, `unit` being what the file writes; empty is a
  /// body-weight set of 0 kg (SPEC 9.5), and 0…1500 kg is the possible range (SPEC 3).
  func weightKg(_ reader: CSVReader, _ index: Int?, unit: WeightUnit) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    let kilograms = unit.kilograms(try number(reader, index))
    try SetLimits.checkWeight(kilograms, index: index, text: reader.string(index))
    return kilograms
  }

  /// Field `index` as the load of a set of `exercise`: as ``weightKg(_:_:unit:)``, except that
  /// a negative weight on an assisted exercise (``AssistedExercise``) is the machine's
  /// assistance, not a load: the set counts with no load — 0 kg, what an empty weight reads as
  /// (SPEC 9.5) — and the problem returned lists the row as repaired (SPEC 11.3). On any other
  /// exercise a negative weight still rejects the row.
  ///
  /// - Complexity: O(*m*) for a field of *m* bytes, plus O(*e*) for an exercise name of *e*
  ///   bytes when the weight is negative.
  func loadKg(_ reader: CSVReader, _ index: Int?, unit: WeightUnit, exercise: String) throws(FieldProblem)
    -> (kilograms: Double, assistance: FieldProblem?)
  {
    guard let index else { return (0, nil) }
    return try AssistedExercise.load(
      unit.kilograms(try number(reader, index)), exercise: exercise, index: index, text: reader.string(index))
  }

  /// Field `index` as reps: empty is 0, 0…1000 the possible range.
  func reps(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    let reps = try number(reader, index)
    try SetLimits.checkReps(reps, index: index, text: reader.string(index))
    return reps
  }

  /// Field `index` as a distance in metres, `unit` being what the file writes.
  func meters(_ reader: CSVReader, _ index: Int?, unit: DistanceUnit) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    let value = try number(reader, index)
    try SetLimits.checkNonNegative(value, index: index, what: "distance", text: reader.string(index))
    let meters = unit.meters(value)
    try SetLimits.checkDistance(meters, index: index, text: reader.string(index))
    return meters
  }

  /// Field `index` as seconds of a timed set: a number, or a duration such as `0:09:21`.
  func seconds(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> Double {
    guard let index else { return 0 }
    return Double(try duration(reader, index) ?? 0)
  }

  /// Field `index` as a set number within its exercise, or nil when empty.
  func setIndex(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> Int? {
    guard let index, !reader.isEmpty(index) else { return nil }
    let value = try number(reader, index)
    // A set index beyond a million is no set number; `Int(_:)` would also trap on 1e20.
    guard value >= 0, value <= 1_000_000, value == value.rounded() else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a set index")
    }
    return Int(value)
  }

  private static let normalBytes = Array("normal".utf8)
  private static let warmupBytes = Array("warmup".utf8)

  /// Field `index` as a set type in the words apps use (`normal`, `warmup`/`warm-up`/`w`,
  /// `dropset`/`drop set`/`d`, `failure`/`f`), any case; empty is normal.
  func setType(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> SetType {
    guard let index, !reader.isEmpty(index) else { return .normal }
    // The common spellings straight from the bytes: this runs on every row of a Hevy export.
    let bytes = reader.field(index)
    if equal(Self.normalBytes, bytes) { return .normal }
    if equal(Self.warmupBytes, bytes) { return .warmup }
    switch reader.string(index).trimmingCharacters(in: .whitespaces).lowercased() {
    case "normal", "n": return .normal
    case "warmup", "warm_up", "warm-up", "warm up", "w": return .warmup
    case "dropset", "drop_set", "drop-set", "drop set", "drop", "d": return .dropset
    case "failure", "f": return .failure
    default:
      throw FieldProblem(
        index: index, reason: "'\(reader.string(index))' is not a set type (normal, warmup, dropset, failure)")
    }
  }

  /// A per-row unit column (`Weight Unit`: `kg`, `kgs`, `lbs`), nil when absent or empty.
  func weightUnit(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> WeightUnit? {
    guard let index, !reader.isEmpty(index) else { return nil }
    guard let unit = WeightUnit(spelling: reader.string(index)) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a weight unit (kg or lbs)")
    }
    return unit
  }

  /// A per-row unit column (`Distance Unit`: `km`, `mi.`, `m`), nil when absent or empty.
  func distanceUnit(_ reader: CSVReader, _ index: Int?) throws(FieldProblem) -> DistanceUnit? {
    guard let index, !reader.isEmpty(index) else { return nil }
    guard let unit = DistanceUnit(spelling: reader.string(index)) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a distance unit (km, mi or m)")
    }
    return unit
  }

  /// Field `index` as a workout's length in seconds: nil when empty. A length that is negative
  /// or over 24 hours (a timer left running: `42h 13m`) is no length at all, but the sets
  /// are real, so it is dropped — unknown, with the problem to list — rather than rejecting
  /// the row (SPEC 10.2). Text that is no duration at all still rejects the row.
  ///
  /// Every row of a workout repeats its length, so a repeat of the column's last text is given
  /// the last reading, dropped or not, without parsing it again.
  func workoutDuration(_ reader: CSVReader, _ index: Int) throws(FieldProblem)
    -> (seconds: Int64?, dropped: FieldProblem?)
  {
    let bytes = reader.field(index)
    if let last = lastDuration, last.index == index, equal(last.bytes, bytes) { return last.reading }
    let reading: (seconds: Int64?, dropped: FieldProblem?)
    switch NumberParser.duration(bytes) {
    case .number(let seconds):
      if let problem = WorkoutLength.problem(seconds, text: reader.string(index)) {
        reading = (nil, FieldProblem(index: index, reason: problem))
      } else {
        reading = (Int64(seconds.rounded(.down)), nil)
      }
    case .empty: reading = (nil, nil)
    case .invalid:
      throw FieldProblem(
        index: index,
        reason: "'\(reader.string(index))' is not a duration (like 1h 5m, 45m, 01:05:00 or seconds)")
    }
    lastDuration = (index, Array(bytes), reading)
    return reading
  }

  /// Field `index` as a duration in seconds, or nil when empty.
  func duration(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> Int64? {
    switch NumberParser.duration(reader.field(index)) {
    case .number(let seconds):
      guard seconds >= 0 else {
        throw FieldProblem(index: index, reason: "duration '\(reader.string(index))' is negative")
      }
      guard seconds <= 86_400 else {
        throw FieldProblem(
          index: index, reason: "duration '\(reader.string(index))' is longer than 24 hours")
      }
      return Int64(seconds.rounded(.down))
    case .empty: return nil
    case .invalid:
      throw FieldProblem(
        index: index,
        reason: "'\(reader.string(index))' is not a duration (like 1h 5m, 45m, 01:05:00 or seconds)")
    }
  }

  /// Field `index` as an instant: a stated offset is used as it is, a local time is read in
  /// the user's zone. Before 1970 is impossible for a workout log (SPEC 3).
  func instant(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> Int64 {
    let bytes = reader.field(index)
    if !bytes.isEmpty && equal(lastTimestampBytes, bytes) { return lastTimestamp }
    guard let parsed = TimestampParser.parse(bytes, months: months) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a date and time")
    }
    let value = try checkedInstant(parsed, reader, index)
    lastTimestampBytes = Array(bytes)
    lastTimestamp = value
    return value
  }

  /// Field `index` as a local wall time (seconds since 1970 on the wall clock), for end times
  /// that must be placed after a start.
  func localTime(_ reader: CSVReader, _ index: Int) throws(FieldProblem) -> ParsedTimestamp {
    guard let parsed = TimestampParser.parse(reader.field(index), months: months) else {
      throw FieldProblem(index: index, reason: "'\(reader.string(index))' is not a date and time")
    }
    return parsed
  }

  func checkedInstant(_ parsed: ParsedTimestamp, _ reader: CSVReader, _ index: Int)
    throws(FieldProblem) -> Int64
  {
    let value: Int64
    if let offset = parsed.offsetSeconds {
      value = parsed.civil.localSeconds - Int64(offset)
    } else {
      value = resolver.instant(localSeconds: parsed.civil.localSeconds)
    }
    if let problem = StartLimits.problem(value, text: reader.string(index)) {
      throw FieldProblem(index: index, reason: problem)
    }
    return value
  }
}

/// Byte-wise equality by `memcmp`.
@inline(__always)
func equal(_ array: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard array.count == bytes.count else { return false }
  guard let base = bytes.baseAddress else { return true }
  return array.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
}

/// `normalizedName` of UTF-8 bytes: ASCII text (nearly every name) is trimmed and made into a
/// `String` directly, without Foundation's trimming, which costs more than the rest of a row.
func normalizedName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  var start = 0
  var end = bytes.count
  var ascii = true
  for byte in bytes where byte >= 0x80 {
    ascii = false
    break
  }
  guard ascii else { return normalizedName(String(decoding: bytes, as: UTF8.self)) }
  func isSpace(_ byte: UInt8) -> Bool { byte == ASCII.space || (byte >= 0x09 && byte <= 0x0D) }
  while start < end && isSpace(bytes[start]) { start += 1 }
  while end > start && isSpace(bytes[end - 1]) { end -= 1 }
  return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
}

/// Trimmed, Unicode NFC: the one spelling of a name that comparisons and outputs use, so
/// `Rücken` typed on a Mac (NFD) and on a phone (NFC) is one exercise.
public func normalizedName(_ text: String) -> String {
  // ASCII text is already NFC, and trimmed by its bytes: Foundation's trimming cost more than
  // the rest of a catalog look-up, which every user makes for every exercise name.
  if text.utf8.allSatisfy({ $0 < 0x80 }) {
    var copy = text
    return copy.withUTF8 { normalizedName($0) }
  }
  return text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
}
