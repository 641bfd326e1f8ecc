import Foundation
import TrendlineSchema
import TrendlineSupport

/// A `source.csv` mapping guessed from a CSV that no format reader knows, for the error that
/// refuses it: the user gets their header back and a mapping to paste and check, instead of
/// having to learn the mapping keys first.
///
/// A guess, said to be one, but never a wrong one pasted as it is (SPEC 11.4): each role takes
/// the first column whose name carries a word for it (in English and the languages the apps
/// ship in) *and whose values fit it* in the first rows — dates for `start`, names that are not
/// numbers for `exercise`, whole numbers for `reps` and `setIndex`, numbers for `weight` —
/// never a planned value's column (`Required Weight Value`) where a done one may be, and the
/// date format every start value fits. A role no column fits is left out; without a start and
/// an exercise there is no mapping at all, only the header. It holds no placeholder: what it
/// offers, `validate` accepts and `run` reads.
enum MappingGuess {
  /// Words in a column's lower-case name, per `source.csv.columns` key, most telling first.
  static let roles: [(key: String, words: [String])] = [
    ("start", ["start", "date", "datetime", "timestamp", "datum", "data", "fecha", "day", "time", "when"]),
    ("end", ["end"]),
    ("exercise", ["exercise", "exercice", "übung", "esercizio", "ejercicio", "lift", "movement", "activity"]),
    ("session", ["workout", "session", "routine", "program", "training", "entraînement", "allenamento"]),
    ("weight", ["weight", "poids", "peso", "gewicht", "load", "kg", "kgs", "lb", "lbs"]),
    ("reps", ["reps", "rep", "repetitions", "wiederh", "wdh", "ripetizioni", "réps"]),
    ("setIndex", ["set order", "set number", "set no", "set"]),
    ("setType", ["type", "kind", "warmup", "warm-up"]),
    ("distance", ["distance", "dist", "km", "miles", "mi"]),
    ("seconds", ["seconds", "secs", "sec"]),
    ("duration", ["duration", "dauer", "durée"]),
  ]

  /// How a column's dates read: as every export's are, or by one of ``dateFormats``.
  enum DateReading {
    case timestamps
    case pattern(String)

    /// How all of `values` read, or nil when no one way reads them all.
    init?(_ values: [String]) {
      if values.allSatisfy({ TimestampParser.parse($0) != nil }) {
        self = .timestamps
        return
      }
      let format = MappingGuess.dateFormats.first { format in
        let pattern = DatePattern(format)
        return values.allSatisfy { value in
          var text = value
          return text.withUTF8 { pattern.parse($0) != nil }
        }
      }
      guard let format else { return nil }
      self = .pattern(format)
    }
  }

  /// How many rows are looked at to see whether a column's values fit a role.
  static let sampledRows = 20

  /// Words naming a planned value rather than a done one.
  static let plannedWords: Set<String> = ["required", "target", "planned", "plan", "goal", "prescribed"]

  /// Patterns tried on the start values when the usual timestamp reader does not
  /// read it (day-first before month-first: most of the world writes dates that way).
  static let dateFormats = [
    "dd.MM.yyyy HH:mm:ss", "dd.MM.yyyy HH:mm", "dd.MM.yyyy", "dd/MM/yyyy HH:mm:ss", "dd/MM/yyyy HH:mm", "dd/MM/yyyy",
    "MM/dd/yyyy HH:mm", "MM/dd/yyyy", "dd/MM/yy HH:mm", "dd/MM/yy", "yyyy/MM/dd HH:mm", "yyyy/MM/dd", "dd-MM-yyyy",
    "d MMM yyyy HH:mm", "d MMM yyyy",
  ]

