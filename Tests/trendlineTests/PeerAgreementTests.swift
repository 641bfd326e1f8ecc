import Foundation
import Testing
import _TrendlineTestSupport

/// Agreement with an independent implementation: the pandas peer's outputs on a 200-user
/// generated corpus (committed in `Tests/Fixtures`, see its README) against
/// `trendline run ../shared/peers/pipeline.json` on the same corpus, compared chart by chart
/// by the peers' own comparer, after `Tests/Fixtures/peer-rules-v2.py` has brought the peer's
/// trends and averages to SPEC 10.6. Every one of the 400 files must match.
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

  // The peer follows the rules before SPEC 10.6; the fixture's script applies 10.6 to its own
  // values (a trend and an average of complete buckets only), so the changed fields are
  // compared too. Keys the peer does not write (`elapsed`, `id`, `units`, …) are
  // additive; the units are checked below against the corpus's users.csv instead.
  let expected = work.appendingPathComponent("expected")
  let rewritten = try runProcess(
    "/usr/bin/env",
    [
      "python3", TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/peer-rules-v2.py").path, golden.path,
      expected.path,
    ])
  try #require(rewritten.status == 0, "peer-rules-v2.py failed: \(rewritten.stderr)")
  let compared = try runProcess(
    "/usr/bin/env",
    [
      "python3", peers.appendingPathComponent("compare_outputs.py").path, expected.path, out.path, "--quiet",
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
