import Foundation
import Testing
import _TrendlineTestSupport

/// The hostile corpus through the binary, as a nightly run meets it: every bad file fails only
/// its own user, with the file and line, the accounting identity holds for every file read,
/// and memory stays bounded whatever the input.
@Suite struct HostileRunTests {
  final class Scratch {
    let url: URL
    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-hostile-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  static let catalog = TestPaths.catalogFile.path
  static let hostile = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/hostile")

  static func pipeline(input: URL, limits: String = "{}") -> String {
    """
    {
      "version": 1,
      "name": "hostile",
      "source": {"input": "\(input.path)", "catalog": "\(catalog)", "limits": \(limits)},
      "charts": {"volume": [{"bucket": {"range": "all", "measures": ["sessions", "volumeKg"]}}]}
    }
    """
  }

  static func manifestUsers(_ out: URL) throws -> [[String: Any]] {
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
    return (manifest as? [String: Any])?["users"] as? [[String: Any]] ?? []
  }

  /// Peak resident memory of the largest child process so far, in MiB.
  static func childPeakMiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return usage.ru_maxrss / 1024  // kilobytes on Linux
  }

  /// Every committed hostile file as a user of its own, in one run: the run finishes, each
  /// user either fails with a message that starts with its file's name, or is written with
  /// `rowsRead = rowsAccepted + rowsRejected + rowsDuplicate + rowsIgnored` for each file.
  @Test func everyHostileFileFailsOnlyItsUser() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try FileManager.default.copyItem(at: Self.hostile, to: input)
    let pipeline = scratch.url.appendingPathComponent("p.json")
    try Data(Self.pipeline(input: input).utf8).write(to: pipeline)
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29", "--quiet"])
    #expect(result.status == 1, "\(result.stderr)")
    let users = try Self.manifestUsers(out)
    let files = try FileManager.default.contentsOfDirectory(atPath: input.path)
    #expect(users.count == files.count)
    for user in users {
      let id = user["user"] as? String ?? "?"
      if user["status"] as? String == "failed" {
        let message = user["message"] as? String ?? ""
        #expect(message.hasPrefix(id + "."), "\(id): \(message)")
        continue
      }
      for file in user["files"] as? [[String: Any]] ?? [] {
        let count = { (key: String) in file[key] as? Int ?? -1 }
        #expect(
          count("rowsRead") == count("rowsAccepted") + count("rowsRejected") + count("rowsDuplicate")
            + count("rowsIgnored"),
          "\(id): accounting")
      }
    }
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("_SUCCESS").path))
  }

  /// The generated giants in one run, with `source.limits.maxFileMB: 1`: a 10 MB field, 100,000
  /// columns, JSON 100,000 deep and a 2 MB export each fail or lose only their own row, with
  /// the limit named; the run's peak memory stays far below the inputs' worst case.
  @Test func generatedGiantsStayWithinLimits() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let header = HostileLargeShapes.strongHeader
    let row = HostileLargeShapes.strongRow
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: input.appendingPathComponent(name))
    }
    try write("wide.csv", header + (0..<100_000).map { ",c\($0)" }.joined() + "\n" + row + "\n")
    try write(
      "deep.json",
      "{\"sessions\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}")
    try write("big.csv", header + "\n" + String(repeating: row + "\n", count: 25_000))
    try write("ok.csv", header + "\n" + row + "\n")
    // Under the 1 MB file limit only as a file of 0.95 MB: the field is rejected, its row lost
    // (1 row in 2, which the pipeline's maxRejectedShare allows).
    let field = String(repeating: "x", count: 1_000_000)
    try write("field.csv", header + "\n" + row + "\n" + row.replacingOccurrences(of: "Evening", with: field) + "\n")

    let pipeline = scratch.url.appendingPathComponent("p.json")
    try Data(Self.pipeline(input: input, limits: #"{"maxFileMB": 1, "maxFieldKB": 512, "maxRejectedShare": 0.5}"#).utf8)
      .write(to: pipeline)
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29", "--quiet"])
    #expect(result.status == 1, "\(result.stderr)")
    let expected = [
      "user 'big' failed: big.csv:1:1: error: the file is 1.8 MB, over the limit of 1 MB; "
        + "raise source.limits.maxFileMB to read it",
      "user 'deep' failed: deep.json:1:525: error: nesting deeper than 512 levels",
      "user 'wide' failed: wide.csv:1:1: error: the header has more than 1000 columns, over the limit; "
        + "raise source.limits.maxColumns to read the file",
    ]
    for line in expected { #expect(result.stderr.contains(line), "\(result.stderr)") }
    let users = try Self.manifestUsers(out)
    let byID = Dictionary(uniqueKeysWithValues: users.map { ($0["user"] as? String ?? "", $0) })
    #expect(byID["ok"]?["status"] as? String == "ok")
    #expect(byID["field"]?["status"] as? String == "ok")
    #expect(byID["field"]?["rowsRejected"] as? Int == 1)
    #expect(Self.childPeakMiB() < 600, "peak memory \(Self.childPeakMiB()) MiB")
  }
}

/// Shapes shared by the generated-input tests.
enum HostileLargeShapes {
  static let strongHeader =
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
  static let strongRow = "2025-01-08 13:04:52,\"Evening\",1h 1m,\"Bench Press (Barbell)\",1,60.0,5,0,0,,,"
}
