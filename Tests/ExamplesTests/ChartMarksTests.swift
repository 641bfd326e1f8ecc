import Foundation
import Testing
import TrendlineSchema
import _TrendlineTestSupport

@testable import ChartMarksExample

/// `Examples/ChartMarks` against real output: both example pipelines run on SampleData, every
/// file decoded as an app decodes it, and the seed chart's marks built from every series.
@Suite final class ChartMarksTests {
  /// A scratch folder for the runs' output folders, removed when the test ends.
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trendline-examples-\(UUID().uuidString)")
  /// Output folders by pipeline, each run on first use: a test runs only the pipelines it reads.
  var runs: [String: URL] = [:]

  /// The output folder of `Pipelines/<pipeline>.json` on SampleData, as of 1 December 2026.
  func output(_ pipeline: String) throws -> URL {
    if let folder = runs[pipeline] { return folder }
    let folder = scratch.appendingPathComponent(pipeline)
    let result = try runTrendline([
      "run", TestPaths.pipelines.appendingPathComponent("\(pipeline).json").path, "--as-of", "2026-12-01",
      "--output", folder.path, "--quiet",
    ])
    try #require(result.status == 0, "\(pipeline): \(result.stderr)")
    runs[pipeline] = folder
    return folder
  }

  deinit { try? FileManager.default.removeItem(at: scratch) }

