import Foundation
import Testing
import _TrendlineTestSupport

/// Pinned to one CPU, as Slurm pins a one-CPU task, `trendline run` uses one worker without
/// being told, and its manifest says so.
@Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset"), "needs taskset (util-linux)"))
func aRunPinnedToOneCPUUsesOneWorker() throws {
  let scratch = try RunCommandTests.Scratch()
  let out = scratch.url.appendingPathComponent("out")
  let run = try runProcess(
    "/usr/bin/taskset",
    [
      "-c", "0", TestPaths.trendlineBinary.path, "run",
      TestPaths.pipelines.appendingPathComponent("overview.json").path,
      "--as-of", "2026-12-01", "--output", out.path, "--quiet",
    ])
  try #require(run.status == 0, "\(run.stderr)")
  let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
  #expect((manifest as? [String: Any])?["jobs"] as? Int == 1)
}
