import Foundation
import Testing
import TrendlineSchema

@testable import TrendlineRender

/// The report's drawing techniques beyond bars and lines: the "now" rule with the past dimmed,
/// the cohort's min–max range with its mean, the radar's breakdown as grouped bars, the heat
/// map on a body, and a screen reader's text per mark. Expected values are worked out by hand
/// from the fixtures in SVGRendererTests.swift.
@Suite struct ChartTechniquesTests {
  /// The value of `attribute` on the first element that has `marker` in its opening tag.
  func attribute(_ attribute: String, of marker: String, in svg: String) -> String? {
    guard let at = svg.range(of: marker) else { return nil }
    let tagStart = svg[..<at.lowerBound].lastIndex(of: "<") ?? svg.startIndex
    let tag = svg[tagStart...].prefix { $0 != ">" }
    guard let key = tag.range(of: " " + attribute + "=\"") else { return nil }
    return String(tag[key.upperBound...].prefix { $0 != "\"" })
  }

  func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

  // MARK: Now

  /// The domain runs from 1 793 876 400 (9 Nov − 3.5 days) to 1 795 690 800 (23 Nov + 3.5 days),
  /// 1 814 400 s over the plot's 584 px (64 … 648). The as-of bucket starts 23 Nov, 1 795 388 400:
  /// 1 512 000 s in, five sixths across, so "now" is at 64 + 486.67 = 550.67. Only the part of
  /// that week already passed is washed, as a forecast dims only the hours of today gone: its
  /// bar starts 211 680 s before 23 Nov (1 300 320 s into the domain, x = 64 + 418.53 = 482.53)
  /// and is 423 360 s (136.27 px) wide, 5 of 7 days elapsed: 97.33 px.
  @Test func nowRuleIsAtTheAsOfBucketWithThePartOfItsWeekPassedWashed() throws {
    let svg = SeriesSVGRenderer(seriesFixture()).render()
    #expect(attribute("x1", of: "class=\"tl-now\"", in: svg) == "550.67")
    #expect(count("class=\"tl-now\"", in: svg) == 2)  // one per panel
    #expect(attribute("x", of: "class=\"tl-past\"", in: svg) == "482.53")
    #expect(attribute("width", of: "class=\"tl-past\"", in: svg) == "97.33")
    // A finished as-of bucket has nothing "so far" to wash.
    var finished = seriesFixture()
    finished.buckets[2].partial = false
    finished.buckets[2].elapsed = 1
    #expect(!SeriesSVGRenderer(finished).render().contains("tl-past"))
    // The point is on the trend at as-of: sessions 1.5, in the trend's colour.
    let layout = SeriesSVGRenderer(seriesFixture()).layout
    let sessions = try #require(layout.panels.first)
    #expect(attribute("cy", of: "class=\"tl-now-point\"", in: svg) == ShownNumber.format(sessions.y.y(1.5)))
    #expect(attribute("fill", of: "class=\"tl-now-point\"", in: svg) == "#D55E00")
  }

  @Test func nowPointTakesTheClosestValueWhereAsOfHasNone() {
    var noTrendAtAsOf = seriesFixture()
    noTrendAtAsOf.buckets[2].trend = [:]
    let renderer = SeriesSVGRenderer(noTrendAtAsOf)
    // The week before's trend, 1.67 sessions.
    #expect(renderer.nowValue(.sessions, at: 2)?.value == 1.67)
    #expect(renderer.nowValue(.sessions, at: 2)?.isTrend == true)
    var noTrend = seriesFixture()
    for index in noTrend.buckets.indices { noTrend.buckets[index].trend = nil }
    // Without a trend, the as-of bucket's own value: 3 sessions, in the bars' blue.
    #expect(SeriesSVGRenderer(noTrend).nowValue(.sessions, at: 2)?.value == 3)
    #expect(attribute("fill", of: "class=\"tl-now-point\"", in: SeriesSVGRenderer(noTrend).render()) == "#0072B2")
    var unknown = seriesFixture()
    for index in unknown.buckets.indices {
      unknown.buckets[index].trend = nil
      unknown.buckets[index].values[.sessions] = nil
    }
    #expect(SeriesSVGRenderer(unknown).nowValue(.sessions, at: 2) == nil)
  }

  @Test func anIdleWindowHasNoNowMarks() {
    var idle = seriesFixture()
    for index in idle.buckets.indices {
      idle.buckets[index].sessions = 0
      idle.buckets[index].values = [.sessions: 0, .volumeKg: 0]
    }
    let svg = SeriesSVGRenderer(idle).render()
    #expect(!svg.contains("tl-now"))
    #expect(!svg.contains("tl-past"))
    #expect(svg.contains("No sessions in the month up to 27 Nov 2026"))
  }

  // MARK: Range with an average

