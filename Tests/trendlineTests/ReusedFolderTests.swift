import Foundation
import Testing
import _TrendlineTestSupport

/// Folders an operator reuses or mixes up: an output folder written by another run, one that
/// holds someone's files, an output or cache inside the input.
@Suite struct ReusedFolderTests {
  typealias Scratch = RunCommandTests.Scratch

  static let catalog = TestPaths.catalogFile.path

  /// A pipeline whose charts are `charts` (name → stages), with a cohort of the first one.
  static func pipeline(input: URL, charts: [String], formats: String) -> String {
    let body = charts.map {
      #""\#($0)": [{"bucket": {"range": "all", "granularity": "month", "measures": ["sessions", "volumeKg"]}}]"#
    }
    return """
      {
        "version": 1, "name": "reuse",
        "source": {"input": "\(input.path)", "catalog": "\(catalog)"},
        "charts": {\(body.joined(separator: ", "))},
        "compare": {"charts": ["\(charts[0])"], "quantiles": [0.5]},
        "output": {"formats": \(formats)}
      }
      """
  }

  /// Three users and two pipelines: a wide one (two charts, JSON, SVG and HTML) and a narrow
  /// one (another chart, JSON only), the second run of a reused folder.
  static func twoPipelines() throws -> (scratch: Scratch, input: URL, wide: URL, narrow: URL) {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json", "sam.csv", "mason.csv"], to: "in")
    let wide = try scratch.write(
      Self.pipeline(input: input, charts: ["volume", "extra"], formats: #"["json", "svg", "html"]"#), to: "wide.json")
    let narrow = try scratch.write(
      Self.pipeline(input: input, charts: ["load"], formats: #"["json"]"#), to: "narrow.json")
    return (scratch, input, wide, narrow)
  }

  /// A run into the folder of another run — another pipeline, fewer users, fewer formats —
  /// with `--remove-departed` leaves exactly what a run into an empty folder leaves: the old
  /// charts, cohort files, report pages, SVGs, row outcomes and the deleted user's folder are
  /// gone.
  @Test func aReusedOutputFolderHoldsOnlyTheLastRun() throws {
    let (scratch, input, wide, narrow) = try Self.twoPipelines()
    let reused = scratch.url.appendingPathComponent("reused")
    let fresh = scratch.url.appendingPathComponent("fresh")
    let asOf = ["--as-of", "2026-11-29"]
    #expect(try runTrendline(["run", wide.path, "--output", reused.path] + asOf).status == 0)
    try runTrendline(["run", wide.path, "--output", reused.path, "--shard", "0/2"] + asOf)
    #expect(FileManager.default.fileExists(atPath: reused.appendingPathComponent("users/sam/volume.svg").path))
    #expect(FileManager.default.fileExists(atPath: reused.appendingPathComponent("shards/0-of-2").path))

    try FileManager.default.removeItem(at: input.appendingPathComponent("mason.csv"))
    let second = try runTrendline(["run", narrow.path, "--output", reused.path, "--remove-departed"] + asOf)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("warning: 1 user is no longer in the input ('mason'); their folders were removed"))
    #expect(try runTrendline(["run", narrow.path, "--output", fresh.path] + asOf).status == 0)
    #expect(try Set(RunCommandTests.tree(reused).keys) == Set(RunCommandTests.tree(fresh).keys))
    #expect(try RunCommandTests.tree(reused) == RunCommandTests.tree(fresh))
    #expect(!FileManager.default.fileExists(atPath: reused.appendingPathComponent("users/mason").path))
    #expect(!FileManager.default.fileExists(atPath: reused.appendingPathComponent("report").path))
  }

  /// The same for a sharded run and its merge, into one reused folder: each shard sweeps its
  /// own users' folders, the merge (with `--remove-departed`) the deleted users and the cohort
  /// and report files. The
  /// shard partials differ (they record their run), everything else is byte-identical.
  @Test func aReusedShardedFolderHoldsOnlyTheLastRun() throws {
    let (scratch, input, wide, narrow) = try Self.twoPipelines()
    let reused = scratch.url.appendingPathComponent("reused")
    let fresh = scratch.url.appendingPathComponent("fresh")
    func shardedRun(_ pipeline: URL, into output: URL) throws {
      for shard in ["0/2", "1/2"] {
        let result = try runTrendline([
          "run", pipeline.path, "--output", output.path, "--shard", shard, "--as-of", "2026-11-29",
        ])
        #expect(result.status == 0, "\(result.stderr)")
      }
      let merged = try runTrendline(["merge", "--output", output.path, "--remove-departed", output.path])
      #expect(merged.status == 0, "\(merged.stderr)")
    }
    try shardedRun(wide, into: reused)
    try FileManager.default.removeItem(at: input.appendingPathComponent("mason.csv"))
    try shardedRun(narrow, into: reused)
    try shardedRun(narrow, into: fresh)
    let outside = { (tree: [String: Data]) in tree.filter { !$0.key.hasPrefix("/shards/") } }
    #expect(try outside(RunCommandTests.tree(reused)) == outside(RunCommandTests.tree(fresh)))
    #expect(try Set(RunCommandTests.tree(reused).keys) == Set(RunCommandTests.tree(fresh).keys))
  }

  /// A user whose export left the input keeps their folder and report page unless the run says
  /// `--remove-departed`; the manifest names them either way, and so does a warning. An input
  /// mounted empty by mistake costs a warning, not every user's charts. A shard cannot know
  /// who departed, so it refuses the flag; merge takes it.
  @Test func usersNoLongerInTheInputAreReportedAndKeptUnlessRemoved() throws {
    let (scratch, input, wide, _) = try Self.twoPipelines()
    let out = scratch.url.appendingPathComponent("out")
    let asOf = ["--as-of", "2026-11-29"]
    #expect(try runTrendline(["run", wide.path, "--output", out.path] + asOf).status == 0)
    try FileManager.default.removeItem(at: input.appendingPathComponent("mason.csv"))
    try FileManager.default.removeItem(at: input.appendingPathComponent("uma.json"))

    let kept = try runTrendline(["run", wide.path, "--output", out.path] + asOf)
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(
      kept.stderr.contains(
        "warning: 2 users are no longer in the input ('mason', 'uma'); their folders are kept and the "
          + "manifest's \"departed\" lists them. Check the input folder, or run with --remove-departed to remove them"))
    for path in ["users/mason/volume.json", "users/uma/volume.json", "report/users/uma.html"] {
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(path).path), "\(path)")
    }
    func departed() throws -> NSDictionary? {
      let data = try Data(contentsOf: out.appendingPathComponent("manifest.json"))
      return (try JSONSerialization.jsonObject(with: data) as? NSDictionary)?["departed"] as? NSDictionary
    }
    #expect(try departed() == ["removed": false, "users": ["mason", "uma"]])

    let refused = try runTrendline(["run", wide.path, "--output", out.path, "--shard", "0/2", "--remove-departed"])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("--remove-departed needs every user"))
    // A Slurm array task is a shard too, without --shard or --shards.
    let slurmTask = try runTrendline(
      ["run", wide.path, "--output", out.path, "--remove-departed"],
      environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"])
    #expect(slurmTask.status == 2)
    #expect(slurmTask.stderr.contains("--remove-departed needs every user"))

    for shard in ["0/2", "1/2"] {
      #expect(try runTrendline(["run", wide.path, "--output", out.path, "--shard", shard] + asOf).status == 0)
    }
    // Two of three at once is more than half: refused, nothing written, until confirmed.
    let refusedMerge = try runTrendline(["merge", "--output", out.path, "--remove-departed", out.path])
    #expect(refusedMerge.status == 2, "\(refusedMerge.stderr)")
    #expect(refusedMerge.stderr.contains("error: --remove-departed would remove 2 of the 3 users in "))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/mason/volume.json").path))
    let merged = try runTrendline([
      "merge", "--output", out.path, "--remove-departed", "--confirm-removal", out.path,
    ])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr.contains("2 users are no longer in the input ('mason', 'uma'); their folders were removed"))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users/mason").path))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("report/users/uma.html").path))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/sam/volume.json").path))
    #expect(try departed() == ["removed": true, "users": ["mason", "uma"]])

    let again = try runTrendline(["run", wide.path, "--output", out.path] + asOf)
    #expect(again.status == 0 && !again.stderr.contains("departed"), "\(again.stderr)")
    #expect(try departed() == nil)
  }

  /// An input that is empty, or not the folder it was, with `--remove-departed`: more than half
  /// of the output's users would go at once, so the run is refused (exit 2) before anything is
  /// read or removed, unless the operator confirms (SPEC 11.7). One user leaving of three is
  /// removed as asked.
  @Test func removingMostUsersAtOnceNeedsConfirming() throws {
    let (scratch, input, wide, _) = try Self.twoPipelines()
    let out = scratch.url.appendingPathComponent("out")
    let asOf = ["--as-of", "2026-11-29"]
    #expect(try runTrendline(["run", wide.path, "--output", out.path] + asOf).status == 0)
    let empty = scratch.url.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let refused = try runTrendline(
      ["run", wide.path, "--input", empty.path, "--output", out.path, "--remove-departed"] + asOf)
    #expect(refused.status == 2, "\(refused.stderr)")
    #expect(
      refused.stderr.contains(
        "/users at once; nothing was read, written or removed. An input that is empty or not the folder it was looks "
          + "like this: check it, or add --confirm-removal to remove them"), "\(refused.stderr)")
    for user in ["mason", "sam", "uma"] {
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/\(user)/volume.json").path))
    }
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("_SUCCESS").path))

    try FileManager.default.removeItem(at: input.appendingPathComponent("mason.csv"))
    let one = try runTrendline(["run", wide.path, "--output", out.path, "--remove-departed"] + asOf)
    #expect(one.status == 0, "\(one.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users/mason").path))

    let confirmed = try runTrendline(
      ["run", wide.path, "--input", empty.path, "--output", out.path, "--remove-departed", "--confirm-removal"] + asOf)
    #expect(confirmed.status == 0, "\(confirmed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users/sam").path))
  }

  /// A folder holding anything no run writes is refused before any input is read, and left as
  /// it was: a mistyped `--output` never empties someone's folder.
  @Test func aFolderTrendlineDoesNotOwnIsRefused() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json"], to: "in")
    let pipeline = try scratch.write(
      Self.pipeline(input: input, charts: ["volume"], formats: #"["json"]"#), to: "p.json")
    let home = scratch.url.appendingPathComponent("home")
    _ = try scratch.write("my notes", to: "home/notes.txt")
    _ = try scratch.write("x", to: "home/.profile")
    let result = try runTrendline(["run", pipeline.path, "--output", home.path, "--as-of", "2026-11-29"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "error: the output folder '\(home.path)' holds 'notes.txt', which no Trendline run writes; "
        + "a run removes what it did not write, so it refuses a folder it does not own. Give an empty folder or a "
        + "Trendline output folder\n"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == [".profile", "notes.txt"])

    let sharded = scratch.url.appendingPathComponent("sharded")
    #expect(
      try runTrendline(["run", pipeline.path, "--output", sharded.path, "--shard", "0/1", "--as-of", "2026-11-29"])
        .status == 0)
    let merge = try runTrendline(["merge", "--output", home.path, sharded.path])
    #expect(merge.status == 2)
    #expect(
      merge.stderr.contains("the output folder '\(home.path)' holds 'notes.txt', which no Trendline run writes"),
      "\(merge.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == [".profile", "notes.txt"])
  }

  /// A folder holding only Trendline's names but no marker or manifest (someone's `report/`)
  /// is not taken for an output folder; one whose `users` or `users/<user>` is a link has the
  /// link replaced by a real folder, and the link's target is neither written nor swept.
  @Test func linksAndLookalikesInTheOutputAreNotFollowed() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json", "sam.csv"], to: "in")
    let pipeline = try scratch.write(
      Self.pipeline(input: input, charts: ["volume"], formats: #"["json"]"#), to: "p.json")
    let site = scratch.url.appendingPathComponent("site")
    _ = try scratch.write("<h1>mine</h1>", to: "site/report/index.html")
    let refused = try runTrendline(["run", pipeline.path, "--output", site.path, "--as-of", "2026-11-29"])
    #expect(refused.status == 2)
    #expect(
      refused.stderr.contains("holds 'report' but no .trendline-output or manifest.json of a Trendline run"),
      "\(refused.stderr)")

    let out = scratch.url.appendingPathComponent("out")
    #expect(try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"]).status == 0)
    _ = try scratch.write("precious", to: "precious/thesis.txt")
    _ = try scratch.write("precious", to: "elsewhere/notes.txt")
    let precious = scratch.url.appendingPathComponent("precious")
    try FileManager.default.removeItem(at: out.appendingPathComponent("users"))
    try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("users"), withDestinationURL: precious)
    let second = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: precious.path) == ["thesis.txt"])
    try FileManager.default.removeItem(at: out.appendingPathComponent("users/sam"))
    try FileManager.default.createSymbolicLink(
      at: out.appendingPathComponent("users/sam"), withDestinationURL: scratch.url.appendingPathComponent("elsewhere"))
    #expect(try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"]).status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("elsewhere").path) == [
        "notes.txt"
      ])
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/sam/volume.json").path))
  }

  /// An output or cache folder inside the input would be read as users by the next run, and an
  /// input inside the output would be swept: each is refused with exit 2, nothing written.
  @Test(arguments: [
    (["--output", "in/out"], "the output folder '$/in/out' is inside the input folder '$/in'"),
    (["--output", "in"], "the output folder '$/in' is inside the input folder '$/in'"),
    (["--output", "."], "the input folder '$/in' is inside the output folder '$'"),
    (["--output", "out", "--cache", "in/.cache"], "the cache folder '$/in/.cache' is inside the input folder '$/in'"),
    (["--output", "out", "--cache", "out"], "the cache folder '$/out' is inside the output folder '$/out'"),
    (
      ["--output", "out", "--cache", "out/.cache"],
      "the cache folder '$/out/.cache' is inside the output folder '$/out'"
    ),
  ])
  func foldersInsideEachOtherAreRefused(arguments: [String], message: String) throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json"], to: "in")
    let pipeline = try scratch.write(
      Self.pipeline(input: input, charts: ["volume"], formats: #"["json"]"#), to: "p.json")
    let before = try RunCommandTests.tree(input)
    let absolute = arguments.enumerated().map { index, argument in
      index % 2 == 1 ? scratch.url.appendingPathComponent(argument).standardizedFileURL.path : argument
    }
    let result = try runTrendline(["run", pipeline.path, "--as-of", "2026-11-29"] + absolute)
    #expect(result.status == 2)
    let root = scratch.url.standardizedFileURL.path
    #expect(result.stderr.hasPrefix("error: " + message.replacingOccurrences(of: "$", with: root)), "\(result.stderr)")
    #expect(try RunCommandTests.tree(input) == before)
    #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out").path))
  }
}
