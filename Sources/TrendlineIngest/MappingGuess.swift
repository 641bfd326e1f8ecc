import Foundation
import TrendlineSchema
import TrendlineSupport

/// A `source.csv` mapping guessed from a CSV that no format reader knows, for the error that
/// refuses it: the user gets their header back and a mapping to paste and check, instead of
/// having to learn the mapping keys first.
///
/// Only a guess, and said to be one: each role takes the first column whose name carries a
/// word for it (in English and the languages the apps ship in), and the date format the first
/// row's value fits.
enum MappingGuess {
  /// Words in a column's lower-case name, per `source.csv.columns` key, most telling first.
  static let roles: [(key: String, words: [String])] = [
    ("start", ["start", "date", "datum", "data", "fecha", "day", "time", "when"]),
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

  /// Patterns tried on the first row's start value when the usual timestamp reader does not
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
    var firstRow: [String] = []
    while true {
      switch reader.next() {
      case .record: firstRow = (0..<reader.fieldCount).map { reader.string($0) }
      case .blankLine, .malformed: continue
      case .end: break
      }
      break
    }

    // A column matches a word as its whole name, else as whole words of it (`Weight (KG)`
    // has `weight`, `Offset` has no `set`); a body weight or a unit column is never a weight.
    let lowered = names.map { $0.lowercased() }
    let words = lowered.map { Set($0.split { !$0.isLetter && !$0.isNumber }.map(String.init)) }
    func matches(_ index: Int, _ word: String, role: String) -> Bool {
      if role == "weight" && (words[index].contains("body") || words[index].contains("unit")) { return false }
      if lowered[index] == word { return true }
      let parts = word.split(separator: " ").map(String.init)
      return parts.allSatisfy(words[index].contains)
    }
    var taken = Set<Int>()
    var columns: [(key: String, name: String, index: Int)] = []
    for role in roles {
      let found = role.words.lazy.compactMap { word in
        lowered.indices.first { !taken.contains($0) && matches($0, word, role: role.key) }
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
    func value(_ key: String) -> String? {
      guard let column = columns.first(where: { $0.key == key }), column.index < firstRow.count else { return nil }
      return firstRow[column.index].trimmingCharacters(in: .whitespaces)
    }
    if let weight = value("weight"), weight.contains(","), !weight.contains(".") {
      writer.member("decimalSeparator", ",")
    }
    if let start = value("start"), !start.isEmpty, TimestampParser.parse(start) == nil {
      var text = start
      let format = text.withUTF8 { bytes in
        dateFormats.first { DatePattern($0).parse(bytes) != nil }
      }
      writer.member("dateFormat", format ?? "CHECK: a pattern of yyyy MM dd HH mm ss")
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
