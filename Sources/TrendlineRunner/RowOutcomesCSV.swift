import TrendlineIngest

/// `row-outcomes.csv`: one line per row that was not accepted exactly as written (SPEC 10.4),
/// `file,line,column,field,outcome,reason` — rejected, duplicate (naming what it repeats),
/// ignored, repaired, or accepted with a value dropped. Blank lines are only counted.
///
/// It is written for people, who open it in a spreadsheet, so a cell that a spreadsheet would
/// run as a formula (one starting with `=`, `+`, `-`, `@`, or a tab or carriage return) is
/// prefixed with `'`: a hostile export cannot put `=HYPERLINK(…)` into an analyst's sheet.
public enum RowOutcomesCSV {
  public static let fileName = "row-outcomes.csv"
  public static let header = "file,line,column,field,outcome,reason\n"

  /// The file's text, rows in the order given.
  ///
  /// - Complexity: O(*n*), where *n* is the total length of the rows.
  public static func text(_ notes: [RowNote]) -> String {
    var out = header
    for note in notes {
      out += [note.file, String(note.line), String(note.column), note.field, note.outcome.rawValue, note.reason]
        .map(cell).joined(separator: ",")
      out += "\n"
    }
    return out
  }

  /// One cell: defused for spreadsheets, then quoted per RFC 4180 when needed.
  static func cell(_ value: String) -> String {
    var text = value
    if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
      text = "'" + text
    }
    if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return text
  }
}
