import Foundation
import Testing

/// Where the repository and its neighbours are, for tests that read real files.
///
/// Tests find files from their own source location, not the working directory, so
/// `swift test` works from any folder and from a fresh clone.
public enum TestPaths {
  /// The package root (the folder holding `Package.swift`).
  public static let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    // Tests/_TrendlineTestSupport/Paths.swift → three levels up.
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
  }()

  public static let sampleData = packageRoot.appendingPathComponent("SampleData")
  public static let pipelines = packageRoot.appendingPathComponent("Pipelines")

  /// A pipeline's own catalog (`source.catalog`), for the tests of reading one: the 27 muscle
  /// groups and a hundred exercises. Pipelines without `source.catalog` use the built-in one.
  public static let catalogFile = packageRoot.appendingPathComponent("Tests/Fixtures/catalog.json")

  /// `../shared`, beside the checkout: the conformance suites, real exports and peers. It is
  /// reference material, not part of the repository: a clone with nothing beside it has none,
  /// and the tests that read it skip (``TestPaths/sharedExists``).
  public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

  /// Whether `../shared/<path>` is there, for `.enabled(if:)` traits: a bare clone passes, and
  /// the skip says what was missing.
  public static func sharedExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: shared.appendingPathComponent(path).path)
  }

  /// The trait of a test that reads `../shared/<path>`: it runs when the folder is there and
  /// is skipped, saying what is missing, in a clone with nothing beside it.
  public static func needsShared(_ path: String) -> ConditionTrait {
    .enabled(
      if: sharedExists(path),
      Comment(rawValue: "needs ../shared/\(path) beside the checkout, which a bare clone has not"))
  }

  /// The trait of a test that runs the peers' Python scripts: it needs both.
  public static let needsPeers: ConditionTrait = .enabled(
    if: sharedExists("peers/gen_corpus.py") && hasPython3,
    "needs ../shared/peers beside the checkout and python3 on the PATH")

  /// Whether `python3` runs here, for the tests that drive the peers' Python scripts.
  public static let hasPython3: Bool = {
    guard let result = try? runProcess("/usr/bin/env", ["python3", "-c", "pass"]) else { return false }
    return result.status == 0
  }()

  /// The built `trendline` binary, next to the test bundle in the build folder.
  public static var trendlineBinary: URL {
    let bundle = Bundle.main.bundleURL
    var candidates = [bundle.deletingLastPathComponent().appendingPathComponent("trendline")]
    candidates.append(bundle.appendingPathComponent("trendline"))
    for dir in ["debug", "release"] {
      candidates.append(packageRoot.appendingPathComponent(".build/\(dir)/trendline"))
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
  }

  /// Reads a file's bytes. A missing file fails the calling test with its path instead of
  /// stopping the whole run: a test whose file may be absent (one in `../shared`) is skipped
  /// by its trait before it gets here.
  public static func bytes(_ url: URL) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw MissingFixture(path: url.path)
    }
    return [UInt8](data)
  }
}

/// A test's input file that is not there.
public struct MissingFixture: Error, CustomStringConvertible {
  public var path: String
  public var description: String { "test fixture missing: \(path)" }
}

/// The users of `SampleData/exports`, sorted: every entry but `users.csv` and hidden ones.
public let sampleUsers: [String] = {
  let folder = TestPaths.sampleData.appendingPathComponent("exports").path
  let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
  return names.filter { $0 != "users.csv" && !$0.hasPrefix(".") }.map { ($0 as NSString).deletingPathExtension }
    .sorted()
}()

/// The result of running the `trendline` binary.
public struct CommandResult: Sendable {
  public var status: Int32
  public var stdout: String
  public var stderr: String
}

/// Runs the built `trendline` binary with arguments, with `TZ` pinned so output never depends on
/// the machine's zone.
public func runTrendline(_ arguments: [String], environment extra: [String: String] = [:]) throws
  -> CommandResult
{
  try runProcess(TestPaths.trendlineBinary.path, arguments, environment: extra)
}

/// Runs a program and collects its exit status and output.
public func runProcess(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:])
  throws -> CommandResult
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  var environment = ProcessInfo.processInfo.environment
  environment["TZ"] = "UTC"
  for (key, value) in extra { environment[key] = value }
  process.environment = environment
  let outPipe = Pipe()
  let errPipe = Pipe()
  process.standardOutput = outPipe
  process.standardError = errPipe
  try process.run()
  // Read both pipes before waiting, so a large output cannot fill a pipe and deadlock.
  let group = DispatchGroup()
  nonisolated(unsafe) var outData = Data()
  nonisolated(unsafe) var errData = Data()
  group.enter()
  DispatchQueue.global().async {
    outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  errData = errPipe.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return CommandResult(
    status: process.terminationStatus,
    stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self))
}
