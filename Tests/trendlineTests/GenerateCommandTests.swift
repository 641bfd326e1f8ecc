import Foundation
import Testing
import _TrendlineTestSupport

/// `trendline generate` writes the same bytes for the same arguments, in every format, and
/// the overview pipeline reads all of it: every user succeeds, and no row is rejected.
@Test func generatedCorpusIsDeterministicAndReadsCleanly() throws {
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-generate-\(UUID())")
  defer { try? FileManager.default.removeItem(at: work) }
  for name in ["a", "b"] {
    let result = try runTrendline([
      "generate", "--users", "14", "--seed", "7", "--sessions", "30", "--output",
      work.appendingPathComponent(name).path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
  }
  let names = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("a").path).sorted()
  #expect(names.count == 15)
  #expect(Set(names.map { ($0 as NSString).pathExtension }) == ["csv", "json", "ndjson"])
  for name in names {
    #expect(
      try Data(contentsOf: work.appendingPathComponent("a/\(name)"))
        == Data(contentsOf: work.appendingPathComponent("b/\(name)")), "\(name)")
  }
  let out = work.appendingPathComponent("out")
  let run = try runTrendline([
    "run", TestPaths.pipelines.appendingPathComponent("overview.json").path, "--input",
    work.appendingPathComponent("a").path, "--output", out.path, "--as-of", "2026-11-29", "--quiet",
  ])
  #expect(run.status == 0, "\(run.stderr)")
  let manifest =
    try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
    as! [String: Any]
  let totals = manifest["totals"] as! [String: Int]
  #expect(totals["usersOK"] == 14)
  #expect(totals["rowsRejected"] == 0)
  #expect(totals["sessions"] == 14 * 30)
}

/// `generate --output` aimed at a folder of real exports is refused (exit 2) and writes
/// nothing: it overwrote the folder's `users.csv` (SPEC 11.7). An earlier corpus is written
/// over, as the benchmarks regenerate theirs.
@Test func generateRefusesAFolderItDidNotWrite() throws {
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-generate-\(UUID())")
  defer { try? FileManager.default.removeItem(at: work) }
  let real = work.appendingPathComponent("real")
  try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
  let settings = "user,timeZone\nalice,Europe/Oslo\n"
  try Data(settings.utf8).write(to: real.appendingPathComponent("users.csv"))
  try Data("Date,Exercise\n".utf8).write(to: real.appendingPathComponent("alice.csv"))
  let refused = try runTrendline(["generate", "--users", "2", "--seed", "1", "--output", real.path])
  #expect(refused.status == 2)
  #expect(
    refused.stderr.contains("holds files generate did not write ('alice.csv', 'users.csv'); nothing was written"),
    "\(refused.stderr)")
  #expect(try String(contentsOf: real.appendingPathComponent("users.csv"), encoding: .utf8) == settings)
  #expect(!FileManager.default.fileExists(atPath: real.appendingPathComponent("g00001.csv").path))

  let corpus = work.appendingPathComponent("corpus")
  for _ in 0..<2 {
    let result = try runTrendline(["generate", "--users", "2", "--seed", "1", "--output", corpus.path])
    #expect(result.status == 0, "\(result.stderr)")
  }

  // A link under one of generate's own names is not generate's: its target is left alone.
  let target = work.appendingPathComponent("precious.txt")
  try Data("mine\n".utf8).write(to: target)
  try FileManager.default.removeItem(at: corpus.appendingPathComponent("g00001.csv"))
  try FileManager.default.createSymbolicLink(
    at: corpus.appendingPathComponent("g00001.csv"), withDestinationURL: target)
  let linked = try runTrendline(["generate", "--users", "2", "--seed", "1", "--output", corpus.path])
  #expect(linked.status == 2)
  #expect(try String(contentsOf: target, encoding: .utf8) == "mine\n")
}

/// Flags that would do nothing, or far too much, are refused before anything happens: a
/// generate of 1e9 users wrote 16 GB a minute; `--confirm-removal` alone confirmed nothing.
@Test(arguments: [
  (
    ["generate", "--users", "1000000000", "--seed", "1", "--output", "g"],
    "--users takes a whole number from 1 to 10000000"
  ),
  (
    ["generate", "--users", "3", "--seed", "1", "--sessions", "20000", "--output", "g"],
    "--sessions takes a whole number from 1 to 10000"
  ),
  (["run", "p.json", "--confirm-removal"], "--confirm-removal confirms --remove-departed; give both, or neither"),
  (
    ["merge", "--output", "o", "--confirm-removal", "o"],
    "--confirm-removal confirms --remove-departed; give both, or neither"
  ),
])
func outOfRangeAndIdleFlagsAreUsageErrors(arguments: [String], message: String) throws {
  let result = try runTrendline(arguments)
  #expect(result.status == 2)
  #expect(result.stderr.contains(message), "\(result.stderr)")
  #expect(!FileManager.default.fileExists(atPath: "g"))
}
