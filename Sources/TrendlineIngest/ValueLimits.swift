import Foundation
import TrendlineSchema
import TrendlineSupport

/// The possible length of a workout: 0 to 24 hours. Outside it the length is dropped and the
/// sets kept (SPEC 10.2), in every format.
enum WorkoutLength {
  static let maximumSeconds = 86_400.0

  /// Why `seconds` cannot be a workout's length, or nil when it can.
  static func problem(_ seconds: Double, text: @autoclosure () -> String) -> String? {
    if seconds < 0 { return "workout duration '\(text())' is negative; the duration is dropped, the sets kept" }
    if seconds > maximumSeconds {
      return
        "workout duration '\(text())' is longer than 24 hours (a timer left running); the duration is dropped, "
        + "the sets kept"
    }
    return nil
  }
}

/// The longest exercise or workout name a row may have, in every format: a longer one rejects
/// its row.
///
/// Names are what charts show (an axis label, a legend, a table row), and every chart repeats
/// them, so an unbounded one made a 100 MB name into a 315 MB SVG. A real exercise name is
/// a few words (the apps' own libraries stay under 60 characters), so a name of hundreds is
/// another column mapped wrongly or junk. Rejected rather than truncated: two long names cut
/// to one prefix would silently merge into one exercise on a chart.
enum NameLimit {
  /// An empirically generous bound: three times the longest name in the built-in catalog and
  /// in the apps' libraries we know.
  static let maximumCharacters = 200
  static let maximumBytes = 4 * maximumCharacters

  /// Why `name` cannot be a name on a chart, or nil when it can.
  ///
  /// - Complexity: O(1) for a name of at most ``maximumCharacters`` UTF-8 bytes, else O(*m*).
  static func problem(_ name: String) -> String? {
    // A character is at least one byte, so only a name of more bytes needs counting.
    guard name.utf8.count > maximumCharacters else { return nil }
    let count = name.count
    if count > maximumCharacters {
      return
        "the name is \(count) characters long ('\(name.prefix(40))…'), "
        + "over the limit of \(maximumCharacters) characters for a name on a chart"
    }
    // A character may carry any number of combining marks: its bytes are bounded too, by four
    // per character (the most UTF-8 spends on one scalar).
    guard name.utf8.count > maximumBytes else { return nil }
    return
      "the name is \(name.utf8.count) bytes long "
      + "('\(String(String.UnicodeScalarView(name.unicodeScalars.prefix(40))))…'), "
      + "over the limit of \(maximumBytes) bytes for a name on a chart"
  }
}

/// The instants a session may start at, in every format: from 1970-01-01T00:00:00Z (no
/// workout log holds earlier ones) through 9999-12-31T23:59:59Z, the last second RFC 3339's
/// four-digit year can write (a local time in year 9999 with a negative offset ends up after
/// it, and would be written as year 0000).
enum StartLimits {
  static let range: ClosedRange<Int64> = 0...253_402_300_799

  /// Why `start` cannot be a session's start, or nil when it can.
  static func problem(_ start: Int64, text: @autoclosure () -> String) -> String? {
    if start < range.lowerBound { return "'\(text())' is before 1970, which no workout log holds" }
    if start > range.upperBound { return "'\(text())' is after 9999, which no workout log holds" }
    return nil
  }
}

/// Exercises whose weight an app may write as negative because it is assistance (a counterweight
/// lifting part of the body), not load: `Assisted Pull-Up`, `Pull Up (Assisted)`, `Assisted
/// Dip Machine` (EXPORT-FORMATS §10.4; SPEC 11.3). Recognised by the word's stem in the name, in
/// any case, in the languages the apps' libraries are written in: English, French, Italian and
/// Portuguese `assist` (`Trazioni assistite`, `Barra fixa assistida`), Spanish `asist`
/// (`Dominadas asistidas`), Turkish `yardım` (`Barfiks (Yardımlı)`), German `unterstütz`. It
/// does not look at muscle groups or the catalog, which a reader does not have.
enum AssistedExercise {
  private static let stems = ["assist", "asist", "yardım", "unterstütz"].map { Array($0.utf8) }

