import Foundation
import Testing
import _TrendlineTestSupport

/// Agreement with an independent implementation: the pandas peer's outputs on a 200-user
/// generated corpus (committed in `Tests/Fixtures`, see its README) against
/// `trendline run ../shared/peers/pipeline.json` on the same corpus, compared chart by chart
/// by the peers' own comparer. Every one of the 400 files must match.
@Test(TestPaths.needsPeers) func seriesAndRadarMatchThePandasPeerOn200Users() throws {
  let peers = TestPaths.shared.appendingPathComponent("peers")
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-peers-\(UUID())")
  try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: work) }

  let corpus = work.appendingPathComponent("corpus")
  let generated = try runProcess(
    "/usr/bin/env",
    [
      "python3", peers.appendingPathComponent("gen_corpus.py").path, "--users", "200", "--seed", "1", "--out",
      corpus.path,
    ])
  try #require(generated.status == 0, "gen_corpus.py failed: \(generated.stderr)")

  let golden = work.appendingPathComponent("golden")
  try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
  let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/peers-pandas-c200-seed1-2025-11-29.tar.gz")
  let unpacked = try runProcess("/usr/bin/env", ["tar", "-xzf", fixture.path, "-C", golden.path])
  try #require(unpacked.status == 0, "tar failed: \(unpacked.stderr)")

  let out = work.appendingPathComponent("out")
  let run = try runTrendline([
    "run", peers.appendingPathComponent("pipeline.json").path, "--input", corpus.path, "--as-of", "2025-11-29",
    "--output", out.path, "--quiet",
  ])
  #expect(run.status == 0, "\(run.stderr)")

  // The peers predate `units` (SPEC 10.8), an additive key: the comparer tolerates keys only
  // Trendline writes, and the units are checked below against the corpus's users.csv instead.
  let compared = try runProcess(
    "/usr/bin/env",
    [
      "python3", peers.appendingPathComponent("compare_outputs.py").path, golden.path, out.path, "--quiet",
      "--allow-extra-keys",
    ])
  let last = compared.stdout.split(separator: "\n").last.map(String.init) ?? ""
  #expect(last == "400 passed, 0 failed", "\(compared.stdout.suffix(3000))")
  #expect(compared.status == 0)

  // Every user's outputs state the weight unit their users.csv row names (30 % pounds).
  let users = String(decoding: try Data(contentsOf: corpus.appendingPathComponent("users.csv")), as: UTF8.self)
  var pounds = 0
  for line in users.split(separator: "\n").dropFirst() {
    let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard cells.count > 2, !cells[2].isEmpty else { continue }
    let folder = out.appendingPathComponent("users/\(cells[0])")
    for chart in try FileManager.default.contentsOfDirectory(atPath: folder.path) where chart.hasSuffix(".json") {
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(chart)))
      let units = (object as? [String: Any])?["units"] as? [String: String]
      #expect(units?["weight"] == (cells[2] == "lb" ? "lb" : "kg"), "\(cells[0])/\(chart)")
    }
    if cells[2] == "lb" { pounds += 1 }
  }
  #expect(pounds > 20, "the corpus has pound users")
}
