import Foundation
import TrendlineSchema

/// One chart ready to draw: an output value as its JSON holds it, plus what drawing needs
/// beyond it (a user's line over a cohort).
///
/// It wraps the schema's own values rather than repeating their kinds, so a new kind of output
/// is its ``ChartKind`` and its ``DrawnChartKind``, not a list to keep in step.
public enum ChartDocument: Sendable {
  /// A user's chart.
  case user(ChartOutput)
  /// A cohort chart, with `user`'s own series drawn over a cohort series' band.
  case cohort(CohortChart, user: SeriesOutput? = nil)

  /// The chart's name from the pipeline file.
  public var name: String {
    switch self {
    case .user(let output): return output.name
    case .cohort(let output, _): return output.name
    }
  }

  /// A user chart's drawing; nil for a cohort's.
  var drawnKind: (any DrawnChartKind)? {
    guard case .user(let output) = self else { return nil }
    return output.content as? any DrawnChartKind
  }
}

/// A chart kind as the report draws it: its SVG and the table of its numbers. Each kind adopts it
/// in its renderer's file, so drawing a new kind adds no case here; a test checks that every one
/// of ``ChartKinds`` does.
protocol DrawnChartKind: ChartKind {
  /// The standalone SVG (``SVGRenderer/render(_:idPrefix:lastSession:width:)``).
  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String
  /// The numbers behind the chart as an HTML table (``DataTable``).
  func dataTable() -> String
  /// Whether the report's script reads a period's values out as a pointer moves over the chart.
  var isHoverable: Bool { get }
  /// What the report's card shows before the chart (a heat map's body figure), or "".
  func figureBefore(lastSession: Date?) -> String
  /// What the report's card shows after the chart (a radar's grouped bars), or "".
  func figureAfter() -> String
}

extension DrawnChartKind {
  var isHoverable: Bool { false }
  func figureBefore(lastSession: Date?) -> String { "" }
  func figureAfter() -> String { "" }
}

/// How wide a chart is drawn. A page shows the SVG at its own width or narrower, never wider,
/// so text drawn at 11 px stays 11 px only while the chart fits: a phone gets a chart drawn
/// for its width, with fewer ticks and wrapped headers, rather than a wide one scaled down to
/// 6 px text.
public enum ChartWidth: Sendable, Equatable {
  /// 720 px for series (460 for radars and sparklines): a page column, a standalone file.
  case regular
  /// 340 px: fits a 360–390 px phone at 1:1 beside the page's margins.
  case compact

  /// The SVG's width for a chart whose regular width is `regular`.
  func value(regular: Double) -> Double { self == .regular ? regular : Self.compactWidth }

  static let compactWidth = 340.0
}

/// Draws any chart as a standalone SVG document (`<chart>.svg`), from Schema values only.
///
/// It reads no file and no clock, so the same value gives the same bytes: a run's SVGs are as
/// reproducible as its JSON. It does not rasterize and does not measure text (there is no font
/// engine here); label widths are estimated generously instead, see `TimeAxis.labelWidth`.
public enum SVGRenderer {
  /// The SVG text, ending in a newline. `idPrefix` keeps ids unique when several charts are
  /// inlined into one HTML page; it defaults to one made from the chart name. `lastSession`
  /// (the user's last session up to as-of, which no chart output holds) lets a chart with no
  /// session in its window say when the last one was.
  ///
  /// - Complexity: linear in the size of the output.
  public static func render(
    _ chart: ChartDocument, idPrefix: String? = nil, lastSession: Date? = nil, width: ChartWidth = .regular
  ) -> String {
    switch chart {
    case .user(let output):
      guard let drawn = chart.drawnKind else { return undrawn(output) }
      return drawn.svg(idPrefix: idPrefix, lastSession: lastSession, width: width)
    case .cohort(.series(let output), let user):
      return CohortSeriesSVGRenderer(output, user: user, idPrefix: idPrefix, width: width).render()
    case .cohort(.radar(let output), _):
      return CohortRadarSVGRenderer(output, idPrefix: idPrefix, width: width).render()
    }
  }

  /// A chart of a kind no ``DrawnChartKind`` draws — an app's own `ChartKind`; each of Trendline's
  /// has one, which a test checks — as a small SVG that says so, rather than a trap.
  static func undrawn(_ output: ChartOutput) -> String {
    let kind = XMLEscape.escape(type(of: output.content).kindName)
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"340\" height=\"40\" viewBox=\"0 0 340 40\" "
      + "role=\"img\"><title>" + XMLEscape.escape(output.name) + "</title><text x=\"8\" y=\"24\" "
      + "font-size=\"12\">No drawing for charts of kind " + kind + "</text></svg>\n"
  }
}