  /// Whether `name` contains one of the stems in any case (ASCII case folding: the stems'
  /// other letters are lower case as every library writes them).
  ///
  /// - Complexity: O(*e*), where *e* is the number of bytes of the name.
  static func contains(_ name: String) -> Bool {
    var utf8 = Array(name.utf8)
    for position in utf8.indices where utf8[position] >= 0x41 && utf8[position] <= 0x5A { utf8[position] |= 0x20 }
    return stems.contains { stem in
      guard utf8.count >= stem.count else { return false }
      return (0...(utf8.count - stem.count)).contains { start in
        utf8[start] == stem[0] && utf8[start..<(start + stem.count)].elementsEqual(stem)
      }
    }
  }

  /// `kilograms` as the load of a set of `exercise`, range-checked (``SetLimits/checkWeight``):
  /// a negative weight on an assisted exercise is no load (0 kg) with the problem to list as a
  /// repair; any other negative weight, or assistance over 1500 kg, rejects the row.
  ///
  /// - Complexity: O(1), plus O(*e*) for an exercise name of *e* bytes when the weight is
  ///   negative.
  static func load(_ kilograms: Double, exercise: String, index: Int, text: @autoclosure () -> String)
    throws(FieldProblem) -> (kilograms: Double, assistance: FieldProblem?)
  {
    if kilograms < 0, contains(exercise) {
      // Assistance beyond the heaviest load is no machine's: still impossible, still rejected.
      try SetLimits.checkWeight(-kilograms, index: index, text: text())
      return (0, FieldProblem(index: index, reason: reason(text())))
    }
    try SetLimits.checkWeight(kilograms, index: index, text: text())
    return (kilograms, nil)
  }

  /// The reason a row with assistance `text` is listed as repaired.
  static func reason(_ text: String) -> String {
    "weight '\(text.trimmingCharacters(in: .whitespaces))' is negative on an assisted exercise: "
      + "the assistance is not a load, so the set counts with no load"
  }
}

/// The checks every set gets, whatever its format (SPEC 3: impossible values are rejected).
///
/// Every number of a set is bounded, not only finite, so that no sum or statistic over any
/// number of sets can overflow (SPEC 11.6): two sets of 1e305 km, each finite, summed to
/// infinity and stopped a whole run. At these bounds a history of a billion sets sums to under
/// 1e18 in every measure.
enum SetLimits {
  static let maximumReps = 1000.0
  static let maximumWeightKg = 1500.0
  /// 1,000 km: more than any one effort a training log records (the 24-hour cycling record is
  /// under 950 km).
  static let maximumDistanceMeters = 1_000_000.0
  /// A day, as a workout's length is bounded.
  static let maximumSeconds = 86_400.0

  /// `meters` as a set's distance: finite, not negative, at most ``maximumDistanceMeters``.
  static func checkDistance(_ meters: Double, index: Int, text: @autoclosure () -> String) throws(FieldProblem) {
    try checkNonNegative(meters, index: index, what: "distance", text: text())
    guard meters <= maximumDistanceMeters else {
      throw FieldProblem(index: index, reason: "distance '\(text())' is more than 1000 km")
    }
  }

  static func checkReps(_ reps: Double, index: Int, text: @autoclosure () -> String)
    throws(FieldProblem)
  {
    guard reps >= 0 else { throw FieldProblem(index: index, reason: "reps '\(text())' is negative") }
    guard reps <= maximumReps else {
      throw FieldProblem(index: index, reason: "reps '\(text())' is more than 1000")
    }
  }

  static func checkWeight(_ kilograms: Double, index: Int, text: @autoclosure () -> String)
    throws(FieldProblem)
  {
    guard kilograms >= 0 else {
      throw FieldProblem(index: index, reason: "weight '\(text())' is negative")
    }
    guard kilograms <= maximumWeightKg else {
      throw FieldProblem(index: index, reason: "weight '\(text())' is more than 1500 kg")
    }
  }

  static func checkNonNegative(_ value: Double, index: Int, what: String, text: @autoclosure () -> String)
    throws(FieldProblem)
  {
    guard value >= 0 else {
      throw FieldProblem(index: index, reason: "\(what) '\(text())' is negative")
    }
  }
}