  /// Each row of the fixture has min = p25 − 1, max = p75 + 1 and mean = p50: the first row
  /// 0 … 4 with mean 2.
  @Test func cohortDrawsMinToMaxWithTheMeanAndSaysThem() {
    let svg = CohortSeriesSVGRenderer(cohortFixture()).render()
    let range = attribute("points", of: "class=\"tl-range\"", in: svg)?.split(separator: " ") ?? []
    #expect(range.count == 6)  // three rows up, three back
    let mean = attribute("points", of: "class=\"tl-mean\"", in: svg)?.split(separator: " ") ?? []
    #expect(mean.count == 3)
    #expect(svg.contains("median 2 (1–3), mean 2, min–max 0–4"))
    #expect(svg.contains(">min–max</text>"))
    // The range is under the middle half: drawn first.
    #expect((svg.range(of: "tl-range")?.lowerBound)! < (svg.range(of: "tl-iqr")?.lowerBound)!)
  }

  // MARK: Grouped bars

  /// Largest count 4 (Back in October); the regular plot is 720 − 150 − 40 = 530 px, so 4 is
  /// 530 px, November's 2 is 265 and Hamstrings' October 0 is no bar at all.
  @Test func areaBarsAreGroupedByAreaOnOneLengthScale() {
    let svg = AreaBarsSVGRenderer(radarFixture()).render()
    #expect(attribute("width", of: "aria-label=\"Back, Oct 2026: 4 sessions\"", in: svg) == "530")
    #expect(attribute("width", of: "aria-label=\"Back, Nov 2026 (so far): 2 sessions\"", in: svg) == "265")
    #expect(attribute("width", of: "aria-label=\"Hamstrings, Oct 2026: 0 sessions\"", in: svg) == "0")
    #expect(attribute("fill", of: "aria-label=\"Back, Nov 2026 (so far)", in: svg) == "#0072B2")
    #expect(attribute("fill", of: "aria-label=\"Back, Oct 2026", in: svg) == "#9CC3E4")
    // Eight areas × two periods.
    #expect(count("role=\"img\"", in: svg) == 16)
  }

  @Test func areaBarsDrawTheNewestThreePeriods() {
    var radar = radarFixture()
    let october = radar.periods[0]
    radar.periods = [october, october, october, radar.periods[1]]
    let svg = AreaBarsSVGRenderer(radar, width: .compact).render()
    #expect(count("aria-label=\"Back, ", in: svg) == 3)
    #expect(attribute("fill", of: "aria-label=\"Back, Oct 2026", in: svg) == "#8C959F")
    #expect(svg.contains("viewBox=\"0 0 340 "))
  }

  // MARK: Body

  /// The newest week has Chest at intensity 0.5: halfway from #F6F8FA to #08306B is
  /// (127, 148, 178.5 → 179) = #7F94B3, on both sides of the front figure.
  @Test func bodyFigureShadesEachGroupsRegionsForThePeriodShown() {
    let svg = BodyFigureSVGRenderer(heatmapFixture()).render()
    let periods = svg.components(separatedBy: "class=\"tl-body-period\"")
    #expect(periods.count == 3)
    // The older week is drawn but hidden; the newest is shown.
    #expect(periods[1].hasPrefix(" data-period=\"2026-11-16\" display=\"none\""))
    #expect(periods[2].hasPrefix(" data-period=\"2026-11-23\">"))
    // Chest and biceps, two sides each; the legend after the figure has a swatch of its own.
    let shown = periods[2].components(separatedBy: ">Sessions</text>")[0]
    #expect(count("fill=\"#7F94B3\"", in: shown) == 4)
    #expect(periods[2].contains("aria-label=\"Chest, Week of 23 Nov 2026 (so far): 1 session\""))
    #expect(periods[1].contains("aria-label=\"Chest, Week of 16 Nov 2026: 2 sessions\""))
    #expect(!svg.contains("Not on the figure"))
  }

  /// On 1 December the month so far has no session yet: the figure opens on the newest period
  /// that has one, and its button is the pressed one, so the first look is not a blank body.
  @Test func bodyFigureOpensOnTheNewestPeriodWithASession() {
    var heatmap = heatmapFixture()
    for g in heatmap.periods[1].groups.indices {
      heatmap.periods[1].groups[g].sessions = 0
      heatmap.periods[1].groups[g].intensity = 0
    }
    let figure = BodyFigureSVGRenderer(heatmap)
    #expect(figure.shownPeriod == 0)
    let svg = figure.render()
    #expect(svg.contains("data-period=\"2026-11-16\">"))
    #expect(svg.contains("data-period=\"2026-11-23\" display=\"none\""))
    #expect(svg.contains("Week of 16 Nov 2026: Chest 2."))
    let page = HTMLReport.userPage(
      .init(
        user: "ingrid", timeZone: TimeZone(identifier: oslo)!, asOf: asOf, charts: [.user(ChartOutput(heatmap))],
        sessions: [], notes: []))
    #expect(page.contains("data-period=\"2026-11-16\" aria-pressed=\"true\""))
    #expect(page.contains("data-period=\"2026-11-23\" aria-pressed=\"false\""))
  }

