import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineStages
import TrendlineSupport

/// Which shards of one night's run are done, read from the output folder itself.
///
/// A driver that re-runs failed shards must not trust the scheduler's word alone: a task the
/// scheduler calls successful may have written into another folder, a node may have died after
/// the task ended, and a re-run driver (the same date, the next morning) has no scheduler
/// state at all. The output folder is the truth `merge` will read, so the driver asks it:
/// a shard is complete when its folder passes merge's own checks of one shard
/// (``Merger/load(_:)``) and belongs to this pipeline, this as-of, this shard count and the
/// input as it is now. Merge checks more of the night as a whole (that no shard appears twice,
/// the output folder); the driver runs it next, and it names what it refuses.
public enum ShardStatus {
  /// What one shard folder holds, as `merge` would judge it.
  public enum State: Equatable, Sendable {
    /// Finished for this run: merge will take it. `failedUsers` failed on their data, which a
    /// re-run cannot change.
    case complete(users: Int, failedUsers: Int)
    /// Not complete; `reason` says why, in words for the operator (never run, killed part way,
    /// another night's, damaged).
    case toRun(reason: String)
  }

  /// The run a shard must belong to.
  public struct Run: Sendable {
    public var pipeline: Pipeline
    /// `--input`, or nil for the pipeline's `source.input`.
    public var input: URL?
    public var output: URL
    /// As given to every task: `2026-12-01` or an instant.
    public var asOfText: String
    public var count: Int
    /// The version the tasks record; a shard of another build runs again.
    public var toolVersion: String
    /// Threads reading the input to identify it.
    public var jobs: Int
    /// Whether the tasks ran with `--strict`, which decides which users fail.
    public var strict: Bool
    /// The night's listing the tasks were given, whose users and files are the night's.
    public var listing: URL?

    public init(
      pipeline: Pipeline, input: URL?, output: URL, asOfText: String, count: Int, toolVersion: String,
      strict: Bool = false, jobs: Int = CPUAllocation.usable, listing: URL? = nil
    ) {
      self.listing = listing
      self.pipeline = pipeline
      self.input = input
      self.output = output
      self.asOfText = asOfText
      self.count = count
      self.toolVersion = toolVersion
      self.jobs = jobs
      self.strict = strict
    }
  }

  /// The state of every shard `0..<run.count`, in index order.
  ///
  /// The input is discovered and identified by content as tasks identify what they read
  /// (``InputIdentity``): a shard whose users' exports or settings changed since it ran, or
  /// that gained or lost a user, must run again; the other shards stay complete.
  ///
  /// - Throws: ``RunFailure/input(_:)`` when the input folder cannot be read.
  /// - Complexity: O(*n* + *s*·*m*): the input's *n* bytes of exports are read once, and each
  ///   of the *s* shards' partial and manifest (of size *m*) is checked as merge checks it.
  public static func check(_ run: Run) throws(RunFailure) -> [State] {
    precondition(Shard.counts.contains(run.count), "a shard count is checked where it enters")
    // The folder checks a task makes before it reads anything: a night whose every task would
    // refuse its folders must stop the driver (exit 2), not be retried until it gives up.
    let input = run.input ?? run.pipeline.source.input
    try Runner.checkFolders(input: input, output: run.output, cache: nil)
    if run.pipeline.layout == .partitioned, let problem = Shard.partitionProblem(count: run.count) {
      throw .layout(problem + "; run the night with --shards 16, 64 or another such count")
    }
    if let listing = run.listing {
      do throws(InputListing.Failure) {
        let header = try InputListing.header(of: listing)
        guard header.shards == run.count else {
          throw InputListing.Failure(
            file: listing.path + "/" + InputListing.headerName,
            message: "is split into \(header.shards) shards, not \(run.count); give --shards \(header.shards)")
        }
      } catch {
        throw .listing(error)
      }
    }
    let corpus = try Runner.Corpus(
      pipeline: run.pipeline, input: input, toolVersion: run.toolVersion, strict: run.strict,
      listing: run.listing)
    let pipeline = Manifest.PipelineRecord(
      name: run.pipeline.name, file: run.pipeline.file.lastPathComponent, sha256: run.pipeline.contentHash)
    let resolved = AsOf(parsing: run.asOfText)?.text ?? run.asOfText
    let charts = run.pipeline.charts.map(\.name)
    let formats = run.pipeline.output.formats.map(\.rawValue)
    // Read only when a shard passes every other check: a night that never ran reads no export.
    var slices: [InputIdentity.Slice]?
    return (0..<run.count).map { index in
      state(
        of: OutputLayout.shardFolder(Shard(index: index, count: run.count), in: run.output),
        pipeline: pipeline, asOf: run.asOfText, resolvedAsOf: resolved,
        current: {
          if slices == nil { slices = corpus.slices(count: run.count, jobs: run.jobs) }
          return slices![index]
        },
        outputs: (run.output, charts, formats))
    }
  }

  static func state(
    of folder: URL, pipeline: Manifest.PipelineRecord, asOf: String, resolvedAsOf: String,
    current: () -> InputIdentity.Slice,
    outputs: (folder: URL, charts: [String], formats: [String])
  ) -> State {
    let name = OutputLayout.shards + "/" + folder.lastPathComponent
    var status = stat()
    guard lstat(folder.path, &status) == 0 else { return .toRun(reason: "never ran (no \(name))") }
    // A link is never a shard's own folder: a run replaces it, and merge refuses what it points at.
    guard status.st_mode & S_IFMT == S_IFDIR else { return .toRun(reason: "is not a folder (\(name))") }
    guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(OutputLayout.success).path) else {
      return .toRun(reason: "did not finish (no \(name)/_SUCCESS): killed, or still running")
    }
    let loaded: (partial: CohortPartial, manifest: Manifest)
    do throws(Merger.Failure) {
      loaded = try Merger.load(folder)
    } catch {
      return .toRun(reason: "damaged: \(error)")
    }
    let partial = loaded.partial
    if "\(partial.shard.index)-of-\(partial.shard.count)" != folder.lastPathComponent {
      return .toRun(reason: "holds the partial of shard \(partial.shard.index)-of-\(partial.shard.count)")
    }
    if partial.asOf != asOf || partial.resolvedAsOf != resolvedAsOf {
      return .toRun(reason: "is from as-of \(TerminalText.escaped(partial.asOf)), not \(asOf)")
    }
    if partial.pipeline != pipeline {
      return .toRun(
        reason: "ran pipeline '\(TerminalText.escaped(partial.pipeline.name))' "
          + "(\(TerminalText.escaped(String(partial.pipeline.sha256.prefix(12))))), "
          + "not '\(pipeline.name)' (\(pipeline.sha256.prefix(12)))")
    }
    // Complete means written: a user's folder or chart deleted since is work to do again.
    let okUsers = loaded.manifest.users.filter { $0.status == .ok }.map(\.user)
    if let problem = Merger.missingOutput(
      in: outputs.folder, layout: partial.input.layout, users: okUsers, charts: outputs.charts, formats: outputs.formats
    ) {
      return .toRun(reason: "is incomplete: \(problem)")
    }
    // Last, as it reads the shard's users' exports.
    let now = current()
    if partial.input.identity != now.identity {
      let why =
        InputIdentity.difference(recorded: loaded.manifest.users, current: now.users)
        ?? "the build, the source settings, the catalog or the entries skipped changed"
      return .toRun(reason: "ran before its input changed: \(why)")
    }
    let totals = loaded.manifest.totals
    return .complete(users: totals.users, failedUsers: totals.usersFailed)
  }
}
