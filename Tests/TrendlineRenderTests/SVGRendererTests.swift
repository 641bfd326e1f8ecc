import Foundation
import Testing
import TrendlineRender
import TrendlineSchema
import _TrendlineTestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

// MARK: Fixtures, written by hand

let oslo = "Europe/Oslo"
/// 2026-11-29T23:59:59+01:00 (checked with `TZ=Europe/Oslo date -d @1795993199`)
let asOf = Date(epochSeconds: 1_795_993_199)
let week: Int64 = 7 * 86_400

/// Three Monday weeks in Oslo from 2026-11-09, the last partial; bars ± round(0.35 × week).
/// Three Monday weeks from 9 November 2026 in Oslo, as of Friday 27 November 23:59:59: the
/// third week is partial, 5 of its 7 days elapsed.
func seriesFixture(user: String = "ingrid", bands: ValueBands? = nil) -> SeriesOutput {
  let firstMonday: Int64 = 1_794_178_800  // 2026-11-09T00:00:00+01:00
  let half: Int64 = 211_680  // round(0.35 × 604 800)
  let friday = Date(epochSeconds: 1_795_820_399)  // 2026-11-27T23:59:59+01:00
  let buckets = (0..<3).map { i -> SeriesOutput.Bucket in
    let start = firstMonday + Int64(i) * week
    return SeriesOutput.Bucket(
      id: ["2026-11-09", "2026-11-16", "2026-11-23"][i], start: Date(epochSeconds: start),
      end: Date(epochSeconds: start + week), partial: i == 2, elapsed: i == 2 ? 5.0 / 7 : 1,
      values: [.sessions: [2, 0, 3][i], .volumeKg: [4000, 0, 5200][i]],
      trend: [.sessions: [1, 1.67, 1.5][i], .volumeKg: [2000, 3066.67, 2600][i]],
      bar: Extent(start: Date(epochSeconds: start - half), end: Date(epochSeconds: start + half)))
  }
  return SeriesOutput(
    user: user, chart: "training-volume", timeZone: oslo, asOf: friday, range: .oneMonth, granularity: .week,
    measures: [.sessions, .volumeKg],
    domain: Extent(
      start: Date(epochSeconds: firstMonday - 302_400), end: Date(epochSeconds: firstMonday + 2 * week + 302_400)),
    asOfBucket: 2, bands: bands, buckets: buckets, average: [.sessions: 1.67, .volumeKg: 3066.67]
  ).withDerivedFields()
}

func radarFixture(label: String = "Back") -> RadarOutput {
  let labels = [label, "Glutes", "Hamstrings", "Quadriceps", "Biceps", "Triceps", "Shoulders", "Chest"]
  return RadarOutput(
    user: "ingrid", chart: "muscle-balance", timeZone: oslo, asOf: asOf,
    axes: labels.enumerated().map { RadarOutput.Axis(id: "a\($0.offset)", label: $0.element) },
    periods: [
      .init(
        id: "2026-10-01", start: Date(epochSeconds: 1_790_805_600), end: Date(epochSeconds: 1_793_487_600),
        partial: false, sessions: 4,
        counts: [4, 2, 0, 1, 2, 2, 3, 1], scale: [1, 0.5, 0, 0.25, 0.5, 0.5, 0.75, 0.25]),
      .init(
        id: "2026-11-01", start: Date(epochSeconds: 1_793_487_600), end: Date(epochSeconds: 1_796_079_600),
        partial: true, elapsed: 0.9667, sessions: 3,
        counts: [2, 2, 1, 1, 0, 0, 2, 2], scale: [0.5, 0.5, 0.25, 0.25, 0, 0, 0.5, 0.5]),
    ], unmappedExercises: [.init(name: "Zercher Squat", sessions: 2)])
}

func sparklinesFixture(exercise: String = "Squat (Barbell)") -> SparklinesOutput {
  SparklinesOutput(
    user: "ingrid", chart: "exercise-trends", timeZone: oslo, asOf: asOf, value: .topSetKg, windowDays: 91,
    domain: Extent(start: Date(epochSeconds: 1_795_993_199 - 91 * 86_400), end: asOf),
    lines: [
      .init(
        exercise: exercise,
        points: [
          .init(t: Date(epochSeconds: 1_790_000_000), v: 100), .init(t: Date(epochSeconds: 1_793_000_000), v: 105),
          .init(t: Date(epochSeconds: 1_795_900_000), v: 110),
        ]),
      .init(exercise: "Bench Press (Barbell)", points: [.init(t: Date(epochSeconds: 1_795_000_000), v: 80)]),
    ])
}

