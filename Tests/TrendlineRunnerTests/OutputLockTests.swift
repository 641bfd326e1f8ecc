import Foundation
import Testing
import _TrendlineTestSupport

@testable import TrendlineRunner

/// One writer an output folder (``OutputLock``): a run over all users or a merge holds the
/// whole folder, a shard its own share of it. Record locks on an open file description conflict
/// within one process too (Linux), so one test process can play both writers.
@Suite struct OutputLockTests {
  static func folder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-lock-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  #if os(Linux)
    @Test func shardsShareAFolderAndNothingElseDoes() throws {
      let folder = try Self.folder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let zero = try #require(try OutputLock.acquire(folder, shard: Shard(index: 0, count: 2)))
      let one = try #require(try OutputLock.acquire(folder, shard: Shard(index: 1, count: 2)))
      #expect(throws: OutputLock.Held.self) { try OutputLock.acquire(folder, shard: Shard(index: 1, count: 2)) }
      #expect(throws: OutputLock.Held.self) { try OutputLock.acquire(folder, shard: nil) }
      zero.release()
      one.release()
      let whole = try #require(try OutputLock.acquire(folder, shard: nil))
      #expect(throws: OutputLock.Held.self) { try OutputLock.acquire(folder, shard: Shard(index: 0, count: 2)) }
      #expect(throws: OutputLock.Held.self) { try OutputLock.acquire(folder, shard: nil) }
      whole.release()
      try #require(try OutputLock.acquire(folder, shard: nil)).release()
    }

    /// A run started into a folder another process writes is refused, exit 2, and writes nothing
    /// (two runs at once trapped one of them and mixed their files).
    @Test func aRunIntoAFolderBeingWrittenIsRefused() throws {
      let folder = try Self.folder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let held = try #require(try OutputLock.acquire(folder, shard: nil))
      defer { held.release() }
      let result = try runTrendline([
        "run", TestPaths.pipelines.appendingPathComponent("overview.json").path, "--output", folder, "--as-of",
        "2026-11-29", "--quiet",
      ])
      #expect(result.status == 2)
      #expect(
        result.stderr.contains(
          "another trendline process (a run, a shard or a merge) is writing '\(folder)' now; wait for it to finish, "
            + "or give another output folder"), "\(result.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [OutputSweep.markerName])
    }
  #endif
}
