import Foundation
import Testing
import TrendlineSupport
import _TrendlineTestSupport

/// A nightly job killed at any moment, or writing to a disk that is full or read-only, loses
/// nothing: no file is ever half-written under its final name, a re-run repairs everything,
/// and the input is never touched (SPEC 7, "Every file is written to a temporary name").
@Suite(.serialized) struct CrashSafetyTests {

  /// A scratch folder for one test, removed at the end.
  final class Scratch {
    let url: URL
    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-crash-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  /// SampleData's users, each copied `copies` times under new ids, so a run lasts long enough
  /// to be killed in the middle of many different writes.
  static func corpus(in folder: URL, copies: Int) throws -> URL {
    let input = folder.appendingPathComponent("in")
    let exports = TestPaths.sampleData.appendingPathComponent("exports")
    let fm = FileManager.default
    try fm.createDirectory(at: input, withIntermediateDirectories: true)
    var settings = try String(contentsOf: exports.appendingPathComponent("users.csv"), encoding: .utf8)
    let lines = settings.split(separator: "\n").dropFirst()
    for copy in 1..<copies {
      for line in lines {
        let user = line.prefix { $0 != "," }
        settings += "\(user)-\(copy)\(line.dropFirst(user.count))\n"
      }
    }
    try Data(settings.utf8).write(to: input.appendingPathComponent("users.csv"))
    for name in try fm.contentsOfDirectory(atPath: exports.path) where name != "users.csv" && !name.hasPrefix(".") {
      let id = (name as NSString).deletingPathExtension
      let ext = (name as NSString).pathExtension
      for copy in 0..<copies {
        let newName = copy == 0 ? name : ext.isEmpty ? "\(id)-\(copy)" : "\(id)-\(copy).\(ext)"
        try fm.copyItem(at: exports.appendingPathComponent(name), to: input.appendingPathComponent(newName))
      }
    }
    return input
  }

