import TrendlineSupport

/// Apple Health workouts as the `applehealthdata` converter writes them from `export.xml`
/// (EXPORT-FORMATS §6). A row is a whole workout with a duration and energy but no sets, so
/// there is nothing to count: every row is read and ignored with that reason, which keeps the
/// accounting whole and tells the user why the file added no sessions.
enum AppleHealthCSV {
  static func read(file: String, bytes: [UInt8], limits: ReadLimits) throws(ExportError) -> FileIngest {
    try readCSVExport(file: file, bytes: bytes, format: .appleHealthCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in Parser()
    }
  }

  final class Parser: CSVRowParser {
    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      .ignored("Apple Health workout without sets")
    }
  }
}
