import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

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

  /// The file's bytes, rows in the order given.
  ///
  /// - Complexity: O(*n*), where *n* is the total length of the rows.
  public static func bytes(_ notes: [RowNote]) -> [UInt8] {
    var out = Array(header.utf8)
    out.reserveCapacity(notes.count * 96)
    // Rows of one file share their strings, so each distinct one is made safe once.
    var lastFile = ("", [UInt8]())
    var lastReason = ("", [UInt8]())
    for note in notes {
      if note.file != lastFile.0 { lastFile = (note.file, cell(note.file)) }
      if note.reason != lastReason.0 { lastReason = (note.reason, cell(note.reason)) }
      out += lastFile.1
      out.append(ASCII.comma)
      out += String(note.line).utf8
      out.append(ASCII.comma)
      out += String(note.column).utf8
      out.append(ASCII.comma)
      out += cell(note.field)
      out.append(ASCII.comma)
      out += note.outcome.rawValue.utf8
      out.append(ASCII.comma)
      out += lastReason.1
      out.append(ASCII.newline)
    }
    return out
  }

  /// One cell, as every table writes it (``TableRows/append(cell:to:)``): defused for
  /// spreadsheets, then quoted per RFC 4180 when needed.
  static func cell(_ value: String) -> [UInt8] {
    var bytes: [UInt8] = []
    TableRows.append(cell: value, to: &bytes)
    return bytes
  }
}
