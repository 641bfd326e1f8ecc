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

  public init(_ output: RecordsOutput, idPrefix: String? = nil) {
    self.output = output
    self.idPrefix = idPrefix ?? "tl-" + idSafe(output.chart)
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
    let width = 620.0
    let height = Self.top + Double(max(rows.count, 1)) * Self.rowHeight + 40
    var b = SVGBuilder()
    let recordCount = output.exercises.reduce(0) { $0 + $1.records.count }
    SVGFrame.open(
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)",
      desc: "Personal records of \(output.user): \(output.exercises.count) exercises, \(recordCount) records set.",
      kind: "records")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    b.element(
      "text", [("x", "16"), ("y", "38"), ("fill", Palette.muted)],
      content: "\(output.user) · personal records · as of \(LocalDate(output.asOf, in: zone).long)")
    let columns: [(String, Double)] = [("Exercise", 16), ("Top set", 250), ("e1RM", 380), ("Records", 520)]
    for (title, x) in columns {
      b.element("text", [("x", f(x)), ("y", f(Self.top - 8)), ("font-weight", "600")], content: title)
    }
    if rows.isEmpty {
      b.element(
        "text", [("x", "16"), ("y", f(Self.top + 14)), ("fill", Palette.muted)], content: "No weighted sets yet")
    }
    func best(_ value: RecordsOutput.Best?) -> String {
      guard let value else { return "–" }
      return MeasureDisplay.text(value.value, .topSetKg, output.units) + " · " + LocalDate(value.at, in: zone).long
    }
    for (index, row) in rows.enumerated() {
      let y = Self.top + Double(index) * Self.rowHeight + 14
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
