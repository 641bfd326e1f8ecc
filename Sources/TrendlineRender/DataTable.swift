import Foundation
import TrendlineSchema

/// The numbers behind each chart as an HTML table, placed under the chart in the report: a
/// screen reader cannot read bars, and a person who wants the exact value should not have to
/// hover. Each kind writes its own rows in its renderer's file (``DrawnChartKind/dataTable()``),
/// with the one markup of ``table(caption:header:rows:)``.
enum DataTable {
  static func html(_ chart: ChartDocument) -> String {
    switch chart {
    case .user(let output): return (output.content as? any DrawnChartKind)?.dataTable() ?? ""
    case .cohort(.series(let output), _): return output.dataTable()
    case .cohort(.radar(let output), _): return output.dataTable()
    }
  }

  /// The header of a table of periods (a radar's, a heat map's): `first`, then each period's name,
  /// "(so far)" after one in progress. Their granularity is read from the first period's length,
  /// as the outputs do not state it; `fallback` when there is none.
  ///
  /// - Complexity: O(*p*) for *p* periods.
  static func periodsHeader(
    _ first: String, _ periods: [(start: Date, end: Date, partial: Bool)], zone: TimeZone, fallback: Granularity
  ) -> [String] {
    let granularity = periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? fallback
    return [first]
      + periods.map { PeriodName.long(LocalDate($0.start, in: zone), granularity) + ($0.partial ? " (so far)" : "") }
  }

  /// A table whose first cell of each row heads it (`<th scope="row">`), for a screen reader to
  /// name the row by.
  static func table(caption: String, header: [String], rows: [[String]]) -> String {
    // In a scroller of its own: a wide table scrolls inside its card instead of running out of it.
    var out =
      "<div class=\"scroll\"><table class=\"data\"><caption>" + XMLEscape.escape(caption) + "</caption>\n<thead><tr>"
    for cell in header { out += "<th scope=\"col\">" + XMLEscape.escape(cell) + "</th>" }
    out += "</tr></thead>\n<tbody>\n"
    for row in rows {
      out += "<tr>"
      for (index, cell) in row.enumerated() {
        if index == 0 {
          out += "<th scope=\"row\">" + XMLEscape.escape(cell) + "</th>"
        } else {
          out += "<td>" + XMLEscape.escape(cell) + "</td>"
        }
      }
      out += "</tr>\n"
    }
    return out + "</tbody></table></div>\n"
  }
}
