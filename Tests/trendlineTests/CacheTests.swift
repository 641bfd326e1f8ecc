import Foundation
import Testing
import _TrendlineTestSupport

/// `trendline run --cache` end to end, as the nightly job runs it: a warm run writes what a cold
/// run writes, a changed export is read again, and a damaged cache file is rebuilt.
@Suite struct CacheTests {
  static let overview = TestPaths.pipelines.appendingPathComponent("overview.json").path

  /// SampleData's exports copied into a scratch folder, so tests may change them.
  static func input(_ scratch: RunCommandTests.Scratch) throws -> URL {
    let input = scratch.url.appendingPathComponent("in")
    try FileManager.default.copyItem(
      at: TestPaths.sampleData.appendingPathComponent("exports"), to: input)
    return input
  }

  /// Runs the overview pipeline and returns the manifest's users: id → record.
  @discardableResult
  static func run(input: URL, output: URL, asOf: String, cache: URL?, extra: [String] = []) throws
    -> [String: [String: Any]]
  {
    var arguments = [
      "run", overview, "--input", input.path, "--output", output.path, "--as-of", asOf, "--quiet",
    ]
    if let cache { arguments += ["--cache", cache.path] }
    let result = try runTrendline(arguments + extra)
    #expect(result.status == 0, "\(result.stderr)")
    let users = try RunCommandTests.manifest(output)["users"] as! [[String: Any]]
    return Dictionary(uniqueKeysWithValues: users.map { ($0["user"] as! String, $0) })
  }

  /// The manifest without what differs between two runs of one command (times, elapsed
  /// milliseconds) and the cache status.
  static func comparableManifest(_ folder: URL) throws -> String {
    var manifest = try RunCommandTests.manifest(folder)
    manifest["startedAt"] = nil
    manifest["finishedAt"] = nil
    manifest["users"] = (manifest["users"] as! [[String: Any]]).map { user in
      var user = user
      user["elapsedMs"] = nil
      user["cache"] = nil
      return user
    }
    let data = try JSONSerialization.data(
      withJSONObject: manifest, options: [.sortedKeys, .prettyPrinted])
    return String(decoding: data, as: UTF8.self)
  }

  static func cacheStatuses(_ users: [String: [String: Any]]) -> [String: String] {
    users.mapValues { $0["cache"] as? String ?? "absent" }
  }

  /// The nightly case: yesterday's run filled the cache; tonight's, with a new as-of, reads no
  /// export and writes the same bytes (charts, row-outcomes.csv, cohort files) and the same manifest
  /// counts as a run without a cache.
  @Test func warmRunWritesWhatAColdRunWrites() throws {
    let scratch = try RunCommandTests.Scratch()
    let input = try Self.input(scratch)
    let cache = scratch.url.appendingPathComponent("cache")
    let night1 = try Self.run(
      input: input, output: scratch.url.appendingPathComponent("night1"), asOf: "2026-11-28",
      cache: cache)
    #expect(Set(Self.cacheStatuses(night1).values) == ["miss"])
    #expect(night1.count == sampleUsers.count)

    let warm = scratch.url.appendingPathComponent("warm")
    let night2 = try Self.run(input: input, output: warm, asOf: "2026-11-29", cache: cache)
    #expect(Set(Self.cacheStatuses(night2).values) == ["hit"])

    let cold = scratch.url.appendingPathComponent("cold")
    let plain = try Self.run(input: input, output: cold, asOf: "2026-11-29", cache: nil)
    #expect(Set(Self.cacheStatuses(plain).values) == ["absent"])

    let coldTree = try RunCommandTests.tree(cold)
    #expect(coldTree.keys.contains("/users/alexandros/row-outcomes.csv"))
    #expect(try RunCommandTests.tree(warm) == coldTree)
    #expect(try Self.comparableManifest(warm) == Self.comparableManifest(cold))
  }

