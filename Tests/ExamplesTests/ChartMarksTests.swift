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
    guard case .user(.series(let output)) = try decode(url) else {
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
        case .user(.series): kinds["series", default: 0] += 1
        case .user(.radar): kinds["radar", default: 0] += 1
        case .user(.heatmap): kinds["heatmap", default: 0] += 1
        case .user(.sparklines): kinds["sparklines", default: 0] += 1
        case .user(.records): kinds["records", default: 0] += 1
        case .user(.streak): kinds["streak", default: 0] += 1
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
      guard case .user(.series(let output)) = try decode(url) else { continue }
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

/// A file a test reads as a series that holds another schema.
private struct NotASeries: Error {
  var path: String
}

/// An RFC 3339 instant written in a test.
private func instant(_ text: String) -> Date {
  ISO8601DateFormatter().date(from: text)!
}