func recordsFixture(exercise: String = "Bench Press (Barbell)") -> RecordsOutput {
  let at = Date(epochSeconds: 1_795_000_000)
  return RecordsOutput(
    user: "ingrid", chart: "records", timeZone: oslo, asOf: asOf,
    exercises: [
      .init(
        exercise: exercise, topSetKg: .init(value: 82.5, weightKg: 82.5, reps: 3, at: at),
        e1rmKg: .init(value: 90.75, weightKg: 82.5, reps: 3, at: at),
        repsAtWeight: [.init(value: 3, weightKg: 82.5, reps: 3, at: at)],
        records: [.init(kind: .topSetKg, at: at, value: 82.5, previous: 80, weightKg: 82.5, reps: 3)]),
      .init(exercise: "Pull Up", topSetKg: nil, e1rmKg: nil, repsAtWeight: [], records: []),
    ])
}

func streakFixture() -> StreakOutput {
  // Four Monday weeks in Oslo from 3 Nov 2026, the last under way.
  let weeks = (0..<4).map { Date(epochSeconds: 1_793_660_400 + Int64($0) * 7 * 86_400) }
  let values: [Double?] = [2, 3, 1, 0]
  let periods = weeks.indices.map { index in
    StreakOutput.Period(
      id: ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"][index], start: weeks[index],
      end: weeks[index].addingTimeInterval(7 * 86_400), partial: index == 3,
      value: values[index], met: (values[index] ?? 0) >= 2)
  }
  return StreakOutput(
    user: "ingrid", chart: "twice-a-week", timeZone: oslo, asOf: asOf, range: .oneMonth, granularity: .week,
    measure: .sessions, atLeast: 2, current: .init(length: 0, start: nil, end: nil, includesPartial: false),
    longest: .init(length: 2, start: weeks[0], end: weeks[2], includesPartial: false), complete: 3, met: 2,
    share: 2.0 / 3, periods: periods)
}

func heatmapFixture() -> HeatmapOutput {
  HeatmapOutput(
    user: "ingrid", chart: "muscle-heatmap", timeZone: oslo, asOf: asOf,
    periods: [
      .init(
        id: "2026-11-16", start: Date(epochSeconds: 1_794_783_600), end: Date(epochSeconds: 1_795_388_400),
        partial: false,
        groups: [
          .init(id: 1, name: "Chest", sessions: 2, intensity: 1),
          .init(id: 2, name: "Biceps", sessions: 0, intensity: 0),
        ]),
      .init(
        id: "2026-11-23", start: Date(epochSeconds: 1_795_388_400), end: Date(epochSeconds: 1_795_993_200),
        partial: true,
        groups: [
          .init(id: 1, name: "Chest", sessions: 1, intensity: 0.5),
          .init(id: 2, name: "Biceps", sessions: 1, intensity: 0.5),
        ]),
    ])
}

func stats(_ p25: Double, _ p50: Double, _ p75: Double) -> CohortStats {
  CohortStats(
    n: 3, mean: p50, min: p25 - 1, max: p75 + 1,
    quantiles: [.init(name: "p25", value: p25), .init(name: "p50", value: p50), .init(name: "p75", value: p75)])
}

func cohortFixture(rankedUser: String = "ingrid") -> CohortSeriesOutput {
  CohortSeriesOutput(
    chart: "training-volume", asOf: "2026-11-29", range: .oneMonth, granularity: .week, measures: [.sessions], users: 3,
    // 9 Nov − 3.5 days … 23 Nov + 3.5 days, the rows being at midnight UTC.
    domain: Extent(start: Date(epochSeconds: 1_793_880_000), end: Date(epochSeconds: 1_795_694_400)),
    buckets: [
      .init(
        day: LocalDay(text: "2026-11-09")!, granularity: .week, partial: false, n: 3, active: 3, activeShare: 1,
        values: [.sessions: stats(1, 2, 3)]),
      .init(
        day: LocalDay(text: "2026-11-16")!, granularity: .week, partial: false, n: 3, active: 2, activeShare: 2.0 / 3,
        values: [.sessions: stats(0, 1, 2)]),
      .init(
        day: LocalDay(text: "2026-11-23")!, granularity: .week, partial: true, n: 3, active: 3, activeShare: 1,
        values: [.sessions: stats(1, 1.5, 3)]),
    ], yAxis: [.sessions: YAxis(measure: .sessions, largest: 3, units: .metric)],
    ranking: .init(
      measure: .sessions, top: 2, users: [.init(user: rankedUser, value: 5), .init(user: "tom", value: 3)]))
}