  @Test func groupsTheFigureHasNoPlaceForAreListedWithTheirCounts() {
    var heatmap = heatmapFixture()
    for index in heatmap.periods.indices {
      heatmap.periods[index].groups.append(.init(id: 20, name: "Cardiovascular system", sessions: index, intensity: 0))
    }
    let svg = BodyFigureSVGRenderer(heatmap).render()
    #expect(svg.contains(">Not on the figure: Cardiovascular system 1</text>"))
    // Found by name, case and spaces aside, whatever the id.
    #expect(BodyFigureSVGRenderer.regions(of: " CHEST ")?.count == 1)
    #expect(BodyFigureSVGRenderer.regions(of: "Full body") == nil)
  }

  @Test func bodyFigureOfNoSessionsSaysSo() {
    var heatmap = heatmapFixture()
    for p in heatmap.periods.indices {
      for g in heatmap.periods[p].groups.indices {
        heatmap.periods[p].groups[g].sessions = 0
        heatmap.periods[p].groups[g].intensity = 0
      }
    }
    let svg = BodyFigureSVGRenderer(heatmap, lastSession: Date(epochSeconds: 1_789_000_000)).render()
    #expect(svg.contains("No sessions in the 2 weeks up to 29 Nov 2026"))
    #expect(svg.contains("last session 10 Sep 2026"))
  }

  @Test func reportDrawsTheBodyBeforeTheGridWithAButtonPerPeriod() {
    let page = HTMLReport.userPage(
      .init(
        user: "ingrid", timeZone: TimeZone(identifier: oslo)!, asOf: asOf,
        charts: [.user(ChartOutput(heatmapFixture())), .user(ChartOutput(radarFixture()))], sessions: [], notes: []))
    let body = try! #require(page.range(of: "class=\"tl-chart tl-body\""))
    let grid = try! #require(page.range(of: "class=\"tl-chart tl-heatmap\""))
    #expect(body.lowerBound < grid.lowerBound)
    #expect(page.contains("<button type=\"button\" data-period=\"2026-11-16\" aria-pressed=\"false\">16 Nov</button>"))
    #expect(
      page.contains("<button type=\"button\" data-period=\"2026-11-23\" aria-pressed=\"true\">23 Nov (so far)</button>")
    )
    // The radar is followed by its grouped bars, wide and narrow.
    #expect(count("class=\"tl-chart tl-area-bars\"", in: page) == 2)
  }

  // MARK: Screen readers

  @Test func everyChartIsADocumentWhoseMarksSayTheirValues() {
    for chart in allCharts {
      let svg = SVGRenderer.render(chart)
      #expect(svg.contains("role=\"graphics-document document\""), "\(chart.name)")
      #expect(!svg.contains("role=\"img\" aria-label=\"\""), "\(chart.name)")
    }
    let series = SVGRenderer.render(allCharts[0])
    #expect(series.contains("aria-label=\"Week of 23 Nov 2026 (so far): sessions 3\""))
    #expect(series.contains("aria-label=\"Week of 9 Nov 2026: volume 4\u{2009}000 kg\""))
    let heatmap = SVGRenderer.render(.user(ChartOutput(heatmapFixture())))
    #expect(heatmap.contains("aria-label=\"Biceps, Week of 16 Nov 2026: 0 sessions\""))
    let radar = SVGRenderer.render(.user(ChartOutput(radarFixture())))
    #expect(
      radar.contains(
        "aria-label=\"Nov 2026 (so far): Back 2, Glutes 2, Hamstrings 1, Quadriceps 1, Biceps 0, Triceps 0, "
          + "Shoulders 2, Chest 2\""))
  }

  /// A plank's top set is no load recorded: unknown, a dash in the table, never "0 kg".
  @Test func unloadedSparklineRowsAreDashesInTheTable() {
    var output = sparklinesFixture()
    output.lines.append(.init(exercise: "Plank", points: [.init(t: Date(epochSeconds: 1_795_000_000), v: 0)]))
    let page = HTMLReport.userPage(
      .init(
        user: "ingrid", timeZone: TimeZone(identifier: oslo)!, asOf: asOf, charts: [.user(ChartOutput(output))],
        sessions: [], notes: []))
    #expect(page.contains("<th scope=\"row\">Plank</th><td>1</td><td>–</td><td>–</td><td>–</td>"))
    #expect(!page.contains("<td>0 kg</td>"))
  }
}
