import Foundation
import Testing

@testable import TrendlineRender
@testable import TrendlineSchema

/// What a reader sees instead of an empty-looking or misleading chart: empty windows said in
/// words with the last session, weight lines without load said instead of drawn at 0, small
/// changes drawn small, years on long axes, radar periods told apart.
@Suite struct HonestChartTests {
  /// 12 Aug 2026 09:00 UTC.
  let lastSession = Date(epochSeconds: 1_786_525_200)

  func idleSeries() -> SeriesOutput {
    var output = seriesFixture()
    for index in output.buckets.indices {
      output.buckets[index].values = [.sessions: 0, .volumeKg: 0]
      output.buckets[index].trend = [.sessions: 0, .volumeKg: 0]
    }
    output.average = [.sessions: 0, .volumeKg: 0]
    return output.withDerivedFields()
  }

  @Test func anIdleWindowSaysSoAndWhenTheLastSessionWas() throws {
    let svg = SeriesSVGRenderer(idleSeries(), lastSession: lastSession).render()
    let said = try parseXML(svg).filter { $0.attributes["class"] == "tl-empty" }
    #expect(said.count == 2)  // one per panel
    #expect(svg.contains(">No sessions in the month up to 27 Nov 2026 · last session 12 Aug 2026</text>"))
    // Zeros of filled gaps are not drawn as a trend or an average.
    #expect(!svg.contains("tl-trend") && !svg.contains("tl-average"))
    let never = SeriesSVGRenderer(idleSeries()).render()
    #expect(never.contains("· no sessions before</text>"))
  }

  @Test func aWeekWithSessionsIsNotIdle() {
    #expect(!SeriesSVGRenderer(seriesFixture()).render().contains("tl-empty"))
  }

