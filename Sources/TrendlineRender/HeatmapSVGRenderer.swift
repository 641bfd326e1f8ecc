import Foundation
import TrendlineSchema

/// Draws a `trendline/heatmap@1` output as a grid: the catalog's muscle groups down, periods
/// across, each cell shaded by intensity with its count written in it, and a legend.
///
/// A single-hue scale (white to dark blue) rather than a rainbow: it reads in order, in
/// grayscale and for every kind of colour blindness. The count is written in the cell so no
/// one has to match a shade against the legend.
public struct HeatmapSVGRenderer: Sendable {
  public var output: HeatmapOutput
  public var idPrefix: String
  /// The user's last session up to as-of, for a chart with none in its window to name.
  public var lastSession: Date?

  public var chartWidth: ChartWidth

  static let cell = (width: 62.0, height: 18.0)
  static let top = 74.0
  /// A phone's grid keeps cells at least this wide, for a two-digit count and a period name;
  /// periods that do not fit are left to the data table beside it.
  static let narrowestCell = 40.0

  public init(
    _ output: HeatmapOutput, idPrefix: String? = nil, lastSession: Date? = nil, width: ChartWidth = .regular
  ) {
    self.output = output
    self.lastSession = lastSession
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  /// The group names' column: 170 px, or 140 (21 characters) on a phone.
  var labelWidth: Double { chartWidth == .regular ? 170 : 140 }

  /// The periods drawn, newest last, and their cells' width: all of them when wide; on a phone
  /// as many of the newest as fit at ``narrowestCell`` or wider.
  var shownPeriods: (periods: ArraySlice<HeatmapOutput.Period>, cellWidth: Double) {
    guard chartWidth == .compact, !output.periods.isEmpty else { return (output.periods[...], Self.cell.width) }
    let room = ChartWidth.compactWidth - labelWidth - 8
    let fit = max(Int(room / Self.narrowestCell), 1)
    let shown = output.periods.suffix(fit)
    return (shown, min(Self.cell.width, room / Double(shown.count)))
  }

  /// The fill for an intensity 0…1: linear in RGB from #F6F8FA to #08306B.
  static func colour(_ intensity: Double) -> String {
    let t = min(max(intensity, 0), 1)
    let from = (0xF6, 0xF8, 0xFA)
    let to = (0x08, 0x30, 0x6B)
    func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
    let hex = [mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2)].map { value -> String in
      let digits = String(value, radix: 16, uppercase: true)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "#" + hex.joined()
  }

  /// - Complexity: O(*g* × *p*) for *g* groups and *p* periods.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let groups = output.periods.first?.groups ?? []
    let largest = output.periods.flatMap { $0.groups.map(\.sessions) }.max() ?? 0
    let (periods, cellWidth) = shownPeriods
    let labelWidth = self.labelWidth
    let width =
      chartWidth == .compact ? ChartWidth.compactWidth : max(labelWidth + Double(periods.count) * cellWidth + 24, 420)
    let gridBottom = Self.top + Double(groups.count) * Self.cell.height
    let height = gridBottom + 60
    let granularity = output.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .week
    var b = SVGBuilder()
    let trained = output.periods.last.map { $0.groups.filter { $0.sessions > 0 }.map(\.name) } ?? []
    let desc =
      "Sessions per muscle group for \(output.user), \(groups.count) groups by \(output.periods.count) "
      + "\(granularity.rawValue)s; darker is more sessions (most: \(largest)). Latest period: "
      + (trained.isEmpty ? "nothing trained" : trained.joined(separator: ", ")) + "."
    SVGFrame.open(
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)", desc: desc,
      kind: "heatmap")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    var subtitle = [output.user, "sessions per muscle group", "as of \(LocalDate(output.asOf, in: zone).long)"]
    if periods.count < output.periods.count {
      subtitle.insert("latest \(periods.count) of \(output.periods.count) \(granularity.rawValue)s", at: 2)
    }
    let lines = SVGFrame.wrap(subtitle, width: width - 24)
    for (index, line) in lines.prefix(2).enumerated() {
      b.element("text", [("x", "16"), ("y", f(38 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
    for (column, period) in periods.enumerated() {
      let x = labelWidth + Double(column) * cellWidth + cellWidth / 2
      let start = LocalDate(period.start, in: zone)
      b.element(
        "text", [("x", f(x)), ("y", f(Self.top - 18)), ("text-anchor", "middle"), ("font-weight", "600")],
        content: PeriodName.short(start, granularity))
      b.element(
        "text",
        [("x", f(x)), ("y", f(Self.top - 6)), ("text-anchor", "middle"), ("fill", Palette.muted), ("font-size", "11")],
        content: period.partial ? "so far" : (granularity == .month ? String(start.year) : ""))
    }
    for (row, group) in groups.enumerated() {
      let y = Self.top + Double(row) * Self.cell.height
      b.element("text", [("x", f(labelWidth - 8)), ("y", f(y + 13)), ("text-anchor", "end")], content: group.name)
      for (column, period) in periods.enumerated() {
        let cell = row < period.groups.count ? period.groups[row] : group
        let x = labelWidth + Double(column) * cellWidth
        b.element(
          "rect",
          [
            ("x", f(x + 1)), ("y", f(y + 1)), ("width", f(cellWidth - 2)), ("height", f(Self.cell.height - 2)),
            ("fill", Self.colour(cell.intensity)), ("data-id", String(cell.id)),
          ]
            + SVGFrame.mark(
              "\(group.name), \(PeriodName.long(LocalDate(period.start, in: zone), granularity))"
                + (period.partial ? " (so far)" : "") + ": " + SVGFrame.count(cell.sessions, "session")))
        if cell.sessions > 0 {
          b.element(
            "text",
            [
              ("x", f(x + cellWidth / 2)), ("y", f(y + 13)), ("text-anchor", "middle"), ("font-size", "11"),
              // `tl-on-cell`: on the cell's own shade, which no colour scheme changes.
              ("class", "tl-on-cell"), ("fill", cell.intensity > 0.5 ? "#FFFFFF" : Palette.ink),
            ], content: String(cell.sessions))
        }
      }
    }
    if largest == 0 {
      // No session in any period: said over the grid, whose zeros alone look like a blank.
      SVGFrame.emptyPeriods(
        &b, output.periods.count, of: granularity, asOf: output.asOf, lastSession: lastSession, zone: zone,
        x: 16, y: Self.top + min(Double(groups.count), 4) * Self.cell.height, anchor: "start")
    }
    Self.legend(&b, largest: largest, y: gridBottom + 22, step: chartWidth == .regular ? 56 : 46)
    b.close("svg")
    b.newline()
    return b.text
  }

  /// Five steps of the scale with the session counts they stand for, at `y`, each `step` wide.
  static func legend(_ b: inout SVGBuilder, largest: Int, y legendY: Double, step: Double) {
    b.element("text", [("x", "16"), ("y", f(legendY + 11))], content: "Sessions")
    // Whole session counts only: a legend step of "0.3 sessions" is a value no cell can hold.
    var steps: [Int] = []
    for quarter in 0...4 {
      let count = Int((Double(largest) * Double(quarter) / 4).rounded())
      if !steps.contains(count) { steps.append(count) }
    }
    for (index, count) in steps.enumerated() {
      let x = 80 + Double(index) * step
      b.element(
        "rect",
        [
          ("x", f(x)), ("y", f(legendY)), ("width", f(step - 4)), ("height", "14"),
          ("fill", colour(largest > 0 ? Double(count) / Double(largest) : 0)), ("stroke", Palette.grid),
        ])
      b.element(
        "text",
        [
          ("x", f(x + step / 2 - 2)), ("y", f(legendY + 28)), ("text-anchor", "middle"), ("fill", Palette.muted),
          ("font-size", "11"),
        ],
        content: String(count))
    }
  }
}

extension HeatmapOutput: DrawnChartKind {
  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String {
    HeatmapSVGRenderer(self, idPrefix: idPrefix, lastSession: lastSession, width: width).render()
  }

  func dataTable() -> String {
    let header = DataTable.periodsHeader(
      "Muscle group", periods.map { ($0.start, $0.end, $0.partial) }, zone: SVGFrame.zone(timeZone), fallback: .week)
    let groups = periods.first?.groups ?? []
    let rows = groups.enumerated().map { i, group in
      [group.name] + periods.map { i < $0.groups.count ? String($0.groups[i].sessions) : "" }
    }
    return DataTable.table(caption: "\(chart): sessions per muscle group", header: header, rows: rows)
  }

  func figureBefore(lastSession: Date?) -> String { HTMLReport.bodyFigure(self, lastSession: lastSession) }
}
