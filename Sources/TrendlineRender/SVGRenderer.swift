import Foundation
import TrendlineSchema

/// One chart ready to draw: an output value, plus what drawing needs beyond it (a series'
/// bands, a user's line over a cohort).
public enum ChartDocument: Sendable {
  case series(SeriesOutput, bands: ValueBands? = nil)
  case radar(RadarOutput)
  case heatmap(HeatmapOutput)
  case sparklines(SparklinesOutput)
  case records(RecordsOutput)
  case streak(StreakOutput)
  case cohortSeries(CohortSeriesOutput, user: SeriesOutput? = nil)
  case cohortRadar(CohortRadarOutput)

  /// The chart's name from the pipeline file.
  public var name: String {
    switch self {
    case .series(let o, _): return o.chart
    case .radar(let o): return o.chart
    case .heatmap(let o): return o.chart
    case .sparklines(let o): return o.chart
    case .records(let o): return o.chart
    case .streak(let o): return o.chart
    case .cohortSeries(let o, _): return o.chart
    case .cohortRadar(let o): return o.chart
    }
  }
}

/// Draws any chart as a standalone SVG document (`<chart>.svg`), from Schema values only.
///
/// It reads no file and no clock, so the same value gives the same bytes: a run's SVGs are as
/// reproducible as its JSON. It does not rasterize and does not measure text (there is no font
/// engine here); label widths are estimated generously instead, see `TimeAxis.labelWidth`.
public enum SVGRenderer {
  /// The SVG text, ending in a newline. `idPrefix` keeps ids unique when several charts are
  /// inlined into one HTML page; it defaults to one made from the chart name.
  ///
  /// - Complexity: linear in the size of the output.
  public static func render(_ chart: ChartDocument, idPrefix: String? = nil) -> String {
    switch chart {
    case .series(let output, let bands): return SeriesSVGRenderer(output, bands: bands, idPrefix: idPrefix).render()
    case .radar(let output): return RadarSVGRenderer(output, idPrefix: idPrefix).render()
    case .heatmap(let output): return HeatmapSVGRenderer(output, idPrefix: idPrefix).render()
    case .sparklines(let output): return SparklinesSVGRenderer(output, idPrefix: idPrefix).render()
    case .records(let output): return RecordsSVGRenderer(output, idPrefix: idPrefix).render()
    case .streak(let output): return StreakSVGRenderer(output, idPrefix: idPrefix).render()
    case .cohortSeries(let output, let user):
      return CohortSeriesSVGRenderer(output, user: user, idPrefix: idPrefix).render()
    case .cohortRadar(let output): return CohortRadarSVGRenderer(output, idPrefix: idPrefix).render()
    }
  }
}