  @Test func emptySparklinesHeatmapAndRadarSayTheirWindow() {
    var lines = sparklinesFixture()
    lines.lines = []
    let sparklines = SparklinesSVGRenderer(lines, lastSession: lastSession).render()
    #expect(sparklines.contains(">No sessions in the 91 days up to 29 Nov 2026</text>"))
    #expect(sparklines.contains(">last session 12 Aug 2026</text>"))
    var heatmap = heatmapFixture()
    for p in heatmap.periods.indices {
      for g in heatmap.periods[p].groups.indices {
        heatmap.periods[p].groups[g].sessions = 0
        heatmap.periods[p].groups[g].intensity = 0
      }
    }
    let count = heatmap.periods.count
    #expect(
      HeatmapSVGRenderer(heatmap, lastSession: lastSession).render().contains(
        ">No sessions in the \(count) week\(count == 1 ? "" : "s") up to 29 Nov 2026</text>"))
    var radar = radarFixture()
    for p in radar.periods.indices {
      radar.periods[p].counts = radar.periods[p].counts.map { _ in 0 }
      radar.periods[p].scale = radar.periods[p].scale.map { _ in 0 }
    }
    #expect(RadarSVGRenderer(radar).render().contains(">No sessions in the 2 months up to 29 Nov 2026</text>"))
  }

  @Test func anAllZeroCohortRadarSaysSo() {
    var cohort = cohortRadarFixture()
    cohort.axes = cohort.axes.map { .init(id: $0.id, label: $0.label, counts: stats(0, 0, 0)) }
    let svg = CohortRadarSVGRenderer(cohort).render()
    #expect(svg.contains(">No sessions in these areas this month so far</text>"))
    #expect(!svg.contains("tl-ring-label"))
  }

  @Test func weightLinesWithoutLoadAreSaidNotDrawnAtZero() throws {
    var output = sparklinesFixture()
    output.lines.append(
      .init(
        exercise: "Pull Up",
        points: [.init(t: Date(epochSeconds: 1_794_000_000), v: 0), .init(t: Date(epochSeconds: 1_795_000_000), v: 0)]))
    let svg = SparklinesSVGRenderer(output).render()
    #expect(svg.contains(">no load recorded · 2 sessions</text>"))
    #expect(!svg.contains(">0 kg</text>"))
    // The other lines are still drawn, each with its latest value.
    #expect(try parseXML(svg).filter { $0.name == "polyline" }.count == 1)
    #expect(svg.contains(">110 kg</text>"))
  }

  @Test func aSmallChangeIsDrawnSmall() {
    let plot = PlotRect(x: 0, y: 0, width: 100, height: 30)
    // 80 → 82.5 kg: a span of at least a fifth of 82.5 (16.5 kg), so 2.5 kg is 26 px × 2.5 / 16.5.
    let y = SparklinesSVGRenderer.yScale([80, 82.5], plot: plot)
    #expect(abs((y.y(80) - y.y(82.5)) - 26 * 2.5 / 16.5) < 1e-9)
    // A range wider than that fills the height, as before.
    let wide = SparklinesSVGRenderer.yScale([40, 100], plot: plot)
    #expect(wide.y(40) == 28 && wide.y(100) == 2)
    // A flat line sits in the middle, zero included.
    #expect(SparklinesSVGRenderer.yScale([50, 50], plot: plot).y(50) == 15)
    #expect(SparklinesSVGRenderer.yScale([0], plot: plot).y(0) == 15)
  }

  @Test func weekAxesNameTheYearWhereItChanges() {
    let utc = TimeZone(identifier: "UTC")!
    // Mondays from 15 Dec 2025 to 12 Jan 2026.
    let starts = (0..<5).map { Date(epochSeconds: 1_765_756_800 + Int64($0) * week) }
    let labels = TimeAxis.ticks(starts: starts, granularity: .week, zone: utc, width: 2000).map(\.label)
    #expect(labels == ["15 Dec 2025", "22 Dec", "29 Dec", "5 Jan 2026", "12 Jan"])
  }

  @Test func aYearOfDaysMarksOnlyItsLabelledDays() {
    let utc = TimeZone(identifier: "UTC")!
    let starts = (0..<365).map { Date(epochSeconds: 1_767_225_600 + Int64($0) * 86_400) }
    let ticks = TimeAxis.ticks(starts: starts, granularity: .day, zone: utc, width: 584)
    #expect(ticks.filter(\.marked).count == ticks.filter { $0.label != nil }.count)
    #expect(ticks.filter(\.marked).count < 20)
  }

  @Test func bandLevelsAreNamedWithTheirRanges() {
    let bands = ValueBands(
      measure: .sessions,
      levels: [
        .init(from: 0, label: "Rest"), .init(from: 1, label: "Light"), .init(from: 3, label: "Regular"),
        .init(from: 5, label: "Heavy"),
      ])
    let renderer = SeriesSVGRenderer(seriesFixture(bands: bands))
    #expect(renderer.bandLegend(bands, measure: .sessions) == "Rest 0 · Light 1–2 · Regular 3–4 · Heavy 5+")
    // No gutter: the plot starts where every other panel's does.
    #expect(renderer.layout.panels.allSatisfy { $0.plot.x == 64 })
  }

  @Test func olderRadarPeriodsAreOneBandAndOnlyTheNewestIsFilled() throws {
    var output = radarFixture()
    let first = output.periods[0]
    output.periods = [first, first, output.periods[0], output.periods[1]]
    let elements = try parseXML(RadarSVGRenderer(output).render())
    #expect(elements.filter { $0.attributes["class"] == "tl-older" }.count == 1)
    let polygons = elements.filter { $0.attributes["class"] == "tl-period" }
    #expect(polygons.map { $0.attributes["fill"] } == ["none", Palette.trend])
  }

  @Test func longRadarLabelsWrapOntoTwoLines() throws {
    let elements = try parseXML(RadarSVGRenderer(radarFixture(label: "Glutes (maximus + minimus)")).render())
    let lines = elements.filter { $0.name == "tspan" }.map { $0.attributes["dy"] }
    #expect(lines == ["0", "13"])
  }
}
