import Foundation
import TrendlineSchema

/// Draws a `trendline/radar@1` output: rings, spokes, one filled polygon per period on the
/// output's shared `scale`, and each spoke's label outside the rings.
///
/// Spoke 0 points straight up and the rest follow clockwise. SVG's y grows downward (like
/// SwiftUI's), so the direction of spoke *i* of *n* is (sin θ, −cos θ) with θ = 2π *i* / *n*;
/// a formula copied from a y-up textbook would turn the chart anticlockwise.
public struct RadarSVGRenderer: Sendable {
  public var output: RadarOutput
  public var idPrefix: String
  /// The user's last session up to as-of, for a chart with none in its window to name.
  public var lastSession: Date?

  public var geometry: RadarGeometry

  public init(
    _ output: RadarOutput, idPrefix: String? = nil, lastSession: Date? = nil, width: ChartWidth = .regular
  ) {
    self.output = output
    self.lastSession = lastSession
    self.geometry = RadarGeometry(width)
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  /// The unit direction of spoke `index` of `count`, in SVG coordinates (y down).
  ///
  /// - Complexity: O(1).
  public static func spokeDirection(index: Int, count: Int) -> (dx: Double, dy: Double) {
    let angle = 2 * Double.pi * Double(index) / Double(max(count, 1))
    // Rounded to 1e-12 so that the exact directions (up, right, down, left) are exactly 0 and ±1.
    func clean(_ v: Double) -> Double { (v * 1e12).rounded() / 1e12 }
    return (clean(sin(angle)), clean(-cos(angle)))
  }

  /// The SVG document.
  ///
  /// - Complexity: O(*a* × *p*) for *a* axes and *p* periods.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let n = output.axes.count
    let largest = output.periods.flatMap(\.counts).max() ?? 0
    // The older periods' band is one legend row.
    let earlier = max(output.periods.count - Self.polygons, 0)
    let olderRows = earlier == 0 ? 0 : geometry.size < 400 ? 2 : 1
    let legendRows = output.periods.count - earlier + olderRows
    let height = geometry.legendTop + Double(legendRows) * 18 + (output.unmappedExercises.isEmpty ? 0 : 18)
    var b = SVGBuilder()
    let granularity = output.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .month
    let names = output.periods.map {
      PeriodName.long(LocalDate($0.start, in: zone), granularity) + ($0.partial ? " (so far)" : "")
    }
    let desc =
      "Sessions per muscle area for \(output.user), spoke 0 (\(output.axes.first?.label ?? "none")) at the top, "
      + "clockwise; one polygon per period on one shared scale (outer ring: \(largest) sessions). "
      + zip(names, output.periods).map { name, period in
        "\(name): " + zip(output.axes, period.counts).map { "\($0.label) \($1)" }.joined(separator: ", ")
      }.joined(separator: ". ") + "."
    SVGFrame.open(
      &b, width: geometry.size, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)",
      desc: desc,
      kind: "radar")
    b.element("text", [("x", "16"), ("y", "22"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    geometry.subtitle(&b, [output.user, "sessions per area", "as of \(LocalDate(output.asOf, in: zone).long)"])
    guard n >= 3 else {
      b.element(
        "text", [("x", "16"), ("y", "80"), ("fill", Palette.muted)], content: "A radar needs at least three axes")
      b.close("svg")
      b.newline()
      return b.text
    }
    // Rings (polygonal, so a value on a spoke sits exactly on its ring) with their counts.
    b.open("g", [("class", "tl-rings"), ("fill", "none"), ("stroke", Palette.grid)])
    for ring in 1...4 {
      let fraction = Double(ring) / 4
      let points = (0..<n).map { i -> String in
        let p = geometry.point(index: i, count: n, fraction: fraction)
        return f(p.x) + "," + f(p.y)
      }
      b.element("polygon", [("points", points.joined(separator: " "))])
    }
    for i in 0..<n {
      let p = geometry.point(index: i, count: n, fraction: 1)
      b.element(
        "line",
        [
          ("class", "tl-spoke"), ("x1", f(geometry.center.x)), ("y1", f(geometry.center.y)), ("x2", f(p.x)),
          ("y2", f(p.y)),
        ])
    }
    b.close("g")
    b.newline()
    // Beyond the newest two, periods are one band from each spoke's least to its most: twelve
    // grey polygons on top of each other could not be told apart.
    let drawn = output.periods.count > Self.polygons ? output.periods.count - Self.polygons : 0
    if drawn > 0 {
      let older = output.periods[..<drawn]
      func ring(_ pick: ([Double]) -> Double) -> [String] {
        (0..<n).map { i -> String in
          let p = geometry.point(index: i, count: n, fraction: pick(older.map { i < $0.scale.count ? $0.scale[i] : 0 }))
          return f(p.x) + "," + f(p.y)
        }
      }
      // The outer ring clockwise, then the inner one back: an even-odd path, filled between.
      let outer = ring { $0.max() ?? 0 }
      let inner = ring { $0.min() ?? 0 }
      b.element(
        "path",
        [
          ("class", "tl-older"), ("d", "M" + outer.joined(separator: "L") + "Z M" + inner.joined(separator: "L") + "Z"),
          ("fill", Palette.older), ("fill-opacity", "0.25"), ("fill-rule", "evenodd"), ("stroke", "none"),
        ])
    }
    // The newest two, older first so the newest is on top; only the newest is filled, so two
    // fills never mix into a third colour.
    for (index, period) in output.periods.enumerated() where index >= drawn {
      let colour = Self.colour(index: index, count: output.periods.count)
      let points = (0..<n).map { i -> String in
        let p = geometry.point(index: i, count: n, fraction: i < period.scale.count ? period.scale[i] : 0)
        return f(p.x) + "," + f(p.y)
      }
      let newest = index == output.periods.count - 1
      var attributes: [(String, String)] = [
        ("class", "tl-period"), ("points", points.joined(separator: " ")), ("fill", newest ? colour : "none"),
        ("fill-opacity", "0.18"), ("stroke", colour), ("stroke-width", "2"), ("stroke-linejoin", "round"),
      ]
      if period.partial { attributes.append(("stroke-dasharray", "5 3")) }
      attributes += SVGFrame.mark(
        ReadOut.radarPeriod(
          start: period.start, partial: period.partial, axes: output.axes, counts: period.counts,
          granularity: granularity, zone: zone))
      b.element("polygon", attributes)
    }
    b.newline()
    if largest == 0 {
      SVGFrame.emptyPeriods(
        &b, output.periods.count, of: granularity, asOf: output.asOf, lastSession: lastSession, zone: zone,
        x: geometry.center.x, y: geometry.center.y + 4)
    }
    // Ring counts over the polygons, so the outer one is never covered.
    if largest > 0 {
      for ring in [2, 4] {
        let p = geometry.point(index: 0, count: n, fraction: Double(ring) / 4)
        let value = Double(largest) * Double(ring) / 4
        SVGFrame.haloText(
          &b, ShownNumber.display(value, decimals: 1), x: p.x + 4, y: p.y + 12, size: 11, fill: Palette.muted,
          extra: [("class", "tl-ring-label"), ("data-value", f(value))])
      }
    }
    // Labels outside the rings, anchored by side: left of centre ends at the point, right of
    // centre starts there, top and bottom are centred, so no label runs into the rings.
    for (i, axis) in output.axes.enumerated() {
      let d = Self.spokeDirection(index: i, count: n)
      let p = geometry.point(index: i, count: n, fraction: 1)
      let gap = 10.0
      let anchor = d.dx > 0.2 ? "start" : d.dx < -0.2 ? "end" : "middle"
      let x = p.x + d.dx * gap
      var y = p.y + d.dy * gap + 4
      if d.dy < -0.2 && anchor == "middle" { y -= 2 }
      if d.dy > 0.2 && anchor == "middle" { y += 6 }
      // Counts per period are in the legend and the data table; a count beside each label
      // would name only one of the polygons and invite misreading.
      geometry.axisLabel(&b, axis.label, x: x, y: y, anchor: anchor, below: d.dy > 0.2)
    }
    // Legend: the older periods' band first, then each polygon.
    if earlier > 0 {
      let y = geometry.legendTop
      b.element(
        "rect",
        [
          ("x", "16"), ("y", f(y - 9)), ("width", "24"), ("height", "10"), ("fill", Palette.older),
          ("fill-opacity", "0.4"),
        ])
      let sessions = output.periods[..<earlier].map(\.sessions).reduce(0, +)
      SVGFrame.stacked(
        &b,
        SVGFrame.wrap(
          ["\(names[0]) – \(names[earlier - 1]), least to most", "\(sessions) sessions in \(earlier) periods"],
          width: geometry.size - 56),
        x: 48, y: y, anchor: "start", lineHeight: 18, className: nil)
    }
    for (index, name) in names.enumerated() where index >= earlier {
      let y = geometry.legendTop + Double(index - earlier + olderRows) * 18
      let colour = Self.colour(index: index, count: names.count)
      var attributes: [(String, String)] = [
        ("x1", "16"), ("x2", "40"), ("y1", f(y - 4)), ("y2", f(y - 4)), ("stroke", colour), ("stroke-width", "3"),
      ]
      if output.periods[index].partial { attributes.append(("stroke-dasharray", "5 3")) }
      b.element("line", attributes)
      b.element(
        "text", [("x", "48"), ("y", f(y))],
        content: "\(name): \(output.periods[index].sessions) session\(output.periods[index].sessions == 1 ? "" : "s")")
    }
    if !output.unmappedExercises.isEmpty {
      let shown = geometry.size < 400 ? 1 : 3
      let list = output.unmappedExercises.prefix(shown).map(\.name).joined(separator: ", ")
      b.element(
        "text", [("x", "16"), ("y", f(height - 4)), ("fill", Palette.muted), ("font-size", "11")],
        content: "Not counted (no muscle groups): \(list)\(output.unmappedExercises.count > shown ? ", …" : "")")
    }
    b.close("svg")
    b.newline()
    return b.text
  }

  /// The periods drawn as polygons, newest last; older ones are one range band.
  static let polygons = 2

  /// The newest period orange, the one before blue, older ones gray: the eye goes to now.
  static func colour(index: Int, count: Int) -> String {
    if index == count - 1 { return Palette.trend }
    if index == count - 2 { return Palette.bar }
    return Palette.older
  }
}

/// Where a radar goes in its SVG, for a page column or a phone: the SVG's width, the centre and
/// outer radius of the rings, where the legend starts, and how long an axis label may be before
/// it wraps. Both the user's radar and the cohort's use it, so they line up.
public struct RadarGeometry: Sendable {
  public var size: Double
  public var center: (x: Double, y: Double)
  public var radius: Double
  var legendTop: Double
  /// A label longer than this is cut at its middle space into two lines, so a long axis name
  /// ("Glutes (maximus + minimus)") stays inside the chart instead of running off its edge.
  var wrapLength: Int

  public init(_ width: ChartWidth) {
    switch width {
    case .regular: (size, center, radius, legendTop, wrapLength) = (460, (230, 215), 140, 410, 14)
    // Side labels of up to 12 characters (77 px) fit beside 76 px rings in 340 px.
    case .compact: (size, center, radius, legendTop, wrapLength) = (340, (170, 185), 76, 320, 12)
    }
  }

  /// The point at `fraction` (0…1 of the outer ring) along spoke `index` of `count`.
  ///
  /// - Complexity: O(1).
  public func point(index: Int, count: Int, fraction: Double) -> (x: Double, y: Double) {
    let d = RadarSVGRenderer.spokeDirection(index: index, count: count)
    return (center.x + d.dx * radius * fraction, center.y + d.dy * radius * fraction)
  }

  /// The subtitle under the title at y 38, wrapped to the width (two lines at most fit above the
  /// top label).
  func subtitle(_ b: inout SVGBuilder, _ parts: [String]) {
    for (index, line) in SVGFrame.wrap(parts, width: size - 24).prefix(2).enumerated() {
      b.element("text", [("x", "16"), ("y", f(38 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
  }

  /// An axis label, wrapped when longer than ``wrapLength``; a label below the centre grows
  /// down, any other up.
  func axisLabel(_ b: inout SVGBuilder, _ label: String, x: Double, y: Double, anchor: String, below: Bool) {
    let words = label.split(separator: " ")
    guard label.count > wrapLength, words.count > 1 else {
      b.element("text", [("x", f(x)), ("y", f(y)), ("text-anchor", anchor), ("font-weight", "600")], content: label)
      return
    }
    // The split whose longer line is shortest.
    let cut = (1..<words.count).min { a, c in
      let lengthA = max(words[..<a].joined(separator: " ").count, words[a...].joined(separator: " ").count)
      let lengthC = max(words[..<c].joined(separator: " ").count, words[c...].joined(separator: " ").count)
      return lengthA < lengthC
    }!
    let top = below ? y : y - 13
    b.open("text", [("x", f(x)), ("y", f(top)), ("text-anchor", anchor), ("font-weight", "600")])
    b.element("tspan", [("x", f(x)), ("dy", "0")], content: words[..<cut].joined(separator: " "))
    b.element("tspan", [("x", f(x)), ("dy", "13")], content: words[cut...].joined(separator: " "))
    b.close("text")
  }
}

extension RadarOutput: DrawnChartKind {
  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String {
    RadarSVGRenderer(self, idPrefix: idPrefix, lastSession: lastSession, width: width).render()
  }

  func dataTable() -> String {
    let header = DataTable.periodsHeader(
      "Area", periods.map { ($0.start, $0.end, $0.partial) }, zone: SVGFrame.zone(timeZone), fallback: .month)
    var rows = axes.enumerated().map { i, axis in
      [axis.label] + periods.map { i < $0.counts.count ? String($0.counts[i]) : "" }
    }
    rows.append(["All sessions"] + periods.map { String($0.sessions) })
    var out = DataTable.table(caption: "\(chart): sessions per area", header: header, rows: rows)
    if !unmappedExercises.isEmpty {
      out += DataTable.table(
        caption: "\(chart): exercises no area counts (no muscle groups)", header: ["Exercise", "Sessions"],
        rows: unmappedExercises.map { [$0.name, String($0.sessions)] })
    }
    return out
  }

  /// The radar's numbers as grouped bars: a breakdown compared period by period.
  func figureAfter() -> String {
    guard !axes.isEmpty else { return "" }
    return "<figure class=\"chart\">\n<div class=\"tl-wide\">\n" + AreaBarsSVGRenderer(self).render()
      + "</div><div class=\"tl-narrow\">\n" + AreaBarsSVGRenderer(self, width: .compact).render()
      + "</div>\n</figure>\n"
  }
}
