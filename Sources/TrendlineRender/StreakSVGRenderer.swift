import Foundation
import TrendlineSchema

/// Draws a `trendline/streak@1` output as a strip of one square per period, filled where the
/// target was met, under the three numbers a reader wants: the current streak, the longest,
/// and the share of periods met.
///
/// The period under way is drawn outlined and dashed when it has not met the target yet: it is
/// not a miss, and drawing it as one would break a streak that is still alive.
public struct StreakSVGRenderer: Sendable {
  public var output: StreakOutput
  public var idPrefix: String

  static let cell = 14.0
  static let gap = 3.0
  static let left = 16.0
  static let top = 84.0

  public var chartWidth: ChartWidth

  public init(_ output: StreakOutput, idPrefix: String? = nil, width: ChartWidth = .regular) {
    self.output = output
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  /// - Complexity: O(*p*) for *p* periods.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    // A year of weeks on one row (18 on a phone); a longer window wraps.
    let perRow = max(1, min(output.periods.count, chartWidth == .regular ? 53 : 18))
    let rows = max(1, (output.periods.count + perRow - 1) / perRow)
    let width =
      chartWidth == .compact
      ? ChartWidth.compactWidth : max(Self.left * 2 + Double(perRow) * (Self.cell + Self.gap), 420)
    let unit = output.granularity.rawValue
    let share = output.share.map { ShownNumber.display($0 * 100, decimals: 0) + " %" } ?? "–"
    let target = ReadOut.streakTarget(output.atLeast, output.measure, output.units)
    let summary = ReadOut.streakSummary(
      current: output.current.length, longest: output.longest.length, share: output.share, complete: output.complete,
      granularity: output.granularity)
    // Header lines wrap on a phone; the 13 px summary is measured a seventh wider.
    let subtitle = SVGFrame.wrap(
      [output.user, "\(unit)s with at least \(target)", "as of \(LocalDate(output.asOf, in: zone).long)"],
      width: width - 24)
    let summaryLines = SVGFrame.wrap(
      [
        "current \(output.current.length) \(unit)\(output.current.length == 1 ? "" : "s")",
        "longest \(output.longest.length)", "\(share) of \(output.complete) complete \(unit)s met",
      ], width: (width - 24) / 1.15)
    let summaryTop = 62 + Double(subtitle.count - 1) * 15
    let top = Self.top + Double(subtitle.count - 1) * 15 + Double(summaryLines.count - 1) * 16
    let height = top + Double(rows) * (Self.cell + Self.gap) + 40
    var b = SVGBuilder()
    SVGFrame.open(
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)",
      desc: "Periods of at least \(target) for \(output.user): \(summary).", kind: "streak")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    for (index, line) in subtitle.enumerated() {
      b.element("text", [("x", "16"), ("y", f(38 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
    for (index, line) in summaryLines.enumerated() {
      b.element("text", [("x", "16"), ("y", f(summaryTop + Double(index) * 16)), ("font-size", "13")], content: line)
    }
    for (index, period) in output.periods.enumerated() {
      let x = Self.left + Double(index % perRow) * (Self.cell + Self.gap)
      let y = top + Double(index / perRow) * (Self.cell + Self.gap)
      var attributes: [(String, String)] = [
        ("x", f(x)), ("y", f(y)), ("width", f(Self.cell)), ("height", f(Self.cell)), ("rx", "2"),
      ]
      if period.met {
        attributes += [("fill", Palette.bar)]
      } else if period.partial {
        attributes += [("fill", "#FFFFFF"), ("stroke", Palette.bar), ("stroke-dasharray", "2 2")]
      } else {
        attributes += [("fill", Palette.grid)]
      }
      let value = period.value.map { MeasureDisplay.text($0, output.measure, output.units) } ?? "no value"
      let label = "\(LocalDate(period.start, in: zone).long): \(value)\(period.partial ? " so far" : "")"
      let said = ReadOut.streakPeriod(
        start: period.start, partial: period.partial, value: period.value, met: period.met, measure: output.measure,
        zone: zone, units: output.units)
      b.open("rect", attributes + SVGFrame.mark(said))
      b.element("title", [], content: label)
      b.close("rect")
    }
    let legendY = height - 18
    b.element("rect", [("x", "16"), ("y", f(legendY - 10)), ("width", "10"), ("height", "10"), ("fill", Palette.bar)])
    b.element("text", [("x", "30"), ("y", f(legendY)), ("fill", Palette.muted)], content: "met")
    b.element("rect", [("x", "64"), ("y", f(legendY - 10)), ("width", "10"), ("height", "10"), ("fill", Palette.grid)])
    b.element("text", [("x", "78"), ("y", f(legendY)), ("fill", Palette.muted)], content: "missed")
    b.close("svg")
    b.newline()
    return b.text
  }
}

extension StreakOutput: DrawnChartKind {
  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String {
    StreakSVGRenderer(self, idPrefix: idPrefix, width: width).render()
  }

  func dataTable() -> String {
    let zone = SVGFrame.zone(timeZone)
    let rows = periods.map { period -> [String] in
      [
        PeriodName.long(LocalDate(period.start, in: zone), granularity) + (period.partial ? " (so far)" : ""),
        period.value.map { MeasureDisplay.text($0, measure, units) } ?? "–",
        period.met ? "met" : (period.partial ? "not yet" : "missed"),
      ]
    }
    return DataTable.table(
      caption:
        "\(chart): \(granularity.rawValue)s with at least \(MeasureDisplay.text(atLeast, measure, units)) "
        + MeasureDisplay.short(measure),
      header: [granularity.rawValue.capitalized, MeasureDisplay.short(measure), "Target"], rows: rows)
  }
}
