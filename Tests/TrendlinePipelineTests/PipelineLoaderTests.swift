import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema
import TrendlineStages
import TrendlineSupport
import _TrendlineTestSupport

@testable import TrendlinePipeline

/// A scratch folder holding one pipeline file, written under the name `broken.json` and loaded
/// through a URL relative to the folder, so diagnostics name it `broken.json` on every machine.
struct Scratch {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-pipeline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Writes `text` with `CATALOG` replaced by the sample catalog's absolute path and loads it.
  static let catalogPath = TestPaths.catalogFile.path

  func load(_ text: String, name: String = "broken.json") throws -> Result<Pipeline, PipelineErrors> {
    try Data(text.replacingOccurrences(of: "CATALOG", with: Self.catalogPath).utf8)
      .write(to: folder.appendingPathComponent(name))
    let directory = URL(fileURLWithPath: folder.path, isDirectory: true)
    return PipelineLoader.load(URL(fileURLWithPath: name, relativeTo: directory))
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Removes the markers 1️⃣ to 4️⃣ from `text` and returns where each stood, as `broken.json:L:C`
/// (byte columns, as diagnostics count them).
func markers(_ text: String) -> (text: String, places: [String: String]) {
  var places: [String: String] = [:]
  var output = ""
  var line = 1
  var column = 1
  for character in text {
    if ["1️⃣", "2️⃣", "3️⃣", "4️⃣"].contains(character) {
      places[String(character)] = "broken.json:\(line):\(column)"
      continue
    }
    output.append(character)
    if character == "\n" {
      line += 1
      column = 1
    } else {
      column += character.utf8.count
    }
  }
  return (output, places)
}

@Suite struct PipelineLoaderTests {
  // MARK: The shipped pipelines

  @Test func everyShippedPipelineLoads() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.pipelines.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(names == ["last-month-days.json", "lifts.json", "mapped-csv.json", "overview.json", "year-in-months.json"])
    for name in names {
      let result = PipelineLoader.load(TestPaths.pipelines.appendingPathComponent(name))
      if case .failure(let errors) = result { Issue.record("\(name):\n\(errors)") }
    }
  }

  @Test func overviewIsTheSpecExampleCompleted() throws {
    let url = TestPaths.pipelines.appendingPathComponent("overview.json")
    let pipeline = try PipelineLoader.load(url).get()
    #expect(pipeline.name == "overview")
    #expect(pipeline.contentHash == SHA256.hex(try TestPaths.bytes(url)))
    #expect(pipeline.source.input == TestPaths.sampleData.appendingPathComponent("exports").standardizedFileURL)
    #expect(pipeline.source.catalogFile == nil)  // the built-in catalog
    #expect(pipeline.source.catalog == Catalog.builtIn)
    #expect(pipeline.source.catalog.muscleGroups.count == 27)
    #expect(pipeline.charts.map(\.name) == ["training-volume", "muscle-balance", "exercise-trends", "muscle-heatmap"])
    #expect(
      pipeline.charts[0]
        == Chart(
          name: "training-volume",
          stages: [
            Bucket(range: .threeMonths, granularity: .auto, measures: [.sessions, .durationSeconds, .volumeKg]),
            FillGaps(with: .zero), Smooth(method: .centeredMean, window: 5),
            ValueBands(
              measure: .sessions,
              levels: [
                .init(from: 0, label: "Rest"), .init(from: 1, label: "Light"), .init(from: 3, label: "Regular"),
                .init(from: 5, label: "Heavy"),
              ]),
          ]))
    guard let radar = pipeline.charts[1].radar else {
      Issue.record("muscle-balance is not a radar")
      return
    }
    #expect(
      radar.axes.map(\.id) == ["back", "glutes", "hamstrings", "quadriceps", "biceps", "triceps", "shoulders", "chest"])
    #expect(
      radar.axes.map(\.muscleGroupIds) == [[9, 12, 13, 24, 26], [14, 22], [10], [8], [3], [4], [1, 23, 25], [2]])
    #expect(radar.excluded == [5, 6, 7, 11, 15, 16, 17, 18, 19, 20, 21, 27])
    #expect(
      pipeline.charts[2] == Chart(name: "exercise-trends", stages: [Sparkline(windowDays: 91, value: .topSetKg)]))
    #expect(pipeline.charts[3] == Chart(name: "muscle-heatmap", stages: [Heatmap(period: .week, periods: 4)]))
    #expect(
      pipeline.compare
        == Pipeline.Compare(
          charts: ["training-volume", "muscle-balance"], quantiles: [0.25, 0.5, 0.75, 0.9], rankMeasure: .volumeKg,
          rankTop: 10))
    #expect(pipeline.output.formats == [.json, .svg, .html])
    #expect(
      pipeline.charts[0].bands
        == ValueBands(
          measure: .sessions,
          levels: [
            .init(from: 0, label: "Rest"), .init(from: 1, label: "Light"), .init(from: 3, label: "Regular"),
            .init(from: 5, label: "Heavy"),
          ]))
  }

  @Test func mappedCSVPipelineCarriesItsLayout() throws {
    let pipeline = try PipelineLoader.load(TestPaths.pipelines.appendingPathComponent("mapped-csv.json")).get()
    #expect(pipeline.source.format == .fixed(.mappedCSV))
    #expect(pipeline.source.input == TestPaths.sampleData.appendingPathComponent("mapped").standardizedFileURL)
    #expect(
      pipeline.source.csv
        == MappedCSVLayout(
          columns: .init(start: "day", exercise: "lift", session: "session", weight: "kg", reps: "reps"),
          delimiter: ";", decimalSeparator: ",", dateFormat: "dd.MM.yyyy HH:mm"))
    #expect(pipeline.source.defaults.read.timeZone == TimeZone(identifier: "Europe/Vienna"))
  }

  // MARK: Defaults

  /// The smallest pipeline equals the one built by hand from every documented default.
  @Test func minimalPipelineTakesEveryDefault() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let text = """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """
    let pipeline = try scratch.load(text, name: "minimal.json").get()
    let file = scratch.folder.appendingPathComponent("minimal.json").standardizedFileURL
    let catalogFile = TestPaths.catalogFile.standardizedFileURL
    let catalog = try JSONDecoder().decode(Catalog.self, from: Data(try TestPaths.bytes(catalogFile)))
    let expected = Pipeline(
      version: 1, name: "minimal", file: file, contentHash: SHA256.hex(try TestPaths.bytes(file)),
      source: Pipeline.Source(
        input: scratch.folder.appendingPathComponent("in").standardizedFileURL, catalogFile: catalogFile,
        catalog: catalog, format: .auto,
        defaults: UserSettings(read: ReadSettings(timeZone: TimeZone(identifier: "UTC")!), firstWeekday: .monday),
        warmupSets: .exclude, csv: nil, users: nil),
      charts: [
        Chart(name: "volume", stages: [Bucket(range: .threeMonths, measures: [.sessions])])
      ],
      compare: nil, output: Pipeline.Output(formats: [.json]))
    #expect(pipeline == expected)
  }

  @Test func emptyStageObjectsTakeTheStageDefaults() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let text = """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {
         "volume": [{"bucket": {"range": "1y", "measures": ["sets"]}}, {"fillGaps": {}}, {"smooth": {}}],
         "lifts": [{"sparkline": {"value": "reps"}}]},
       "compare": {"charts": ["volume"]}}
      """
    let pipeline = try scratch.load(text).get()
    #expect(
      pipeline.charts == [
        Chart(
          name: "volume",
          stages: [
            Bucket(range: .oneYear, measures: [.sets]), FillGaps(with: .zero),
            Smooth(method: .centeredMean, window: 5),
          ]),
        Chart(name: "lifts", stages: [Sparkline(windowDays: 91, value: .reps)]),
      ])
    #expect(
      pipeline.compare
        == Pipeline.Compare(charts: ["volume"], quantiles: [0.25, 0.5, 0.75, 0.9], rankMeasure: nil, rankTop: 10))
  }

  /// The number of charts is bounded only by the file's size (1 MiB: 15,291 charts of one short
  /// bucket stage). Each name is checked against the others by one look-up, not a scan of them
  /// all, so a file naming thousands of charts and comparing them all loads in one pass.
  @Test func thousandsOfComparedChartsLoad() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let names = (0..<5000).map { "volume-\($0)" }
    let charts = names.map { "\"\($0)\": [{\"bucket\": {\"range\": \"3m\", \"measures\": [\"sessions\"]}}]" }
    let text = """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {\(charts.joined(separator: ",\n"))},
       "compare": {"charts": [\(names.map { "\"\($0)\"" }.joined(separator: ", "))]}}
      """
    let pipeline = try scratch.load(text).get()
    #expect(pipeline.charts.map(\.name) == names)
    #expect(pipeline.compare?.charts == names)
    #expect(CohortGatherer(pipeline: pipeline).series.keys.sorted() == names.sorted())
  }

  @Test func bandsLabelASeries() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let text = """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [
         {"bucket": {"range": "3m", "measures": ["sessions", "volumeKg"]}}, {"fillGaps": {}},
         {"bands": {"measure": "sessions", "levels": [[0, "Rest"], [1, "Light"], [3, "Regular"], [5, "Heavy"]]}}
       ]}}
      """
    let pipeline = try scratch.load(text).get()
    #expect(
      pipeline.charts[0].bands
        == ValueBands(
          measure: .sessions,
          levels: [
            .init(from: 0, label: "Rest"), .init(from: 1, label: "Light"), .init(from: 3, label: "Regular"),
            .init(from: 5, label: "Heavy"),
          ]))
    #expect(pipeline.charts[0].stageNames == ["bucket", "fillGaps", "bands"])
    #expect(
      pipeline.charts[0].stages.first?.isEqual(to: Bucket(range: .threeMonths, measures: [.sessions, .volumeKg]))
        == true)
  }

  @Test func missingFileIsOneDiagnostic() {
    let url = URL(fileURLWithPath: "/nonexistent/trendline/p.json")
    #expect(
      PipelineLoader.load(url).failureDescriptions == [
        "error: cannot read pipeline file '/nonexistent/trendline/p.json': no such file"
      ])
  }

  // MARK: Broken pipelines

  /// `(id, pipeline text with markers, expected diagnostics with markers for locations)`.
  static let broken: [(String, String, [String])] = [
    (
      "misspelled stage",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [
         {"bucket": {"range": "3m", "measures": ["sessions"]}},
         1️⃣{"smoth": {"window": 3}}
       ]}}
      """,
      ["1️⃣: error: unknown stage 'smoth' at charts.volume[1]. Did you mean 'smooth'?"]
    ),
    (
      "smooth before bucket",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [1️⃣{"smooth": {}}, {"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      [
        "1️⃣: error: 'smooth' reads buckets, but the chart holds sessions here at charts.volume[0]. Add a 'bucket' "
          + "stage before it"
      ]
    ),
    (
      "fillGaps after smooth",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}, {"smooth": {}}, \
      1️⃣{"fillGaps": {}}]}}
      """,
      [
        "1️⃣: error: 'fillGaps' reads buckets, but the chart holds buckets with a trend here at charts.volume[2]. "
          + "Move it up, before 'smooth'"
      ]
    ),
    (
      "radar with another stage",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"balance": [{"bucket": {"range": "3m", "measures": ["sessions"]}}, 1️⃣{"heatmap": {"period": \
      "week", "periods": 4}}]}}
      """,
      [
        "1️⃣: error: 'heatmap' reads sessions, but the chart holds buckets here at charts.balance[1]. Move it up, "
          + "before 'bucket', or to a chart of its own"
      ]
    ),
    (
      "two keys in one stage",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [1️⃣{"bucket": {"range": "3m", "measures": ["sessions"]}, "fillGaps": {}}]}}
      """,
      [
        "1️⃣: error: a stage is an object with one key, the stage's name; found 2: 'bucket', "
          + "'fillGaps' at charts.volume[0]. Put each stage in its own {…} in the chart's array"
      ]
    ),
    (
      "unknown key with a suggestion",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", 1️⃣"granulrity": "week", "measures": ["sessions"]}}]}}
      """,
      ["1️⃣: error: unknown key 'granulrity' at charts.volume[0].bucket. Did you mean 'granularity'?"]
    ),
    (
      "unknown key without a near miss lists the keys",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG", 1️⃣"zone": "UTC"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      [
        "1️⃣: error: unknown key 'zone' at source. Valid keys: input, catalog, format, defaults, normalize, users, "
          + "csv, limits"
      ]
    ),
    (
      "wrong type",
      """
      {"version": 1, "source": {"input": 1️⃣3, "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}, {"smooth": {"window": \
      2️⃣"5"}}]}}
      """,
      [
        "1️⃣: error: expected a string, found a number at source.input",
        "2️⃣: error: expected a whole number, found a string at charts.volume[1].smooth.window",
      ]
    ),
    (
      "version 2",
      """
      {"version": 1️⃣2, "source": {"input": "in", "catalog": "CATALOG"}, "charts": {}, "future": true}
      """,
      [
        "1️⃣: error: pipeline version 2 is not supported; this trendline reads version 1 at version. Use a newer "
          + "trendline, or rewrite the file for version 1"
      ]
    ),
    (
      "missing version",
      """
      1️⃣{"source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      ["1️⃣: error: missing key 'version' at (root)"]
    ),
    (
      "uncovered catalog id",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"balance": [{"radar": 1️⃣{"period": "month", "periods": 2,
         "axes": [
           {"id": "back", "label": "Back", "muscleGroupIds": [9, 12, 13, 24, 26]},
           {"id": "glutes", "label": "Glutes", "muscleGroupIds": [14, 22]},
           {"id": "quadriceps", "label": "Quadriceps", "muscleGroupIds": [8]},
           {"id": "biceps", "label": "Biceps", "muscleGroupIds": [3]},
           {"id": "triceps", "label": "Triceps", "muscleGroupIds": [4]},
           {"id": "shoulders", "label": "Shoulders", "muscleGroupIds": [1, 23, 25]},
           {"id": "chest", "label": "Chest", "muscleGroupIds": [2]}
         ],
         "excluded": [5, 6, 7, 11, 15, 16, 17, 18, 19, 20, 21, 27]}}]}}
      """,
      [
        "1️⃣: error: radar: muscle group 10 (Hamstrings) is on no axis and not excluded at "
          + "charts.balance[0].radar. Add 10 to one axis's muscleGroupIds or to excluded"
      ]
    ),
    (
      "window 0",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}, {"smooth": {"window": 1️⃣0}}]}}
      """,
      ["1️⃣: error: window must be between 1 and 366, found 0 at charts.volume[1].smooth.window"]
    ),
    (
      "periods and alpha out of range",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}, {"smooth": {"method": "ewma", \
      "alpha": 1️⃣1.5}}],
                  "heat": [{"heatmap": {"period": "week", "periods": 2️⃣0}}]}}
      """,
      [
        "1️⃣: error: alpha must be greater than 0 and at most 1, found 1.5 at charts.volume[1].smooth.alpha",
        "2️⃣: error: periods must be between 1 and 120, found 0 at charts.heat[0].heatmap.periods",
      ]
    ),
    (
      "unknown time zone",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG", "defaults": {"timeZone": 1️⃣"Europe/Olso"}},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      ["1️⃣: error: unknown time zone 'Europe/Olso' at source.defaults.timeZone. Did you mean 'Europe/Oslo'?"]
    ),
    (
      "compare names a missing chart",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]},
       "compare": {"charts": [1️⃣"volum"]}}
      """,
      [
        "1️⃣: error: compare names chart 'volum', which this pipeline does not define at compare.charts[0]. Did "
          + "you mean 'volume'?"
      ]
    ),
    (
      "a chart defined again is reported once, at its last definition; one compared again, at each repeat",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"v": [{"bucket": {"range": "3m", "measures": ["sessions"]}}],
         "w": [{"bucket": {"range": "3m", "measures": ["sessions"]}}],
         "v": [{"bucket": {"range": "3m", "measures": ["sessions"]}}],
         1️⃣"v": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]},
       "compare": {"charts": ["w", "v", 2️⃣"w", 3️⃣"w"]}}
      """,
      [
        "1️⃣: error: chart 'v' is defined more than once at charts.v. Give each chart its own name",
        "2️⃣: error: chart 'w' is compared twice at compare.charts[2]. List each chart once",
        "3️⃣: error: chart 'w' is compared twice at compare.charts[3]. List each chart once",
      ]
    ),
    (
      "a broken compared chart is reported once",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["volumeKg"]}}, 1️⃣{"smoth": {}}]},
       "compare": {"charts": ["volume"], "rank": {"measure": "volumeKg"}}}
      """,
      ["1️⃣: error: unknown stage 'smoth' at charts.volume[1]. Did you mean 'smooth'?"]
    ),
    (
      "format csv without source.csv",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG", "format": 1️⃣"csv"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      [
        "1️⃣: error: format 'csv' needs a column mapping in source.csv at source.format. Add \"csv\": "
          + "{\"columns\": {\"start\": …, \"exercise\": …}} to source"
      ]
    ),
    (
      "missing catalog",
      """
      {"version": 1, "source": {"input": "in", "catalog": 1️⃣"nowhere/catalog.json"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      [
        "1️⃣: error: cannot read catalog 'nowhere/catalog.json': no such file at source.catalog. Paths are "
          + "relative to the pipeline file's folder"
      ]
    ),
    (
      "chart name that is not a file name",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {1️⃣"my volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      [
        "1️⃣: error: chart name 'my volume' is not a plain file name at charts.my volume. Use letters, digits, "
          + "'.', '_' and '-'"
      ]
    ),
    (
      "two problems reported together",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [
         {"bucket": {"range": "3m", "granularity": 1️⃣"weekly", "measures": ["sessions"]}},
         2️⃣{"smoth": {}}
       ]},
       "output": {"formats": ["json", 3️⃣"pdf"]}}
      """,
      [
        "1️⃣: error: unknown granularity 'weekly' at charts.volume[0].bucket.granularity. Did you mean 'week'?",
        "2️⃣: error: unknown stage 'smoth' at charts.volume[1]. Did you mean 'smooth'?",
        "3️⃣: error: unknown output format 'pdf' at output.formats[1]. Valid values: json, svg, html, tables",
      ]
    ),
    (
      "a layout this build does not know",
      """
      {"version": 1, "layout": 1️⃣"partitionned", "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}}]}}
      """,
      ["1️⃣: error: unknown layout 'partitionned' at layout. Did you mean 'partitioned'?"]
    ),
    (
      "bands on a measure the bucket lacks",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}},
         {"bands": {"measure": 1️⃣"sets", "levels": [[0, "Rest"]]}}]}}
      """,
      [
        "1️⃣: error: 'bands' names measure 'sets', which this chart's bucket does not have at "
          + "charts.volume[1].bands.measure. Use one of: sessions"
      ]
    ),
    (
      "bands levels that do not rise, and a level that is not a pair",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}},
         {"bands": {"measure": "sessions", "levels": [[0, "Rest"], [3, "Regular"], [1️⃣1, "Light"], \
      2️⃣"Heavy"]}}]}}
      """,
      [
        "1️⃣: error: levels must rise: 1 does not come after 3 at charts.volume[1].bands.levels[2][0]. List levels "
          + "from the lowest value up",
        "2️⃣: error: a level is [from, \"label\"], found a string at charts.volume[1].bands.levels[3]. Write it as "
          + "e.g. [3, \"Regular\"]",
      ]
    ),
    (
      "bands before smooth",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [{"bucket": {"range": "3m", "measures": ["sessions"]}},
         {"bands": {"measure": "sessions", "levels": [[0, "Rest"]]}}, 1️⃣{"smooth": {}}]}}
      """,
      [
        "1️⃣: error: 'smooth' reads buckets, but the chart holds a series with bands here at charts.volume[2]. "
          + "Move it up, before 'bands'"
      ]
    ),
    (
      "bands without a bucket",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"volume": [1️⃣{"bands": {"measure": "sessions", "levels": [[0, "Rest"]]}}]}}
      """,
      [
        "1️⃣: error: 'bands' reads buckets or buckets with a trend, "
          + "but the chart holds sessions here at charts.volume[0]. Add a 'bucket' stage before it"
      ]
    ),
    (
      "a stage after one that ends the chart",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"lifts": [{"records": {}}, 1️⃣{"filter": {"setTypes": ["normal"]}}]}}
      """,
      [
        "1️⃣: error: 'filter' follows 'records', which ends the chart at charts.lifts[1]. 'records' makes a "
          + "finished chart; put 'filter' in a chart of its own"
      ]
    ),
    (
      "a chain of filters only",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"lifts": 1️⃣[{"filter": {"setTypes": ["normal"]}}, {"filter": {"muscleGroupIds": [2]}}]}}
      """,
      [
        // Every stage that ends a chain of sessions, from the registry: a new one joins the list.
        "1️⃣: error: chart 'lifts' ends with sessions, not a chart at charts.lifts. End it with one of: "
          + StageRegistry.units.filter { $0.reads.contains(.sessions) && $0.produces != .sessions }
          .map { "'\($0.key)'" }.joined(separator: ", ")
      ]
    ),
    (
      "streak before bucket",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"weeks": [1️⃣{"streak": {"measure": "sessions"}}]}}
      """,
      [
        "1️⃣: error: 'streak' reads buckets or buckets with a trend, "
          + "but the chart holds sessions here at charts.weeks[0]. Add a 'bucket' stage before it"
      ]
    ),
    (
      "filter's own checks",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"lifts": [
         {"filter": {"exercises": [1️⃣"Bench Pres (Barbell)"], "muscleGroupIds": [2️⃣99], "setTypes": \
      [3️⃣"warm-up"]}},
         {"filter": 4️⃣{}},
         {"bucket": {"range": "3m", "measures": ["e1rmKg"]}}
       ]}}
      """,
      [
        "1️⃣: error: exercise 'Bench Pres (Barbell)' is not in the catalog at charts.lifts[0].filter.exercises[0]. "
          + "Did you mean 'Bench Press (Barbell)'?",
        "2️⃣: error: muscle group 99 is not in the catalog at charts.lifts[0].filter.muscleGroupIds[0]. Use an id "
          + "of source.catalog's muscleGroups",
        "3️⃣: error: unknown set type 'warm-up' at charts.lifts[0].filter.setTypes[0]. Did you mean 'warmup'?",
        "4️⃣: error: a filter needs at least one of: exercises, muscleGroupIds, workouts, "
          + "setTypes at charts.lifts[1].filter. Add e.g. \"exercises\": [\"Bench Press\"]",
      ]
    ),
    (
      "a workout pattern longer than any name",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"legs": [{"filter": {"workouts": [1️⃣"\(String(repeating: "L", count: 201))"]}}, {"records": {}}]}}
      """,
      ["1️⃣: error: a name is at most 200 characters, found 201 at charts.legs[0].filter.workouts[0]"]
    ),
    (
      "streak on a measure the bucket lacks",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"weeks": [{"bucket": {"range": "3m", "measures": ["sets", "topSetKg"]}}, {"streak": {"measure": \
      1️⃣"sessions", "atLeast": 2️⃣0}}]}}
      """,
      [
        "1️⃣: error: 'streak' names measure 'sessions', which this chart's bucket does not have at "
          + "charts.weeks[1].streak.measure. Use one of: sets, topSetKg",
        "2️⃣: error: atLeast must be greater than 0 and at most 1000000000, "
          + "found 0 at charts.weeks[1].streak.atLeast. Give the value a period must reach, e.g. 2 sessions",
      ]
    ),
    (
      "comparing a streak, ranking by a best",
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"weeks": [{"bucket": {"range": "3m", "measures": ["sets", "topSetKg"]}}, {"streak": {"measure": \
      "sets"}}],
                  "lifts": [{"bucket": {"range": "3m", "measures": ["sets", "topSetKg"]}}]},
       "compare": {"charts": [1️⃣"weeks", "lifts"], "rank": {"measure": 2️⃣"topSetKg"}}}
      """,
      [
        "1️⃣: error: chart 'weeks' is a streak; only series and radar charts can be compared at compare.charts[0]. "
          + "Remove it from compare.charts",
        "2️⃣: error: rank measure 'topSetKg' is a best, "
          + "which does not add up over a window at compare.rank.measure. Rank by a total such as volumeKg, "
          + "sessions or reps",
      ]
    ),
  ]

  @Test(arguments: broken)
  func brokenPipelineIsReported(id: String, text: String, expected: [String]) throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    // The catalog goes in first: its path is part of the line the markers count along.
    let (clean, places) = markers(text.replacingOccurrences(of: "CATALOG", with: Scratch.catalogPath))
    let wanted = expected.map { line in
      places.reduce(line) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }
    let actual = try scratch.load(clean).failureDescriptions
    #expect(actual == wanted, "\(id)")
  }

  /// `asOf`: a pipeline over fixed data states the day its data ends; a value `--as-of` would
  /// refuse is refused here, before any input is read, at its place.
  @Test func anAsOfIsADateOrAnInstant() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    func pipeline(_ asOf: String) -> String {
      """
      {"version": 1, "asOf": \(asOf), "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"c": [{"bucket": {"range": "2y", "measures": ["sessions"]}}]}}
      """
    }
    #expect(try scratch.load(pipeline(#""2026-11-29""#)).get().asOf == "2026-11-29")
    #expect(try scratch.load(pipeline(#""2026-11-29T18:00:00Z""#)).get().asOf == "2026-11-29T18:00:00Z")
    let refused = try scratch.load(pipeline(#""2026-02-30""#)).failureDescriptions
    #expect(refused.count == 1)
    #expect(refused.first?.hasPrefix("broken.json:1:24: error: ") == true, "\(refused)")
    #expect(try scratch.load(pipeline("20261129")).failureDescriptions.count == 1)
    // Without one, today.
    let today = try scratch.load(
      pipeline(#""2026-11-29""#).replacingOccurrences(of: #""asOf": "2026-11-29", "#, with: ""))
    #expect(try today.get().asOf == nil)
  }

  /// A range is a number and a unit, up to ten years; anything else names the spellings.
  @Test func aRangeOutsideTheSpellingsIsRefused() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    func pipeline(_ range: String) -> String {
      """
      {"version": 1, "source": {"input": "in", "catalog": "CATALOG"},
       "charts": {"c": [{"bucket": {"range": "\(range)", "measures": ["sessions"]}}]}}
      """
    }
    #expect(try scratch.load(pipeline("18m")).get().charts[0].bucket?.range.rawValue == "18m")
    let refused = try scratch.load(pipeline("11y")).failureDescriptions
    #expect(refused.count == 1)
    #expect(refused.first?.contains("unknown range '11y'") == true, "\(refused)")
    #expect(refused.first?.contains("7d, 6w, 3m, 18m, 2y (at most ten years)") == true, "\(refused)")
  }

  @Test func invalidJSONPointsAtTheByte() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let descriptions = try scratch.load("{\"version\": 1,\n  \"source\": }").failureDescriptions
    #expect(descriptions.count == 1)
    #expect(descriptions.first?.hasPrefix("broken.json:2:13: error: ") == true, "\(descriptions)")
  }
}

extension Result where Success == Pipeline, Failure == PipelineErrors {
  /// The printed diagnostics of a failure; empty when the pipeline loaded.
  var failureDescriptions: [String] {
    switch self {
    case .success: return []
    case .failure(let errors): return errors.diagnostics.map(\.description)
    }
  }
}
