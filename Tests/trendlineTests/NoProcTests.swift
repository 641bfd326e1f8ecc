import Foundation
import Testing
import _TrendlineTestSupport

/// `trendline` in a process that has no /proc (a minimal container, a sandbox that mounts none):
/// its arguments come from the argv the C runtime gave it, not from /proc/self/cmdline, where
/// Swift's `CommandLine.arguments` reads them on Linux. Without this every command printed its
/// usage and exited 2.
@Suite struct NoProcTests {
  /// Whether this process may make a mount namespace and hide /proc in it (root in a container
  /// that permits it, with util-linux's `unshare`).
  static let canHideProc: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
      let probe = try? runProcess(
        "/usr/bin/unshare", ["-m", "sh", "-c", "mount -t tmpfs tmpfs /proc && ! test -e /proc/self"])
    else { return false }
    return probe.status == 0
  }()

  @Test(.enabled(if: canHideProc, "hiding /proc needs unshare, root and a container that permits mounts"))
  func validateRunsWithoutProc() throws {
    let pipeline = TestPaths.pipelines.appendingPathComponent("overview.json").path
    let binary = TestPaths.trendlineBinary.path
    let result = try runProcess(
      "/usr/bin/unshare",
      [
        "-m", "sh", "-c", #"mount -t tmpfs tmpfs /proc && test ! -e /proc/self && exec "$0" validate "$1""#, binary,
        pipeline,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("pipeline 'overview' (version 1)"), "\(result.stdout.prefix(200))")
  }

  /// A whole run without /proc writes what a run with it writes, and identifies its build the
  /// same way (from `argv[0]`, where Foundation's `Bundle.main` trapped with SIGILL).
  @Test(.enabled(if: canHideProc, "hiding /proc needs unshare, root and a container that permits mounts"))
  func aRunWithoutProcWritesWhatARunWithItWrites() throws {
    let scratch = try RunCommandTests.Scratch()
    let pipeline = TestPaths.pipelines.appendingPathComponent("overview.json").path
    let with = scratch.url.appendingPathComponent("with")
    let without = scratch.url.appendingPathComponent("without")
    #expect(try runTrendline(["run", pipeline, "--output", with.path, "--quiet"]).status == 0)
    let result = try runProcess(
      "/usr/bin/unshare",
      [
        "-m", "sh", "-c", #"mount -t tmpfs tmpfs /proc && exec "$0" run "$1" --output "$2" --quiet"#,
        TestPaths.trendlineBinary.path, pipeline, without.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    // Every file but the manifest, which records times; its inputs, the build included, agree.
    #expect(try RunCommandTests.tree(with) == RunCommandTests.tree(without))
    let identities = try [with, without].map { try RunCommandTests.manifest($0)["inputIdentity"] as? String }
    #expect(identities[0] != nil)
    #expect(identities[0] == identities[1])
  }
}