  /// Every `*.json` under the runs' `users/` and `cohort/` folders, sorted by path.
  func outputFiles() throws -> [URL] {
    var files: [URL] = []
    for run in [try output("overview"), try output("lifts")] {
      for folder in ["users", "cohort"] {
        let root = run.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
        for case let url as URL in walk where url.pathExtension == "json" {
          files.append(url)
        }
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// A file of `cohort/` decodes as a cohort chart, any other as a user's.
  func decode(_ url: URL) throws -> OutputFile {
    try OutputFile.decode(Data(contentsOf: url), cohort: url.deletingLastPathComponent().lastPathComponent == "cohort")
  }

  /// `users/<user>/<chart>.json` of `pipeline`'s run, a series.
  func series(_ pipeline: String, _ user: String, _ chart: String) throws -> SeriesOutput {
    let url = try output(pipeline).appendingPathComponent("users/\(user)/\(chart).json")
    guard case .user(let chart1) = try decode(url), let output = chart1.content as? SeriesOutput else {
      throw NotASeries(path: url.path)
    }
    return output
  }

  @Test func everyOutputFileDecodesWithAPlainJSONDecoder() throws {
    let files = try outputFiles()
    var kinds: [String: Int] = [:]
    var failures: [String] = []
    for url in files {
      do {
        switch try decode(url) {
        case .user(let chart): kinds[type(of: chart.content).kindName, default: 0] += 1
        case .cohort(.series): kinds["cohort-series", default: 0] += 1
        case .cohort(.radar): kinds["cohort-radar", default: 0] += 1
        }
      } catch {
        failures.append("\(url.path): \(error)")
      }
    }
    #expect(failures == [])
    // 18 users: overview's 4 charts and lifts' 5, and 2 cohort charts each; every schema is there,
    // series 4 times (training-volume, bench-e1rm, leg-sets, records-per-month).
    #expect(files.count == 166)
    #expect(
      kinds == [
        "series": 72, "radar": 18, "heatmap": 18, "sparklines": 18, "records": 18, "streak": 18,
        "cohort-series": 3, "cohort-radar": 1,
      ])
  }

  /// Lena's weekly training volume, checked by hand against her export: 14 weeks from Monday
  /// 31 August to the week of as-of (Tuesday 1 December), which is 2 of its 7 days in. Her
  /// users.csv zone is blank and her export states Europe/Berlin, so her weeks start at
  /// midnight in Berlin (SPEC 11.9): 22:00 UTC in summer time, 23:00 in winter.
  @Test func lenaTrainingVolumeByHand() throws {
    let output = try series("overview", "lena", "training-volume")
    let marks = try #require(SeedChartMarks(output, measure: .volumeKg, labelCount: 5))

    #expect(marks.values.count == 14)
    let first = try #require(marks.values.first)
    #expect(first.id == "2026-08-31")
    // A week is 604 800 s; 0.35 × that is 2 d 10 h 48 min either side of Monday 00:00 in Berlin
    // (30 August 22:00 UTC).
    #expect(first.x == instant("2026-08-30T22:00:00Z"))
    #expect(first.xStart == instant("2026-08-28T11:12:00Z"))
    #expect(first.xEnd == instant("2026-09-02T08:48:00Z"))
    #expect(first.y == 1877.5)
    #expect(
      first.accessibilityLabel
        == "Week of 31 Aug 2026: sessions 1 (trend 1.3) · duration 49 min (trend 81 min) · volume 1\u{2009}878 kg "
        + "(trend 2\u{2009}723 kg)")
    let last = try #require(marks.values.last)
    #expect(last.id == "2026-11-30")
    #expect(last.partial)
    #expect(last.elapsed == 2.0 / 7.0)
    #expect(last.y == 0)
    #expect(marks.values.dropLast().allSatisfy { !$0.partial && $0.elapsed == 1 })

    #expect(marks.now == .init(index: 13, id: "2026-11-30", x: instant("2026-11-29T23:00:00Z")))
    // Half a week (3.5 d) before the first start and after the last.
    #expect(marks.xDomain == instant("2026-08-27T10:00:00Z")...instant("2026-12-03T11:00:00Z"))
    #expect(marks.trend.count == 14)
    #expect(marks.trend.last == .init(id: "2026-11-30", x: instant("2026-11-29T23:00:00Z"), y: 3276.25))
    // The 13 complete weeks: 39 595 kg.
    #expect(marks.average == 3045.769230769231)

    // The largest week is 4 780 kg: 4 steps of 1 000 fall short, 4 of 1 500 reach it.
    #expect(marks.unit == "kg")
    #expect(marks.yDomain == 0...6000)
    #expect(marks.tickValues == [0, 1500, 3000, 4500, 6000])
    #expect(marks.ticks.map(\.label) == ["0", "1\u{2009}500", "3\u{2009}000", "4\u{2009}500", "6\u{2009}000"])
    let three = try #require(SeedChartMarks(output, measure: .volumeKg, labelCount: 3))
    #expect(three.yDomain == 0...5000)
    #expect(three.ticks.map(\.label) == ["0", "2\u{2009}500", "5\u{2009}000"])
    let seven = try #require(SeedChartMarks(output, measure: .volumeKg, labelCount: 7))
    #expect(seven.yDomain == 0...4800)
    #expect(
      seven.ticks.map(\.label) == [
        "0", "800", "1\u{2009}600", "2\u{2009}400", "3\u{2009}200", "4\u{2009}000", "4\u{2009}800",
      ])

    // Seconds placed, minutes printed: the app converts nothing.
    let duration = try #require(SeedChartMarks(output, measure: .durationSeconds, labelCount: 5))
    #expect(duration.unit == "min")
    #expect(duration.tickValues == [0, 2400, 4800, 7200, 9600])
    #expect(duration.ticks.map(\.label) == ["0", "40", "80", "120", "160"])
    // At most 2 sessions a week: the axis reaches the top of the band holding them (Regular,
    // from 3), not the bands above (Heavy, from 5), which left her bars in the bottom quarter.
    let sessions = try #require(SeedChartMarks(output, measure: .sessions, labelCount: 5))
    #expect(sessions.yDomain == 0...4)

    #expect(SeedChartMarks(output, measure: .e1rmKg, labelCount: 5) == nil)
    #expect(SeedChartMarks(output, measure: .volumeKg, labelCount: 6) == nil)
  }