  /// Every file under `folder`, relative path → bytes.
  static func tree(_ folder: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    else { return out }
    for case let url as URL in enumerator
    where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
      out[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))] = try Data(
        contentsOf: url)
    }
    return out
  }

  static let pipeline = TestPaths.pipelines.appendingPathComponent("overview.json").path

  static func arguments(input: URL, output: URL) -> [String] {
    [
      "run", pipeline, "--input", input.path, "--output", output.path, "--as-of", "2026-11-29", "--quiet", "--jobs",
      "2",
    ]
  }

  /// Starts `trendline run` without waiting for it.
  static func start(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = TestPaths.trendlineBinary
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = "UTC"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Kills `trendline run` with SIGKILL at 20 seeded random moments, each time into the same
  /// output folder, as a nightly job killed and restarted would. After each kill every file
  /// under a final name is whole: byte-identical to the same file of an uninterrupted run
  /// (the outputs do not depend on the run), and when `_SUCCESS` exists the manifest lists
  /// every user. A last run then leaves exactly the files of an uninterrupted run.
  @Test func killedRunsLeaveNoPartialFileAndReRunRepairs() throws {
    let scratch = try Scratch()
    let input = try Self.corpus(in: scratch.url, copies: 2)
    let inputBefore = try Self.tree(input)
    let users = try FileManager.default.contentsOfDirectory(atPath: input.path).filter { $0 != "users.csv" }.count

    let reference = scratch.url.appendingPathComponent("reference")
    let clock = ContinuousClock()
    var began = clock.now
    let first = try runTrendline(Self.arguments(input: input, output: reference))
    var duration = clock.now - began
    try #require(first.status == 0, "\(first.stderr)")
    // The kill moments are fractions of a run's length: the shorter of two runs, so that a
    // first run slowed by tests running beside it does not put most kills after the end.
    began = clock.now
    _ = try runTrendline(Self.arguments(input: input, output: scratch.url.appendingPathComponent("timed")))
    duration = min(duration, clock.now - began)
    let expected = try Self.tree(reference).filter { $0.key != "/manifest.json" }

    let output = scratch.url.appendingPathComponent("killed")
    var random = SplitMix64(seed: 20_261_129)  // the kill moments: random, the same every run
    var killedBeforeTheEnd = 0
    for round in 0..<20 {
      let delay = duration * random.unit()
      let process = try Self.start(Self.arguments(input: input, output: output))
      Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
      sendSIGKILL(process.processIdentifier)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }

      for (path, data) in try Self.tree(output) {
        let name = (path as NSString).lastPathComponent
        // A temporary name, or a compared chart staged until the cohort is known: never read.
        if name.hasPrefix(".tmp-") || name.hasPrefix(".staged-") { continue }
        if path == "/manifest.json" {
          // Written whole or not at all: it always parses.
          #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "kill \(round): manifest.json is partial")
          continue
        }
        #expect(expected[path] == data, "kill \(round): \(path) differs from an uninterrupted run's")
      }
      let success = output.appendingPathComponent("_SUCCESS")
      if FileManager.default.fileExists(atPath: success.path) {
        let manifestData = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: manifestData) as? [String: Any]
        #expect((manifest?["users"] as? [Any])?.count == users, "kill \(round): _SUCCESS with an incomplete manifest")
      }
    }
    // Most kills must land in the middle of a run, or the test proves little.
    #expect(killedBeforeTheEnd >= 10, "only \(killedBeforeTheEnd) of 20 kills landed before the run ended")

    let last = try runTrendline(Self.arguments(input: input, output: output))
    #expect(last.status == 0, "\(last.stderr)")
    let repaired = try Self.tree(output).filter { $0.key != "/manifest.json" }
    #expect(repaired.keys.sorted() == expected.keys.sorted())
    #expect(repaired == expected)
    #expect(try Self.tree(input) == inputBefore, "the input was modified")
  }

  /// Whether this machine lets the tests mount a file system (root in a container may not).
  static let canMount: Bool = {
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-mount-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: probe) }
    guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil,
      let mounted = try? runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]),
      mounted.status == 0
    else { return false }
    _ = try? runProcess("/bin/umount", [probe.path])
    return true
  }()

  /// What a run says and leaves when it cannot write its output: exit 74, a message naming
  /// the path and what to do, and the input untouched.
  static func expectOutputFailure(output: URL, reason: String) throws {
    let scratch = try Scratch()
    let input = try Self.corpus(in: scratch.url, copies: 1)
    let before = try Self.tree(input)
    let result = try runTrendline(Self.arguments(input: input, output: output))
    #expect(result.status == 74, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("error: cannot write '\(output.path)"), "\(result.stderr)")
    #expect(result.stderr.contains(reason), "\(result.stderr)")
    #expect(
      result.stderr.contains("Check that the output folder is writable and the disk has space, then run again"),
      "\(result.stderr)")
    #expect(try Self.tree(input) == before, "the input was modified")
  }

  /// `--output` under a regular file: every OS and every user (root too) fails with ENOTDIR.
  @Test func outputUnderAFileExits74() throws {
    let scratch = try Scratch()
    let file = scratch.url.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    try Self.expectOutputFailure(output: file.appendingPathComponent("out"), reason: "Not a directory")
  }

  /// A full disk: a 64 KiB tmpfs fills up part way through the users.
  @Test(.enabled(if: canMount, "mounting a tmpfs needs root and a permitting container"))
  func fullOutputDiskExits74() throws {
    let scratch = try Scratch()
    let disk = scratch.url.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    try #require(try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path]).status == 0)
    defer { _ = try? runProcess("/bin/umount", [disk.path]) }
    try Self.expectOutputFailure(output: disk.appendingPathComponent("out"), reason: "No space left on device")
    // Nothing half-written is left under a final name, and the run is not marked complete.
    let left = try Self.tree(disk.appendingPathComponent("out"))
    #expect(left["/_SUCCESS"] == nil)
    for (path, data) in left where path.hasSuffix(".json") && !(path as NSString).lastPathComponent.hasPrefix(".tmp-") {
      #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(path) is partial")
    }
  }

  /// A read-only output folder: a read-only bind mount, which stops root too.
  @Test(.enabled(if: canMount, "a bind mount needs root and a permitting container"))
  func readOnlyOutputExits74() throws {
    let scratch = try Scratch()
    let folder = scratch.url.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try #require(try runProcess("/bin/mount", ["--bind", folder.path, folder.path]).status == 0)
    defer { _ = try? runProcess("/bin/umount", [folder.path]) }
    try #require(try runProcess("/bin/mount", ["-o", "remount,ro,bind", folder.path]).status == 0)
    try Self.expectOutputFailure(output: folder.appendingPathComponent("out"), reason: "Read-only file system")
  }
}

/// SIGKILL, which no process can catch: what a scheduler's hard stop or the OOM killer sends.
private func sendSIGKILL(_ pid: Int32) {
  #if canImport(Glibc)
    _ = Glibc.kill(pid, SIGKILL)
  #elseif canImport(Darwin)
    _ = Darwin.kill(pid, SIGKILL)
  #endif
}
