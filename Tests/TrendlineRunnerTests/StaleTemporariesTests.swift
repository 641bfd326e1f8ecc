import Foundation
import Testing

@testable import TrendlineRunner

/// Temporaries of writers that are gone are removed on any host: this host's by their dead
/// process, another host's once older than `AtomicFile.abandonedAfter`.
@Suite struct StaleTemporariesTests {
  func folder() throws -> URL {
    // Free of links (the temporary folder is under `/var` on macOS), as a run's output folder is.
    let url = OutputSweep.resolvedFolder(FileManager.default.temporaryDirectory)
      .appendingPathComponent("stale-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func touch(_ url: URL, age: TimeInterval) throws {
    try Data("x".utf8).write(to: url)
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
  }

  @Test func abandonedTemporariesGoAndLiveOnesStay() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let prefix = AtomicFile.temporaryPrefix
    // 4 194 305 is above Linux's largest pid (2²²), so no process has it.
    let deadHere = root.appendingPathComponent("\(prefix)4194305@\(AtomicFile.hostTag)-0-a.json")
    let aliveHere = root.appendingPathComponent("\(prefix)\(getpid())@\(AtomicFile.hostTag)-0-b.json")
    let oldElsewhere = root.appendingPathComponent("\(prefix)77@00000000deadbeef-0-c.json")
    let newElsewhere = root.appendingPathComponent("\(prefix)77@00000000deadbeef-1-d.json")
    let chart = root.appendingPathComponent("e.json")
    try touch(deadHere, age: 10)
    try touch(aliveHere, age: 10)
    try touch(oldElsewhere, age: AtomicFile.abandonedAfter + 60)
    try touch(newElsewhere, age: 60)
    try touch(chart, age: AtomicFile.abandonedAfter + 60)
    AtomicFile.removeStaleTemporaries(in: root.path)
    let left = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    #expect(left == [aliveHere, newElsewhere, chart].map(\.lastPathComponent).sorted())
  }

  /// A shard cleans the folders it writes, not every user's: another user's leftover stays
  /// until a run over all users or the merge.
  @Test func aShardCleansOnlyItsOwnUsersFolders() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let dead = "\(AtomicFile.temporaryPrefix)4194305@\(AtomicFile.hostTag)-0-volume.json"
    let mine = root.appendingPathComponent("users/ada")
    let theirs = root.appendingPathComponent("users/bob")
    for user in [mine, theirs] {
      try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
      try touch(user.appendingPathComponent(dead), age: 10)
      try touch(user.appendingPathComponent("volume.json"), age: 10)
    }
    try OutputSweep.removeAll(in: mine.path, except: ["volume.json"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == ["volume.json"])
    #expect(FileManager.default.fileExists(atPath: theirs.appendingPathComponent(dead).path))
    AtomicFile.removeStaleTemporaries(under: root)
    #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.path) == ["volume.json"])
  }
}
