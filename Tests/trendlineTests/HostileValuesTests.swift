import Foundation
import Testing
import _TrendlineTestSupport

/// Values that enter from the command line, the pipeline file, `users.csv` and file names,
/// each at the edge of its stated range or with bytes a terminal acts on.
@Suite struct HostileValuesTests {
  typealias Scratch = ContainmentTests.Scratch

  static func strong(weight: String = "100") -> String {
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2026-11-20 10:00:00,"A",1h,"Squat (Barbell)",1,100,5,0,0,,,
    2026-11-20 10:00:00,"A",1h,"Squat (Barbell)",2,\(weight),5,0,0,,,

    """
  }

  static func pipeline(input: URL, charts: String) -> String {
    """
    {
      "version": 1, "name": "values",
      "source": {"input": "\(input.path)", "catalog": "\(ContainmentTests.catalog)"},
      "charts": {\(charts)}
    }
    """
  }

  static let volume = #""volume": [{"bucket": {"range": "all", "measures": ["sessions"]}}]"#

  /// ESC, OSC 52 (a clipboard write), BEL, C1 CSI and a newline, in file names inside a user
  /// folder, in a top-level name, in a `users.csv` value and in a rejected cell under
  /// `--strict`: none reaches stderr raw, and no line is forged, in text or JSON logs.
  @Test func terminalControlsFromTheInputAreEscaped() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann/good.csv")
    try scratch.write(Self.strong(), to: "in/ann/osc\u{1B}]52;c;SGVsbG8=\u{07}.csv")
    try scratch.write(Self.strong(), to: "in/ann/new\nerror: user 'zed' failed.csv")
    try scratch.write(Self.strong(), to: "in/c1\u{9B}31m.csv")
    try scratch.write(Self.strong(weight: "\"\u{1B}[31mred\nerror: user 'zed' failed\""), to: "in/bob.csv")
    try scratch.write(Self.strong(), to: "in/cy.csv")
    try scratch.write("user,timeZone\ncy,\"Mars\u{1B}[2J\u{9B}1m\"\n", to: "in/users.csv")
    let pipeline = try scratch.write(Self.pipeline(input: input, charts: Self.volume), to: "p.json")
    for log in [[], ["--log", "json"]] {
      let out = scratch.url.appendingPathComponent("out")
      let result = try runTrendline(
        ["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29", "--strict"] + log)
      #expect(result.status == 1, "\(result.stderr)")
      for unsafe in ["\u{1B}", "\u{07}", "\u{9B}"] {
        #expect(
          !result.stderr.contains(unsafe), "\(unsafe.unicodeScalars.first!.value) reached stderr: \(result.stderr)")
      }
      let lines = result.stderr.split(separator: "\n")
      #expect(!lines.contains { $0.hasPrefix("error: user 'zed'") }, "a forged line: \(result.stderr)")
      if log.isEmpty {
        #expect(
          result.stderr.contains(
            "input entry 'ann/osc\\u{1b}]52;c;SGVsbG8=\\u{7}.csv' has control characters in its name"))
        #expect(
          result.stderr.contains("input entry 'ann/new\\u{a}error: user 'zed' failed.csv' has control characters"))
        #expect(result.stderr.contains("input entry 'c1\\u{9b}31m.csv' has control characters"))
        #expect(result.stderr.contains("unknown time zone 'Mars\\u{1b}[2J\\u{9b}1m' for user 'cy'"), "\(result.stderr)")
        #expect(
          result.stderr.contains("'\\u{1b}[31mred\\u{a}error: user 'zed' failed' is not a number"), "\(result.stderr)")
      } else {
        for line in lines where line.hasPrefix("{") {
          #expect(throws: Never.self, "\(line)") { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        }
      }
      try FileManager.default.removeItem(at: out)
    }
  }

  /// The as-of edges run to the end, even with a ten-year heat map and radar reaching back
  /// before 1970; outside them the run is refused with the range.
  @Test(arguments: [("1970-01-01", 0), ("2199-12-31", 0), ("0005-01-01", 2), ("9999-12-31", 2), ("1581-10-10", 2)])
  func asOfEdges(asOf: String, status: Int32) throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    let charts =
      Self.volume + #"""
        , "heat": [{"heatmap": {"period": "month", "periods": 120}}],
        "lifts": [{"sparkline": {"value": "topSetKg", "windowDays": 3660}}],
        "weekly": [{"bucket": {"range": "1y", "granularity": "week", "measures": ["sessions"]}}, {"fillGaps": \#
        {"with": "zero"}}]
        """#
    let pipeline = try scratch.write(Self.pipeline(input: input, charts: charts), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", asOf])
    #expect(result.status == status, "\(result.stderr)")
    if status == 2 {
      #expect(
        result.stderr.hasPrefix(
          "error: '\(asOf)' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"))
    }
  }

  /// Pipeline values outside their stated ranges are refused by `validate` and `run` alike,
  /// with the same message, before any input is read.
  @Test(arguments: [
    (
      #""volume": [{"bucket": {"range": "all", "measures": ["sessions"]}}, {"bands": {"measure": "sessions", "#
        + #""levels": [[0, "Rest"], [1e30, "Huge"]]}}]"#,
      "a level starts between -1000000000 and 1000000000, found 1e30"
    ),
    (
      #""volume": [{"bucket": {"range": "all", "measures": ["sessions"]}}, {"smooth": {"window": 1000000}}]"#,
      "window must be between 1 and 366, found 1000000"
    ),
    (
      #""CON": [{"bucket": {"range": "all", "measures": ["sessions"]}}]"#,
      "chart name 'CON' is a device name on Windows"
    ),
    (#""lpt1.x": [{"bucket": {"range": "all", "measures": ["sessions"]}}]"#, "is a device name on Windows (LPT1)"),
    (#""trail.": [{"bucket": {"range": "all", "measures": ["sessions"]}}]"#, "chart name 'trail.' ends with '.'"),
  ])
  func pipelineValuesOutOfRangeAreRefusedAlike(charts: String, message: String) throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("missing-input")
    let pipeline = try scratch.write(Self.pipeline(input: input, charts: charts), to: "p.json")
    let validate = try runTrendline(["validate", pipeline.path])
    let run = try runTrendline(["run", pipeline.path, "--output", scratch.url.appendingPathComponent("out").path])
    #expect(validate.status == 2)
    #expect(run.status == 2)
    #expect(validate.stderr.contains(message), "\(validate.stderr)")
    #expect(run.stderr == validate.stderr)
  }

  /// `--jobs` has a range, as every number on the command line.
  @Test(arguments: ["0", "1025", "99999999999999999999", "-1"])
  func jobsOutOfRangeAreRefused(jobs: String) throws {
    let result = try runTrendline(["run", "p.json", "--jobs", jobs])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("error: --jobs takes a whole number from 1 to 1024, not '\(jobs)'"))
  }

  /// A user listed twice in `users.csv` fails with both lines named (which row is meant cannot
  /// be guessed); a line that cannot be read stops the run, since whose settings it held is
  /// unknown.
  @Test func usersFileProblemsAreNamed() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    try scratch.write(Self.strong(), to: "in/bob.csv")
    try scratch.write("user,timeZone\nann,Europe/Oslo\nbob,UTC\nann,America/Santiago\n", to: "in/users.csv")
    let pipeline = try scratch.write(Self.pipeline(input: input, charts: Self.volume), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let twice = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(twice.status == 1)
    #expect(
      twice.stderr.contains(
        "error: user 'ann' failed: users.csv:4:1: error: user 'ann' is listed on lines 2, 4; keep one row for each user"
      ),
      "\(twice.stderr)")

    try scratch.write("user,timeZone\nann,\"Europe/Oslo\nbob,UTC\n", to: "in/users.csv")
    let broken = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(broken.status == 2)
    #expect(broken.stderr.hasPrefix("users.csv:2:5: error: quoted field is never closed"), "\(broken.stderr)")
  }

  /// `parse` reads regular files only (a device is exit 66, not a read error), and a
  /// pipeline file of more than a megabyte is refused before it is parsed.
  @Test func devicesAndGiantPipelineFilesAreRefused() throws {
    let zero = try runTrendline(["parse", "/dev/zero"])
    #expect(zero.status == 66)
    #expect(
      zero.stderr
        == "error: cannot read '/dev/zero': it is not a regular file (a folder, pipe, socket or device); "
        + "parse reads files\n")
    let scratch = try Scratch()
    let giant = try scratch.write("{" + String(repeating: " ", count: 2 << 20) + "}", to: "giant.json")
    let result = try runTrendline(["validate", giant.path])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains("it is 2097154 bytes, over the limit of 1048576 bytes for such a file"), "\(result.stderr)"
    )
  }

  /// A chart cannot grow without bound: `range: all` by day from a 1970 session to a far
  /// as-of would hold 84,006 buckets; the user fails naming the chart, the count and the
  /// limit, instead of writing a 31 MB JSON.
  @Test func aChartOverTheBucketLimitFailsItsUser() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(
      Self.strong().replacingOccurrences(
        of: "2026-11-20 10:00:00,\"A\",1h,\"Squat (Barbell)\",1",
        with: "1970-01-01 10:00:00,\"A\",1h,\"Squat (Barbell)\",1"),
      to: "in/ann.csv")
    let charts = #""daily": [{"bucket": {"range": "all", "granularity": "day", "measures": ["sessions"]}}]"#
    let pipeline = try scratch.write(Self.pipeline(input: input, charts: charts), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2199-12-31"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "error: user 'ann' failed: chart 'daily': range 'all' by day from the first session, 1970-01-01, "
          + "would hold about 84006 buckets, over the limit of 20000; use a coarser granularity or a shorter range"
      ), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users/ann/daily.json").path))
  }

  /// A user folder of more files than `maxFilesPerUser` fails its user before any is read.
  @Test func aFolderOfTooManyFilesFailsItsUser() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    for name in ["a", "b", "c"] { try scratch.write(Self.strong(), to: "in/ann/\(name).csv") }
    try scratch.write(Self.strong(), to: "in/bob.csv")
    let text = Self.pipeline(input: input, charts: Self.volume).replacingOccurrences(
      of: #""catalog": "\#(ContainmentTests.catalog)""#,
      with: #""catalog": "\#(ContainmentTests.catalog)", "limits": {"maxFilesPerUser": 2}"#)
    let pipeline = try scratch.write(text, to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "error: user 'ann' failed: ann:1:1: error: the folder holds 3 export files, over the limit of 2; "
          + "raise source.limits.maxFilesPerUser to read them"
      ), "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/bob/volume.json").path))
  }

  /// A file mostly rejected fails its user with the share and the commonest reason (SPEC 11.2);
  /// the other user is written, `row-outcomes.csv` lists every row, and the pipeline can raise
  /// the limit.
  @Test func aMostlyRejectedFileFailsItsUser() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    let header =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
    let rows = [
      "2026-11-20 10:00:00,A,1h,Squat (Barbell),1,100,5,0,0,,,",
      "20.11.2026 10:00,A,1h,Squat (Barbell),2,100,5,0,0,,,",
      "21.11.2026 10:00,A,1h,Squat (Barbell),1,100,5,0,0,,,",
    ]
    try scratch.write(([header] + rows).joined(separator: "\n") + "\n", to: "in/ann.csv")
    try scratch.write(Self.strong(), to: "in/bob.csv")
    for (limits, status) in [("", Int32(1)), (#", "limits": {"maxRejectedShare": 0.7}"#, 0)] {
      let text = Self.pipeline(input: input, charts: Self.volume).replacingOccurrences(
        of: #""catalog": "\#(ContainmentTests.catalog)""#,
        with: #""catalog": "\#(ContainmentTests.catalog)""# + limits)
      let pipeline = try scratch.write(text, to: "p.json")
      let out = scratch.url.appendingPathComponent("out")
      let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
      #expect(result.status == status, "\(result.stderr)")
      let failure =
        "error: user 'ann' failed: ann.csv: 67 % of its rows are rejected (2 of 3), over "
        + "source.limits.maxRejectedShare 0.05; the commonest reasons: Date: '20.11.2026 10:00' is not a date "
        + "and time (2 rows, first at line 3); see row-outcomes.csv"
      #expect(result.stderr.contains(failure) == (status == 1), "\(result.stderr)")
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/bob/volume.json").path))
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/ann/row-outcomes.csv").path))
      let annVolume = out.appendingPathComponent("users/ann/volume.json").path
      #expect(FileManager.default.fileExists(atPath: annVolume) == (status == 0))
    }
  }

  /// A cache folder that cannot be written is named as the cache, with what to do (it was
  /// reported as the output folder).
  @Test func anUnwritableCacheIsNamedAsTheCache() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    try scratch.write("x", to: "a-file")
    let pipeline = try scratch.write(Self.pipeline(input: input, charts: Self.volume), to: "p.json")
    let cache = scratch.url.appendingPathComponent("a-file/cache")
    let result = try runTrendline([
      "run", pipeline.path, "--output", scratch.url.appendingPathComponent("out").path, "--as-of", "2026-11-29",
      "--cache", cache.path,
    ])
    #expect(result.status == 74)
    #expect(
      result.stderr.contains(
        "Not a directory. Check that the cache folder is writable and its disk has space, or run without --cache"),
      "\(result.stderr)")
  }

  /// `parse` prints the input's cells as JSON: DEL, C1 CSI and a right-to-left override in a
  /// cell are written as `\uXXXX` escapes, which JSON readers decode to the same text.
  @Test func parseOutputEscapesTerminalControls() throws {
    let scratch = try Scratch()
    let file = try scratch.write("name,value\n\"a\u{9B}31m\u{202E}b\u{7F}\",1\n", to: "cells.csv")
    let result = try runTrendline(["parse", file.path, "--format", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    for unsafe in ["\u{9B}", "\u{202E}", "\u{7F}"] { #expect(!result.stdout.contains(unsafe)) }
    #expect(result.stdout.contains(#"a\u009b31m\u202eb\u007f"#), "\(result.stdout)")
    let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String]]
    #expect(decoded?[1][0] == "a\u{9B}31m\u{202E}b\u{7F}")
  }

  /// Two distances each finite but whose sum is not (1e305 km twice) reject their rows, so
  /// the user fails by the rejected share and the other user is written: it stopped the whole
  /// run with a trap, no manifest and no `_SUCCESS` (SPEC 11.6).
  @Test func distancesWhoseSumOverflowsFailOnlyTheirUser() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    let header =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
    let far = (1...2).map { "2026-11-20 10:00:00,A,1h,Running,\($0),0,0,1e305,0,,," }
    try scratch.write(([header] + far).joined(separator: "\n") + "\n", to: "in/ann.csv")
    try scratch.write(Self.strong(), to: "in/bob.csv")
    let pipeline = try scratch.write(
      Self.pipeline(input: input, charts: #""km": [{"bucket": {"range": "all", "measures": ["distanceM"]}}]"#),
      to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "error: user 'ann' failed: ann.csv: 100 % of its rows are rejected (2 of 2), over "
          + "source.limits.maxRejectedShare 0.05; the commonest reasons: Distance: distance '1e305' is more than "
          + "1000 km (2 rows, first at line 2)"),
      "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/bob/km.json").path))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path))
  }

  /// Every number of a set at its bound (1500 kg, 1000 reps, 1000 km, 24 h), in a history of
  /// many sets, through every chart of the overview pipeline and its cohort: the run ends with
  /// exit 0 and every number written is finite (SPEC 11.6).
  @Test func extremesOfEveryFieldStayFiniteThroughEveryMeasure() throws {
    let scratch = try Scratch()
    let header =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
    for user in ["ann", "bob"] {
      let rows = (0..<400).map { index in
        let day = String(format: "2026-%02d-%02d 10:00:00", 1 + index % 11, 1 + index % 28)
        return "\(day),A,23h 59m,Squat (Barbell),\(index + 1),1500,1000,1000000,86400,,,"
      }
      try scratch.write(([header] + rows).joined(separator: "\n") + "\n", to: "in/\(user).csv")
    }
    try scratch.write("user,distanceUnit\nann,m\nbob,m\n", to: "in/users.csv")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline([
      "run", TestPaths.pipelines.appendingPathComponent("overview.json").path, "--input",
      scratch.url.appendingPathComponent("in").path, "--output", out.path, "--as-of", "2026-11-29",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("_SUCCESS").path))
    let files = FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String } ?? []
    var checked = 0
    for file in files where file.hasSuffix(".json") {
      let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains("inf") && !text.contains("nan"), "\(file)")
      #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(file) is not JSON")
      checked += 1
    }
    #expect(checked > 10)
  }

  /// A distance that is finite as written but not in metres (1e308 miles) rejects its row in
  /// FitNotes and GymBook as in the other readers; it was accepted as infinity, which no JSON
  /// can hold and which made every cached night a rebuild.
  @Test func distancesThatOverflowInMetresAreRejected() throws {
    let scratch = try Scratch()
    let nines = String(repeating: "9", count: 308)
    let fitNotes = try scratch.write(
      "Date,Exercise,Category,Weight (kgs),Reps,Distance,Distance Unit,Time\n"
        + "2024-06-04,Running,Cardio,0,0,\(nines),mi,\n",
      to: "fitnotes.csv")
    let gymBook = try scratch.write(
      """
      Data,Programma,Orario,Esercizio,Zona,Gruppi muscolari (Primari),Gruppi muscolari (Secondari),\
      Set / Set di riscaldamento / Set di defaticamento,Ripetizioni / Tempo,Peso / Distanza,Appunti,Saltato
      19/11/26,"A",19:46,"Walking su Tapis Roulant",Cardio,"Polpacci","Adduttori",Set,"10 minuti","\(nines) mi",,No

      """, to: "gymbook.csv")
    for (file, format) in [(fitNotes, "fitnotes-csv"), (gymBook, "gymbook-csv")] {
      let result = try runTrendline(["parse", file.path, "--format", format, "--date-order", "day-first"])
      #expect(result.status == 0, "\(format): \(result.stderr)")
      #expect(!result.stdout.contains("inf"), "\(format): \(result.stdout.prefix(400))")
      #expect(result.stdout.contains("is more than 1000 km"), "\(format): \(result.stdout.prefix(600))")
    }
  }
}
