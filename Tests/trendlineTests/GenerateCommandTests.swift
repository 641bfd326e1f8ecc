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