  /// A changed export is read again (miss) and the others still come from the cache; the
  /// outputs equal a cold run over the changed input.
  @Test func changedExportIsReadAgain() throws {
    let scratch = try RunCommandTests.Scratch()
    let input = try Self.input(scratch)
    let cache = scratch.url.appendingPathComponent("cache")
    let night1 = try Self.run(
      input: input, output: scratch.url.appendingPathComponent("night1"), asOf: "2026-11-29",
      cache: cache)

    // kenji gets one more workout, as a new export would have it (the file has no final newline).
    let kenji = input.appendingPathComponent("kenji.csv")
    let handle = try FileHandle(forWritingTo: kenji)
    handle.seekToEndOfFile()
    handle.write(
      Data("\n2026-11-20 18:00:00,\"Extra\",45m,\"Squat (Barbell)\",1,100.0,5.0,0,0.0,".utf8))
    handle.closeFile()

    let warm = scratch.url.appendingPathComponent("warm")
    let night2 = try Self.run(input: input, output: warm, asOf: "2026-11-29", cache: cache)
    let statuses = Self.cacheStatuses(night2)
    #expect(statuses["kenji"] == "miss")
    #expect(night2["kenji"]!["sessions"] as! Int == night1["kenji"]!["sessions"] as! Int + 1)
    #expect(statuses.filter { $0.value == "hit" }.count == sampleUsers.count - 1)

    let cold = scratch.url.appendingPathComponent("cold")
    try Self.run(input: input, output: cold, asOf: "2026-11-29", cache: nil)
    #expect(try RunCommandTests.tree(warm) == RunCommandTests.tree(cold))
    #expect(try Self.comparableManifest(warm) == Self.comparableManifest(cold))
  }

  /// Damaged and foreign cache files are rebuilt, never trusted; the outputs are those of a
  /// cold run, and the next run hits again.
  @Test func damagedCacheFilesAreRebuilt() throws {
    let scratch = try RunCommandTests.Scratch()
    let input = try Self.input(scratch)
    let cache = scratch.url.appendingPathComponent("cache")
    try Self.run(
      input: input, output: scratch.url.appendingPathComponent("night1"), asOf: "2026-11-29",
      cache: cache)

    // One byte flipped, one file cut short, one replaced by garbage, one in format version 1
    // (FNV-1a checksums; this trendline writes version 3).
    func damage(_ user: String, _ change: (inout [UInt8]) -> Void) throws {
      let url = cache.appendingPathComponent(user + ".tlcache")
      var bytes = [UInt8](try Data(contentsOf: url))
      change(&bytes)
      try Data(bytes).write(to: url)
    }
    try damage("kenji") { $0[$0.count - 10] ^= 0xFF }
    try damage("mason") { $0.removeLast($0.count / 2) }
    try damage("sam") { $0 = Array("garbage".utf8) }
    try damage("tom") { $0[8] = 1 }
    // Another user's valid entry under uma's name.
    try FileManager.default.removeItem(at: cache.appendingPathComponent("uma.tlcache"))
    try FileManager.default.copyItem(
      at: cache.appendingPathComponent("lena.tlcache"),
      to: cache.appendingPathComponent("uma.tlcache"))

    let warm = scratch.url.appendingPathComponent("warm")
    let statuses = Self.cacheStatuses(
      try Self.run(input: input, output: warm, asOf: "2026-11-29", cache: cache))
    #expect(
      statuses.filter { $0.value == "rebuilt" }.keys.sorted() == [
        "kenji", "mason", "sam", "tom", "uma",
      ])
    #expect(statuses.filter { $0.value == "hit" }.count == sampleUsers.count - 5)

    let cold = scratch.url.appendingPathComponent("cold")
    try Self.run(input: input, output: cold, asOf: "2026-11-29", cache: nil)
    #expect(try RunCommandTests.tree(warm) == RunCommandTests.tree(cold))

    let again = try Self.run(
      input: input, output: scratch.url.appendingPathComponent("again"), asOf: "2026-11-29",
      cache: cache)
    #expect(Set(Self.cacheStatuses(again).values) == ["hit"])
  }

  /// `--cache-verify` hashes every export and still hits; on its own it is a usage error.
  @Test func verifyNeedsCache() throws {
    let scratch = try RunCommandTests.Scratch()
    let input = try Self.input(scratch)
    let cache = scratch.url.appendingPathComponent("cache")
    try Self.run(
      input: input, output: scratch.url.appendingPathComponent("night1"), asOf: "2026-11-29",
      cache: cache)
    let verified = try Self.run(
      input: input, output: scratch.url.appendingPathComponent("night2"), asOf: "2026-11-29",
      cache: cache,
      extra: ["--cache-verify"])
    #expect(Set(Self.cacheStatuses(verified).values) == ["hit"])

    let alone = try runTrendline(["run", Self.overview, "--cache-verify"])
    #expect(alone.status == 2)
    #expect(alone.stderr.contains("--cache-verify needs --cache DIR"))
    let help = try runTrendline(["run", "--help"])
    #expect(help.stdout.contains("--cache DIR"))
  }
}
