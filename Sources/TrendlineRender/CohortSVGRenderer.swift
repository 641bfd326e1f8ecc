import Foundation
import TrendlineSchema

/// Draws a `trendline/cohort-series@2` output: per measure, the range from the lowest user to
/// the highest as a pale band with the mean as a dotted line through it, the p25–p75 band as a
/// darker area, the median as a line and, when given, one user's own line over them, all on
/// the cohort's shared `yAxis` (which reaches the highest user); then the ranking as
/// horizontal bars.
///
/// Cohort buckets are keyed by local date, not instant (users live in different zones), so the
/// x axis is a calendar axis: each date is placed at its midnight UTC, which keeps equal days
/// equally wide.
public struct CohortSeriesSVGRenderer: Sendable {
  public var output: CohortSeriesOutput
  /// A user's own series of the same chart, drawn over the cohort.
  public var user: SeriesOutput?
  public var idPrefix: String

  /// Cohort charts are drawn in kilograms and kilometres, whoever reads them: their users read
  /// in different units, and one axis cannot be in each. The cohort JSON states no units (a
  /// user's own line drawn over the cohort is in them too, so it lines up with the band).
  static let units = Units.metric

  public var chartWidth: ChartWidth
  var width: Double { chartWidth.value(regular: 720) }
  var left: Double { chartWidth == .regular ? 64 : 50 }
  var right: Double { chartWidth == .regular ? 40 : 16 }
  var headerLeft: Double { chartWidth == .regular ? left : 8 }
  static let plotHeight = 130.0
  static let panelGap = 56.0
  static let rankRow = 20.0
  /// The min–max band's opacity: paler than the p25–p75 band over it, so the two read as
  /// nested ranges rather than one.
  static let rangeOpacity = 0.3

