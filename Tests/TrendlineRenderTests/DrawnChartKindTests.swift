import Foundation
import Testing
import TrendlineSchema

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
}
