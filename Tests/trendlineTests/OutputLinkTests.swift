import Foundation
import Testing
import _TrendlineTestSupport

/// Output goes through no link in the output folder (SPEC 11.7), through the binary as a
/// nightly job runs it: an `--output` that is a link to a folder is written there, a folder of
/// the output that is a link fails the run with nothing written at its target, and a user's
/// folder swapped for a link while the run writes leaves nothing at the link's target.
@Suite struct OutputLinkTests {
  typealias Scratch = RunCommandTests.Scratch

  /// Every file and folder under `path`, relative to it, sorted.
  static func contents(_ path: URL) -> [String] {
    (FileManager.default.subpaths(atPath: path.path) ?? []).sorted()
  }

  static func isLink(_ url: URL) -> Bool {
    var status = stat()
    return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
  }

  /// `--output` a link to a real folder, as operators point a job at a mounted disk: a run,
  /// its shards and their merge write the folder it leads to, the link stays a link, and the
  /// files are those of a run into a plain folder.
  @Test func anOutputThatIsALinkToAFolderIsWrittenThere() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json", "sam.csv"], to: "in")
    let pipeline = try scratch.write(
      ReusedFolderTests.pipeline(input: input, charts: ["volume"], formats: #"["json", "svg", "html", "tables"]"#),
      to: "p.json")
    let disk = scratch.url.appendingPathComponent("disk/night")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    let out = scratch.url.appendingPathComponent("out")
    try FileManager.default.createSymbolicLink(atPath: out.path, withDestinationPath: "disk/night")
    let plain = scratch.url.appendingPathComponent("plain")
    let asOf = ["--as-of", "2026-11-29"]

    let run = try runTrendline(["run", pipeline.path, "--output", out.path] + asOf)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try runTrendline(["run", pipeline.path, "--output", plain.path] + asOf).status == 0)
    #expect(Self.isLink(out))
    #expect(FileManager.default.fileExists(atPath: disk.appendingPathComponent("_SUCCESS").path))
    #expect(try RunCommandTests.tree(disk) == RunCommandTests.tree(plain))

    for shard in ["0/2", "1/2"] {
      let sharded = try runTrendline(["run", pipeline.path, "--output", out.path, "--shard", shard] + asOf)
      #expect(sharded.status == 0, "\(sharded.stderr)")
    }
    let merged = try runTrendline(["merge", "--output", out.path, out.path])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(Self.isLink(out))
    #expect(FileManager.default.fileExists(atPath: disk.appendingPathComponent("shards/1-of-2/_SUCCESS").path))
  }

  /// A folder of the output that is a link where the run writes (a shard's `tables/` made a
  /// link to another folder) fails the run with exit 74, naming the link, and nothing, not even
  /// a temporary file, is written at the link's target.
  @Test func aFolderOfTheOutputThatIsALinkFailsTheRunAndNothingReachesItsTarget() throws {
    let scratch = try Scratch()
    let input = try scratch.copyUsers(["uma.json", "sam.csv"], to: "in")
    let pipeline = try scratch.write(
      ReusedFolderTests.pipeline(input: input, charts: ["volume"], formats: #"["json", "tables"]"#), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let arguments = ["run", pipeline.path, "--output", out.path, "--shard", "0/2", "--as-of", "2026-11-29"]
    let first = try runTrendline(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    let elsewhere = try scratch.write("precious", to: "elsewhere/precious.txt").deletingLastPathComponent()
    let tables = out.appendingPathComponent("shards/0-of-2/tables")
    try FileManager.default.removeItem(at: tables)
    try FileManager.default.createSymbolicLink(atPath: tables.path, withDestinationPath: elsewhere.path)

    let second = try runTrendline(arguments)
    #expect(second.status == 74, "\(second.stderr)")
    #expect(
      second.stderr.contains(
        "'\(tables.path)' is a link; Trendline does not write through links in its output. Something replaced a "
          + "folder of the output with a link: remove the link, then run again"),
      "\(second.stderr)")
    #expect(Self.contents(elsewhere) == ["precious.txt"])
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("shards/0-of-2/_SUCCESS").path))
  }

  /// Users' folders swapped for links to another folder while the run writes, over and over,
  /// as an attacker with write access to the output would: whether the run ends (exit 0) or
  /// stops at a link (exit 74), nothing is written at the links' target.
  @Test func usersFoldersSwappedForLinksMidRunLeaveNothingAtTheirTarget() throws {
    let scratch = try CrashSafetyTests.Scratch()
    let input = try CrashSafetyTests.corpus(in: scratch.url, copies: 3)
    let users = try FileManager.default.contentsOfDirectory(atPath: input.path).filter { $0 != "users.csv" }
      .map { ($0 as NSString).deletingPathExtension }.sorted()
    let elsewhere = scratch.url.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try Data("precious".utf8).write(to: elsewhere.appendingPathComponent("precious.txt"))
    let moved = scratch.url.appendingPathComponent("moved")
    try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
    let out = scratch.url.appendingPathComponent("out")

    let process = try CrashSafetyTests.start(CrashSafetyTests.arguments(input: input, output: out))
    var swaps = 0
    var next = 0
    while process.isRunning {
      let user = users[next % users.count]
      next += 1
      let folder = out.appendingPathComponent("users/" + user).path
      var status = stat()
      // A real folder, written now or soon: moved out of the way and replaced by a link.
      guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
        rename(folder, moved.appendingPathComponent("\(user)-\(next)").path) == 0
      else { continue }
      if symlink(elsewhere.path, folder) == 0 { swaps += 1 }
    }
    process.waitUntilExit()
    #expect([0, 74].contains(process.terminationStatus))
    #expect(swaps > 0, "no folder was swapped while the run wrote: the test proves nothing")
    #expect(Self.contents(elsewhere) == ["precious.txt"])
  }
}
