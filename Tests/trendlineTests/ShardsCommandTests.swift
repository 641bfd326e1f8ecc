import Foundation
import Testing
import TrendlineSupport
import _TrendlineTestSupport

/// `trendline shards`: the driver's question "which shards must run again?", answered from the
/// output folder as `merge` would judge it.
@Suite struct ShardsCommandTests {
  @Test func itNamesEveryShardMergeWouldNotTakeAndWhy() throws {
    let (scratch, input, wide, narrow) = try ReusedFolderTests.twoPipelines()
    let out = scratch.url.appendingPathComponent("out")
    func run(_ shard: String, asOf: String = "2026-11-30", pipeline: URL? = nil) throws {
      let result = try runTrendline([
        "run", (pipeline ?? wide).path, "--output", out.path, "--shard", shard, "--as-of", asOf, "--quiet",
      ])
      #expect(result.status == 0, "\(result.stderr)")
    }
    func shards(_ extra: [String] = []) throws -> String {
      let result = try runTrendline(
        ["shards", wide.path, "--output", out.path, "--as-of", "2026-11-30", "--shards", "4"] + extra)
      #expect(result.status == 0, "\(result.stderr)")
      return result.stdout
    }
    #expect(
      try shards() == """
        shard 0-of-4 never ran (no shards/0-of-4)
        shard 1-of-4 never ran (no shards/1-of-4)
        shard 2-of-4 never ran (no shards/2-of-4)
        shard 3-of-4 never ran (no shards/3-of-4)
        0 of 4 shards complete for 2026-11-30 (0 users, 0 failed on their data); to run: 0,1,2,3

        """)
    for shard in ["0/4", "1/4", "2/4"] { try run(shard) }
    try run("3/4", asOf: "2026-11-29")
    #expect(try shards(["--to-run"]) == "3\n")
    try run("3/4")
    #expect(try shards(["--to-run"]) == "\n")
    #expect(try shards() == "4 of 4 shards complete for 2026-11-30 (3 users, 0 failed on their data); ready to merge\n")

