import Foundation
import TrendlineSchema

/// Draws a `trendline/sparklines@1` output: one row per exercise with its name, a line of about
/// 100 × 30 without axes, and the latest value.
///
/// Every line shares the output's `domain` as its x domain, the window ending at as-of, never
/// the span of its own points: a line that stops early shows that the exercise stopped.
/// Each line has its own y range (min … max of its points), because a sparkline shows a shape,
/// not a magnitude; the number beside it gives the magnitude.
public struct SparklinesSVGRenderer: Sendable {
  public var output: SparklinesOutput
  public var idPrefix: String

  public static let lineSize = (width: 100.0, height: 30.0)
  static let rowHeight = 40.0
  static let nameWidth = 210.0
  static let top = 50.0
  static let width = 460.0
  /// Longer names are cut with "…"; the full name is in the row's `<title>` and the data table.
  static let maxNameLength = 30

  public init(_ output: SparklinesOutput, idPrefix: String? = nil) {
    self.output = output
    self.idPrefix = idPrefix ?? "tl-" + idSafe(output.chart)
  }

  /// The x scale of row `row`'s line: the output's domain onto the line's 100 px.
  ///
  /// - Complexity: O(1).
  public func xScale(row: Int) -> TimeScale {
    let x0 = Self.nameWidth + 16
    return TimeScale(domain: output.domain, range: x0...(x0 + Self.lineSize.width))
  }

  /// The rectangle row `row`'s line is drawn in.
  public func plot(row: Int) -> PlotRect {
    PlotRect(
      x: Self.nameWidth + 16, y: Self.top + Double(row) * Self.rowHeight + 5, width: Self.lineSize.width,
      height: Self.lineSize.height)
  }

  /// - Complexity: O(*p*) for *p* points over all lines.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let height = Self.top + Double(max(output.lines.count, 1)) * Self.rowHeight + 10
    let unit = Self.unit(output.value, output.units)
    let start = LocalDate(output.domain.start, in: zone)
    let end = LocalDate(output.domain.end, in: zone)
    var b = SVGBuilder()
    let desc =
      "\(Self.valueName(output.value)) per session for \(output.user), one line per exercise over the "
      + "\(output.windowDays) days from \(start.long) to \(end.long) (as of). "
      + output.lines.map { line in
        "\(line.exercise): \(line.points.count) session\(line.points.count == 1 ? "" : "s"), latest "
          + ShownNumber.display(Self.shown(line.points.last?.v ?? 0, output)) + unit
      }.joined(separator: "; ")
    SVGFrame.open(
      &b, width: Self.width, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)",
      desc: desc, kind: "sparklines")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    b.element(
      "text", [("x", "16"), ("y", "38"), ("fill", Palette.muted)],
      content: "\(output.user) · \(Self.valueName(output.value)) · \(start.dayMonth) – \(end.dayMonth) \(end.year)")
    if output.lines.isEmpty {
      b.element(
        "text", [("x", "16"), ("y", f(Self.top + 20)), ("fill", Palette.muted)], content: "No sessions in the window")
    }
    for (row, line) in output.lines.enumerated() {
      let plot = plot(row: row)
      let x = xScale(row: row)
      // Drawn in the unit shown, so the line's shape and its numbers agree.
      let values = line.points.map { Self.shown($0.v, output) }
      let low = values.min() ?? 0
      let high = values.max() ?? 0
      // A flat line sits in the middle rather than on the floor.
      let y =
        high > low
        ? LinearScale(domain: low...high, bottom: plot.maxY - 2, top: plot.y + 2)
        : LinearScale(domain: (low - 1)...(low + 1), bottom: plot.maxY - 2, top: plot.y + 2)
      b.open("g", [("class", "tl-line")])
      b.element("title", [], content: line.exercise)
      var name = line.exercise
      if name.count > Self.maxNameLength { name = String(name.prefix(Self.maxNameLength - 1)) + "…" }
      b.element("text", [("x", "16"), ("y", f(plot.y + plot.height / 2 + 4))], content: name)
      // A faint baseline marks the window, so an empty stretch reads as "no sessions".
      b.element(
        "line",
        [("x1", f(plot.x)), ("x2", f(plot.maxX)), ("y1", f(plot.maxY)), ("y2", f(plot.maxY)), ("stroke", Palette.grid)])
      let points = line.points.map { f(x.x($0.t)) + "," + f(y.y(Self.shown($0.v, output))) }
      if points.count > 1 {
        b.element(
          "polyline",
          [
            ("points", points.joined(separator: " ")), ("fill", "none"), ("stroke", Palette.bar),
            ("stroke-width", "1.5"),
            ("stroke-linejoin", "round"),
          ])
      }
      if let last = line.points.last {
        let lastShown = Self.shown(last.v, output)
        b.element("circle", [("cx", f(x.x(last.t))), ("cy", f(y.y(lastShown))), ("r", "2.5"), ("fill", Palette.trend)])
        b.element(
          "text", [("x", f(plot.maxX + 12)), ("y", f(plot.y + plot.height / 2 + 4))],
          content: ShownNumber.display(lastShown) + unit)
        b.element(
          "text",
          [
            ("x", f(plot.maxX + 12)), ("y", f(plot.y + plot.height / 2 + 16)), ("fill", Palette.muted),
            ("font-size", "9"),
          ],
          content: LocalDate(last.t, in: zone).dayMonth)
      }
      b.close("g")
      SVGFrame.hoverGroup(
        &b, plot: plot, scale: x,
        points: line.points.map {
          (
            $0.t,
            "\(line.exercise), \(LocalDate($0.t, in: zone).long): " + ShownNumber.display(Self.shown($0.v, output))
              + unit
          )
        })
    }
    b.close("svg")
    b.newline()
    return b.text
  }

  /// The unit after a shown value: reps, or the person's weight unit.
  static func unit(_ value: SparklinesOutput.Value, _ units: Units) -> String {
    value == .reps ? " reps" : " " + units.weight.rawValue
  }

  /// A point's value in the unit shown: reps as they are, weights in the person's unit.
  static func shown(_ v: Double, _ output: SparklinesOutput) -> Double {
    output.value == .reps ? v : output.units.weight(fromKilograms: v)
  }

  static func valueName(_ value: SparklinesOutput.Value) -> String {
    switch value {
    case .topSetKg: return "top set"
    case .e1rmKg: return "estimated 1RM"
    case .volumeKg: return "volume"
    case .reps: return "most reps"
    }
  }
}