  /// The header as the file writes it, and the guessed `"format"` and `"csv"` members.
  ///
  /// - Complexity: O(*h* + *r*) for a header of *h* bytes and a first row of *r*.
  static func suggestion(for bytes: [UInt8]) -> (header: String, mapping: String)? {
    let reader = CSVReader(bytes: bytes)
    guard case .record = reader.next(), reader.fieldCount > 1 else { return nil }
    let names = (0..<reader.fieldCount).map { normalizedName(reader.string($0)) }
    // The first rows, enough to see what a column holds.
    var rows: [[String]] = []
    reading: while rows.count < sampledRows {
      switch reader.next() {
      case .record: rows.append((0..<reader.fieldCount).map { reader.string($0).trimmingCharacters(in: .whitespaces) })
      case .blankLine, .malformed: continue
      case .end: break reading
      }
    }
    // A column's values; a decimal comma (`62,5`) read as a point, so `weight` may fit either.
    func values(_ index: Int) -> [String] {
      rows.compactMap { index < $0.count && !$0[index].isEmpty ? $0[index] : nil }
    }
    func number(_ text: String) -> Double? {
      let point = text.contains(".") ? text : text.replacingOccurrences(of: ",", with: ".")
      guard case .number(let value) = NumberParser.decimal(point) else { return nil }
      return value
    }
    func fits(_ index: Int, role: String) -> Bool {
      let values = values(index)
      switch role {
      case "start", "end": return !values.isEmpty && DateReading(values) != nil
      case "exercise": return !values.isEmpty && values.allSatisfy { number($0) == nil }
      case "session", "setType": return values.allSatisfy { number($0) == nil }
      case "reps", "setIndex": return values.allSatisfy { number($0).map { $0 >= 0 && $0 == $0.rounded() } ?? false }
      case "weight", "distance", "seconds": return values.allSatisfy { number($0) != nil }
      case "duration": return values.allSatisfy { NumberParser.duration($0) != .invalid }
      default: return false
      }
    }

    // A column matches a word as its whole name, else as whole words of it (`Weight (KG)`
    // has `weight`, `Offset` has no `set`); a body weight or a unit column is never a weight.
    let lowered = names.map { $0.lowercased() }
    let words = lowered.map { Set($0.split { !$0.isLetter && !$0.isNumber }.map(String.init)) }
    func matches(_ index: Int, _ word: String, role: String) -> Bool {
      if role == "weight" && (words[index].contains("body") || words[index].contains("unit")) { return false }
      // Planned values are not what was done (Liftosaur's `Required Reps` beside `Completed Reps`).
      if !words[index].isDisjoint(with: plannedWords) { return false }
      // A flag (`Is Warmup Set?`) is no set number.
      if role == "setIndex" && !words[index].isDisjoint(with: ["is", "warmup", "warm"]) { return false }
      if lowered[index] == word { return true }
      let parts = word.split(separator: " ").map(String.init)
      return parts.allSatisfy(words[index].contains)
    }
    var taken = Set<Int>()
    var columns: [(key: String, name: String, index: Int)] = []
    for role in roles {
      let found = role.words.lazy.compactMap { word in
        lowered.indices.first { !taken.contains($0) && matches($0, word, role: role.key) && fits($0, role: role.key) }
      }.first
      guard let found else { continue }
      taken.insert(found)
      columns.append((role.key, names[found], found))
    }
    // Without a date and an exercise there is no mapping to offer, only the header.
    guard columns.contains(where: { $0.key == "start" }), columns.contains(where: { $0.key == "exercise" }) else {
      return nil
    }
    // Written as an object by the one JSON writer, then given without its braces: the members
    // go into a pipeline's `source`.
    var writer = OutputWriter(layout: OutputWriter.Layout(spacing: .inline))
    writer.beginObject()
    writer.member("format", "csv")
    writer.key("csv")
    writer.beginObject()
    let delimiter = Character(Unicode.Scalar(reader.delimiter))
    if delimiter != "," { writer.member("delimiter", delimiter == "\t" ? "\\t" : String(delimiter)) }
    // A decimal comma only where a mapped number has one: a comma in a column not read (a
    // `Rating` of `4,5`) says nothing of the weights.
    let numbers = columns.filter { ["weight", "distance", "seconds"].contains($0.key) }.flatMap { values($0.index) }
    if numbers.contains(where: { $0.contains(",") && !$0.contains(".") }) {
      writer.member("decimalSeparator", ",")
    }
    if let start = columns.first(where: { $0.key == "start" }),
      case .pattern(let format) = DateReading(values(start.index))
    {
      writer.member("dateFormat", format)
    }
    writer.key("columns")
    writer.beginObject()
    for column in columns {
      writer.key(escaping: column.key)
      writer.string(column.name)
    }
    writer.endObject()
    writer.endObject()
    writer.endObject()
    let header = names.joined(separator: String(delimiter))
    return (header, String(decoding: writer.bytes.dropFirst().dropLast(), as: UTF8.self))
  }
}