    // Killed part way, another pipeline, and an export that arrived after the shards ran.
    try FileManager.default.removeItem(at: out.appendingPathComponent("shards/1-of-4/_SUCCESS"))
    try run("2/4", pipeline: narrow)
    let now = try shards()
    #expect(
      now == """
        shard 1-of-4 did not finish (no shards/1-of-4/_SUCCESS): killed, or still running
        shard 2-of-4 ran pipeline 'reuse' (\(try digest(narrow))), not 'reuse' (\(try digest(wide)))
        2 of 4 shards complete for 2026-11-30 (1 user, 0 failed on their data); to run: 1,2

        """, "\(now)")
    // A newcomer is one user: only their shard (1, by the FNV-1a of "newcomer") runs again.
    try FileManager.default.copyItem(
      at: input.appendingPathComponent("sam.csv"), to: input.appendingPathComponent("newcomer.csv"))
    try run("2/4")
    #expect(try shards(["--to-run"]) == "1\n")
    try run("1/4")
    #expect(try shards(["--to-run"]) == "\n")
    // One date corrected in mason's export (28 Nov to 18 Nov), its size unchanged: his shard
    // (1, with newcomer) runs again, and no other.
    let export = input.appendingPathComponent("mason.csv")
    let text = String(decoding: try Data(contentsOf: export), as: UTF8.self)
    let corrected = text.replacingOccurrences(of: "\"28 Nov 2026, 08:40\"", with: "\"18 Nov 2026, 08:40\"")
    #expect(corrected != text && corrected.utf8.count == text.utf8.count)
    try Data(corrected.utf8).write(to: export)
    #expect(
      try shards() == """
        shard 1-of-4 ran before its input changed: user 'mason''s exports or users.csv row changed since
        3 of 4 shards complete for 2026-11-30 (2 users, 0 failed on their data); to run: 1

        """)
    // Merge reads the input too: the old numbers are refused, not published under _SUCCESS.
    let stale = try runTrendline(["merge", "--output", out.path, out.path])
    #expect(stale.status == 2)
    #expect(
      stale.stderr.contains(
        "shard 1-of-4 ran before its input changed: user 'mason''s exports or users.csv row changed since; "),
      "\(stale.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("_SUCCESS").path))
    try run("1/4")
    let merged = try runTrendline(["merge", "--output", out.path, out.path])
    #expect(merged.status == 0, "\(merged.stderr)")
    // A copy of the same binary (a driver's install beside the tasks') is the same build; a
    // build told by its file's size and time called every shard stale.
    let copy = scratch.url.appendingPathComponent("trendline-copy")
    try FileManager.default.copyItem(at: TestPaths.trendlineBinary, to: copy)
    let copied = try runProcess(
      copy.path, ["shards", wide.path, "--output", out.path, "--as-of", "2026-11-30", "--shards", "4", "--to-run"])
    #expect(copied.status == 0 && copied.stdout == "\n", "\(copied.stdout)\(copied.stderr)")
  }

  /// A shard whose user folder or chart was deleted after it finished is incomplete: `shards`
  /// names it to run again (any chart of the pipeline), and `merge` refuses the night (a folder,
  /// or a compared chart: the pipeline's others are not in what it reads) rather than writing
  /// `_SUCCESS` over a user without charts (SPEC 11.7). Running the shard again mends it.
  @Test func aShardMissingWhatItWroteMustRunAgain() throws {
    let (scratch, _, wide, _) = try ReusedFolderTests.twoPipelines()
    let out = scratch.url.appendingPathComponent("out")
    func run(_ shard: String) throws {
      let result = try runTrendline([
        "run", wide.path, "--output", out.path, "--shard", shard, "--as-of", "2026-11-30", "--quiet",
      ])
      #expect(result.status == 0, "\(result.stderr)")
    }
    for shard in ["0/1"] { try run(shard) }
    func shards() throws -> String {
      try runTrendline(["shards", wide.path, "--output", out.path, "--as-of", "2026-11-30", "--shards", "1"]).stdout
    }
    #expect(try shards().hasSuffix("ready to merge\n"))
    try FileManager.default.removeItem(at: out.appendingPathComponent("users/sam/extra.json"))
    #expect(try shards().hasPrefix("shard 0-of-1 is incomplete: user 'sam' has no extra.json\n"))
    // Merge knows the compared charts (their staged files are what it stamps) and the folders.
    try FileManager.default.removeItem(at: out.appendingPathComponent("users/mason/.staged-volume.json"))
    let merged = try runTrendline(["merge", "--output", out.path, out.path])
    #expect(merged.status == 2, "\(merged.stderr)")
    #expect(
      merged.stderr.contains(
        "error: shard 0-of-1 is incomplete: user 'mason' has no volume.json; run the shard again, then merge"),
      "\(merged.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("_SUCCESS").path))
    try run("0/1")
    #expect(try runTrendline(["merge", "--output", out.path, out.path]).status == 0)
    try FileManager.default.removeItem(at: out.appendingPathComponent("users/uma"))
    #expect(try shards().hasPrefix("shard 0-of-1 is incomplete: user 'uma' has no folder in users/\n"))
  }

  /// A damaged partial is named, not trusted.
  @Test func anEditedPartialMustRunAgain() throws {
    let (scratch, _, wide, _) = try ReusedFolderTests.twoPipelines()
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", wide.path, "--output", out.path, "--shard", "0/1", "--as-of", "2026-11-30"])
    #expect(result.status == 0, "\(result.stderr)")
    let partial = out.appendingPathComponent("shards/0-of-1/cohort-partial.json")
    var text = try String(contentsOf: partial, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"reuse\"", with: "\"reused\"")
    try Data(text.utf8).write(to: partial)
    let checked = try runTrendline([
      "shards", wide.path, "--output", out.path, "--as-of", "2026-11-30", "--shards", "1",
    ])
    #expect(checked.stdout.hasPrefix("shard 0-of-1 damaged: "), "\(checked.stdout)")
    #expect(checked.stdout.hasSuffix("to run: 0\n"))
  }

  /// Folders every task would refuse stop the driver at once (exit 2), instead of being
  /// retried; a shard folder that is a link is never complete (a run replaces it).
  @Test func foldersEveryTaskWouldRefuseAreAnErrorAndALinkIsNoShard() throws {
    let (scratch, _, wide, _) = try ReusedFolderTests.twoPipelines()
    let out = scratch.url.appendingPathComponent("out")
    func shards() throws -> CommandResult {
      try runTrendline(["shards", wide.path, "--output", out.path, "--as-of", "2026-11-30", "--shards", "2"])
    }
    for shard in ["0/2", "1/2"] {
      let result = try runTrendline(
        ["run", wide.path, "--output", out.path, "--shard", shard, "--as-of", "2026-11-30", "--quiet"])
      #expect(result.status == 0, "\(result.stderr)")
    }
    let shard = out.appendingPathComponent("shards/1-of-2")
    let moved = out.appendingPathComponent("cohort-stash")
    try FileManager.default.moveItem(at: shard, to: scratch.url.appendingPathComponent("stash"))
    try FileManager.default.createSymbolicLink(
      at: shard, withDestinationURL: scratch.url.appendingPathComponent("stash"))
    #expect(try shards().stdout.hasPrefix("shard 1-of-2 is not a folder (shards/1-of-2)\n"))
    try Data().write(to: moved)
    let refused = try shards()
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("holds 'cohort-stash', which no Trendline run writes"), "\(refused.stderr)")
  }

  @Test(arguments: [
    (["p.json", "--output", "o", "--shards", "4"], "missing --as-of WHEN: give the as-of every task was given"),
    (["p.json", "--output", "o", "--as-of", "2026-11-30"], "missing --shards N"),
    (["p.json", "--as-of", "2026-11-30", "--shards", "4"], "missing --output DIR"),
    (["p.json", "--output", "o", "--as-of", "2026-11-30", "--shards", "0"], "--shards takes a whole number from 1"),
    (["p.json", "--output", "o", "--as-of", "2026-11-30", "--shards", "4", "--to-rn"], "Did you mean '--to-run'?"),
  ])
  func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
    let result = try runTrendline(["shards"] + arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// The first twelve hex digits of a file's SHA-256, as the reasons show a pipeline.
  func digest(_ file: URL) throws -> String {
    String(SHA256.hex(Array(try Data(contentsOf: file))).prefix(12))
  }
}