func cohortRadarFixture() -> CohortRadarOutput {
  CohortRadarOutput(
    chart: "muscle-balance", asOf: "2026-11-29", period: .month, partial: true, users: 3,
    axes: ["Back", "Glutes", "Chest"].map {
      CohortRadarOutput.Axis(id: $0.lowercased(), label: $0, counts: stats(1, 2, 3))
    })
}

let allCharts: [ChartDocument] = [
  .user(
    ChartOutput(
      seriesFixture(
        bands: ValueBands(
          measure: .sessions,
          levels: [.init(from: 0, label: "Rest"), .init(from: 1, label: "Light"), .init(from: 3, label: "Regular")])))
  ),
  .user(ChartOutput(radarFixture())), .user(ChartOutput(sparklinesFixture())), .user(ChartOutput(heatmapFixture())),
  .cohort(.series(cohortFixture()), user: seriesFixture()), .cohort(.radar(cohortRadarFixture())),
  .user(ChartOutput(recordsFixture())), .user(ChartOutput(streakFixture())),
]

// MARK: XML

/// Parses `text` as XML and returns every element as (name, attributes), in document order.
func parseXML(_ text: String) throws -> [(name: String, attributes: [String: String])] {
  final class Collector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      elements.append((elementName, attributes))
    }
  }
  let parser = XMLParser(data: Data(text.utf8))
  let collector = Collector()
  parser.delegate = collector
  guard parser.parse() else {
    throw XMLError(message: parser.parserError.map { "\($0)" } ?? "unknown", line: parser.lineNumber)
  }
  return collector.elements
}

struct XMLError: Error, CustomStringConvertible {
  var message: String
  var line: Int
  var description: String { "line \(line): \(message)" }
}

@Suite struct SVGRendererTests {
  @Test func everySVGParsesAsXMLWithTitleAndDesc() throws {
    for chart in allCharts {
      let svg = SVGRenderer.render(chart)
      let elements = try parseXML(svg)
      #expect(elements.first?.name == "svg", "\(chart.name)")
      #expect(elements.contains { $0.name == "title" }, "\(chart.name)")
      #expect(elements.contains { $0.name == "desc" }, "\(chart.name)")
    }
  }

  @Test func barsSpanTheirJSONExtentThroughTheScale() throws {
    let output = seriesFixture()
    let renderer = SeriesSVGRenderer(output)
    let layout = renderer.layout
    let scale = try #require(layout.x)
    #expect(scale.domain == output.domain)
    let bars = try parseXML(renderer.render()).filter { $0.name == "rect" && $0.attributes["data-start"] != nil }
    // One bar per bucket per measure panel.
    #expect(bars.count == 6)
    for (index, bar) in bars.enumerated() {
      let bucket = output.buckets[index % 3]
      let x = try #require(Double(bar.attributes["x"] ?? ""))
      let width = try #require(Double(bar.attributes["width"] ?? ""))
      #expect(abs(x - scale.x(bucket.bar.start)) < 0.01)
      #expect(abs(x + width - scale.x(bucket.bar.end)) < 0.01)
    }
    // The padded domain fills the plot: its ends are the plot's edges, half a bucket from the
    // first and last bucket starts, and each bar covers 70 % of its week.
    let plot = layout.panels[0].plot
    #expect(scale.x(output.domain!.start) == plot.x)
    #expect(abs(scale.x(output.domain!.end) - plot.maxX) < 1e-9)
    let weekWidth = plot.width / 3
    #expect(abs((scale.x(output.buckets[0].bar.end) - scale.x(output.buckets[0].bar.start)) - 0.7 * weekWidth) < 0.01)
  }

  @Test func partialBucketIsHatchedAndLabelled() throws {
    let svg = SeriesSVGRenderer(seriesFixture(), idPrefix: "p").render()
    let rects = try parseXML(svg).filter { $0.name == "rect" && $0.attributes["data-start"] != nil }
    #expect(rects.map { $0.attributes["fill"] == "url(#p-hatch)" } == [false, false, true, false, false, true])
    #expect(svg.contains(">so far</text>"))
    #expect(svg.contains("class=\"tl-asof\""))
    #expect(svg.contains("class=\"tl-average\""))
  }

  @Test func trendIsADashedOrangeLine() throws {
    let trend = try parseXML(SVGRenderer.render(.user(ChartOutput(seriesFixture())))).filter {
      $0.attributes["class"] == "tl-trend"
    }
    #expect(trend.count == 2)
    #expect(trend.allSatisfy { $0.attributes["stroke"] == "#D55E00" && $0.attributes["stroke-dasharray"] == "6 3" })
  }