  /// Ethan's monthly bench e1RM, in pounds and New York time: the month under way has no bench
  /// set yet, so it has a trend point and "now" but no point. A best is a line on a fitted axis
  /// with its records ringed (SPEC 11.8).
  @Test func ethanBenchInPoundsByHand() throws {
    let output = try series("lifts", "ethan", "bench-e1rm")
    let marks = try #require(SeedChartMarks(output, measure: .e1rmKg, labelCount: 5))
    #expect(marks.mark == .line)
    #expect(output.buckets.count == 13)
    #expect(marks.values.count == 12)
    #expect(marks.values.allSatisfy { !$0.partial })
    #expect(marks.values.last?.id == "2026-11-01")
    #expect(marks.trend.count == 13)
    #expect(marks.now == .init(index: 12, id: "2026-12-01", x: instant("2026-12-01T05:00:00Z")))
    // The months run 227.5 … 246 lb, widened by 5 % of the span (0.925 lb) each side to
    // 226.575 … 246.925. Five labels: a step of 5 from 225 reaches 245, 6 from 222 reaches 246,
    // both short; 8 from 224 reaches 256. 224 lb = 101.60469088 kg, 256 lb = 116.11964672 kg.
    #expect(marks.unit == "lb")
    #expect(marks.yDomain == 101.60469088...116.11964672)
    #expect(marks.ticks.map(\.label) == ["224", "232", "240", "248", "256"])
    let three = try #require(SeedChartMarks(output, measure: .e1rmKg, labelCount: 3))
    // Three labels: 10 from 220 reaches 240, short; 15 from 225 reaches 255.
    #expect(three.ticks.map(\.label) == ["225", "240", "255"])
    // Before the window (his 2025 export) his best e1RM was 246 lb and his top set 205 lb: no
    // month beats 246 (November equals it, which is no new best); September's 210 lb top set is
    // the one record, and November's 210 is not.
    #expect(marks.values.filter(\.isRecord).map(\.id) == [])
    let top = try #require(SeedChartMarks(output, measure: .topSetKg, labelCount: 5))
    #expect(top.values.filter(\.isRecord).map(\.id) == ["2026-09-01"])
    #expect(output.recordBuckets == [.e1rmKg: [], .topSetKg: [9]])
    #expect(
      marks.values.first?.accessibilityLabel
        == "Dec 2025: e1RM 227.5 lb (trend 227.5 lb) · top set 195 lb (trend 195 lb)")
  }

  /// What holds for every series output, measure and label count: the marks are the fields.
  @Test func everySeriesGivesItsMarksAsWritten() throws {
    var checked = 0
    for url in try outputFiles() {
      guard case .user(let chart2) = try decode(url), let output = chart2.content as? SeriesOutput else { continue }
      let buckets = Dictionary(uniqueKeysWithValues: output.buckets.map { ($0.id, $0) })
      for measure in output.measures {
        for count in YAxis.labelCounts {
          let context = "\(url.lastPathComponent) of \(output.user), \(measure.rawValue), \(count) labels"
          let marks = try #require(SeedChartMarks(output, measure: measure, labelCount: count), "\(context)")
          checked += 1

          // A best is a line on a fitted axis, a total bars from 0 (SPEC 11.8).
          #expect(marks.mark == (measure.isBest ? .line : .bar), "\(context)")
          #expect(marks.values.count == output.buckets.filter { $0.values[measure] != nil }.count, "\(context)")
          let records = Set(output.recordBuckets[measure] ?? [])
          #expect(marks.values.filter(\.isRecord).count == records.count, "\(context)")
          for value in marks.values {
            let bucket = try #require(buckets[value.id], "\(context)")
            #expect(value.y == bucket.values[measure], "\(context)")
            #expect(value.x == bucket.start, "\(context)")
            #expect(value.xStart == bucket.bar.start && value.xEnd == bucket.bar.end, "\(context)")
            #expect(value.partial == bucket.partial && value.elapsed == bucket.elapsed, "\(context)")
            #expect(value.accessibilityLabel == bucket.label && !value.accessibilityLabel.isEmpty, "\(context)")
            #expect(marks.yDomain.contains(value.y), "\(context): value \(value.id)")
            let xDomain = try #require(marks.xDomain, "\(context)")
            #expect(xDomain.contains(value.xStart) && xDomain.contains(value.xEnd), "\(context): value \(value.id)")
          }
          #expect(marks.trend.count == output.buckets.filter { $0.trend?[measure] != nil }.count, "\(context)")
          for point in marks.trend {
            #expect(point.y == buckets[point.id]?.trend?[measure], "\(context)")
            #expect(marks.yDomain.contains(point.y), "\(context): trend \(point.id)")
          }
          #expect(marks.average == output.average[measure], "\(context)")
          if let average = marks.average { #expect(marks.yDomain.contains(average), "\(context)") }

          #expect(marks.ticks.count == count, "\(context)")
          if marks.mark == .bar { #expect(marks.ticks.first == YAxis.Tick(value: 0, label: "0"), "\(context)") }
          #expect(marks.tickValues == marks.tickValues.sorted(), "\(context)")
          #expect(
            marks.yDomain.lowerBound == marks.ticks.first?.value && marks.yDomain.upperBound == marks.ticks.last?.value,
            "\(context)")
          if count == YAxis.defaultLabelCount {
            let domain = try #require(output.yAxis[measure]?.domain)
            #expect(marks.yDomain == domain.min...domain.max, "\(context)")
          }
          // The time axis's labels as the file writes them, at most `count`, each on a bucket.
          let written = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])?["xAxis"]
              as? [String: Any])
          let ticks = try #require((written["ticks"] as? [String: Any])?[String(count)] as? [[String: Any]])
          #expect(ticks.map { $0["label"] as? String } == marks.xTicks.map(\.label), "\(context)")
          #expect(marks.xTicks.count <= count && marks.xTicks.count <= output.buckets.count, "\(context)")
          #expect(marks.xTicks.allSatisfy { tick in output.buckets.contains { $0.start == tick.value } }, "\(context)")
          #expect(marks.now?.index == output.asOfBucket, "\(context)")
          #expect(marks.xDomain == output.domain.map { $0.start...$0.end }, "\(context)")
        }
      }
    }
    // 72 series files: overview's training-volume (3 measures), lifts' bench-e1rm (2),
    // leg-sets (2) and records-per-month (1), 18 users each, 4 label counts.
    #expect(checked == 18 * (3 + 2 + 2 + 1) * 4)
  }
}

