import Foundation
import Testing
import _TrendlineTestSupport

/// `trendline run` end to end, through the binary, as a nightly job would run it.
@Suite struct RunCommandTests {
  /// A scratch folder for one test, removed at the end.
  final class Scratch {
    let url: URL
    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-run-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ text: String, to name: String) throws -> URL {
      let file = url.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
      return file
    }

    /// Copies SampleData users into `folder` under this scratch folder.
    func copyUsers(_ names: [String], to folder: String) throws -> URL {
      let target = url.appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      let exports = TestPaths.sampleData.appendingPathComponent("exports")
      for name in names + ["users.csv"] {
        try FileManager.default.copyItem(
          at: exports.appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
      return target
    }
  }

  static let catalog = TestPaths.catalogFile.path

  /// A pipeline with one series chart and whatever stages are given, reading `input`.
  static func pipeline(input: String, stages: String = #"{"bucket": {"range": "all", "measures": ["sessions"]}}"#)
    -> String
  {
    """
    {
      "version": 1,
      "name": "test",
      "source": {"input": "\(input)", "catalog": "\(catalog)"},
      "charts": {
        "volume": [\(stages)]
      }
    }
    """
  }

  /// Every file under `folder` (relative path → bytes), the manifest left out: it records run times.
  static func tree(_ folder: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
    for case let url as URL in enumerator where !url.hasDirectoryPath && url.lastPathComponent != "manifest.json" {
      out[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
    }
    return out
  }

  static func manifest(_ folder: URL) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
      as! [String: Any]
  }

  /// The README's main command on SampleData: exit 0, every chart for every user, and the same
  /// bytes again on a second run and with one worker instead of two. The first run gives no
  /// `--as-of`: the pipeline's `asOf`, the day SampleData ends, is its as-of whatever today is,
  /// so a newcomer's first report opens on weeks with training in them.
  @Test func overviewOnSampleDataIsCompleteAndRepeatable() throws {
    let scratch = try Scratch()
    let pipeline = TestPaths.pipelines.appendingPathComponent("overview.json").path
    let first = scratch.url.appendingPathComponent("first")
    let second = scratch.url.appendingPathComponent("second")
    let result = try runTrendline(["run", pipeline, "--output", first.path, "--jobs", "2"])
    #expect(result.status == 0, "\(result.stderr)")
    let again = try runTrendline([
      "run", pipeline, "--output", second.path, "--as-of", "2026-11-29", "--jobs", "1", "--quiet",
    ])
    #expect(again.status == 0)
    #expect(again.stdout == "")

    let users = sampleUsers
    #expect(users.count == 18)
    let files = try Self.tree(first)
    for user in users {
      for chart in ["training-volume", "muscle-balance", "exercise-trends", "muscle-heatmap"] {
        #expect(files["/users/\(user)/\(chart).json"] != nil, "\(user)/\(chart)")
      }
    }
    #expect(files["/_SUCCESS"] == Data())
    #expect(files == (try Self.tree(second)))

    let manifest = try Self.manifest(first)
    #expect(manifest["asOf"] as? String == "2026-11-29")
    // The cohort's last week has people training in it: the first report is not empty.
    let cohort = try JSONSerialization.jsonObject(with: files["/cohort/training-volume.json"]!) as! [String: Any]
    let rows = cohort["buckets"] as! [[String: Any]]
    #expect(rows.last?["date"] as? String == "2026-11-23")
    #expect((rows.last?["active"] as? Int ?? 0) > 0)
    let totals = manifest["totals"] as! [String: Int]
    #expect(totals["usersFailed"] == 0)
    #expect(
      totals["rowsRead"] == totals["rowsAccepted"]! + totals["rowsRejected"]! + totals["rowsDuplicate"]! + totals[
        "rowsIgnored"]!)
  }

  @Test(arguments: [
    (
      "misspelled stage",
      #"{"bucket": {"range": "all", "measures": ["sessions"]}}, {"smoth": {}}"#,
      "unknown stage 'smoth' at charts.volume[1]. Did you mean 'smooth'?"
    ),
    (
      "smooth before bucket",
      #"{"smooth": {"method": "centered-mean", "window": 5}}, {"bucket": {"range": "all", "measures": ["sessions"]}}"#,
      "'smooth' reads buckets, but the chart holds sessions here at charts.volume[0]. Add a 'bucket' stage before it"
    ),
  ])
  func pipelineMistakesExitTwoBeforeReadingInput(name: String, stages: String, message: String) throws {
    let scratch = try Scratch()
    // The input folder does not exist: a pipeline error must be reported before it is looked at.
    let file = try scratch.write(Self.pipeline(input: "/nonexistent/input", stages: stages), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", file.path, "--output", out.path])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix(file.path + ":"), "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  /// A radar that leaves muscle group 27 (Full body) on no axis and not excluded.
  @Test func uncoveredMuscleGroupIsNamed() throws {
    let scratch = try Scratch()
    let overview = try String(contentsOf: TestPaths.pipelines.appendingPathComponent("overview.json"), encoding: .utf8)
    let broken = overview.replacingOccurrences(of: ", 27]", with: "]")
      .replacingOccurrences(of: "\"../SampleData/", with: "\"\(TestPaths.sampleData.path)/")
    #expect(broken != overview)
    let file = try scratch.write(broken, to: "p.json")
    let result = try runTrendline(["run", file.path, "--output", scratch.url.appendingPathComponent("out").path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("muscle group 27 (Full body) is on no axis and not excluded"), "\(result.stderr)")
  }

  @Test func missingInputFolderIsAUsageError() throws {
    let scratch = try Scratch()
    let file = try scratch.write(Self.pipeline(input: "missing-folder"), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", file.path, "--output", out.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("missing-folder"), "\(result.stderr)")
    #expect(result.stderr.contains("does not exist"), "\(result.stderr)")
  }

  /// Entries whose names are not user ids (a space, a control character) are skipped with a
  /// message, never become paths, and make the run exit 1; the good users are still written.
  /// (`..` itself cannot be created as an entry; `InputLayoutTests` checks the id rule.)
  @Test func unsafeEntryNamesAreSkipped() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json"], to: "in")
    for name in ["bad name", "bell\u{07}user"] {
      try FileManager.default.createDirectory(at: input.appendingPathComponent(name), withIntermediateDirectories: true)
      try Data("x".utf8).write(to: input.appendingPathComponent(name).appendingPathComponent("e.csv"))
    }
    let file = try scratch.write(Self.pipeline(input: input.path), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", file.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("input entry 'bad name' is not a valid user id"), "\(result.stderr)")
    #expect(
      result.stderr.contains("input entry 'bell\\u{7}user' has control characters in its name"), "\(result.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("users").path)
    #expect(written == ["uma"])
    let manifest = try Self.manifest(out)
    #expect((manifest["skippedEntries"] as! [[String: String]]).count == 2)
  }

  /// A corrupt export among good users: that user fails with the reason in the manifest, the
  /// others are written, and the run exits 1.
  @Test func corruptExportFailsOnlyItsUser() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json", "kenji.csv"], to: "in")
    try Data([0x00, 0xFF, 0x13, 0x37, 0x0A]).write(to: input.appendingPathComponent("zed.csv"))
    let file = try scratch.write(Self.pipeline(input: input.path), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", file.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1)
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/uma/volume.json").path))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/kenji/volume.json").path))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users/zed").path))
    let users = try Self.manifest(out)["users"] as! [[String: Any]]
    let zed = users.first { $0["user"] as? String == "zed" }!
    #expect(zed["status"] as? String == "failed")
    #expect((zed["message"] as? String)?.hasPrefix("zed.csv:1:1: error: not a known export") == true)
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("_SUCCESS").path))
  }

