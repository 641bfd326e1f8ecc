import Foundation
import TrendlineSchema

/// The parts every Trendline SVG shares: the root element with its `<title>` and `<desc>`, the
/// font, and the hover hooks the HTML report's script reads.
enum SVGFrame {
  static let fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"

  /// Opens `<svg>` with `<title>` and `<desc>` (escaped), referenced by `aria-labelledby` so
  /// a screen reader announces both when the SVG is inlined in HTML.
  ///
  /// The root is a graphics document, not one image, so a screen reader can also move from
  /// mark to mark: every bar, cell, region and polygon that stands for a value says it
  /// (``mark(_:)``).
  static func open(
    _ b: inout SVGBuilder, width: Double, height: Double, idPrefix: String, title: String, desc: String, kind: String
  ) {
    b.open(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("viewBox", "0 0 \(f(width)) \(f(height))"),
        ("width", f(width)), ("height", f(height)), ("role", "graphics-document document"),
        ("aria-roledescription", "chart"),
        ("aria-labelledby", "\(idPrefix)-title \(idPrefix)-desc"), ("class", "tl-chart tl-\(kind)"),
        ("font-family", fontFamily), ("font-size", "11"), ("fill", Palette.ink),
      ])
    b.newline()
    b.element("title", [("id", "\(idPrefix)-title")], content: title)
    b.element("desc", [("id", "\(idPrefix)-desc")], content: desc)
    b.newline()
    // `tl-bg`: the report's dark scheme repaints it (``HTMLReport``).
    b.element("rect", [("class", "tl-bg"), ("width", f(width)), ("height", f(height)), ("fill", "#FFFFFF")])
    b.newline()
  }

  /// The attributes that make a mark a screen reader's stop, saying `label`: "Week of 23 Nov
  /// 2026 (so far): volume 8 152 kg".
  static func mark(_ label: String) -> [(String, String)] { [("role", "img"), ("aria-label", label)] }

  /// A text label with a white halo, so it stays readable where it crosses bars or lines.
  static func haloText(
    _ b: inout SVGBuilder, _ text: String, x: Double, y: Double, anchor: String = "start", size: Double = 11,
    weight: String? = nil, fill: String = Palette.ink, extra: [(String, String)] = []
  ) {
    var attributes: [(String, String)] = [
      ("x", f(x)), ("y", f(y)), ("text-anchor", anchor), ("font-size", f(size)), ("fill", fill),
      ("stroke", "#FFFFFF"), ("stroke-width", "3"), ("stroke-linejoin", "round"), ("paint-order", "stroke"),
    ]
    if let weight { attributes.append(("font-weight", weight)) }
    b.element("text", attributes + extra, content: text)
  }

  /// The hooks for the report's read-out: a plot rectangle whose `data-t0`/`data-t1` are the
  /// instants at its left and right edges, a cursor line, and one empty `<g>` per point with
  /// its instant (`data-t`, epoch seconds) and read-out text (`data-r`).
  ///
  /// For brushing (a drag or Shift+arrows across points, summarized), each point also carries
  /// its values in the units shown (`data-v`, `|`-separated, empty when unknown) and the group
  /// names them (`data-m`: `name:unit|…`); `data-sum="0"` where a total means nothing (the sum
  /// of top sets).
  ///
  /// The script maps the pointer through this rectangle's on-screen box, so the read-out uses
  /// the plot's own coordinates: axis labels of any width do not shift it.
  static func hoverGroup(
    _ b: inout SVGBuilder, plot: PlotRect, scale: TimeScale, points: [(Date, String)],
    values: [[Double?]] = [], measures: [(name: String, unit: String)] = [], totals: Bool = true
  ) {
    var attributes = [
      ("class", "tl-hover"), ("data-t0", String(scale.domain.start.epochSeconds)),
      ("data-t1", String(scale.domain.end.epochSeconds)),
    ]
    if !measures.isEmpty {
      attributes.append(("data-m", measures.map { $0.name + ":" + $0.unit }.joined(separator: "|")))
      if !totals { attributes.append(("data-sum", "0")) }
    }
    b.open("g", attributes)
    b.element(
      "rect",
      [
        ("class", "tl-plot"), ("x", f(plot.x)), ("y", f(plot.y)), ("width", f(plot.width)),
        ("height", f(plot.height)), ("fill", "none"), ("pointer-events", "all"),
      ])
    b.element(
      "rect",
      [
        ("class", "tl-brush"), ("x", f(plot.x)), ("y", f(plot.y)), ("width", "0"), ("height", f(plot.height)),
        ("fill", Palette.bar), ("fill-opacity", "0.12"), ("visibility", "hidden"), ("pointer-events", "none"),
      ])
    b.element(
      "line",
      [
        ("class", "tl-cursor"), ("x1", f(plot.x)), ("x2", f(plot.x)), ("y1", f(plot.y)), ("y2", f(plot.maxY)),
        ("stroke", Palette.ink), ("stroke-width", "1"), ("visibility", "hidden"), ("pointer-events", "none"),
      ])
    b.open("g", [("class", "tl-pts")])
    for (index, (date, text)) in points.enumerated() {
      var point = [("data-t", String(date.epochSeconds)), ("data-r", text)]
      if index < values.count {
        point.append(
          ("data-v", values[index].map { $0.map { ShownNumber.format($0, decimals: 3) } ?? "" }.joined(separator: "|")))
      }
      b.element("g", point)
    }
    b.close("g")
    b.close("g")
    b.newline()
  }

  /// What a chart with no session in its window says instead of drawing an empty frame, in
  /// two parts: "No sessions in the 3 months up to 1 Dec 2026" and "last session 6 Sep 2021"
  /// (or "no sessions before"). A wide chart joins them with " · ", a narrow one stacks them.
  /// `window` is "3 months", "4 weeks", "91 days".
  static func emptyWindow(_ window: String, asOf: Date, lastSession: Date?, zone: TimeZone) -> [String] {
    [
      "No sessions in the \(window) up to \(LocalDate(asOf, in: zone).long)",
      lastSession.map { "last session " + LocalDate($0, in: zone).long } ?? "no sessions before",
    ]
  }

  /// `lines` centred on (`x`, `y`) one under the other, with a halo, marked `tl-empty`.
  static func stacked(
    _ b: inout SVGBuilder, _ lines: [String], x: Double, y: Double, anchor: String = "middle",
    lineHeight: Double = 15, className: String? = "tl-empty"
  ) {
    for (index, line) in lines.enumerated() {
      haloText(
        &b, line, x: x, y: y + Double(index) * lineHeight, anchor: anchor, size: 11,
        fill: index == 0 ? Palette.ink : Palette.muted,
        extra: className.map { [("class", $0)] } ?? [])
    }
  }

  /// A chart of `periods` periods of `granularity` with no session in any: its sentence,
  /// stacked at (`x`, `y`).
  static func emptyPeriods(
    _ b: inout SVGBuilder, _ periods: Int, of granularity: Granularity, asOf: Date, lastSession: Date?,
    zone: TimeZone, x: Double, y: Double, anchor: String = "middle"
  ) {
    let lines = emptyWindow(count(periods, granularity.rawValue), asOf: asOf, lastSession: lastSession, zone: zone)
    stacked(&b, lines, x: x, y: y, anchor: anchor)
  }

  /// `parts` joined by " · " into as few lines as keep each within `width` (estimated by
  /// ``TimeAxis/labelWidth(_:)``): a header that fits a wide chart on one line takes two or three
  /// on a phone's, instead of running off its edge.
  static func wrap(_ parts: [String], width: Double) -> [String] {
    var lines: [String] = []
    for part in parts {
      if let last = lines.last, TimeAxis.labelWidth(last + " · " + part) <= width {
        lines[lines.count - 1] = last + " · " + part
      } else {
        lines.append(part)
      }
    }
    return lines
  }

  /// Where a legend's items go, left to right from `x` and onto a new row 16 px lower when the
  /// next would pass `right`: each item is a 20 px swatch, its label and a 4 px gap. Returns
  /// each item's origin, and the last row's y.
  static func flow(_ labels: [String], x: Double, y: Double, right: Double) -> (
    origins: [(x: Double, y: Double)], bottom: Double
  ) {
    var origins: [(x: Double, y: Double)] = []
    var at = (x: x, y: y)
    for label in labels {
      let itemWidth = 20 + TimeAxis.labelWidth(label)
      if at.x > x && at.x + itemWidth > right { at = (x, at.y + 16) }
      origins.append(at)
      at.x += itemWidth + 4
    }
    return (origins, at.y)
  }

  /// `count` `unit`s in words: "1 week", "4 weeks".
  static func count(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }

  static func zone(_ identifier: String) -> TimeZone {
    TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
  }
}