extension ChartMarksTests {
  /// `users/<user>/<chart>.json` (or `cohort/<chart>.json` with a nil user) of `pipeline`'s run.
  func file(_ pipeline: String, _ user: String?, _ chart: String) throws -> OutputFile {
    let path = user.map { "users/\($0)/\(chart).json" } ?? "cohort/\(chart).json"
    return try decode(try output(pipeline).appendingPathComponent(path))
  }

  /// Lena's monthly radar: eight spokes 45° apart; at most 6 sessions on an axis (Back, in
  /// November), so five rings need 4 steps of at least 1.5, a whole 2: 0 … 8; three need 2 of
  /// 3: 0 … 6.
  @Test func lenaRadarByHand() throws {
    guard case .user(let chart3) = try file("overview", "lena", "muscle-balance"),
      let output = chart3.content as? RadarOutput
    else {
      throw NotASeries(path: "muscle-balance")
    }
    let marks = try #require(RadarMarks(output, labelCount: 5))
    #expect(marks.spokes.map(\.angle) == [0, 45, 90, 135, 180, 225, 270, 315])
    #expect(marks.spokes.first == .init(id: "back", label: "Back", angle: 0))
    #expect(marks.rings.map(\.label) == ["0", "2", "4", "6", "8"])
    #expect(marks.radialDomain == 0...8)
    #expect(try #require(RadarMarks(output, labelCount: 3)).rings.map(\.value) == [0, 3, 6])
    #expect(marks.polygons.map(\.id) == ["2026-11-01", "2026-12-01"])
    #expect(marks.polygons[0].counts == [6, 4, 2, 4, 2, 4, 4, 4])
    #expect(
      marks.polygons[0].accessibilityLabel
        == "Nov 2026: Back 6, Glutes 4, Hamstrings 2, Quadriceps 4, Biceps 2, Triceps 4, Shoulders 4, Chest 4")
    #expect(marks.polygons[1].partial)
  }

  /// Lena's weekly heat map: one session a week at most per group, and none yet in the week of
  /// as-of, so the body figure opens on the week of 23 November.
  @Test func lenaHeatmapByHand() throws {
    guard case .user(let chart4) = try file("overview", "lena", "muscle-heatmap"),
      let output = chart4.content as? HeatmapOutput
    else {
      throw NotASeries(path: "muscle-heatmap")
    }
    let marks = HeatmapMarks(output)
    #expect(marks.largest == 1)
    #expect(marks.shownPeriod == "2026-11-23")
    #expect(
      marks.periods.last
        == .init(id: "2026-11-30", partial: true, accessibilityLabel: "Week of 30 Nov 2026 (so far): nothing trained"))
    #expect(marks.cells.filter { $0.period == "2026-11-23" && $0.sessions > 0 }.allSatisfy { $0.intensity == 1 })
  }

  /// Lena's top sets over 91 days, in kilograms: a plank and pull-ups carry no load and are said,
  /// not drawn; bench press 45 … 50 kg spans 5, less than a fifth of 50 (10), so 10 about 47.5.
  @Test func lenaSparklinesByHand() throws {
    guard case .user(let chart5) = try file("overview", "lena", "exercise-trends"),
      let output = chart5.content as? SparklinesOutput
    else {
      throw NotASeries(path: "exercise-trends")
    }
    let marks = SparklineMarks(output)
    let bench = try #require(marks.lines.first { $0.exercise == "Bench Press (Barbell)" })
    #expect(bench.yDomain == 42.5...52.5)
    #expect(bench.points.count == 12)
    #expect(bench.latestLabel == "45 kg")
    #expect(bench.accessibilityLabel == "Bench Press (Barbell): latest 45 kg, 12 sessions in the window")
    // 95 … 97.5 kg: a fifth of 97.5 is 19.5, about the middle 96.25.
    #expect(marks.lines.first { $0.exercise == "Deadlift (Barbell)" }?.yDomain == 86.5...106)
    #expect(marks.lines.filter(\.noLoad).map(\.exercise) == ["Plank", "Pull Up"])
    let plank = try #require(marks.lines.first { $0.exercise == "Plank" })
    #expect(plank.points.isEmpty && plank.yDomain == nil && plank.latestLabel == nil)
    #expect(plank.accessibilityLabel == "Plank: no load recorded, 6 sessions in the window")
  }

  /// Lena's records and her streak of two sessions a week.
  @Test func lenaRecordsAndStreakByHand() throws {
    guard case .user(let chart6) = try file("lifts", "lena", "big-three-records"),
      let records = chart6.content as? RecordsOutput,
      case .user(let chart7) = try file("lifts", "lena", "twice-a-week"), let streak = chart7.content as? StreakOutput
    else { throw NotASeries(path: "big-three-records") }
    let rows = RecordsMarks(records).rows
    #expect(rows.map(\.exercise) == ["Bench Press (Barbell)", "Deadlift (Barbell)", "Squat (Barbell)"])
    #expect(
      rows[1].accessibilityLabel
        == "Deadlift (Barbell): top set 97.5 kg on 22 Jun 2026 · e1RM 117 kg on 22 Jun 2026 · 6 records")
    #expect(
      rows[1].records.first?.accessibilityLabel == "Deadlift (Barbell): 6 reps at 90 kg on 29 Dec 2025, up from 5")

    let marks = StreakMarks(streak)
    // 13 of 26 complete weeks met: 50 %; the longest run is 3 weeks from 15 June.
    #expect(
      marks.accessibilityLabel
        == "Weeks with at least 2 sessions: current 0 weeks · longest 3 · 50 % of 26 complete weeks met")
    #expect(
      marks.squares.suffix(3).map(\.accessibilityLabel) == [
        "16 Nov 2026: 2, met", "23 Nov 2026: 1, missed", "30 Nov 2026: 0 so far",
      ])
    #expect(marks.squares.last?.partial == true && marks.squares.last?.met == false)
  }

  /// Ethan's weeks start on Sunday (New York): his week of Sunday 29 November joins the cohort
  /// row of Monday 23 November, the Monday week holding its start, and is drawn at that row.
  @Test func ethanOverTheCohortByHand() throws {
    guard case .cohort(.series(let cohort)) = try file("lifts", nil, "leg-sets"),
      case .user(let chart8) = try file("lifts", "ethan", "leg-sets"), let ethan = chart8.content as? SeriesOutput
    else { throw NotASeries(path: "leg-sets") }
    let marks = try #require(CohortSeriesMarks(cohort, user: ethan, measure: .sets, labelCount: 5))
    #expect(
      marks.user.suffix(2) == [
        .init(id: "2026-11-22", row: "2026-11-16", x: instant("2026-11-16T00:00:00Z"), y: 2),
        .init(id: "2026-11-29", row: "2026-11-23", x: instant("2026-11-23T00:00:00Z"), y: 0),
      ])
    #expect(marks.rows.last?.id == "2026-11-30")
  }

  /// What holds for every output of every kind: the marks are the fields.
  @Test func everyKindGivesItsMarksAsWritten() throws {
    var checked: [String: Int] = [:]
    var cohorts: [String: CohortSeriesOutput] = [:]
    var compared: [(String, SeriesOutput)] = []
    for url in try outputFiles() {
      let context = url.path
      switch try decode(url).content {
      case let output as RadarOutput:
        checked["radar", default: 0] += 1
        #expect(output.axisAngles.count == output.axes.count, "\(context)")
        for count in YAxis.labelCounts {
          let marks = try #require(RadarMarks(output, labelCount: count), "\(context)")
          #expect(marks.rings.count == count && marks.rings.first?.value == 0, "\(context)")
          // Every vertex is inside the outer ring.
          #expect(output.periods.allSatisfy { $0.counts.allSatisfy { Double($0) <= marks.radialDomain.upperBound } })
          #expect(marks.polygons.map(\.accessibilityLabel) == output.periods.map(\.label), "\(context)")
          #expect(marks.polygons.allSatisfy { !$0.accessibilityLabel.isEmpty }, "\(context)")
          #expect(marks.spokes.map(\.id) == output.axes.map(\.id), "\(context)")
        }
      case let output as HeatmapOutput:
        checked["heatmap", default: 0] += 1
        let marks = HeatmapMarks(output)
        #expect(marks.cells.count == output.periods.reduce(0) { $0 + $1.groups.count }, "\(context)")
        #expect(marks.cells.allSatisfy { $0.sessions <= marks.largest }, "\(context)")
        #expect(marks.cells.contains { $0.sessions == marks.largest } || output.periods.isEmpty, "\(context)")
        #expect(marks.shownPeriod != nil || output.periods.isEmpty, "\(context)")
        #expect(marks.periods.allSatisfy { !$0.accessibilityLabel.isEmpty }, "\(context)")
      case let output as SparklinesOutput:
        checked["sparklines", default: 0] += 1
        let marks = SparklineMarks(output)
        for (line, written) in zip(marks.lines, output.lines) {
          #expect(line.noLoad == (written.yDomain == nil) && line.noLoad == (line.latestLabel == nil), "\(context)")
          #expect(line.accessibilityLabel == written.label && !line.accessibilityLabel.isEmpty, "\(context)")
          guard let domain = line.yDomain else { continue }
          #expect(line.points.allSatisfy { domain.contains($0.y) && marks.xDomain.contains($0.x) }, "\(context)")
        }
      case let output as RecordsOutput:
        checked["records", default: 0] += 1
        let marks = RecordsMarks(output)
        #expect(marks.rows.map(\.accessibilityLabel) == output.exercises.map(\.label), "\(context)")
        #expect(
          marks.rows.flatMap(\.records).map(\.accessibilityLabel)
            == output.exercises.flatMap { $0.records.map(\.label) }, "\(context)")
        #expect(marks.rows.flatMap(\.records).allSatisfy { !$0.accessibilityLabel.isEmpty }, "\(context)")
      case let output as StreakOutput:
        checked["streak", default: 0] += 1
        let marks = StreakMarks(output)
        #expect(marks.squares.map(\.accessibilityLabel) == output.periods.map(\.label), "\(context)")
        #expect(marks.accessibilityLabel == output.label && !output.label.isEmpty, "\(context)")
      case let output as SeriesOutput:
        if output.cohortRank != nil {
          compared.append(
            (
              url.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().lastPathComponent + "/" + output.chart, output
            ))
        }
      case let output as CohortSeriesOutput:
        let run = url.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        cohorts[run + "/" + output.chart] = output
      case let output as CohortRadarOutput:
        checked["cohort-radar", default: 0] += 1
        for count in YAxis.labelCounts {
          let marks = try #require(CohortRadarMarks(output, labelCount: count), "\(context)")
          #expect(marks.spokes.map(\.angle) == output.axisAngles, "\(context)")
          #expect(marks.rings.count == count && marks.radialDomain.lowerBound == 0, "\(context)")
          // Every vertex is inside the rings, and every spoke says something.
          #expect(marks.spokes.allSatisfy { marks.radialDomain.contains($0.median) }, "\(context)")
          #expect(
            marks.spokes.allSatisfy { ($0.middleHalf?.upperBound ?? 0) <= marks.radialDomain.upperBound },
            "\(context)")
          #expect(marks.spokes.allSatisfy { !$0.accessibilityLabel.isEmpty }, "\(context)")
        }
      default:
        // A kind an example pipeline writes that no case here checks: give it its marks.
        Issue.record("\(context): a kind of output this test does not check")
      }
    }
    // A compared user's every bucket names a row of the cohort's file, or none where it has none.
    for (key, user) in compared {
      let cohort = try #require(cohorts[key], "\(key)")
      let rows = try #require(user.cohortRows, "\(key) of \(user.user)")
      #expect(rows.count == user.buckets.count, "\(key) of \(user.user)")
      let dates = Set(cohort.buckets.map(\.date))
      #expect(rows.allSatisfy { $0.map(dates.contains) ?? true }, "\(key) of \(user.user)")
      for measure in user.measures {
        for count in YAxis.labelCounts {
          let marks = try #require(CohortSeriesMarks(cohort, user: user, measure: measure, labelCount: count))
          #expect(
            marks.user.count == zip(user.buckets, rows).filter { $0.values[measure] != nil && $1 != nil }.count,
            "\(key) of \(user.user)")
          #expect(marks.user.allSatisfy { marks.yDomain.contains($0.y) }, "\(key) of \(user.user)")
        }
      }
      checked["compared", default: 0] += 1
    }
    #expect(
      checked == [
        "radar": 18, "heatmap": 18, "sparklines": 18, "records": 18, "streak": 18, "compared": 18 * 3,
        "cohort-radar": 1,
      ])
  }
}

/// A file a test reads as a series that holds another schema.
private struct NotASeries: Error {
  var path: String
}

/// An RFC 3339 instant written in a test.
private func instant(_ text: String) -> Date {
  ISO8601DateFormatter().date(from: text)!
}

extension OutputFile {
  /// The output the file holds, of whichever type its schema names.
  var content: Any {
    switch self {
    case .user(let chart): return chart.content
    case .cohort(.series(let output)): return output
    case .cohort(.radar(let output)): return output
    }
  }
}
