import Foundation
import TrendlinePipeline
import TrendlineRender
import TrendlineSchema
import TrendlineStages

/// `trendline merge`: reduces the partial files of a sharded run to the cohort outputs and one
/// manifest, as a single run over the same users would have written them.
///
/// It reads each shard's `cohort-partial.json` and `manifest.json` one after the other and
/// never the per-user files, so its memory is the cohort's values (one per user and bucket of
/// each compared chart) plus one manifest record per user.
public enum Merger {
  /// Why partials cannot be merged; each names the shard or folder at fault.
  public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
    case noPartials([String])
    case unreadable(String, String)
    case differentPipelines(String, String)
    case differentAsOf(String, String)
    case differentShardCounts(String, String)
    case duplicateShard(String, [String])
    case missingShards([String], count: Int)
    case output(String)

    public var description: String {
      switch self {
      case .noPartials(let folders):
        return "no shard partials (shards/<I>-of-<N>/cohort-partial.json) in \(folders.joined(separator: ", "))"
      case .unreadable(let path, let reason): return "cannot read '\(path)': \(reason)"
      case .differentPipelines(let a, let b):
        return "partials come from different pipelines: \(a) and \(b); merge the shards of one run"
      case .differentAsOf(let a, let b):
        return "partials were run with different as-of values: \(a) and \(b); re-run the odd shards with the same --as-of"
      case .differentShardCounts(let a, let b):
        return "partials were split into different shard counts: \(a) and \(b)"
      case .duplicateShard(let shard, let paths):
        return "shard \(shard) appears more than once: \(paths.joined(separator: ", "))"
      case .missingShards(let missing, let count):
        return
          "shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) of \(count) \(missing.count == 1 ? "is" : "are") missing; run \(missing.count == 1 ? "it" : "them") (or wait for \(missing.count == 1 ? "it" : "them") to finish) and merge again"
      case .output(let message): return message
      }
    }
  }

  /// Merges the shard folders found in `inputs` into `output`.
  ///
  /// Each input is a shard folder (holding `cohort-partial.json`) or a run's output folder
  /// (holding `shards/*/`). Only shards that finished (`_SUCCESS`) count.
  ///
  /// - Complexity: O(*v* log *v*), where *v* is the number of cohort values.
  public static func merge(inputs: [URL], output: URL, toolVersion: String) throws(Failure) -> Manifest {
    let startedAt = Date()
    var folders: [URL] = []
    for input in inputs {
      if FileManager.default.fileExists(atPath: input.appendingPathComponent("cohort-partial.json").path) {
        folders.append(input)
      } else {
        let shards = input.appendingPathComponent("shards")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shards.path)) ?? []
        folders += names.filter { !$0.hasPrefix(".") }.sorted().map { shards.appendingPathComponent($0) }
      }
    }
    folders = folders.filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("_SUCCESS").path) }
    guard !folders.isEmpty else { throw .noPartials(inputs.map(\.path)) }

    // First pass: headers only, so a mismatch is reported before anything heavy is read.
    var first: (partial: CohortPartial, path: String)?
    var seen: [Int: String] = [:]
    var duplicates: [Int: [String]] = [:]
    for folder in folders {
      let partial = try read(CohortPartial.self, folder.appendingPathComponent("cohort-partial.json"))
      let path = folder.path
      if let (reference, referencePath) = first {
        if partial.pipeline.sha256 != reference.pipeline.sha256 || partial.pipeline.name != reference.pipeline.name {
          throw .differentPipelines(
            "\(referencePath) ('\(reference.pipeline.name)', \(reference.pipeline.sha256.prefix(12)))",
            "\(path) ('\(partial.pipeline.name)', \(partial.pipeline.sha256.prefix(12)))")
        }
        if partial.asOf != reference.asOf {
          throw .differentAsOf("\(referencePath): \(reference.asOf)", "\(path): \(partial.asOf)")
        }
        if partial.shard.count != reference.shard.count {
          throw .differentShardCounts("\(referencePath): \(reference.shard.count)", "\(path): \(partial.shard.count)")
        }
      } else {
        first = (partial, path)
      }
      if let earlier = seen[partial.shard.index] {
        duplicates[partial.shard.index, default: [earlier]].append(path)
      }
      seen[partial.shard.index] = path
    }
    let reference = first!.partial
    let count = reference.shard.count
    if let (index, paths) = duplicates.min(by: { $0.key < $1.key }) {
      throw .duplicateShard("\(index)-of-\(count)", paths)
    }
    let missing = (0..<count).filter { seen[$0] == nil }
    guard missing.isEmpty else { throw .missingShards(missing.map { "\($0)-of-\(count)" }, count: count) }

    // Second pass: values and manifests, one shard at a time. Only the failed users' records
    // and each shard's totals are kept, so memory follows the cohort's values, not the users.
    var gatherer: CohortGatherer?
    var failed: [Manifest.UserRecord] = []
    // The report's index lists every user, but only its one line per user is kept.
    var entries: [HTMLReport.UserEntry] = []
    var summaries: [Manifest.ShardSummary] = []
    var skipped: [Manifest.SkippedEntry] = []
    var totals = Runner.totals([])
    for folder in folders {
      let partial = try read(CohortPartial.self, folder.appendingPathComponent("cohort-partial.json"))
      if gatherer == nil { gatherer = CohortGatherer(compare: partial.compare) }
      gatherer!.merge(partial)
      let manifestURL = folder.appendingPathComponent("manifest.json")
      let manifest = try read(Manifest.self, manifestURL)
      failed += manifest.users.filter { $0.status == .failed }
      if (reference.formats ?? []).contains("html") { entries += manifest.users.map(ReportWriter.indexEntry) }
      skipped = manifest.skippedEntries  // every shard lists the same skipped entries
      totals.add(manifest.totals)
      let outputPath = output.standardizedFileURL.path + "/"
      let path = manifestURL.standardizedFileURL.path
      summaries.append(
        .init(
          shard: partial.shard, manifest: path.hasPrefix(outputPath) ? String(path.dropFirst(outputPath.count)) : path,
          totals: manifest.totals))
    }
    failed.sort { $0.user.utf8.lexicographicallyPrecedes($1.user.utf8) }
    entries.sort { $0.user.utf8.lexicographicallyPrecedes($1.user.utf8) }
    summaries.sort { $0.shard.index < $1.shard.index }

    var merged = Manifest(
      toolVersion: toolVersion, pipeline: reference.pipeline, asOf: reference.asOf, shard: nil,
      startedAt: Runner.timestamp(startedAt), finishedAt: Runner.timestamp(Date()), totals: totals,
      users: failed, skippedEntries: skipped)
    merged.shards = summaries
    do {
      try AtomicFile.remove(output.appendingPathComponent("_SUCCESS").path)
      try Runner.writeCohort(gatherer!, asOf: reference.asOf, to: output)
      try ReportWriter.writeCohortReport(
        gatherer!, pipeline: reference.pipeline.name,
        formats: (reference.formats ?? []).compactMap(Pipeline.Output.Format.init(rawValue:)), asOf: reference.asOf,
        users: entries, output: output)
      try AtomicFile.write(try merged.encoded(), to: output.appendingPathComponent("manifest.json").path)
      try AtomicFile.write(Data(), to: output.appendingPathComponent("_SUCCESS").path)
    } catch {
      throw .output("\(error). Check that the output folder is writable and the disk has space, then merge again")
    }
    return merged
  }

  private static func read<T: Decodable>(_ type: T.Type, _ url: URL) throws(Failure) -> T {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw .unreadable(url.path, "no such file")
    }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw .unreadable(url.path, "not a Trendline partial file (\(error))")
    }
  }
}
