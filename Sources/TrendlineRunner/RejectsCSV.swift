import TrendlineIngest

/// `rejects.csv`: one line per rejected row, `file,line,column,field,reason`.
///
/// It is written for people, who open it in a spreadsheet, so a cell that a spreadsheet would
/// run as a formula (one starting with `=`, `+`, `-`, `@`, or a tab or carriage return) is
/// prefixed with `'`: a hostile export cannot put `=HYPERLINK(…)` into an analyst's sheet.
public enum RejectsCSV {
  public static let header = "file,line,column,field,reason\n"

  /// The file's text, rows in the order given.
  ///
  /// - Complexity: O(*n*), where *n* is the total length of the rows.
  public static func text(_ rejects: [RowReject]) -> String {
    var out = header
    for reject in rejects {
      out += [reject.file, String(reject.line), String(reject.column), reject.field, reject.reason]
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
