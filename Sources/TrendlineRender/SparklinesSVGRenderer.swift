import Foundation
import TrendlineSchema

/// Draws a `trendline/sparklines@1` output: one row per exercise with its name, a line of about
/// 100 × 30 without axes, and the latest value.
///
/// Every line shares the output's `domain` as its x domain, the window ending at as-of, never
/// the span of its own points: a line that stops early shows that the exercise stopped.
/// Each line has its own y range, because a sparkline shows a shape, not a magnitude (the number
/// beside it gives the magnitude); but never narrower than a fifth of its largest value
/// (``SparklinesOutput/minimumSpan``), so a 2.5 kg change on an 80 kg top set moves the line an eighth of its
/// height, not all of it. A line of a weight value whose every point is 0 (a body-weight or
/// cardio exercise: no load recorded) is said in words, not drawn as a flat line at "0 kg".
public struct SparklinesSVGRenderer: Sendable {
  public var output: SparklinesOutput
  public var idPrefix: String
  /// The user's last session up to as-of, for a chart with none in its window to name.
  public var lastSession: Date?

  public static let lineSize = (width: 100.0, height: 30.0)
  static let rowHeight = 40.0
  static let top = 50.0
  public var chartWidth: ChartWidth

  public init(
    _ output: SparklinesOutput, idPrefix: String? = nil, lastSession: Date? = nil, width: ChartWidth = .regular
  ) {
    self.output = output
    self.lastSession = lastSession
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  var width: Double { chartWidth.value(regular: 460) }
  /// The names' column, and the longest line of a name it holds: a longer name goes on two
  /// lines, broken between words (on a phone "Romanian Deadli…" named no exercise), and only
  /// one longer still is cut with "…"; the full name is in the row's `<title>` and the data
  /// table.
  var nameWidth: Double { chartWidth == .regular ? 210 : 120 }
  var maxNameLength: Int { chartWidth == .regular ? 30 : 16 }

  /// The most lines a name takes: three lines of 11 px text, 12 px apart, fit a 40 px row.
  static let maxNameLines = 3

  /// `name` in lines of at most `length` characters, broken between words (inside a word
  /// longer than a line), at most ``maxNameLines``, the last cut with "…" if the name goes on.
  ///
  /// - Complexity: O(*n*) in the name's length.
  static func nameLines(_ name: String, length: Int) -> [String] {
    var lines: [String] = []
    var rest = Substring(name)
    while !rest.isEmpty && lines.count < maxNameLines {
      guard rest.count > length else {
        lines.append(String(rest))
        return lines
      }
      let head = rest.prefix(length + 1)
      let breakAt = head.lastIndex(of: " ") ?? rest.index(rest.startIndex, offsetBy: length)
      lines.append(String(rest[..<breakAt]))
      rest = rest[breakAt...].drop { $0 == " " }
    }
    if !rest.isEmpty, let last = lines.popLast() {
      lines.append(String(last.prefix(length - 1)) + "…")
    }
    return lines
  }

  /// The x scale of row `row`'s line: the output's domain onto the line's 100 px.
  ///
  /// - Complexity: O(1).
  public func xScale(row: Int) -> TimeScale {
    let x0 = nameWidth + 16
    return TimeScale(domain: output.domain, range: x0...(x0 + Self.lineSize.width))
  }

  /// The rectangle row `row`'s line is drawn in.
  public func plot(row: Int) -> PlotRect {
    PlotRect(
      x: nameWidth + 16, y: top + Double(row) * Self.rowHeight + 5, width: Self.lineSize.width,
      height: Self.lineSize.height)
  }

  /// Where the rows start: under the subtitle, which a phone's width may wrap onto two lines.
  var top: Double { Self.top + Double(subtitle.count - 1) * 15 }

  /// The subtitle's lines: who, what, and the window.
  var subtitle: [String] {
    let zone = SVGFrame.zone(output.timeZone)
    let start = LocalDate(output.domain.start, in: zone)
    let end = LocalDate(output.domain.end, in: zone)
    let window = "\(start.dayMonth) – \(end.dayMonth) \(end.year)"
    return SVGFrame.wrap([output.user, Self.valueName(output.value), window], width: width - 24)
  }

  /// - Complexity: O(*p*) for *p* points over all lines.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let height = top + Double(max(output.lines.count, 1)) * Self.rowHeight + 10
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
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) — \(output.user)",
      desc: desc, kind: "sparklines")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    for (index, line) in subtitle.enumerated() {
      b.element("text", [("x", "16"), ("y", f(38 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
    if output.lines.isEmpty {
      SVGFrame.stacked(
        &b,
        SVGFrame.emptyWindow(
          SVGFrame.count(output.windowDays, "day"), asOf: output.asOf, lastSession: lastSession, zone: zone),
        x: 16, y: top + 12, anchor: "start")
    }
    for (row, line) in output.lines.enumerated() {
      let plot = plot(row: row)
      let x = xScale(row: row)
      // Drawn in the unit shown, so the line's shape and its numbers agree.
      let values = line.points.map { Self.shown($0.v, output) }
      let y = Self.yScale(values, plot: plot)
      let unloaded = Self.unloaded(line, output)
      b.open("g", [("class", "tl-line")])
      b.element("title", [], content: line.exercise)
      let name = Self.nameLines(line.exercise, length: maxNameLength)
      for (index, text) in name.enumerated() {
        // Centred on the row's middle, 12 px apart.
        let y = plot.y + plot.height / 2 + 4 + (Double(index) - Double(name.count - 1) / 2) * 12
        b.element("text", [("x", "16"), ("y", f(y))], content: text)
      }
      // A faint baseline marks the window, so an empty stretch reads as "no sessions".
      b.element(
        "line",
        [("x1", f(plot.x)), ("x2", f(plot.maxX)), ("y1", f(plot.maxY)), ("y2", f(plot.maxY)), ("stroke", Palette.grid)])
      if unloaded {
        b.element(
          "text", [("x", f(plot.x)), ("y", f(plot.y + plot.height / 2 + 4)), ("fill", Palette.muted)],
          content: "no load recorded · \(line.points.count) session\(line.points.count == 1 ? "" : "s")")
        b.close("g")
        continue
      }
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
        b.element(
          "circle",
          [("cx", f(x.x(last.t))), ("cy", f(y.y(lastShown))), ("r", "2.5"), ("fill", Palette.trend)]
            + SVGFrame.mark(
              ReadOut.sparkline(
                exercise: line.exercise, latest: last.v, sessions: line.points.count, noLoad: false,
                value: output.value, units: output.units)))
        b.element(
          "text", [("x", f(plot.maxX + 12)), ("y", f(plot.y + plot.height / 2 + 4))],
          content: ShownNumber.display(lastShown) + unit)
        b.element(
          "text",
          [
            ("x", f(plot.maxX + 12)), ("y", f(plot.y + plot.height / 2 + 16)), ("fill", Palette.muted),
            ("font-size", "11"),
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
        }, values: line.points.map { [Self.shown($0.v, output)] },
        // The value's name, not the exercise's: an export's name may hold the `|` and `:` that
        // `data-m` is split on, and each point's read-out names the exercise already.
        measures: [(Self.valueName(output.value), String(unit.dropFirst()))], totals: false)
    }
    b.close("svg")
    b.newline()
    return b.text
  }

  /// Row `plot`'s y scale for `values`: ``SparklinesOutput/fittedDomain(_:)``, the rule the
  /// JSON's `yDomain` is written by, here over the values as shown.
  static func yScale(_ values: [Double], plot: PlotRect) -> LinearScale {
    let domain = SparklinesOutput.fittedDomain(values)
    return LinearScale(domain: domain.min...domain.max, bottom: plot.maxY - 2, top: plot.y + 2)
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

  /// A line of a weight value whose every point is 0 (``SparklinesOutput/hasNoLoad(_:_:)``).
  static func unloaded(_ line: SparklinesOutput.Line, _ output: SparklinesOutput) -> Bool {
    SparklinesOutput.hasNoLoad(line.points, output.value)
  }
}

extension SparklinesOutput: DrawnChartKind {
  var isHoverable: Bool { true }

  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String {
    SparklinesSVGRenderer(self, idPrefix: idPrefix, lastSession: lastSession, width: width).render()
  }

  func dataTable() -> String {
    let zone = SVGFrame.zone(timeZone)
    let unit = SparklinesSVGRenderer.unit(value, units)
    func shown(_ v: Double) -> String { ShownNumber.display(SparklinesSVGRenderer.shown(v, self)) + unit }
    let rows = lines.map { line -> [String] in
      let values = line.points.map(\.v)
      // No load recorded is unknown, a dash, never "0 kg" (SPEC 10.3), as the chart says it.
      if SparklinesSVGRenderer.unloaded(line, self) {
        return [
          line.exercise, String(line.points.count), "–", "–", "–",
          line.points.last.map { LocalDate($0.t, in: zone).long } ?? "",
        ]
      }
      return [
        line.exercise, String(line.points.count),
        line.points.first.map { shown($0.v) } ?? "",
        shown(values.max() ?? 0),
        line.points.last.map { shown($0.v) } ?? "",
        line.points.last.map { LocalDate($0.t, in: zone).long } ?? "",
      ]
    }
    return DataTable.table(
      caption: "\(chart): \(SparklinesSVGRenderer.valueName(value)) over \(windowDays) days",
      header: ["Exercise", "Sessions", "First", "Best", "Latest", "Latest on"], rows: rows)
  }
}
