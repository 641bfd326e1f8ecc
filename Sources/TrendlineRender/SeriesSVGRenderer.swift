import Foundation
import TrendlineSchema

/// Draws a `trendline/series@2` output: one panel per measure, stacked on one time axis.
///
/// Each measure is drawn with its `mark` (SPEC 11.8). Bars are the JSON's `bar` extents mapped
/// through ``TimeScale`` (70 % of their period, on the padded `domain`) from 0; a best is a line
/// with a point at each known value on its fitted axis, its `recordBuckets` ringed. The trend is
/// an orange dashed line, the average a labelled rule, the partial last bucket hatched (a bar)
/// or hollow (a point) and labelled "so far", and the bucket holding as-of marked above the plot
/// and by a "now" rule through every panel, with a point at the closest value and the part of
/// its period already passed washed. It never recomputes an extent: a bar here is where Swift
/// Charts draws it from the same file.
public struct SeriesSVGRenderer: Sendable {
  /// One measure's plot.
  public struct Panel: Sendable, Equatable {
    public var measure: Measure
    public var plot: PlotRect
    public var y: LinearScale
    /// The output's axis of this measure, whose five-label ticks are drawn as given.
    public var axis: YAxis
  }

  /// Where everything goes, exposed so tests can check geometry without reading pixels.
  public struct Layout: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// `nil` when the series has no buckets (`domain: null`).
    public var x: TimeScale?
    public var panels: [Panel]
  }

  public var output: SeriesOutput
  public var idPrefix: String
  /// The user's last session up to as-of, for a chart with none in its window to name.
  public var lastSession: Date?
  public var chartWidth: ChartWidth

  /// The SVG's width, and the margins beside the plots: tick labels on the left, the average's
  /// and the bands' labels on the right.
  var width: Double { chartWidth.value(regular: 720) }
  var left: Double { chartWidth == .regular ? 64 : 50 }
  var right: Double { chartWidth == .regular ? 72 : 58 }
  /// Where the header's text starts: over the plots when wide, near the edge on a phone.
  var headerLeft: Double { chartWidth == .regular ? left : 8 }
  static let panelTitle = 24.0
  static let plotHeight = 130.0
  static let axisHeight = 30.0

  public init(
    _ output: SeriesOutput, idPrefix: String? = nil, lastSession: Date? = nil, width: ChartWidth = .regular
  ) {
    self.output = output
    self.lastSession = lastSession
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  var bands: ValueBands? { output.bands }

  /// - Complexity: O(*b* × *m*) for *b* buckets and *m* measures.
  public var layout: Layout {
    let plotLeft = left
    let plotWidth = width - plotLeft - right
    let x = output.domain.map { TimeScale(domain: $0, range: plotLeft...(plotLeft + plotWidth)) }
    var panels: [Panel] = []
    var top = header.bottom + 10
    for measure in output.measures {
      top += Self.panelTitle
      let plot = PlotRect(x: plotLeft, y: top, width: plotWidth, height: Self.plotHeight)
      // The JSON's own axis, so the SVG and an app draw one scale; a hand-made output without
      // one gets the axis Emit would have written.
      let axis =
        output.yAxis[measure]
        ?? YAxis(measure: measure, largest: output.largestDrawn(measure), units: output.units)
      let domain =
        MeasureDisplay.scaled(
          axis.domain.min, measure, output.units)...MeasureDisplay.scaled(
          axis.domain.max, measure, output.units)
      panels.append(
        Panel(
          measure: measure, plot: plot, y: LinearScale(domain: domain, bottom: plot.maxY, top: plot.y), axis: axis))
      top = plot.maxY + Self.axisHeight
    }
    return Layout(width: width, height: top + 6, x: x, panels: panels)
  }

  /// The header's subtitle lines and legend items, placed: one line each when wide, wrapped on
  /// a phone.
  var header: (subtitle: [String], legend: [(label: String, x: Double, y: Double)], bottom: Double) {
    let zone = SVGFrame.zone(output.timeZone)
    let subtitle = SVGFrame.wrap(
      [
        output.user, "\(output.range.rawValue) by \(output.granularity.rawValue)",
        "as of \(LocalDate(output.asOf, in: zone).long) (\(output.timeZone))",
      ], width: width - headerLeft - 8)
    let labels = legendLabels
    let top = 34 + Double(subtitle.count - 1) * 15 + 18
    let flow = SVGFrame.flow(labels.map(\.label), x: headerLeft, y: top, right: width - 8)
    return (subtitle, zip(labels, flow.origins).map { ($0.label, $1.x, $1.y) }, flow.bottom)
  }

  /// The SVG document.
  ///
  /// - Complexity: O(*b* × *m*) for *b* buckets and *m* measures.
  public func render() -> String {
    let layout = self.layout
    let zone = SVGFrame.zone(output.timeZone)
    let asOf = LocalDate(output.asOf, in: zone)
    var b = SVGBuilder()
    SVGFrame.open(
      &b, width: layout.width, height: layout.height, idPrefix: idPrefix,
      title: "\(output.chart) — \(output.user)", desc: description(zone: zone), kind: "series")
    b.raw(
      "<defs><pattern id=\"\(idPrefix)-hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
        + "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"\(Palette.barLight)\"/>"
        + "<rect width=\"3\" height=\"6\" fill=\"\(Palette.bar)\"/></pattern></defs>\n")
    // Header: what the chart is, and the legend.
    b.element(
      "text", [("x", f(headerLeft)), ("y", "18"), ("font-size", "14"), ("font-weight", "600")],
      content: output.chart)
    let header = self.header
    for (index, line) in header.subtitle.enumerated() {
      b.element(
        "text", [("x", f(headerLeft)), ("y", f(34 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
    legend(&b, header.legend)

    guard let x = layout.x, !output.buckets.isEmpty else {
      for panel in layout.panels {
        panelFrame(&b, panel, ticks: [])
        emptyWindow(&b, panel: panel, zone: zone)
      }
      b.close("svg")
      b.newline()
      return b.text
    }
    // Buckets filled with zeros but no session in any: the window is empty, and says so.
    let idle = output.buckets.allSatisfy { bucket in
      bucket.sessions == 0 && bucket.values.allSatisfy { $0.value == 0 }
    }
    let ticks = TimeAxis.ticks(
      starts: output.buckets.map(\.start), granularity: output.granularity, zone: zone,
      width: x.range.upperBound - x.range.lowerBound)
    let asOfIndex = output.asOfBucket

    for (panelIndex, panel) in layout.panels.enumerated() {
      panelFrame(&b, panel, ticks: ticks.map { x.x($0.date) })
      if let bands, bands.measure == panel.measure {
        drawBands(&b, bands, panel: panel)
        drawBandLabels(&b, bands, panel: panel)
      }
      if !idle, let asOfIndex { drawPast(&b, panel: panel, bucket: output.buckets[asOfIndex], x: x) }
      switch panel.measure.mark {
      case .bar: drawBars(&b, panel: panel, x: x)
      case .line: drawLine(&b, panel: panel, x: x)
      }
      if idle {
        emptyWindow(&b, panel: panel, zone: zone)
      } else if output.buckets.allSatisfy({ $0.values[panel.measure] == nil }) {
        // Unknown throughout (no export of the user states it): said, not drawn as an empty
        // or zero chart.
        b.element(
          "text",
          [
            ("x", f(panel.plot.x + panel.plot.width / 2)), ("y", f(panel.plot.y + panel.plot.height / 2)),
            ("text-anchor", "middle"), ("fill", Palette.muted),
          ], content: "No \(MeasureDisplay.short(panel.measure)) recorded in these exports")
      }
      // An idle window's trend and average are zeros of filled gaps: the sentence says it all.
      if !idle {
        drawTrend(&b, panel: panel, x: x)
        drawAverage(&b, panel: panel)
        if let asOfIndex { drawNow(&b, panel: panel, x: x, at: asOfIndex) }
      }
      drawXAxis(&b, panel: panel, x: x, ticks: ticks)
      if panelIndex == 0, let asOfIndex {
        drawAsOf(&b, bucket: output.buckets[asOfIndex], panel: panel, x: x, asOf: asOf)
      }
    }
    if let first = layout.panels.first, let last = layout.panels.last {
      let plot = PlotRect(
        x: first.plot.x, y: first.plot.y, width: first.plot.width, height: last.plot.maxY - first.plot.y)
      SVGFrame.hoverGroup(
        &b, plot: plot, scale: x, points: output.buckets.map { ($0.start, $0.label) },
        values: output.buckets.map { bucket in
          output.measures.map { measure in
            bucket.values[measure].map { MeasureDisplay.scaled($0, measure, output.units) }
          }
        },
        measures: output.measures.map { (MeasureDisplay.short($0), MeasureDisplay.unit($0, output.units)) })
    }
    b.close("svg")
    b.newline()
    return b.text
  }

  // MARK: Parts

  /// The empty window's sentence in the middle of `panel`, over a band that keeps it legible.
  func emptyWindow(_ b: inout SVGBuilder, panel: Panel, zone: TimeZone) {
    let lines = SVGFrame.emptyWindow(Self.window(output.range), asOf: output.asOf, lastSession: lastSession, zone: zone)
    let centre = panel.plot.x + panel.plot.width / 2
    guard chartWidth == .regular else {
      // Two lines fit a phone's plot; one would run past both edges.
      SVGFrame.stacked(&b, lines, x: centre, y: panel.plot.y + panel.plot.height / 2 - 4)
      return
    }
    SVGFrame.haloText(
      &b, lines.joined(separator: " · "), x: centre, y: panel.plot.y + panel.plot.height / 2,
      anchor: "middle", fill: Palette.muted, extra: [("class", "tl-empty")])
  }

  /// A range in words, as the empty window's sentence says it.
  static func window(_ range: BucketRange) -> String {
    guard let unit = range.unit else { return "whole history" }
    let word: String
    switch unit {
    case .day: word = "day"
    case .week: word = "week"
    case .month: word = "month"
    case .year: word = "year"
    }
    return range.count == 1 ? word : "\(range.count) \(word)s"
  }

  /// A legend item's swatch.
  enum Swatch { case bar, point, partial, trend, average, bands, record }

  /// The legend's items in order; only what the chart draws.
  var legendLabels: [(label: String, swatch: Swatch)] {
    let lines = output.measures.filter { $0.mark == .line }
    var items: [(label: String, swatch: Swatch)] = []
    if lines.count < output.measures.count { items.append(("per \(output.granularity.rawValue)", .bar)) }
    if !lines.isEmpty { items.append(("best per \(output.granularity.rawValue)", .point)) }
    if lines.contains(where: { !(output.recordBuckets[$0] ?? []).isEmpty }) { items.append(("record", .record)) }
    if output.buckets.contains(where: \.partial) { items.append(("so far", .partial)) }
    if output.buckets.contains(where: { $0.trend != nil }) { items.append(("trend", .trend)) }
    items.append(("average", .average))
    if let bands {
      items.append((MeasureDisplay.short(bands.measure) + ": " + bandLegend(bands, measure: bands.measure), .bands))
    }
    return items
  }

  /// Under the subtitle, left to right, wrapping onto more rows on a narrow chart: a long user
  /// id or zone name in the subtitle can never run into it.
  func legend(_ b: inout SVGBuilder, _ placed: [(label: String, x: Double, y: Double)]) {
    for ((label, x, y), (_, swatch)) in zip(placed, legendLabels) {
      switch swatch {
      case .bar:
        b.element("rect", [("x", f(x + 3)), ("y", f(y - 5)), ("width", "10"), ("height", "10"), ("fill", Palette.bar)])
      case .point:
        b.element(
          "line",
          [("x1", f(x)), ("x2", f(x + 16)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.bar), ("stroke-width", "2")])
        b.element("circle", [("cx", f(x + 8)), ("cy", f(y)), ("r", "3"), ("fill", Palette.bar)])
      case .record:
        b.element(
          "circle",
          [
            ("cx", f(x + 8)), ("cy", f(y)), ("r", "6"), ("fill", "none"), ("stroke", Palette.trend),
            ("stroke-width", "1.5"),
          ])
      case .partial:
        b.element(
          "rect",
          [("x", f(x + 3)), ("y", f(y - 5)), ("width", "10"), ("height", "10"), ("fill", "url(#\(idPrefix)-hatch)")])
      case .trend:
        b.element(
          "line",
          [
            ("x1", f(x)), ("x2", f(x + 16)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.trend),
            ("stroke-width", "2.5"), ("stroke-dasharray", "6 3"),
          ])
      case .average:
        b.element(
          "line",
          [
            ("x1", f(x)), ("x2", f(x + 16)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.ink),
            ("stroke-dasharray", "2 3"),
          ])
      case .bands:
        b.element(
          "rect",
          [
            ("x", f(x + 3)), ("y", f(y - 5)), ("width", "10"), ("height", "10"), ("fill", Palette.band),
            ("stroke", "#AFB8C1"),
          ])
      }
      b.element("text", [("x", f(x + 20)), ("y", f(y + 4)), ("fill", Palette.muted)], content: label)
    }
  }

  func panelFrame(_ b: inout SVGBuilder, _ panel: Panel, ticks: [Double]) {
    let plot = panel.plot
    b.element(
      "text", [("x", f(plot.x)), ("y", f(plot.y - 8)), ("font-weight", "600")],
      content: MeasureDisplay.title(panel.measure, output.units))
    let lead = plot.x
    for tick in panel.axis.ticks[YAxis.defaultLabelCount] ?? [] {
      let y = panel.y.y(MeasureDisplay.scaled(tick.value, panel.measure, output.units))
      b.element(
        "line",
        [
          ("x1", f(lead)), ("x2", f(plot.maxX)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.grid),
          ("stroke-width", "1"),
        ])
      // `data-value` is the gridline's value in the unit shown: the browser check reads every
      // label against it.
      b.element(
        "text",
        [
          ("class", "tl-tick"), ("data-value", f(MeasureDisplay.scaled(tick.value, panel.measure, output.units))),
          ("x", f(lead - 6)), ("y", f(y + 4)), ("text-anchor", "end"), ("fill", Palette.muted),
        ], content: tick.label)
    }
    b.element(
      "line",
      [("x1", f(lead)), ("x2", f(plot.maxX)), ("y1", f(plot.maxY)), ("y2", f(plot.maxY)), ("stroke", Palette.muted)])
    b.newline()
  }

  func drawBands(_ b: inout SVGBuilder, _ bands: ValueBands, panel: Panel) {
    let plot = panel.plot
    b.open("g", [("class", "tl-bands")])
    for (index, level) in bands.levels.enumerated() {
      let from = MeasureDisplay.scaled(level.from, panel.measure, output.units)
      guard from < panel.y.domain.upperBound else { break }
      let next =
        index + 1 < bands.levels.count
        ? MeasureDisplay.scaled(bands.levels[index + 1].from, panel.measure, output.units) : panel.y.domain.upperBound
      let y0 = panel.y.y(max(from, panel.y.domain.lowerBound))
      let y1 = panel.y.y(min(next, panel.y.domain.upperBound))
      if index % 2 == 1 {
        b.element(
          "rect",
          [
            ("x", f(plot.x)), ("y", f(y1)), ("width", f(plot.width)), ("height", f(y0 - y1)),
            ("fill", Palette.band),
          ])
      }
      if from > panel.y.domain.lowerBound {
        b.element(
          "line",
          [
            ("x1", f(plot.x)), ("x2", f(plot.maxX)), ("y1", f(y0)), ("y2", f(y0)), ("stroke", "#AFB8C1"),
            ("stroke-dasharray", "1 3"),
          ])
      }
    }
    b.close("g")
    b.newline()
  }

  /// Band labels go in the right margin, each beside the middle of its band, where no bar can
  /// cover them and no blank gutter pushes the bars of every panel right. A label that would
  /// touch the average's label (also in that margin) is left out; every level is also named in
  /// the legend (``bandLegend(_:measure:)``).
  func drawBandLabels(_ b: inout SVGBuilder, _ bands: ValueBands, panel: Panel) {
    let average = output.average[panel.measure].map {
      panel.y.y(MeasureDisplay.scaled($0, panel.measure, output.units))
    }
    for (index, level) in bands.levels.enumerated() {
      let from = MeasureDisplay.scaled(level.from, panel.measure, output.units)
      guard from < panel.y.domain.upperBound else { break }
      let next =
        index + 1 < bands.levels.count
        ? MeasureDisplay.scaled(bands.levels[index + 1].from, panel.measure, output.units) : panel.y.domain.upperBound
      let y0 = panel.y.y(max(from, panel.y.domain.lowerBound))
      let y1 = panel.y.y(min(next, panel.y.domain.upperBound))
      let y = (y0 + y1) / 2 + 3.5
      // The average's two lines span 14 px above its rule to 13 below.
      if let average, y + 2 > average - 14, y - 9 < average + 13 { continue }
      b.element(
        "text",
        [("class", "tl-band-label"), ("x", f(panel.plot.maxX + 6)), ("y", f(y)), ("fill", Palette.muted)],
        content: level.label)
    }
  }

  /// The levels in words, for the legend: "Rest 0 · Light 1–2 · Regular 3–4 · Heavy 5+".
  func bandLegend(_ bands: ValueBands, measure: Measure) -> String {
    let shown = bands.levels.map { MeasureDisplay.scaled($0.from, measure, output.units) }
    return bands.levels.enumerated().map { index, level in
      let from = shown[index]
      guard index + 1 < shown.count else { return level.label + " " + ShownNumber.display(from) + "+" }
      let next = shown[index + 1]
      let whole = from.rounded() == from && next.rounded() == next
      if whole && next - from == 1 { return level.label + " " + ShownNumber.display(from) }
      return level.label + " " + ShownNumber.display(from) + "–" + ShownNumber.display(whole ? next - 1 : next)
    }.joined(separator: " · ")
  }

  func drawBars(_ b: inout SVGBuilder, panel: Panel, x: TimeScale) {
    let zone = SVGFrame.zone(output.timeZone)
    b.open("g", [("class", "tl-bars")])
    for bucket in output.buckets {
      // An unknown value (no duration stated, no weighted set) has no bar: a 0 bar would claim
      // "nothing", and the read-out and the table say "unknown" instead (SPEC 10.3).
      guard let known = bucket.values[panel.measure] else { continue }
      let value = MeasureDisplay.scaled(known, panel.measure, output.units)
      let x0 = x.x(bucket.bar.start)
      let x1 = x.x(bucket.bar.end)
      let top = panel.y.y(value)
      let height = panel.plot.maxY - top
      b.element(
        "rect",
        [
          ("x", f(x0)), ("y", f(top)), ("width", f(max(x1 - x0, 1))), ("height", f(max(height, 0))),
          ("fill", bucket.partial ? "url(#\(idPrefix)-hatch)" : Palette.bar),
          ("data-start", String(bucket.bar.start.epochSeconds)), ("data-end", String(bucket.bar.end.epochSeconds)),
        ]
          + SVGFrame.mark(
            PeriodName.long(LocalDate(bucket.start, in: zone), output.granularity)
              + (bucket.partial ? " (so far)" : "") + ": " + MeasureDisplay.short(panel.measure) + " "
              + MeasureDisplay.text(known, panel.measure, output.units)))
    }
    b.close("g")
    b.newline()
  }

  func drawTrend(_ b: inout SVGBuilder, panel: Panel, x: TimeScale) {
    let points = output.buckets.compactMap { bucket -> String? in
      guard let value = bucket.trend?[panel.measure] else { return nil }
      return f(x.x(bucket.start)) + "," + f(panel.y.y(MeasureDisplay.scaled(value, panel.measure, output.units)))
    }
    guard points.count > 0 else { return }
    b.element(
      "polyline",
      [
        ("class", "tl-trend"), ("points", points.joined(separator: " ")), ("fill", "none"), ("stroke", Palette.trend),
        ("stroke-width", "2.5"), ("stroke-dasharray", "6 3"), ("stroke-linecap", "round"), ("stroke-linejoin", "round"),
      ])
    b.newline()
  }

  func drawAverage(_ b: inout SVGBuilder, panel: Panel) {
    guard let average = output.average[panel.measure] else { return }
    let y = panel.y.y(MeasureDisplay.scaled(average, panel.measure, output.units))
    b.element(
      "line",
      [
        ("class", "tl-average"), ("x1", f(panel.plot.x)), ("x2", f(panel.plot.maxX + 4)), ("y1", f(y)), ("y2", f(y)),
        ("stroke", Palette.ink), ("stroke-width", "1"), ("stroke-dasharray", "2 3"),
      ])
    // In the right margin, where neither bars nor band labels can cover it.
    b.element(
      "text", [("x", f(panel.plot.maxX + 6)), ("y", f(y - 3)), ("fill", Palette.ink)],
      content: "avg")
    b.element(
      "text", [("x", f(panel.plot.maxX + 6)), ("y", f(y + 10)), ("fill", Palette.ink)],
      content: averageText(average, panel.measure))
  }

  func averageText(_ value: Double, _ measure: Measure) -> String {
    switch measure {
    case .sessions, .sets: return ShownNumber.display(value, decimals: 1)
    case .durationSeconds: return ShownNumber.display(value / 60, decimals: 0) + " min"
    case .volumeKg:
      return ShownNumber.compact(output.units.weight(fromKilograms: value)) + " " + output.units.weight.rawValue
    default: return MeasureDisplay.text(value, measure, output.units)
    }
  }

  func drawXAxis(_ b: inout SVGBuilder, panel: Panel, x: TimeScale, ticks: [TimeAxis.Tick]) {
    let y = panel.plot.maxY
    for tick in ticks where tick.marked {
      let tx = x.x(tick.date)
      b.element(
        "line",
        [
          ("x1", f(tx)), ("x2", f(tx)), ("y1", f(y)), ("y2", f(y + (tick.emphasized ? 8 : 4))),
          ("stroke", tick.emphasized ? Palette.ink : Palette.muted),
        ])
      if let label = tick.label {
        var attributes: [(String, String)] = [
          ("x", f(tx)), ("y", f(y + 19)), ("text-anchor", "middle"),
          ("fill", tick.emphasized ? Palette.ink : Palette.muted),
        ]
        if tick.emphasized { attributes.append(("font-weight", "600")) }
        b.element("text", attributes, content: label)
      }
    }
    b.newline()
  }

  /// The part of the as-of bucket's period already passed, washed, as a forecast dims only the
  /// hours of today gone: from the bar's left edge across `elapsed` of its width, so "3 days of
  /// 7" reads at a glance. Only a partial bucket has one; a whole plot greyed said nothing.
  func drawPast(_ b: inout SVGBuilder, panel: Panel, bucket: SeriesOutput.Bucket, x: TimeScale) {
    guard bucket.partial else { return }
    let x0 = x.x(bucket.bar.start)
    let width = (x.x(bucket.bar.end) - x0) * bucket.elapsed
    b.element(
      "rect",
      [
        ("class", "tl-past"), ("x", f(x0)), ("y", f(panel.plot.y)), ("width", f(max(width, 0))),
        ("height", f(panel.plot.height)), ("fill", Palette.ink), ("fill-opacity", "0.06"),
      ])
  }

  /// A best as a line (SPEC 11.8): through the known values at each bucket's start (a bucket
  /// without one is skipped, not drawn at 0), a point on each, hollow for the partial bucket,
  /// and a ring with "PR" on each record.
  func drawLine(_ b: inout SVGBuilder, panel: Panel, x: TimeScale) {
    let zone = SVGFrame.zone(output.timeZone)
    let records = Set(output.recordBuckets[panel.measure] ?? [])
    let known = output.buckets.enumerated().compactMap { index, bucket -> (Int, SeriesOutput.Bucket, Double)? in
      bucket.values[panel.measure].map { (index, bucket, $0) }
    }
    b.open("g", [("class", "tl-line")])
    if known.count > 1 {
      let points = known.map { _, bucket, value in
        f(x.x(bucket.start)) + "," + f(panel.y.y(MeasureDisplay.scaled(value, panel.measure, output.units)))
      }
      b.element(
        "polyline",
        [
          ("points", points.joined(separator: " ")), ("fill", "none"), ("stroke", Palette.bar), ("stroke-width", "2"),
          ("stroke-linejoin", "round"),
        ])
    }
    for (index, bucket, value) in known {
      let cx = x.x(bucket.start)
      let cy = panel.y.y(MeasureDisplay.scaled(value, panel.measure, output.units))
      let record = records.contains(index)
      b.element(
        "circle",
        [
          ("class", record ? "tl-point tl-record" : "tl-point"), ("cx", f(cx)), ("cy", f(cy)),
          ("r", record ? "4.5" : "3"),
          ("fill", bucket.partial ? "#FFFFFF" : Palette.bar), ("stroke", Palette.bar), ("stroke-width", "1.5"),
          ("data-start", String(bucket.start.epochSeconds)),
        ]
          + SVGFrame.mark(
            PeriodName.long(LocalDate(bucket.start, in: zone), output.granularity)
              + (bucket.partial ? " (so far)" : "") + ": " + MeasureDisplay.short(panel.measure) + " "
              + MeasureDisplay.text(value, panel.measure, output.units) + (record ? ", a record" : "")))
      if record {
        b.element(
          "circle",
          [
            ("cx", f(cx)), ("cy", f(cy)), ("r", "8"), ("fill", "none"), ("stroke", Palette.trend),
            ("stroke-width", "1.5"),
          ])
        b.element(
          "text",
          [
            ("class", "tl-record-label"), ("x", f(cx)), ("y", f(max(cy - 11, panel.plot.y + 9))),
            ("text-anchor", "middle"), ("fill", Palette.trend), ("font-weight", "600"),
          ], content: "PR")
      }
    }
    b.close("g")
    b.newline()
  }

  /// The value "now" is marked at in `panel`: the trend at the as-of bucket, or where that is
  /// unknown the closest bucket before it with a trend; without a trend, the newest known value.
  /// Nil when the panel has none, so no point claims a value.
  func nowValue(_ measure: Measure, at index: Int) -> (value: Double, isTrend: Bool)? {
    let upToNow = output.buckets[...index].reversed()
    if let trend = upToNow.lazy.compactMap({ $0.trend?[measure] }).first { return (trend, true) }
    return upToNow.lazy.compactMap({ $0.values[measure] }).first.map { ($0, false) }
  }

  /// The "now" rule through the as-of bucket, with a point at the closest value on it.
  func drawNow(_ b: inout SVGBuilder, panel: Panel, x: TimeScale, at index: Int) {
    let cx = x.x(output.buckets[index].start)
    b.element(
      "line",
      [
        ("class", "tl-now"), ("x1", f(cx)), ("x2", f(cx)), ("y1", f(panel.plot.y)), ("y2", f(panel.plot.maxY)),
        ("stroke", Palette.ink), ("stroke-width", "1"),
      ])
    guard let (value, isTrend) = nowValue(panel.measure, at: index) else { return }
    b.element(
      "circle",
      [
        ("class", "tl-now-point"), ("cx", f(cx)),
        ("cy", f(panel.y.y(MeasureDisplay.scaled(value, panel.measure, output.units)))),
        ("r", "4"), ("fill", isTrend ? Palette.trend : Palette.bar), ("stroke", "#FFFFFF"), ("stroke-width", "1.5"),
      ])
  }

  func drawAsOf(_ b: inout SVGBuilder, bucket: SeriesOutput.Bucket, panel: Panel, x: TimeScale, asOf: LocalDate) {
    let cx = x.x(bucket.start)
    let y = panel.plot.y - 4
    b.element(
      "path", [("class", "tl-asof"), ("d", "M\(f(cx - 5)),\(f(y - 7))h10l-5,7z"), ("fill", Palette.ink)])
    // The partial bucket is named here, above the plot, rather than over its bar, where the
    // trend and the average's label ran into it.
    // A phone's is shorter, so it cannot reach the panel's title at the left.
    let label =
      chartWidth == .regular
      ? "as of \(asOf.dayMonth) \(asOf.year)" + (bucket.partial ? ", \(output.granularity.rawValue) so far" : "")
      : "as of \(asOf.dayMonth)" + (bucket.partial ? ", so far" : "")
    let rightSide = cx > panel.plot.x + panel.plot.width / 2
    b.element(
      "text",
      [
        ("x", f(rightSide ? cx - 8 : cx + 8)), ("y", f(y - 1)), ("text-anchor", rightSide ? "end" : "start"),
      ],
      content: label)
  }

  // MARK: Words

  func description(zone: TimeZone) -> String {
    let per = output.granularity.rawValue
    let measures = output.measures.map(MeasureDisplay.short).joined(separator: ", ")
    guard let first = output.buckets.first, let last = output.buckets.last else {
      return
        "No sessions of \(output.user) in the \(output.range.rawValue) range up to "
        + "\(LocalDate(output.asOf, in: zone).long)."
    }
    let averages = output.measures.map { measure in
      (output.average[measure].map { MeasureDisplay.text($0, measure, output.units) } ?? "–") + " "
        + MeasureDisplay.short(measure)
    }
    let form =
      output.measures.allSatisfy { $0.mark == .line }
      ? "Lines" : output.measures.contains { $0.mark == .line } ? "Bars and lines" : "Bars"
    let records = output.measures.reduce(0) { $0 + (output.recordBuckets[$1]?.count ?? 0) }
    return
      "\(form) of \(measures) per \(per) for \(output.user), "
      + "from \(PeriodName.long(LocalDate(first.start, in: zone), output.granularity)) "
      + "to \(PeriodName.long(LocalDate(last.start, in: zone), output.granularity))\(last.partial ? " (so far)" : ""), "
      + "as of \(LocalDate(output.asOf, in: zone).long). Average per \(per): \(averages.joined(separator: ", ")). "
      + (records > 0 ? "\(records) \(records == 1 ? "record" : "records") ringed. " : "")
      + (first.trend != nil ? "The orange dashed line is the trend." : "")
  }
}

extension SeriesOutput: DrawnChartKind {
  var isHoverable: Bool { true }

  func svg(idPrefix: String?, lastSession: Date?, width: ChartWidth) -> String {
    SeriesSVGRenderer(self, idPrefix: idPrefix, lastSession: lastSession, width: width).render()
  }

  func dataTable() -> String {
    let zone = SVGFrame.zone(timeZone)
    let hasTrend = buckets.contains { $0.trend != nil }
    var header = [granularity.rawValue.capitalized]
    for m in measures {
      header.append(MeasureDisplay.short(m))
      if hasTrend { header.append(MeasureDisplay.short(m) + " trend") }
    }
    var rows = buckets.map { bucket -> [String] in
      var row = [
        PeriodName.long(LocalDate(bucket.start, in: zone), granularity) + (bucket.partial ? " (so far)" : "")
      ]
      for m in measures {
        // A best without a value is shown as a dash, never as 0.
        row.append(bucket.values[m].map { MeasureDisplay.text($0, m, units) } ?? "–")
        if hasTrend { row.append(bucket.trend?[m].map { MeasureDisplay.text($0, m, units) } ?? "") }
      }
      return row
    }
    var average = ["Average"]
    for m in measures {
      average.append(self.average[m].map { MeasureDisplay.text($0, m, units) } ?? "–")
      if hasTrend { average.append("") }
    }
    rows.append(average)
    return DataTable.table(caption: "\(chart): values per \(granularity.rawValue)", header: header, rows: rows)
  }
}
