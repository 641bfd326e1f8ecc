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

  /// Each kind's drawing and table are made, and say the chart's name.
  @Test func everyKindDrawsAndTabulates() {
    for chart in allCharts {
      guard case .user(let output) = chart else { continue }
      let svg = SVGRenderer.render(chart)
      #expect(svg.hasPrefix("<svg"), "\(output.name)")
      #expect(DataTable.html(chart).contains("<table"), "\(output.name)")
    }
    #expect(
      Set(
        allCharts.compactMap { chart -> String? in
          guard case .user(let output) = chart else { return nil }
          return type(of: output.content).kindName
        }) == Set(ChartKinds.all.map { $0.kindName }))
  }
}
