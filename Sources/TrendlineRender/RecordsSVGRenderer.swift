import Foundation
import TrendlineSchema

/// Draws a `trendline/records@1` output as a table: each exercise's best top set and best
/// estimated one-rep max with the day each was set, the exercises with the most recent record
/// first, so "what did I just beat" is the first line.
///
/// A table, not a chart: a record is a value and a date, and the dates of twenty exercises do
/// not share an axis a person reads.
public struct RecordsSVGRenderer: Sendable {
  public var output: RecordsOutput
  public var idPrefix: String

  /// Rows drawn; the JSON holds every exercise.
  static let maxRows = 20
  static let rowHeight = 20.0
  static let top = 66.0

  public var chartWidth: ChartWidth

  public init(_ output: RecordsOutput, idPrefix: String? = nil, width: ChartWidth = .regular) {
    self.output = output
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  /// The exercises in drawing order: latest record first, then by name.
  static func ordered(_ exercises: [RecordsOutput.Exercise]) -> [RecordsOutput.Exercise] {
    exercises.sorted {
      let a = $0.records.last?.at ?? .distantPast
      let b = $1.records.last?.at ?? .distantPast
      return a != b ? a > b : $0.exercise.utf8.lexicographicallyPrecedes($1.exercise.utf8)
    }
  }

  /// - Complexity: O(*e* log *e*) for *e* exercises.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let rows = Array(Self.ordered(output.exercises).prefix(Self.maxRows))
    let compact = chartWidth == .compact
    let width = chartWidth.value(regular: 620)
    // A phone's row is three lines (name, top set, e1RM): four columns do not fit its width.
    let rowHeight = compact ? 3 * 15 + 8 : Self.rowHeight
    let top = compact ? Self.top - 14 : Self.top
    let height = top + Double(max(rows.count, 1)) * rowHeight + 40
    var b = SVGBuilder()
    let recordCount = output.exercises.reduce(0) { $0 + $1.records.count }
    SVGFrame.open(
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)",
      desc: "Personal records of \(output.user): \(output.exercises.count) exercises, \(recordCount) records set.",
      kind: "records")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    let subtitle = SVGFrame.wrap(
      [output.user, "personal records", "as of \(LocalDate(output.asOf, in: zone).long)"], width: width - 24)
    for (index, line) in subtitle.prefix(2).enumerated() {
      b.element("text", [("x", "16"), ("y", f(38 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
    if !compact {
      let columns: [(String, Double)] = [("Exercise", 16), ("Top set", 250), ("e1RM", 380), ("Records", 520)]
      for (title, x) in columns {
        b.element("text", [("x", f(x)), ("y", f(top - 8)), ("font-weight", "600")], content: title)
      }
    }
    if rows.isEmpty {
      b.element("text", [("x", "16"), ("y", f(top + 14)), ("fill", Palette.muted)], content: "No weighted sets yet")
    }
    func best(_ value: RecordsOutput.Best?) -> String {
      guard let value else { return "–" }
      return MeasureDisplay.text(value.value, .topSetKg, output.units) + " · " + LocalDate(value.at, in: zone).long
    }
    for (index, row) in rows.enumerated() where compact {
      let y = top + Double(index) * rowHeight + 14
      let count = "\(row.records.count) record\(row.records.count == 1 ? "" : "s")"
      b.element("text", [("x", "16"), ("y", f(y)), ("font-weight", "600")], content: String(row.exercise.prefix(34)))
      b.element(
        "text", [("x", f(width - 16)), ("y", f(y + 15)), ("text-anchor", "end"), ("fill", Palette.muted)],
        content: count)
      b.element("text", [("x", "16"), ("y", f(y + 15))], content: "top set " + best(row.topSetKg))
      b.element("text", [("x", "16"), ("y", f(y + 30))], content: "e1RM " + best(row.e1rmKg))
    }
    for (index, row) in rows.enumerated() where !compact {
      let y = top + Double(index) * rowHeight + 14
      b.element("text", [("x", "16"), ("y", f(y))], content: String(row.exercise.prefix(36)))
      b.element("text", [("x", "250"), ("y", f(y))], content: best(row.topSetKg))
      b.element("text", [("x", "380"), ("y", f(y))], content: best(row.e1rmKg))
      b.element("text", [("x", "520"), ("y", f(y))], content: String(row.records.count))
    }
    if output.exercises.count > rows.count {
      b.element(
        "text", [("x", "16"), ("y", f(height - 14)), ("fill", Palette.muted)],
        content: "\(output.exercises.count - rows.count) more exercises in \(output.chart).json")
    }
    b.close("svg")
    b.newline()
    return b.text
  }
}

extension RecordsOutput: DrawnChartKind {
  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String {
    RecordsSVGRenderer(self, idPrefix: idPrefix, width: width).render()
  }

  func dataTable() -> String {
    let zone = SVGFrame.zone(timeZone)
    func best(_ value: RecordsOutput.Best?) -> String {
      value.map { MeasureDisplay.text($0.value, .topSetKg, units) + ", " + LocalDate($0.at, in: zone).long } ?? "–"
    }
    let rows = RecordsSVGRenderer.ordered(exercises).map {
      [$0.exercise, best($0.topSetKg), best($0.e1rmKg), String($0.records.count)]
    }
    return DataTable.table(
      caption: "\(chart): personal records", header: ["Exercise", "Top set", "e1RM", "Records"], rows: rows)
  }
}
