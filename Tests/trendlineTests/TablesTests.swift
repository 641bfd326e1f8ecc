import Foundation
import Testing
import _TrendlineTestSupport

/// `"tables"` in `output.formats`: each chart of every user, the cohort, its segments and the
/// manifest as CSV tables in `tables/`.
///
/// The five users of ``CohortSegmentsTests`` trained in the week of 24 November 2025 only, one
/// 100 kg × 5 squat set of an hour per session: ana 2 sessions, ben 4, cy 1 (in Oslo, plan
/// "B, north", a value that must be quoted), dee 3 (blank plan), eve 5 (not in users.csv). As of
/// 29 November that week is partial, 6 of its 7 days gone; its volume is 500 kg a session.
@Suite struct TablesTests {
  typealias Scratch = ContainmentTests.Scratch

  static let usersCSV = "user,timeZone,plan\nana,UTC,A\nben,UTC,A\ncy,Europe/Oslo,\"B, north\"\ndee,UTC,\n"

  static func pipeline(_ scratch: Scratch, input: URL, formats: String = #""json", "tables""#) throws -> URL {
    try scratch.write(
      """
      {
        "version": 1, "name": "tables",
        "source": {"input": "\(input.path)", "catalog": "\(ContainmentTests.catalog)"},
        "charts": {"volume": [
          {"bucket": {"range": "1m", "granularity": "week", "measures": ["sessions", "volumeKg", "durationSeconds"]}},
          {"smooth": {"method": "trailing-mean", "window": 2}}]},
        "compare": {"charts": ["volume"], "quantiles": [0.5], "groupBy": "plan"},
        "output": {"formats": [\(formats)]}
      }
      """, to: "p.json")
  }

