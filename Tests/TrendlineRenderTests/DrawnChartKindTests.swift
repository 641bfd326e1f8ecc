import Foundation
import Testing
import TrendlineSchema
import _TrendlineTestSupport

@testable import TrendlineRender

/// Every chart kind is drawn: the report reaches a kind's SVG, table and extra figures only
/// through ``DrawnChartKind``, which each kind adopts in its renderer's file.
@Suite struct DrawnChartKindTests {
  @Test func everyKindHasARenderer() {
    for kind in ChartKinds.all {
      #expect(kind is any DrawnChartKind.Type, "\(kind.kindName) has no DrawnChartKind")
    }
  }

  /// Each kind's example is drawn and tabulated, and the drawing names its chart.
  @Test func everyKindDrawsAndTabulatesItsExample() {
    func example<Kind: ChartKind>(_: Kind.Type) -> ChartOutput { ChartOutput(Kind.example) }
    for kind in ChartKinds.all {
      let chart = ChartDocument.user(example(kind))
      let svg = SVGRenderer.render(chart)
      #expect(svg.hasPrefix("<svg") && svg.contains(chart.name), "\(kind.kindName)")
      #expect(DataTable.html(chart).contains("<table"), "\(kind.kindName)")
    }
  }

  /// The guides an app's author reads name every kind: its schema in the renderer's table, and
  /// its columns (a series' before its measures) in the tables' — hand-kept lists that otherwise
  /// go stale when a kind is added.
  @Test func theGuidesNameEveryKind() throws {
    func guide(_ name: String) throws -> String {
      try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Guides/\(name).md"), encoding: .utf8)
    }
    // Table rows only: a schema named in the prose is not a row of the renderer's table.
    let rendererRows = try guide("SVGRenderer").split(separator: "\n").filter { $0.hasPrefix("| `") }
    let tables = try guide("Tables")
    for kind in ChartKinds.all {
      #expect(
        rendererRows.contains { $0.contains("`\(kind.schemaID)`") }, "Guides/SVGRenderer.md lacks \(kind.schemaID)")
      let columns = kind.tableColumns(measures: [], trend: false).joined(separator: ", ")
      #expect(tables.contains("| `\(columns)`"), "Guides/Tables.md lacks \(kind.kindName)'s `\(columns)`")
    }
  }
}

/// A kind an app declares itself, which Trendline has no drawing for.
private struct AppOwnOutput: ChartKind {
  static let schemaID = "app/own@1"
  static let kindName = "appOwn"
  static let example = AppOwnOutput(
    header: UserChartHeader(
      schema: schemaID, user: "ada", chart: "own <chart>", timeZone: "UTC", units: .metric,
      asOf: Date(epochSeconds: 0)))

  var header: UserChartHeader

  init(header: UserChartHeader) { self.header = header }
  init(from decoder: any Decoder) throws {
    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never decoded here"))
  }

  static func tableColumns(measures: [Measure], trend: Bool) -> [String] { ["user"] }
  func appendTableRows(to rows: inout TableRows, trend: Bool) {
    rows.text(user)
    rows.endRow()
  }
  func write(to writer: inout OutputWriter) {
    writer.beginUserOutput(header)
    writer.endObject()
  }
}

extension DrawnChartKindTests {
  /// An app's own kind is drawn as a note that says there is no drawing, its name escaped, and
  /// has no table: never a trap.
  @Test func aKindWithoutADrawingSaysSo() {
    let chart = ChartDocument.user(ChartOutput(AppOwnOutput.example))
    #expect(
      SVGRenderer.render(chart)
        == "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"340\" height=\"40\" viewBox=\"0 0 340 40\" "
        + "role=\"img\"><title>own &lt;chart&gt;</title><text x=\"8\" y=\"24\" "
        + "font-size=\"12\">No drawing for charts of kind appOwn</text></svg>\n")
    #expect(DataTable.html(chart) == "")
  }
}
