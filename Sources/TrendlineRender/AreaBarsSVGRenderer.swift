import Foundation
import TrendlineSchema

/// Draws a `trendline/radar@1` output's breakdown as grouped bars: one row per area, a bar per
/// period in it, each with its count written at its end.
///
/// The radar shows a shape; these show the numbers behind it on a length scale, which reads
/// more exactly than distance along a spoke, and compare two periods area by area. Grouped,
/// not stacked: a session that trains the back and the biceps counts in both rows, so the
/// counts of a period do not add up to its sessions, and a stack would claim they did.
/// Horizontal, so an area's name is written once, in full, at any width.
public struct AreaBarsSVGRenderer: Sendable {
  public var output: RadarOutput
  public var idPrefix: String
  public var chartWidth: ChartWidth

  /// The periods drawn, newest last: three at most, so each bar stays thick enough to read;
  /// the table beside the chart holds every period.
  static let periodsShown = 3
  /// A bar's row: room for its 11 px count beside it.
  static let barHeight = 13.0
  static let rowGap = 8.0
  static let top = 66.0

  public init(_ output: RadarOutput, idPrefix: String? = nil, width: ChartWidth = .regular) {
    self.output = output
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + "-bars" + (width == .compact ? "-n" : "")
  }

  var width: Double { chartWidth.value(regular: 720) }
  /// The area names' column: 21 characters wide, or 15 on a phone.
  var labelWidth: Double { chartWidth == .regular ? 150 : 110 }
  var shown: ArraySlice<RadarOutput.Period> { output.periods.suffix(Self.periodsShown) }

  /// A period's bar colour, oldest to newest: grey, light blue, then the blue of every bar.
  func colour(_ index: Int, of count: Int) -> String {
    switch count - 1 - index {
    case 0: return Palette.bar
    case 1: return Palette.barLight
    default: return Palette.older
    }
  }

  /// - Complexity: O(*a* × *p*) for *a* axes and *p* periods.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let granularity = output.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .month
    let periods = Array(shown)
    let names = periods.map {
      PeriodName.long(LocalDate($0.start, in: zone), granularity) + ($0.partial ? " (so far)" : "")
    }
    let legend = SVGFrame.flow(names, x: 16, y: 48, right: width - 8)
    let rowHeight = Double(max(periods.count, 1)) * Self.barHeight + Self.rowGap
    let top = legend.bottom + 18
    let height = top + Double(output.axes.count) * rowHeight + 12
    let largest = periods.flatMap(\.counts).max() ?? 0
    let plotLeft = labelWidth
    let plotWidth = width - plotLeft - 40
    var b = SVGBuilder()
    let desc =
      "Sessions per area for \(output.user), "
      + zip(names, periods).map { name, period in
        name + ": " + zip(output.axes, period.counts).map { "\($0.label) \($1)" }.joined(separator: ", ")
      }.joined(separator: "; ") + "."
    SVGFrame.open(
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) by area — \(output.user)",
      desc: desc, kind: "area-bars")
    b.element(
      "text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")],
      content: output.chart + " by area")
    b.element(
      "text", [("x", "16"), ("y", "36"), ("fill", Palette.muted)],
      content: output.user + " · sessions per area, each counted once per session")
    for (index, (name, origin)) in zip(names, legend.origins).enumerated() {
      b.element(
        "rect",
        [
          ("x", f(origin.x + 3)), ("y", f(origin.y - 5)), ("width", "10"), ("height", "10"),
          ("fill", colour(index, of: periods.count)),
        ])
      b.element("text", [("x", f(origin.x + 20)), ("y", f(origin.y + 4)), ("fill", Palette.muted)], content: name)
    }
    if largest == 0 {
      b.element(
        "text", [("x", "16"), ("y", f(top + 12)), ("fill", Palette.muted)],
        content: "No session trained any area in these periods")
    }
    for (row, axis) in output.axes.enumerated() {
      let y = top + Double(row) * rowHeight
      b.element(
        "text",
        [("x", f(plotLeft - 8)), ("y", f(y + Double(periods.count) * Self.barHeight / 2 + 4)), ("text-anchor", "end")],
        content: axis.label)
      for (index, period) in periods.enumerated() {
        guard row < period.counts.count else { continue }
        let count = period.counts[row]
        let length = largest > 0 ? plotWidth * Double(count) / Double(largest) : 0
        let barY = y + Double(index) * Self.barHeight
        b.element(
          "rect",
          [
            ("x", f(plotLeft)), ("y", f(barY)), ("width", f(max(length, count > 0 ? 1 : 0))),
            ("height", f(Self.barHeight - 1)), ("fill", colour(index, of: periods.count)),
          ] + SVGFrame.mark("\(axis.label), \(names[index]): " + SVGFrame.count(count, "session")))
        // The count beside its bar, so no one reads a length against an axis; a zero is
        // written too, as a zero, since it was counted.
        b.element(
          "text",
          [("x", f(plotLeft + length + 4)), ("y", f(barY + Self.barHeight - 2.5)), ("fill", Palette.muted)],
          content: String(count))
      }
      b.element(
        "line",
        [
          ("x1", f(plotLeft)), ("x2", f(plotLeft)), ("y1", f(y - 2)), ("y2", f(y + rowHeight - Self.rowGap + 1)),
          ("stroke", Palette.muted),
        ])
    }
    b.close("svg")
    b.newline()
    return b.text
  }
}