  /// `--strict` with one bad row: the user with the rejected row fails, and its rejects are
  /// still written so the row can be found.
  @Test func strictFailsAUserWithOneBadRow() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json"], to: "in")
    _ = try scratch.write(
      """
      Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
      2026-11-20 10:00:00,"A",1h,"Squat (Barbell)",1,100,5,0,0,,,
      2026-11-20 10:00:00,"A",1h,"Squat (Barbell)",2,100,-5,0,0,,,
      """, to: "in/bob/=SUM(A1).csv")
    // 1 row in 2 rejected: the pipeline allows it, so that only --strict fails the user.
    let text = Self.pipeline(input: input.path).replacingOccurrences(
      of: #""catalog": "\#(Self.catalog)""#,
      with: #""catalog": "\#(Self.catalog)", "limits": {"maxRejectedShare": 0.5}"#)
    let file = try scratch.write(text, to: "p.json")
    let lenient = scratch.url.appendingPathComponent("lenient")
    #expect(
      try runTrendline(["run", file.path, "--output", lenient.path, "--as-of", "2026-11-29", "--quiet"]).status == 0)
    let outcomes = try String(contentsOf: lenient.appendingPathComponent("users/bob/row-outcomes.csv"), encoding: .utf8)
    // The file name would run as a formula in a spreadsheet: its cell gets a leading apostrophe.
    #expect(
      outcomes == "file,line,column,field,outcome,reason\n'=SUM(A1).csv,3,52,Reps,rejected,reps '-5' is negative\n")

    let strict = scratch.url.appendingPathComponent("strict")
    let result = try runTrendline(["run", file.path, "--output", strict.path, "--as-of", "2026-11-29", "--strict"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("user 'bob' failed: --strict: 1 rejected row(s)"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: strict.appendingPathComponent("users/bob/volume.json").path))
    #expect(FileManager.default.fileExists(atPath: strict.appendingPathComponent("users/bob/row-outcomes.csv").path))
    #expect(FileManager.default.fileExists(atPath: strict.appendingPathComponent("users/uma/volume.json").path))
  }
}
