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

  public static let size = 460.0
  public static let center = (x: 230.0, y: 215.0)
  public static let radius = 140.0
  static let legendTop = 410.0

  public init(_ output: RadarOutput, idPrefix: String? = nil) {
    self.output = output
    self.idPrefix = idPrefix ?? "tl-" + idSafe(output.chart)
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

  /// The point at `fraction` (0…1 of the outer ring) along spoke `index` of `count`.
  ///
  /// - Complexity: O(1).
  public static func point(index: Int, count: Int, fraction: Double) -> (x: Double, y: Double) {
    let d = spokeDirection(index: index, count: count)
    return (center.x + d.dx * radius * fraction, center.y + d.dy * radius * fraction)
  }

  /// The SVG document.
  ///
  /// - Complexity: O(*a* × *p*) for *a* axes and *p* periods.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let n = output.axes.count
    let largest = output.periods.flatMap(\.counts).max() ?? 0
    let legendRows = output.periods.count
    let height = Self.legendTop + Double(legendRows) * 18 + (output.unmappedExercises.isEmpty ? 0 : 18)
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
      &b, width: Self.size, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)", desc: desc,
      kind: "radar")
    b.element("text", [("x", "16"), ("y", "22"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    b.element(
      "text", [("x", "16"), ("y", "38"), ("fill", Palette.muted)],
      content: "\(output.user) · sessions per area · as of \(LocalDate(output.asOf, in: zone).long)")
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
        let p = Self.point(index: i, count: n, fraction: fraction)
        return f(p.x) + "," + f(p.y)
      }
      b.element("polygon", [("points", points.joined(separator: " "))])
    }
    for i in 0..<n {
      let p = Self.point(index: i, count: n, fraction: 1)
      b.element(
        "line",
        [("class", "tl-spoke"), ("x1", f(Self.center.x)), ("y1", f(Self.center.y)), ("x2", f(p.x)), ("y2", f(p.y))])
    }
    b.close("g")
    b.newline()
    if largest > 0 {
      for ring in [2, 4] {
        let p = Self.point(index: 0, count: n, fraction: Double(ring) / 4)
        SVGFrame.haloText(
          &b, ShownNumber.format(Double(largest) * Double(ring) / 4, decimals: 1), x: p.x + 4, y: p.y + 12, size: 9,
          fill: Palette.muted)
      }
    }
    // Polygons, oldest first so the newest is drawn on top.
    for (index, period) in output.periods.enumerated() {
      let colour = Self.colour(index: index, count: output.periods.count)
      let points = (0..<n).map { i -> String in
        let p = Self.point(index: i, count: n, fraction: i < period.scale.count ? period.scale[i] : 0)
        return f(p.x) + "," + f(p.y)
      }
      var attributes: [(String, String)] = [
        ("class", "tl-period"), ("points", points.joined(separator: " ")), ("fill", colour), ("fill-opacity", "0.18"),
        ("stroke", colour), ("stroke-width", "2"), ("stroke-linejoin", "round"),
      ]
      if period.partial { attributes.append(("stroke-dasharray", "5 3")) }
      b.element("polygon", attributes)
    }
    b.newline()
    // Labels outside the rings, anchored by side: left of centre ends at the point, right of
    // centre starts there, top and bottom are centred, so no label runs into the rings.
    for (i, axis) in output.axes.enumerated() {
      let d = Self.spokeDirection(index: i, count: n)
      let p = Self.point(index: i, count: n, fraction: 1)
      let gap = 10.0
      let anchor = d.dx > 0.2 ? "start" : d.dx < -0.2 ? "end" : "middle"
      let x = p.x + d.dx * gap
      var y = p.y + d.dy * gap + 4
      if d.dy < -0.2 && anchor == "middle" { y -= 2 }
      if d.dy > 0.2 && anchor == "middle" { y += 6 }
      // Counts per period are in the legend and the data table; a count beside each label
      // would name only one of the polygons and invite misreading.
      b.element(
        "text", [("x", f(x)), ("y", f(y)), ("text-anchor", anchor), ("font-weight", "600")], content: axis.label)
    }
    // Legend.
    for (index, name) in names.enumerated() {
      let y = Self.legendTop + Double(index) * 18
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
      let list = output.unmappedExercises.prefix(3).map(\.name).joined(separator: ", ")
      b.element(
        "text", [("x", "16"), ("y", f(height - 4)), ("fill", Palette.muted), ("font-size", "10")],
        content: "Not counted (no muscle groups): \(list)\(output.unmappedExercises.count > 3 ? ", …" : "")")
    }
    b.close("svg")
    b.newline()
    return b.text
  }

  /// The newest period orange, the one before blue, older ones gray: the eye goes to now.
  static func colour(index: Int, count: Int) -> String {
    if index == count - 1 { return Palette.trend }
    if index == count - 2 { return Palette.bar }
    return Palette.older
  }
}