  @Test func radarSpokeZeroPointsUpAndSpokeTwoOfEightPointsRight() {
    let up = RadarSVGRenderer.spokeDirection(index: 0, count: 8)
    #expect(up.dx == 0 && up.dy == -1)
    let right = RadarSVGRenderer.spokeDirection(index: 2, count: 8)
    #expect(right.dx == 1 && right.dy == 0)
    let down = RadarSVGRenderer.spokeDirection(index: 4, count: 8)
    #expect(down.dx == 0 && down.dy == 1)
  }

  @Test func radarLabelsAreAnchoredBySide() throws {
    let texts = try parseXML(RadarSVGRenderer(radarFixture()).render()).filter {
      $0.name == "text" && $0.attributes["font-weight"] == "600"
    }
    // The first bold text is the chart's name; then one label per spoke, clockwise from the top.
    let anchors = texts.dropFirst().prefix(8).map { $0.attributes["text-anchor"] ?? "" }
    #expect(anchors == ["middle", "start", "start", "start", "middle", "end", "end", "end"])
  }

  @Test func sparklineDomainEndsAtAsOf() {
    let output = sparklinesFixture()
    let renderer = SparklinesSVGRenderer(output)
    #expect(renderer.xScale(row: 0).domain.end == asOf)
    #expect(renderer.xScale(row: 0).x(asOf) == renderer.plot(row: 0).maxX)
    #expect(renderer.plot(row: 0).width == 100 && renderer.plot(row: 0).height == 30)
  }

  @Test func userStringsAreEscaped() throws {
    let evil = "<script>alert(1)</script>"
    let charts: [ChartDocument] = [
      .user(
        ChartOutput(
          seriesFixture(user: evil, bands: ValueBands(measure: .sessions, levels: [.init(from: 0, label: evil)])))
      ),
      .user(ChartOutput(radarFixture(label: evil))), .user(ChartOutput(sparklinesFixture(exercise: evil))),
      .cohort(.series(cohortFixture(rankedUser: evil)), user: seriesFixture(user: evil)),
      .user(ChartOutput(recordsFixture(exercise: evil))),
    ]
    for chart in charts {
      let svg = SVGRenderer.render(chart)
      #expect(!svg.contains("<script"), "\(chart.name)")
      #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(chart.name)")
      _ = try parseXML(svg)
    }
    let session = Session(key: "k", start: 1_795_900_000, durationSeconds: 3600, name: evil, sets: [])
    let page = HTMLReport.userPage(
      .init(
        user: evil, timeZone: TimeZone(identifier: oslo)!, asOf: asOf, charts: charts, sessions: [session],
        notes: [.init(file: evil + ".csv", line: 2, column: 1, field: evil, reason: evil)]))
    #expect(!page.contains("<script>alert"))
    #expect(page.components(separatedBy: "<script>").count == 2, "only the report's own script")
    let index = HTMLReport.index(
      .init(
        pipeline: evil, asOf: "2026-11-29", charts: charts,
        users: [
          .init(user: evil, ok: false, message: evil, rowsRejected: 0),
          .init(
            user: evil + "2", ok: true, rowsRejected: 0,
            glance: Glance(
              lastSession: "2026-11-27", daysSinceLastSession: 2, weekStreak: 1, sessions: 2, previousSessions: 3,
              records: 0, weekly: [1, 0, 2], lastWeekPartial: true)),
        ]))
    #expect(!index.contains("<script>alert"))
  }

