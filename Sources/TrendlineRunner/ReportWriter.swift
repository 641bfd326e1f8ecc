import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineRender
import TrendlineSchema
import TrendlineStages

/// Writes the drawn outputs a pipeline's `output.formats` asks for: `<chart>.svg` beside each
/// chart's JSON (`svg`), and the HTML report under `report/` (`html`).
///
/// Kept apart from the user job and the run so that drawing is one call at each place a JSON
/// is written, and the runner's own logic does not change with the report's.
enum ReportWriter {
  /// `<name>.svg` beside `<name>.json` in `folder`, when the pipeline writes SVG; the file's
  /// name if it was written. `lastSession` is the user's last session up to as-of.
  @discardableResult
  static func writeSVG(
    _ document: ChartDocument, named name: String, in folder: String, formats: [Pipeline.Output.Format],
    lastSession: Date? = nil
  ) throws(AtomicFile.WriteError) -> String? {
    guard formats.contains(.svg) else { return nil }
    try AtomicFile.write(
      Data(SVGRenderer.render(document, lastSession: lastSession).utf8), to: folder + "/" + name + ".svg")
    return name + ".svg"
  }

  /// `report/users/<user>.html`, when the pipeline writes HTML; without HTML, a page an
  /// earlier run wrote is removed, so the report never shows a user as it was.
  static func writeUserPage(
    user: String, failure: String?, calendar: UserCalendar, asOf: Int64, units: Units, charts: [ChartDocument],
    sessions: [Session], notes: [RowNote], output: URL, layout: UserLayout, formats: [Pipeline.Output.Format],
    compared: Set<String> = []
  ) throws(AtomicFile.WriteError) {
    let path = output.path + "/" + layout.userPage(user)
    guard formats.contains(.html) else { return try AtomicFile.remove(path) }
    let page = HTMLReport.UserPage(
      user: user, failure: failure, timeZone: calendar.timeZone, asOf: Date(epochSeconds: asOf), units: units,
      charts: charts, sessions: sessions.filter { $0.start <= asOf },
      notes: notes.map {
        HTMLReport.NotedRow(
          file: $0.file, line: $0.line, column: $0.column, field: $0.field, outcome: $0.outcome.rawValue,
          reason: $0.reason)
      }, compared: compared, layout: layout)
    // With compared charts the page waits, staged, for the cohort (``CohortStamp``).
    let staged = CohortStamp.stagedPage(user, output: output, layout: layout)
    try AtomicFile.write(Data(HTMLReport.userPage(page).utf8), to: compared.isEmpty ? path : staged)
    if compared.isEmpty { try AtomicFile.remove(staged) }
  }

  /// The page of a user whose data could not be read: the reason, and nothing else.
  static func writeFailedUserPage(
    user: String, message: String, timeZone: TimeZone, output: URL, layout: UserLayout,
    formats: [Pipeline.Output.Format]
  ) throws(AtomicFile.WriteError) {
    let path = output.path + "/" + layout.userPage(user)
    guard formats.contains(.html) else { return try AtomicFile.remove(path) }
    let page = HTMLReport.UserPage(
      user: user, failure: message, timeZone: timeZone, asOf: Date(epochSeconds: 0), charts: [], sessions: [],
      notes: [], layout: layout)
    try AtomicFile.write(Data(HTMLReport.userPage(page).utf8), to: path)
  }

  /// The index's line for a user: all the report keeps of a manifest record, its ``Glance``
  /// counting only the sessions up to as-of, as the user's page and charts do.
  static func indexEntry(_ record: Manifest.UserRecord) -> HTMLReport.UserEntry {
    HTMLReport.UserEntry(
      user: record.user, ok: record.status == .ok, message: record.message, rowsRejected: record.rows.rejected,
      glance: record.glance)
  }

  /// `cohort/<chart>.svg` (with `svg`) and `report/index.html` (with `html`) of a run or a
  /// merge, drawn from the reduced outputs the cohort JSON files hold, in their order
  /// (``CohortGatherer/reduce(asOf:)``), so a merged report is byte-identical to a single run's.
  /// Returns the paths written, relative to `output`.
  @discardableResult
  static func writeCohortReport(
    _ reduced: [CohortChart], segments: [CohortSegmentsOutput], pipeline: String, formats: [Pipeline.Output.Format],
    asOf: String, users: [HTMLReport.UserEntry], output: URL, layout: UserLayout
  ) throws(AtomicFile.WriteError) -> [String] {
    guard formats.contains(.svg) || formats.contains(.html) else { return [] }
    let documents = reduced.map { ChartDocument.cohort($0) }
    let folder = output.appendingPathComponent(OutputLayout.cohort).path
    var written: [String] = []
    for document in documents {
      if let name = try writeSVG(document, named: document.name, in: folder, formats: formats) {
        written.append(OutputLayout.cohort + "/" + name)
      }
    }
    guard formats.contains(.html) else { return written }
    let index = HTMLReport.Index(
      pipeline: pipeline, asOf: asOf, charts: documents, users: users, segments: segments, layout: layout)
    for page in HTMLReport.indexPages(index) {
      try AtomicFile.write(Data(page.html.utf8), to: output.path + "/" + OutputLayout.report + "/" + page.name)
      written.append(OutputLayout.report + "/" + page.name)
    }
    return written
  }
}