  static func text(_ out: URL, _ path: String) throws -> String {
    try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func everyUsersRowsOfAChartAreOneTable() throws {
    let scratch = try Scratch()
    let input = try CohortSegmentsTests.input(scratch, usersCSV: Self.usersCSV)
    let out = scratch.url.appendingPathComponent("out")
    let pipeline = try Self.pipeline(scratch, input: input)
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29", "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")

    // In user id order; instants in UTC (cy's Oslo week starts at 23:00 UTC the day before) and
    // the local start date; the trend of a partial week is unknown: empty, not 0.
    let week = "2025-11-24T00:00:00+00:00,2025-12-01T00:00:00+00:00,true,0.8571428571428571"
    #expect(
      try Self.text(out, "tables/volume.csv") == """
        user,date,start,end,partial,elapsed,sessions,volumeKg,durationSeconds,sessionsTrend,volumeKgTrend,\
        durationSecondsTrend
        ana,2025-11-24,\(week),2,1000,7200,,,
        ben,2025-11-24,\(week),4,2000,14400,,,
        cy,2025-11-24,2025-11-23T23:00:00+00:00,2025-11-30T23:00:00+00:00,true,0.8571428571428571,1,500,3600,,,
        dee,2025-11-24,\(week),3,1500,10800,,,
        eve,2025-11-24,\(week),5,2500,18000,,,

        """)
    let statistics =
      "sessionsN,sessionsMean,sessionsMin,sessionsMax,sessionsP50,volumeKgN,volumeKgMean,volumeKgMin,"
      + "volumeKgMax,volumeKgP50,durationSecondsN,durationSecondsMean,durationSecondsMin,durationSecondsMax,"
      + "durationSecondsP50"
    let row = "2025-11-24,2025-11-24T00:00:00+00:00,2025-12-01T00:00:00+00:00,true"
    // Sessions 1…5: mean 3; volume 500…2500 kg; duration 1…5 h.
    #expect(
      try Self.text(out, "tables/cohort/volume.csv") == """
        date,start,end,partial,n,active,activeShare,\(statistics)
        \(row),5,5,1,5,3,1,5,3,5,1500,500,2500,1500,5,10800,3600,18000,10800

        """)
    // Plan A is ana and ben; "B, north" is quoted; the unknown segment (dee, eve) is empty.
    #expect(
      try Self.text(out, "tables/cohort/segments/volume.csv") == """
        segment,date,start,end,partial,n,active,activeShare,\(statistics)
        A,\(row),2,2,1,2,3,2,4,3,2,1500,1000,2000,1500,2,10800,7200,14400,10800
        "B, north",\(row),1,1,1,1,1,1,1,1,1,500,500,500,500,1,3600,3600,3600,3600
        ,\(row),2,2,1,2,4,3,5,4,2,2000,1500,2500,2000,2,14400,10800,18000,14400

        """)
    let users = try Self.text(out, "tables/manifest/users.csv").split(separator: "\n")
    #expect(
      users.first.map(String.init)
        == "user,status,message,files,sessions,afterAsOf,unmappedExercises,cache,rowsRead,rowsAccepted,"
        + "rowsRejected,rowsDuplicate,rowsRepaired,rowsIgnored,rowsValueDropped")
    #expect(users.dropFirst().first == "ana,ok,,1,2,0,0,,2,2,0,0,0,0,0")
    let files = try Self.text(out, "tables/manifest/files.csv").split(separator: "\n")
    #expect(files.count == 6)
    #expect(files[1].hasPrefix("ana,ana.csv,strong-csv,224,murmur3-128:"))
  }

  /// A cell a spreadsheet would run as a formula — a file named `=1+2.csv`, a segment
  /// `@SUM(A1)`, a segment `-2+3` that also needs quotes — starts with `'` in every table
  /// (SPEC 11.7).
  @Test func formulaCellsAreDefusedInEveryTable() throws {
    let scratch = try Scratch()
    let input = try CohortSegmentsTests.input(
      scratch, usersCSV: "user,timeZone,plan\nana,UTC,@SUM(A1)\nben,UTC,\"-2+3,x\"\n")
    try FileManager.default.createDirectory(
      at: input.appendingPathComponent("dee"), withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      at: input.appendingPathComponent("dee.csv"), to: input.appendingPathComponent("dee/=1+2.csv"))
    let out = scratch.url.appendingPathComponent("out")
    let pipeline = try Self.pipeline(scratch, input: input)
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29", "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    let segments = try Self.text(out, "tables/cohort/segments/volume.csv").split(separator: "\n").map {
      String($0.prefix(10))
    }
    #expect(segments.contains("'@SUM(A1),"), "\(segments)")
    #expect(segments.contains("\"'-2+3,x\","), "\(segments)")
    let files = try Self.text(out, "tables/manifest/files.csv")
    #expect(files.contains("\ndee,'=1+2.csv,strong-csv,"), "\(files)")
    for table in ["tables/volume.csv", "tables/cohort/volume.csv", "tables/manifest/users.csv", files] {
      let text = table.hasPrefix("tables/") ? try Self.text(out, table) : table
      let cells = text.split(separator: "\n").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      #expect(!cells.contains { $0.first.map { "=+@".contains($0) } ?? false }, "\(table)")
    }
  }

  @Test func aTableReadBackHasItsTypes() throws {
    let scratch = try Scratch()
    let input = try CohortSegmentsTests.input(scratch, usersCSV: Self.usersCSV)
    let out = scratch.url.appendingPathComponent("out")
    let pipeline = try Self.pipeline(scratch, input: input)
    #expect(try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29"]).status == 0)
    // Read back as a reader that guesses types does: a column is the first type every value fits.
    let lines = try Self.text(out, "tables/volume.csv").split(separator: "\n", omittingEmptySubsequences: false)
    let header = lines[0].split(separator: ",").map(String.init)
    let rows = lines.dropFirst().filter { !$0.isEmpty }.map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    func type(_ column: Int) -> String {
      let values = rows.map { String($0[column]) }.filter { !$0.isEmpty }
      if values.isEmpty { return "null" }
      if values.allSatisfy({ $0 == "true" || $0 == "false" }) { return "boolean" }
      if values.allSatisfy({ Int($0) != nil }) { return "integer" }
      if values.allSatisfy({ Double($0) != nil }) { return "double" }
      if values.allSatisfy({ $0.count == 10 && $0.dropFirst(4).first == "-" }) { return "date" }
      if values.allSatisfy({ $0.count == 25 && $0.hasSuffix("+00:00") && $0.dropFirst(10).first == "T" }) {
        return "timestamp"
      }
      return "text"
    }
    let types = Dictionary(uniqueKeysWithValues: header.indices.map { (header[$0], type($0)) })
    #expect(
      types == [
        "user": "text", "date": "date", "start": "timestamp", "end": "timestamp", "partial": "boolean",
        "elapsed": "double", "sessions": "integer", "volumeKg": "integer", "durationSeconds": "integer",
        "sessionsTrend": "null", "volumeKgTrend": "null", "durationSecondsTrend": "null",
      ])
  }

  /// Whether python3 can import DuckDB and pandas; `Tests/tables-check.sh` (in CI) installs both.
  static let hasDuckDBAndPandas: Bool =
    TestPaths.hasPython3 && (try? runProcess("/usr/bin/env", ["python3", "-c", "import duckdb, pandas"]))?.status == 0

  @Test(.enabled(if: hasDuckDBAndPandas, "needs python3 with duckdb and pandas (pip install duckdb pandas)"))
  func duckDBAndPandasReadTheTypesUnaided() throws {
    let scratch = try Scratch()
    let input = try CohortSegmentsTests.input(scratch, usersCSV: Self.usersCSV)
    let out = scratch.url.appendingPathComponent("out")
    let pipeline = try Self.pipeline(scratch, input: input)
    #expect(try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29"]).status == 0)
    let script = """
      import duckdb, pandas, sys
      table = sys.argv[1]
      print(dict((row[0], row[1]) for row in duckdb.sql(f"describe select * from '{table}'").fetchall()))
      print(dict(pandas.read_csv(table).dtypes.astype(str)))
      """
    let read = try runProcess(
      "/usr/bin/env", ["python3", "-c", script, out.appendingPathComponent("tables/volume.csv").path])
    #expect(read.status == 0, "\(read.stderr)")
    let lines = read.stdout.split(separator: "\n")
    #expect(lines.first?.contains("'date': 'DATE', 'start': 'TIMESTAMP WITH TIME ZONE'") == true, "\(read.stdout)")
    #expect(lines.first?.contains("'partial': 'BOOLEAN', 'elapsed': 'DOUBLE', 'sessions': 'BIGINT'") == true)
    #expect(lines.last?.contains("'partial': 'bool', 'elapsed': 'float64', 'sessions': 'int64'") == true)
  }

  @Test func shardsWriteTheSameTablesOnceMerged() throws {
    let scratch = try Scratch()
    let input = try CohortSegmentsTests.input(scratch, usersCSV: Self.usersCSV)
    let pipeline = try Self.pipeline(scratch, input: input)
    let whole = scratch.url.appendingPathComponent("whole")
    #expect(try runTrendline(["run", pipeline.path, "--output", whole.path, "--as-of", "2025-11-29"]).status == 0)
    let sharded = scratch.url.appendingPathComponent("sharded")
    for index in 0..<3 {
      let shard = try runTrendline([
        "run", pipeline.path, "--output", sharded.path, "--as-of", "2025-11-29", "--shard", "\(index)/3",
      ])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let merged = try runTrendline(["merge", "--output", sharded.path, sharded.path])
    #expect(merged.status == 0, "\(merged.stderr)")
    let expected = try ShardingTests.files(whole, under: "tables")
    #expect(expected.count == 5)
    #expect(try ShardingTests.files(sharded, under: "tables") == expected)
  }

  @Test func tablesNoLongerAskedForAreRemoved() throws {
    let scratch = try Scratch()
    let input = try CohortSegmentsTests.input(scratch, usersCSV: Self.usersCSV)
    let out = scratch.url.appendingPathComponent("out")
    var pipeline = try Self.pipeline(scratch, input: input)
    #expect(try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("tables/volume.csv").path))
    pipeline = try Self.pipeline(scratch, input: input, formats: #""json""#)
    #expect(try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("tables").path))
  }
}