  @Test func sameInputSameBytes() {
    for chart in allCharts { #expect(SVGRenderer.render(chart) == SVGRenderer.render(chart)) }
  }

  @Test func numbersAreWrittenPlainly() {
    #expect(ShownNumber.format(12.5) == "12.5")
    #expect(ShownNumber.format(3.0) == "3")
    #expect(ShownNumber.format(-0.001) == "0")
    #expect(ShownNumber.format(0.00001) == "0")
    #expect(ShownNumber.format(-2.345) == "-2.35")
    #expect(ShownNumber.display(12340) == "12\u{2009}340")
    #expect(ShownNumber.compact(12_500) == "13k")
    #expect(ShownNumber.compact(2_500) == "2.5k")
  }

  /// The digits are written as bytes: leading zeros of a fraction kept, trailing ones dropped,
  /// groups of three only in the whole part, and a number past 2^53 as printf writes it.
  @Test func numbersWrittenAsBytesKeepEveryDigitRule() {
    #expect(ShownNumber.format(0.05) == "0.05")
    #expect(ShownNumber.format(1.10) == "1.1")
    #expect(ShownNumber.format(-0.5, decimals: 0) == "-1")
    #expect(ShownNumber.format(2.5, decimals: 0) == "3")
    #expect(ShownNumber.format(100, decimals: 0) == "100")
    #expect(ShownNumber.format(.infinity) == "0")
    #expect(ShownNumber.format(1e20) == "100000000000000000000")
    #expect(ShownNumber.display(1_234_567.891) == "1\u{2009}234\u{2009}567.9")
    #expect(ShownNumber.display(-12_340.06, decimals: 2) == "-12\u{2009}340.06")
    #expect(ShownNumber.display(999.96) == "1\u{2009}000")
    let thousands = String(repeating: "\u{2009}000", count: 6)
    #expect(ShownNumber.display(-1e20, decimals: 0) == "-100" + thousands)
    #expect(MeasureDisplay.text(3_600, .durationSeconds, .metric) == "60 min")
    #expect(MeasureDisplay.text(12_340, .volumeKg, .metric) == "12\u{2009}340 kg")
    #expect(MeasureDisplay.text(1.5, .sessions, .metric) == "1.5")
  }

  /// Every ring's label is its value: 1.2 needs steps of 0.3 at least, and the round step is
  /// 0.5 (rings 0.5, 1, 1.5, 2), where a domain rounded up from 1.2 to 1.5 put rings at 0.375
  /// and 0.75 and labelled them "0.4" and "0.8".
  @Test func ringScalesLabelTheirRingsExactly() {
    func rings(_ largest: Double) -> [String] { (1...4).map(RingScale(largest: largest).label) }
    #expect(rings(1.2) == ["0.5", "1", "1.5", "2"])
    #expect(rings(0.9) == ["0.25", "0.5", "0.75", "1"])
    #expect(rings(0) == ["0.25", "0.5", "0.75", "1"])
    #expect(rings(-3) == ["0.25", "0.5", "0.75", "1"])
    #expect(rings(.nan) == ["0.25", "0.5", "0.75", "1"])
    #expect(rings(3) == ["1", "2", "3", "4"])
    #expect(rings(0.3) == ["0.1", "0.2", "0.3", "0.4"])
    #expect(rings(7.2) == ["2", "4", "6", "8"])
    #expect(rings(90) == ["25", "50", "75", "100"])
    #expect(rings(0.04) == ["0.01", "0.02", "0.03", "0.04"])
    #expect(RingScale(largest: 9).outer == 10)
  }

  // MARK: Snapshots

  @Test(arguments: [
    ("series", 0), ("radar", 1), ("heatmap", 3), ("cohort-series", 4), ("records", 6), ("streak", 7),
  ])
  func snapshot(name: String, index: Int) throws {
    try assertSnapshot(SVGRenderer.render(allCharts[index]), named: name + ".svg")
  }

  /// A phone's drawing of each kind: the page shows it at 1:1, so its text stays 11 px.
  @Test(arguments: [
    ("series", 0), ("radar", 1), ("sparklines", 2), ("heatmap", 3), ("cohort-series", 4), ("cohort-radar", 5),
    ("records", 6), ("streak", 7),
  ])
  func compactSnapshot(name: String, index: Int) throws {
    try assertSnapshot(SVGRenderer.render(allCharts[index], width: .compact), named: name + "-compact.svg")
  }

  @Test func everyCompactChartIs340Wide() {
    for chart in allCharts {
      let svg = SVGRenderer.render(chart, width: .compact)
      #expect(svg.contains("viewBox=\"0 0 340 "), "\(chart.name)")
      // Its own ids: both drawings are inlined in one page.
      #expect(svg.contains("-n-title\""), "\(chart.name)")
    }
  }
}

/// Compares `text` with `Snapshots/<name>` byte for byte. With `RECORD_SNAPSHOTS=1` it writes
/// the file instead and fails, so a recording run is never mistaken for a passing one.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    .appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    Issue.record("recorded \(name); run again without RECORD_SNAPSHOTS to compare", sourceLocation: sourceLocation)
    return
  }
  guard let data = FileManager.default.contents(atPath: url.path) else {
    Issue.record("no snapshot \(name); record it with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  #expect(
    text == expected, "\(name) differs from its snapshot; re-record with RECORD_SNAPSHOTS=1 if intended",
    sourceLocation: sourceLocation)
}