  public init(
    _ output: CohortSeriesOutput, user: SeriesOutput? = nil, idPrefix: String? = nil, width: ChartWidth = .regular
  ) {
    self.output = output
    self.user = user
    self.chartWidth = width
    self.idPrefix = (idPrefix ?? "tl-cohort-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  /// The subtitle's lines and the legend's items, placed (wrapped on a phone), and where the
  /// first plot starts.
  var header: (subtitle: [String], legend: [(label: String, x: Double, y: Double)], plotTop: Double) {
    let subtitle = SVGFrame.wrap(
      [
        "cohort of \(output.users) users", "\(output.range.rawValue) by \(output.granularity.rawValue)",
        "as of \(output.asOf)",
      ], width: width - headerLeft - 8)
    var labels = ["min–max", "mean", "p25–p75", "median"]
    if let user { labels.append(String(user.user.prefix(16))) }
    let top = 36 + Double(subtitle.count - 1) * 15 + 18
    let flow = SVGFrame.flow(labels, x: headerLeft, y: top, right: width - 8)
    return (subtitle, zip(labels, flow.origins).map { ($0, $1.x, $1.y) }, flow.bottom + 24)
  }

  /// The rows' starts as instants (their local dates at midnight UTC), in order.
  var dates: [Date] { output.buckets.map(\.start) }

  /// The x scale over the output's `domain`, padded by half a period like a user's series.
  ///
  /// - Complexity: O(1).
  public var xScale: TimeScale? {
    output.domain.map { TimeScale(domain: $0, range: left...(width - right)) }
  }

  /// The cohort's shared axis of `measure` (``YAxis``), so this chart and every user's drawn on
  /// it are comparable.
  public func axis(_ measure: Measure) -> YAxis {
    output.yAxis[measure] ?? YAxis(measure: measure, largest: 0, units: Self.units)
  }

  /// The y scale of `measure`'s panel: the shared axis's bottom (0 for a total, fitted for a best)
  /// … its top, in the unit shown.
  public func yScale(_ measure: Measure, plot: PlotRect) -> LinearScale {
    let axis = axis(measure)
    let domain =
      MeasureDisplay.scaled(
        axis.domain.min, measure, Self.units)...MeasureDisplay.scaled(
        axis.domain.max, measure, Self.units)
    return LinearScale(domain: domain, bottom: plot.maxY, top: plot.y)
  }

  func plot(panel: Int, header: Double) -> PlotRect {
    PlotRect(
      x: left, y: header + Double(panel) * (Self.plotHeight + Self.panelGap), width: width - left - right,
      height: Self.plotHeight)
  }

  /// - Complexity: O(*b* × *m* + *r*) for *b* buckets, *m* measures and *r* ranked users.
  public func render() -> String {
    let utc = TimeZone(identifier: "UTC")!
    let header = self.header
    let panelsBottom =
      header.plotTop + Double(output.measures.count) * (Self.plotHeight + Self.panelGap) - Self.panelGap + 30
    let ranking = output.ranking?.users ?? []
    let height = panelsBottom + (ranking.isEmpty ? 10 : 40 + Double(ranking.count) * Self.rankRow)
    var b = SVGBuilder()
    let dates = self.dates
    let desc =
      "Cohort of \(output.users) users, \(output.chart) by \(output.granularity.rawValue), as of \(output.asOf): "
      + "the pale band runs from the lowest user to the highest, the dotted line is the mean, "
      + "the darker band is the middle half of users (25th to 75th percentile), the line the median"
      + (user.map { ", the orange line \($0.user)" } ?? "") + ". "
      + (ranking.isEmpty
        ? ""
        : "Top users by \(MeasureDisplay.short(output.ranking!.measure)): "
          + ranking.map { "\($0.user) " + MeasureDisplay.text($0.value, output.ranking!.measure, Self.units) }.joined(
            separator: ", ") + ".")
    SVGFrame.open(
      &b, width: width, height: height, idPrefix: idPrefix, title: "\(output.chart) — cohort of \(output.users)",
      desc: desc, kind: "cohort-series")
    b.element(
      "text", [("x", f(headerLeft)), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    for (index, line) in header.subtitle.enumerated() {
      b.element(
        "text", [("x", f(headerLeft)), ("y", f(36 + Double(index) * 15)), ("fill", Palette.muted)], content: line)
    }
    for (index, item) in header.legend.enumerated() {
      let (x, y) = (item.x, item.y)
      switch index {
      case 0:
        b.element(
          "rect",
          [
            ("x", f(x)), ("y", f(y - 5)), ("width", "16"), ("height", "10"), ("fill", Palette.barLight),
            ("fill-opacity", f(Self.rangeOpacity)),
          ])
      case 1:
        b.element(
          "line",
          [
            ("x1", f(x)), ("x2", f(x + 16)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.ink),
            ("stroke-dasharray", "2 3"),
          ])
      case 2:
        b.element(
          "rect", [("x", f(x)), ("y", f(y - 5)), ("width", "16"), ("height", "10"), ("fill", Palette.barLight)])
      case 3:
        b.element(
          "line",
          [("x1", f(x)), ("x2", f(x + 16)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.bar), ("stroke-width", "2")])
      default:
        b.element(
          "line",
          [
            ("x1", f(x)), ("x2", f(x + 16)), ("y1", f(y)), ("y2", f(y)), ("stroke", Palette.trend),
            ("stroke-width", "2.5"), ("stroke-dasharray", "6 3"),
          ])
      }
      b.element("text", [("x", f(x + 20)), ("y", f(y + 4)), ("fill", Palette.muted)], content: item.label)
    }
    guard let x = xScale else {
      b.element(
        "text", [("x", f(left)), ("y", f(header.plotTop + 20)), ("fill", Palette.muted)], content: "No buckets")
      b.close("svg")
      b.newline()
      return b.text
    }
    let ticks = TimeAxis.ticks(
      starts: dates, granularity: output.granularity, zone: utc, width: x.range.upperBound - x.range.lowerBound)
    let userPoints = userLine()
    for (index, measure) in output.measures.enumerated() {
      let plot = self.plot(panel: index, header: header.plotTop)
      let y = yScale(measure, plot: plot)
      b.element(
        "text", [("x", f(plot.x)), ("y", f(plot.y - 8)), ("font-weight", "600")],
        content: MeasureDisplay.title(measure, Self.units)
      )
      for tick in axis(measure).ticks[YAxis.defaultLabelCount] ?? [] {
        let at = y.y(MeasureDisplay.scaled(tick.value, measure, Self.units))
        b.element(
          "line",
          [("x1", f(plot.x)), ("x2", f(plot.maxX)), ("y1", f(at)), ("y2", f(at)), ("stroke", Palette.grid)])
        b.element(
          "text",
          [
            ("class", "tl-tick"), ("data-value", f(MeasureDisplay.scaled(tick.value, measure, Self.units))),
            ("x", f(plot.x - 6)), ("y", f(at + 4)), ("text-anchor", "end"), ("fill", Palette.muted),
          ], content: tick.label)
      }
      let stats = zip(dates, output.buckets).compactMap { date, bucket -> (Date, CohortStats)? in
        bucket.values[measure].map { (date, $0) }
      }
      func value(_ s: CohortStats, _ name: String) -> Double {
        MeasureDisplay.scaled(s.quantile(name) ?? s.mean, measure, Self.units)
      }
      if !stats.isEmpty {
        let highest = stats.map { f(x.x($0.0)) + "," + f(y.y(MeasureDisplay.scaled($0.1.max, measure, Self.units))) }
        let lowest = stats.reversed().map {
          f(x.x($0.0)) + "," + f(y.y(MeasureDisplay.scaled($0.1.min, measure, Self.units)))
        }
        b.element(
          "polygon",
          [
            ("class", "tl-range"), ("points", (highest + lowest).joined(separator: " ")), ("fill", Palette.barLight),
            ("fill-opacity", f(Self.rangeOpacity)),
          ])
        let upper = stats.map { f(x.x($0.0)) + "," + f(y.y(value($0.1, "p75"))) }
        let lower = stats.reversed().map { f(x.x($0.0)) + "," + f(y.y(value($0.1, "p25"))) }
        b.element(
          "polygon",
          [
            ("class", "tl-iqr"), ("points", (upper + lower).joined(separator: " ")), ("fill", Palette.barLight),
            ("fill-opacity", "0.7"),
          ])
        b.element(
          "polyline",
          [
            ("class", "tl-median"),
            ("points", stats.map { f(x.x($0.0)) + "," + f(y.y(value($0.1, "p50"))) }.joined(separator: " ")),
            ("fill", "none"), ("stroke", Palette.bar), ("stroke-width", "2"),
          ])
        b.element(
          "polyline",
          [
            ("class", "tl-mean"),
            (
              "points",
              stats.map { f(x.x($0.0)) + "," + f(y.y(MeasureDisplay.scaled($0.1.mean, measure, Self.units))) }
                .joined(separator: " ")
            ),
            ("fill", "none"), ("stroke", Palette.ink), ("stroke-width", "1"), ("stroke-dasharray", "2 3"),
          ])
      }
      // The row still in progress (SPEC 10.6): said above it, so a median that drops there
      // reads as "so far", not as a collapse.
      for (date, bucket) in zip(dates, output.buckets) where bucket.partial {
        SVGFrame.haloText(
          &b, "so far", x: x.x(date), y: plot.y + 10, anchor: "middle", size: 11, fill: Palette.muted)
      }
      let mine = userPoints.compactMap { date, values -> String? in
        values[measure].map { f(x.x(date)) + "," + f(y.y(MeasureDisplay.scaled($0, measure, Self.units))) }
      }
      if !mine.isEmpty {
        b.element(
          "polyline",
          [
            ("class", "tl-user"), ("points", mine.joined(separator: " ")), ("fill", "none"), ("stroke", Palette.trend),
            ("stroke-width", "2.5"), ("stroke-dasharray", "6 3"), ("stroke-linejoin", "round"),
          ])
      }
      b.element(
        "line",
        [
          ("x1", f(plot.x)), ("x2", f(plot.maxX)), ("y1", f(plot.maxY)), ("y2", f(plot.maxY)),
          ("stroke", Palette.muted),
        ])
      for tick in ticks where tick.marked {
        let tx = x.x(tick.date)
        b.element(
          "line",
          [
            ("x1", f(tx)), ("x2", f(tx)), ("y1", f(plot.maxY)), ("y2", f(plot.maxY + (tick.emphasized ? 8 : 4))),
            ("stroke", tick.emphasized ? Palette.ink : Palette.muted),
          ])
        if let label = tick.label {
          var attributes: [(String, String)] = [
            ("x", f(tx)), ("y", f(plot.maxY + 19)), ("text-anchor", "middle"),
            ("fill", tick.emphasized ? Palette.ink : Palette.muted),
          ]
          if tick.emphasized { attributes.append(("font-weight", "600")) }
          b.element("text", attributes, content: label)
        }
      }
      b.newline()
    }
    let first = plot(panel: 0, header: header.plotTop)
    let last = plot(panel: max(output.measures.count - 1, 0), header: header.plotTop)
    let hoverPlot = PlotRect(x: first.x, y: first.y, width: first.width, height: last.maxY - first.y)
    SVGFrame.hoverGroup(
      &b, plot: hoverPlot, scale: x,
      points: zip(dates, output.buckets).map { date, bucket in
        let mine = userPoints.first { $0.0 == date }?.1
        let parts = output.measures.map { measure -> String in
          guard let s = bucket.values[measure] else { return MeasureDisplay.short(measure) + " –" }
          var text =
            MeasureDisplay.short(measure) + " median "
            + MeasureDisplay.text(s.quantile("p50") ?? s.mean, measure, Self.units)
          // Fewer users than the row's when some have no value for it (SPEC 10.3).
          if s.n != bucket.n { text += " of \(s.n) users" }
          if let p25 = s.quantile("p25"), let p75 = s.quantile("p75") {
            let range = MeasureDisplay.text(p25, measure, Self.units) + "–"
            text += " (" + range + MeasureDisplay.text(p75, measure, Self.units) + ")"
          }
          text +=
            ", mean " + MeasureDisplay.text(s.mean, measure, Self.units) + ", min–max "
            + MeasureDisplay.text(s.min, measure, Self.units) + "–" + MeasureDisplay.text(s.max, measure, Self.units)
          if let value = mine?[measure] {
            text += ", \(user?.user ?? "") " + MeasureDisplay.text(value, measure, Self.units)
          }
          return text
        }
        let name = PeriodName.long(LocalDate(date, in: utc), output.granularity) + (bucket.partial ? " (so far)" : "")
        return (date, "\(name), n=\(bucket.n): " + parts.joined(separator: " · "))
      })
    if let rank = output.ranking, !ranking.isEmpty {
      drawRanking(&b, rank, top: panelsBottom + 10)
    }
    b.close("svg")
    b.newline()
    return b.text
  }

  /// The user's buckets placed on the cohort's rows: the row whose period holds the bucket's
  /// local start date, as the cohort joined them (a Sunday-first week joins the row of the
  /// Monday before it).
  func userLine() -> [(Date, MeasureValues)] {
    guard let user else { return [] }
    let zone = SVGFrame.zone(user.timeZone)
    return user.buckets.compactMap { bucket in
      let local = LocalDate(bucket.start, in: zone).utcMidnight
      guard let row = output.buckets.last(where: { $0.start <= local }), local < row.end else { return nil }
      return (row.start, bucket.values)
    }
  }

  func drawRanking(_ b: inout SVGBuilder, _ rank: CohortSeriesOutput.Ranking, top: Double) {
    let labelRight = chartWidth == .regular ? 170.0 : 104
    let barWidth = width - labelRight - 110
    let longest = chartWidth == .regular ? 24 : 14
    let largest = rank.users.map(\.value).max() ?? 0
    b.element(
      "text", [("x", f(headerLeft)), ("y", f(top + 14)), ("font-weight", "600")],
      content: "Top \(rank.users.count) by \(MeasureDisplay.short(rank.measure)) over the window")
    b.open("g", [("class", "tl-ranking")])
    for (index, entry) in rank.users.enumerated() {
      let y = top + 26 + Double(index) * Self.rankRow
      let width = largest > 0 ? entry.value / largest * barWidth : 0
      var name = entry.user
      if name.count > longest { name = String(name.prefix(longest - 1)) + "…" }
      b.element("text", [("x", f(labelRight - 8)), ("y", f(y + 12)), ("text-anchor", "end")], content: name)
      b.element(
        "rect",
        [
          ("x", f(labelRight)), ("y", f(y + 2)), ("width", f(max(width, 1))), ("height", f(Self.rankRow - 6)),
          ("fill", Palette.bar),
        ])
      b.element(
        "text", [("x", f(labelRight + width + 6)), ("y", f(y + 12)), ("fill", Palette.muted)],
        content: MeasureDisplay.text(entry.value, rank.measure, Self.units))
    }
    b.close("g")
    b.newline()
  }
}

/// Draws a `trendline/cohort-radar@1` output: the median polygon filled, the 25th and 75th
/// percentiles as outlines, on one scale whose outer ring is the largest 75th percentile (or
/// median, when quartiles were not asked for).
public struct CohortRadarSVGRenderer: Sendable {
  public var output: CohortRadarOutput
  public var idPrefix: String
  public var geometry: RadarGeometry

  public init(_ output: CohortRadarOutput, idPrefix: String? = nil, width: ChartWidth = .regular) {
    self.output = output
    self.geometry = RadarGeometry(width)
    self.idPrefix = (idPrefix ?? "tl-cohort-" + idSafe(output.chart)) + (width == .compact ? "-n" : "")
  }

  /// - Complexity: O(*a*) for *a* axes.
  public func render() -> String {
    let n = output.axes.count
    let size = geometry.size
    let legend = geometry.legendTop
    var b = SVGBuilder()
    func q(_ axis: CohortRadarOutput.Axis, _ name: String) -> Double? { axis.counts.quantile(name) }
    let largest = output.largestDrawn
    let rings = RingScale(largest: largest)
    let outer = rings.outer
    let desc =
      "Cohort of \(output.users) users, sessions per area in the \(output.period.rawValue) holding as-of "
      + "(\(output.asOf))\(output.partial ? ", so far" : ""): "
      + output.axes.map { "\($0.label) median " + ShownNumber.display(q($0, "p50") ?? $0.counts.mean) }.joined(
        separator: ", ") + "."
    SVGFrame.open(
      &b, width: size, height: legend + 24, idPrefix: idPrefix,
      title: "\(output.chart) — cohort of \(output.users)", desc: desc,
      kind: "cohort-radar")
    b.element("text", [("x", "16"), ("y", "22"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    geometry.subtitle(
      &b,
      [
        "cohort of \(output.users) users",
        "sessions per area this \(output.period.rawValue)" + (output.partial ? " so far" : ""),
        "as of \(output.asOf)",
      ])
    guard n >= 3 else {
      b.close("svg")
      b.newline()
      return b.text
    }
    b.open("g", [("fill", "none"), ("stroke", Palette.grid)])
    for ring in 1...4 {
      let points = (0..<n).map { i -> String in
        let p = geometry.point(index: i, count: n, fraction: Double(ring) / 4)
        return f(p.x) + "," + f(p.y)
      }
      b.element("polygon", [("points", points.joined(separator: " "))])
    }
    for i in 0..<n {
      let p = geometry.point(index: i, count: n, fraction: 1)
      b.element(
        "line",
        [("x1", f(geometry.center.x)), ("y1", f(geometry.center.y)), ("x2", f(p.x)), ("y2", f(p.y))])
    }
    b.close("g")
    func polygon(_ values: [Double]) -> String {
      values.enumerated().map { i, v in
        let p = geometry.point(index: i, count: n, fraction: outer > 0 ? v / outer : 0)
        return f(p.x) + "," + f(p.y)
      }.joined(separator: " ")
    }
    let medians = output.axes.map { q($0, "p50") ?? $0.counts.mean }
    b.element(
      "polygon",
      [
        ("class", "tl-median"), ("points", polygon(medians)), ("fill", Palette.bar), ("fill-opacity", "0.2"),
        ("stroke", Palette.bar), ("stroke-width", "2"),
      ])
    if output.axes.allSatisfy({ q($0, "p25") != nil && q($0, "p75") != nil }) {
      for name in ["p25", "p75"] {
        b.element(
          "polygon",
          [
            ("points", polygon(output.axes.map { q($0, name)! })), ("fill", "none"), ("stroke", Palette.muted),
            ("stroke-width", "1.5"), ("stroke-dasharray", "4 3"),
          ])
      }
    }
    // Ring values over the polygons, so none is covered.
    for ring in [2, 4] where largest > 0 {
      let p = geometry.point(index: 0, count: n, fraction: Double(ring) / 4)
      SVGFrame.haloText(
        &b, rings.label(ring), x: p.x + 4, y: p.y + 12, size: 11, fill: Palette.muted,
        extra: [("class", "tl-ring-label"), ("data-value", f(rings.value(ring)))])
    }
    if largest == 0 {
      // All zeros is a period just begun (a month one day old) or a cohort that trained none of
      // these areas: said, not drawn as an empty web.
      let when = "this \(output.period.rawValue)\(output.partial ? " so far" : "")"
      if geometry.size < 400 {
        SVGFrame.stacked(&b, ["No sessions in these areas", when], x: geometry.center.x, y: geometry.center.y - 4)
      } else {
        SVGFrame.haloText(
          &b, "No sessions in these areas " + when, x: geometry.center.x, y: geometry.center.y + 4, anchor: "middle",
          size: 12, fill: Palette.muted, extra: [("class", "tl-empty")])
      }
    }
    for (i, axis) in output.axes.enumerated() {
      let d = RadarSVGRenderer.spokeDirection(index: i, count: n)
      let p = geometry.point(index: i, count: n, fraction: 1)
      let anchor = d.dx > 0.2 ? "start" : d.dx < -0.2 ? "end" : "middle"
      var y = p.y + d.dy * 10 + 4
      if d.dy > 0.2 && anchor == "middle" { y += 6 }
      geometry.axisLabel(&b, axis.label, x: p.x + d.dx * 10, y: y, anchor: anchor, below: d.dy > 0.2)
    }
    b.element(
      "line",
      [
        ("x1", "16"), ("x2", "40"), ("y1", f(legend - 4)), ("y2", f(legend - 4)), ("stroke", Palette.bar),
        ("stroke-width", "3"),
      ])
    b.element("text", [("x", "48"), ("y", f(legend))], content: "median")
    b.element(
      "line",
      [
        ("x1", "120"), ("x2", "144"), ("y1", f(legend - 4)), ("y2", f(legend - 4)), ("stroke", Palette.muted),
        ("stroke-dasharray", "4 3"),
      ])
    b.element("text", [("x", "152"), ("y", f(legend))], content: "25th and 75th percentile")
    b.close("svg")
    b.newline()
    return b.text
  }
}

extension CohortSeriesOutput {
  /// The numbers behind the cohort chart as an HTML table (``DataTable``).
  func dataTable() -> String {
    var header = ["Bucket", "Users", "Active"]
    for m in measures {
      header += [
        MeasureDisplay.short(m) + " p25", MeasureDisplay.short(m) + " median", MeasureDisplay.short(m) + " p75",
      ]
    }
    let rows = buckets.map { bucket -> [String] in
      let share = ShownNumber.format(bucket.activeShare * 100, decimals: 0)
      // No-break spaces: a narrow column must not wrap "12 (67 %)" into two lines.
      var row = [bucket.date, String(bucket.n), "\(bucket.active)\u{00A0}(\(share)\u{00A0}%)"]
      for m in measures {
        let s = bucket.values[m]
        for q in ["p25", "p50", "p75"] {
          row.append(s?.quantile(q).map { MeasureDisplay.text($0, m, CohortSeriesSVGRenderer.units) } ?? "")
        }
      }
      return row
    }
    var out = DataTable.table(caption: "\(chart): cohort of \(users) users", header: header, rows: rows)
    if let rank = ranking {
      out += DataTable.table(
        caption: "\(chart): top users by \(MeasureDisplay.short(rank.measure))", header: ["Rank", "User", "Value"],
        rows: rank.users.enumerated().map {
          [String($0 + 1), $1.user, MeasureDisplay.text($1.value, rank.measure, CohortSeriesSVGRenderer.units)]
        })
    }
    return out
  }
}

extension CohortRadarOutput {
  /// The numbers behind the cohort chart as an HTML table (``DataTable``).
  func dataTable() -> String {
    let rows = axes.map { axis -> [String] in
      [axis.label] + ["p25", "p50", "p75"].map { axis.counts.quantile($0).map { ShownNumber.display($0) } ?? "" }
        + [ShownNumber.display(axis.counts.mean), ShownNumber.display(axis.counts.max)]
    }
    return DataTable.table(
      caption: "\(chart): sessions per area this \(period.rawValue), cohort of \(users) users",
      header: ["Area", "p25", "Median", "p75", "Mean", "Max"], rows: rows)
  }
}
