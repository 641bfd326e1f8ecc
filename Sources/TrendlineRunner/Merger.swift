import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineRender
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

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
    case differentInputs(String, String)
    /// A shard ran before its users' input changed (shard, why).
    case staleShard(String, String)
    /// The input the shards read cannot be identified now (folder, why).
    case inputUnreadable(String, String)
    /// The night's listing cannot be read, or is not of the shards' count.
    case listing(String)
    case duplicateShard(String, [String])
    case missingShards([String], count: Int)
    /// `--output` is, holds or is inside a partial folder: merging would overwrite the inputs.
    case outputOverlapsPartial(output: String, partial: String)
    /// The output folder holds an entry no run or merge writes (``OutputSweep``).
    case outputNotOwned(output: String, problem: String)
    case unsupportedSchema(String, found: String)
    /// The partial's content does not match its own checksum.
    case editedPartial(String)
    /// The manifest beside a partial is not the one its shard wrote with it.
    case editedManifest(String)
    /// A decoded value is out of range (path, what).
    case outOfRange(String, String)
    case output(String)
    /// `--remove-departed` would remove more than half of the output's users at once.
    case departureTooLarge(String)
    /// A shard's output lacks what its manifest says it wrote (shard, what).
    case incompleteShard(String, String)
    /// Another process is writing the output folder (``OutputLock``).
    case outputBusy(String)

    public var description: String {
      switch self {
      case .noPartials(let folders):
        return "no shard partials (shards/<I>-of-<N>/cohort-partial.json) in \(folders.joined(separator: ", "))"
      case .unreadable(let path, let reason): return "cannot read '\(path)': \(reason)"
      case .differentPipelines(let a, let b):
        return "partials come from different pipelines: \(a) and \(b); merge the shards of one run"
      case .differentAsOf(let a, let b):
        return
          "partials were run with different as-of values: \(a) and \(b); re-run the odd shards with the same --as-of"
      case .differentShardCounts(let a, let b):
        return "partials were split into different shard counts: \(a) and \(b)"
      case .differentInputs(let a, let b):
        return
          "partials were run by different builds, or with different source settings, catalogs or --strict: "
          + "\(a) and \(b); re-run the odd shard with the same trendline and flags"
      case .staleShard(let shard, let why):
        return
          "shard \(shard) ran before its input changed: \(why); run the shard again ('trendline shards --to-run' "
          + "lists every such shard), then merge"
      case .listing(let why): return why
      case .inputUnreadable(let folder, let why):
        return
          "cannot check that the input '\(folder)' is what the shards read: \(why); merge publishes only numbers "
          + "of the input as it is, so give --input DIR where the shards' input folder is now"
      case .duplicateShard(let shard, let paths):
        return "shard \(shard) appears more than once: \(paths.joined(separator: ", "))"
      case .missingShards(let missing, let count):
        return
          "shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) of \(count) "
          + "\(missing.count == 1 ? "is" : "are") missing; run \(missing.count == 1 ? "it" : "them") (or wait for "
          + "\(missing.count == 1 ? "it" : "them") to finish) and merge again"
      case .outputOverlapsPartial(let output, let partial):
        return
          "the output folder '\(output)' overlaps the shard folder '\(partial)': "
          + "merging there would overwrite the shards' own files; give --output a folder outside every shard folder "
          + "(the run's output folder, which holds shards/, is fine)"
      case .outputNotOwned(let output, let problem):
        return
          "the output folder '\(output)' \(problem); a merge removes what it did not write, "
          + "so it refuses a folder it does not own. Give an empty folder or a Trendline output folder"
      case .unsupportedSchema(let path, let found):
        return
          "'\(path)' is a \(found) file, this trendline merges \(CohortPartial.schemaID); "
          + "re-run the shard with this trendline"
      case .editedPartial(let path):
        return
          "'\(path)' does not match its checksum: it was edited or damaged after its shard wrote it; re-run the shard"
      case .editedManifest(let path):
        return
          "'\(path)' is not the manifest its shard wrote beside cohort-partial.json: it was edited or replaced; "
          + "re-run the shard"
      case .outOfRange(let path, let what): return "'\(path)': \(what); re-run the shard"
      case .output(let message): return message
      case .departureTooLarge(let message): return message
      case .outputBusy(let message): return message
      case .incompleteShard(let shard, let problem):
        return "shard \(shard) is incomplete: \(problem); run the shard again, then merge"
      }
    }
  }

  /// Merges the shard folders found in `inputs` into `output`.
  ///
  /// Each input is a shard folder (holding `cohort-partial.json`) or a run's output folder
  /// (holding `shards/*/`). Only shards that finished (`_SUCCESS`) count. Nothing is written
  /// unless every partial and manifest passes ``check(partial:manifest:folder:)`` and all of
  /// them belong to one run.
  ///
  /// - Complexity: O(*v* log *v*), where *v* is the number of cohort values.
  /// What of `users`' outputs is missing from `output`: a user whose folder is not a folder,
  /// or who lacks a file of `charts` (its final name, or the name a shard staged it under for
  /// the merge to stamp). Charts are looked for only where the formats hold JSON. Nil when all
  /// is there.
  ///
  /// - Complexity: O(*u* × *c*) `stat` calls, for *u* users and *c* charts.
  static func missingOutput(
    in output: URL, layout: UserLayout, users: [String], charts: [String], formats: [String]?
  ) -> String? {
    let json = formats.map { $0.contains(Pipeline.Output.Format.json.rawValue) } ?? true
    for user in users {
      let folder = output.path + "/" + layout.userFolder(user)
      var status = stat()
      guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        return "user '\(TerminalText.escaped(user))' has no folder in users/"
      }
      guard json else { continue }
      for chart in charts.sorted() {
        let names = [chart + ".json", CohortStamp.stagedName(chart)]
        guard names.contains(where: { lstat(folder + "/" + $0, &status) == 0 }) else {
          return "user '\(TerminalText.escaped(user))' has no \(chart).json"
        }
      }
    }
    return nil
  }

  public static func merge(
    inputs: [URL], output: URL, toolVersion: String, input: URL? = nil, removeDeparted: Bool = false,
    confirmRemoval: Bool = false, listing: URL? = nil
  ) throws(Failure) -> Manifest {
    let startedAt = Date()
    var folders: [URL] = []
    // Folders no output may be in: every shard folder, and the `shards/` folder holding them
    // (checked after the shard folders, so that the message names the most precise one).
    var protected: [URL] = []
    for input in inputs {
      if FileManager.default.fileExists(atPath: input.appendingPathComponent(OutputLayout.partial).path) {
        folders.append(input)
      } else {
        let shards = input.appendingPathComponent(OutputLayout.shards)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shards.path)) ?? []
        folders += names.filter { !$0.hasPrefix(".") }.sorted().map { shards.appendingPathComponent($0) }
        if !names.isEmpty { protected.append(shards) }
      }
    }
    // Before anything is read or written, and for unfinished shards too.
    try checkOutput(output, partials: folders, protected: folders + protected)
    if let problem = OutputSweep.ownershipProblem(in: output.path) {
      throw .outputNotOwned(output: output.path, problem: problem)
    }
    // Held from before the first partial is read to the end: a shard re-run while the merge
    // reads would otherwise be merged from its old partial beside its new users' files. An
    // output folder not made yet has no writer to wait for; it is locked once claimed.
    var lock: OutputLock?
    do throws(OutputLock.Held) {
      lock = try OutputLock.acquire(output.path, shard: nil)
    } catch {
      throw .outputBusy(error.description)
    }
    defer { lock?.release() }
    folders = folders.filter {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent(OutputLayout.success).path)
    }
    guard !folders.isEmpty else { throw .noPartials(inputs.map(\.path)) }

    // First pass: every shard checked, and only what says where it came from kept, so a
    // mismatch is reported before anything is merged.
    var origins: [Origin] = []
    for folder in folders {
      origins.append(Origin(try load(folder).partial, path: folder.path))
    }
    let reference = try checkTogether(origins)
    if let problem = OutputSweep.layoutProblem(in: output.path, layout: reference.source.layout) {
      throw .outputNotOwned(output: output.path, problem: problem)
    }
    let count = reference.shardCount
    var seen: [Int: String] = [:]
    var duplicates: [Int: [String]] = [:]
    for origin in origins {
      if let earlier = seen[origin.shardIndex] {
        duplicates[origin.shardIndex, default: [earlier]].append(origin.path)
      }
      seen[origin.shardIndex] = origin.path
    }
    if let (index, paths) = duplicates.min(by: { $0.key < $1.key }) {
      throw .duplicateShard("\(index)-of-\(count)", paths)
    }
    let missing = (0..<count).filter { seen[$0] == nil }
    guard missing.isEmpty else { throw .missingShards(missing.map { "\($0)-of-\(count)" }, count: count) }

    // The input must still be what each shard read (SPEC 11.5): an export corrected, a user
    // arrived or a users.csv row edited since a shard ran would merge into numbers no input
    // says, under `_SUCCESS`. Every export is read once to tell.
    if let listing {
      let header: InputListing.Header
      do throws(InputListing.Failure) {
        header = try InputListing.header(of: listing)
      } catch {
        throw .listing(error.description)
      }
      guard header.shards == count else {
        throw .listing(
          "the listing '\(TerminalText.escaped(listing.path))' is split into \(header.shards) shards, and the "
            + "shards are \(count); give the listing the night's shards ran from")
      }
    }
    let current = try currentInput(reference.source, folder: input, groupBy: reference.groupBy, listing: listing)
    let slices = current.slices(count: count, jobs: CPUAllocation.usable)
    for origin in origins where origin.identity != slices[origin.shardIndex].identity {
      let manifest = try load(URL(fileURLWithPath: origin.path)).manifest
      throw .staleShard(
        "\(origin.shardIndex)-of-\(count)",
        InputIdentity.difference(recorded: manifest.users, current: slices[origin.shardIndex].users)
          ?? "the entries skipped in the input changed")
    }

    // Second pass: values and manifests, one shard at a time. Only the failed users' records
    // and each shard's totals are kept, so memory follows the cohort's values, not the users.
    var gatherer: CohortGatherer?
    var failed: [Manifest.UserRecord] = []
    // The report's index lists every user, but only its one line per user is kept.
    var entries: [HTMLReport.UserEntry] = []
    // The users the shards wrote, so the sweep can remove the folders of users none of them ran.
    var users: [CohortStamp.User] = []
    var summaries: [Manifest.ShardSummary] = []
    var totals = Runner.totals([])
    var formats: [String]?
    for folder in folders {
      // Checked again: a file replaced between the passes must not slip through.
      let (partial, manifest) = try load(folder)
      let origin = Origin(partial, path: folder.path)
      // Replaced since the first pass by a partial of another run: this throws, naming it.
      if !origin.matches(reference) { _ = try checkTogether([reference, origin]) }
      if origin.identity != slices[origin.shardIndex].identity {
        throw .staleShard("\(origin.shardIndex)-of-\(count)", "it was replaced while merging")
      }
      // Another shard of the same run put in this folder since the first pass would count twice.
      if seen[origin.shardIndex] != origin.path {
        throw .duplicateShard(
          "\(origin.shardIndex)-of-\(origin.shardCount)", [seen[origin.shardIndex] ?? "", origin.path])
      }
      if gatherer == nil { gatherer = CohortGatherer(compare: partial.compare, groupBy: partial.groupBy) }
      gatherer!.merge(partial)
      formats = formats ?? partial.formats
      let manifestURL = folder.appendingPathComponent(OutputLayout.manifest)
      failed += manifest.users.filter { $0.status == .failed }
      let okUsers = manifest.users.filter { $0.status == .ok }
      // What the shard says it wrote must be there: a user folder or chart deleted since would
      // merge into a night that lacks it, under `_SUCCESS` (SPEC 11.7).
      if let problem = missingOutput(
        in: output, layout: partial.input.layout, users: okUsers.map(\.user),
        charts: Array(partial.series.keys) + Array(partial.radar.keys),
        formats: partial.formats)
      {
        throw .incompleteShard("\(partial.shard.index)-of-\(partial.shard.count)", problem)
      }
      users += okUsers.lazy.map { CohortStamp.User(id: $0.user, segment: $0.segment) }
      if (formats ?? []).contains("html") { entries += manifest.users.map(ReportWriter.indexEntry) }
      totals.add(manifest.totals)
      let outputPath = output.standardizedFileURL.path + "/"
      let path = manifestURL.standardizedFileURL.path
      summaries.append(
        .init(
          shard: partial.shard, manifest: path.hasPrefix(outputPath) ? String(path.dropFirst(outputPath.count)) : path,
          totals: manifest.totals))
    }
    // As the input is now, which every shard's own entries were checked against.
    let skipped = current.problems.map {
      Manifest.SkippedEntry(entry: $0.entry, message: $0.message, hidden: $0.isHidden ? true : nil)
    }
    failed.sort { $0.user.utf8.lexicographicallyPrecedes($1.user.utf8) }
    entries.sort { $0.user.utf8.lexicographicallyPrecedes($1.user.utf8) }
    summaries.sort { $0.shard.index < $1.shard.index }

    var merged = Manifest(
      toolVersion: toolVersion, pipeline: reference.pipeline, asOf: reference.asOf, shard: nil,
      startedAt: Runner.timestamp(startedAt), finishedAt: Runner.timestamp(Date()), totals: totals,
      users: failed, skippedEntries: skipped)
    merged.shards = summaries
    merged.layout = reference.source.layout == .flat ? nil : reference.source.layout
    // The whole input's identity, as one run over it records it: an unsharded re-run of a
    // backfill takes the merged snapshot as complete while the input is unchanged.
    merged.inputIdentity = InputIdentity.slice(
      runKey: reference.source.runKey, users: slices.flatMap { $0.users.map { ($0.key, $0.value) } },
      skipped: current.problems)
    // Encoded before anything is written: sums of huge values that overflow to infinity are
    // refused as the shards' fault, not reported as an unwritable folder.
    let mergedFormats = (formats ?? []).compactMap(Pipeline.Output.Format.init(rawValue:))
    let finish = SnapshotFinish(
      output: OutputSweep.resolvedFolder(output), layout: reference.source.layout, formats: mergedFormats,
      pipelineName: reference.pipeline.name, asOf: reference.asOf, gathered: gatherer!)
    let cohort = try reducedCohort(gatherer!, asOf: reference.asOf)
    if removeDeparted && !confirmRemoval,
      let problem = OutputSweep.departureProblem(
        output: output.path, layout: reference.source.layout, users: Set(users.map(\.id) + failed.map(\.user)))
    {
      throw .departureTooLarge(problem)
    }
    do {
      // Written through a path free of links, resolved once here (SPEC 11.7, ``AtomicFile``).
      let output = OutputSweep.resolvedFolder(output)
      try OutputSweep.claim(output.path)
      if lock == nil {
        do throws(OutputLock.Held) {
          lock = try OutputLock.acquire(output.path, shard: nil)
        } catch {
          throw Failure.outputBusy(error.description)
        }
      }
      // The shards cleaned only what each wrote; the merge cleans the whole tree, the report's
      // and cohort's folders and the temporaries of shards killed on any host.
      AtomicFile.removeStaleTemporaries(under: output)
      try AtomicFile.remove(output.appendingPathComponent(OutputLayout.success).path)
      try finish.write(
        cohort, stamped: users, ownStaged: false, stampers: CPUAllocation.usable, index: entries,
        swept: users.map(\.id) + failed.map(\.user), keepShards: true, removeDeparted: removeDeparted,
        manifest: &merged, userTables: { try Tables.merge(shards: folders, into: output) })
    } catch let failure as Failure {
      throw failure
    } catch {
      throw .output("\(error). Check that the output folder is writable and the disk has space, then merge again")
    }
    return merged
  }

  /// What a partial says about where it came from: what all shards of one run share, and its index.
  struct Origin: Equatable {
    var pipeline: Manifest.PipelineRecord
    var asOf: String
    var resolvedAsOf: String
    var shardCount: Int
    /// Where the shard read its input and what every user shares: the same for every shard.
    var source: CohortPartial.InputRecord
    /// The identity of the shard's own slice of the input.
    var identity: String
    var groupBy: String?
    var shardIndex: Int
    var path: String

    init(_ partial: CohortPartial, path: String) {
      pipeline = partial.pipeline
      asOf = partial.asOf
      resolvedAsOf = partial.resolvedAsOf
      shardCount = partial.shard.count
      source = partial.input
      source.identity = ""
      identity = partial.input.identity
      groupBy = partial.groupBy
      shardIndex = partial.shard.index
      self.path = path
    }

    /// Whether `other` comes from the same run (pipeline, as-of, shard count, build and source
    /// settings); each shard's own slice of the input is checked against the input itself, by
    /// content, so shards that reached one share by two paths (`/mnt/a`, `/data`) belong together.
    func matches(_ other: Origin) -> Bool {
      pipeline == other.pipeline && asOf == other.asOf && resolvedAsOf == other.resolvedAsOf
        && shardCount == other.shardCount && source.runKey == other.source.runKey
        && source.maxFileBytes == other.source.maxFileBytes && groupBy == other.groupBy
    }

    var asOfShown: String { asOf == resolvedAsOf ? asOf : "\(asOf) (\(resolvedAsOf))" }
  }

  /// The origin most shards share (the first folder's on a tie), after checking that every
  /// shard shares it; otherwise the failure names the first odd shard beside one of the others.
  ///
  /// - Complexity: O(*s*²) comparisons for *s* shards, at most 10⁸ for 10,000 shards of
  ///   which half differ; in practice O(*s*).
  static func checkTogether(_ origins: [Origin]) throws(Failure) -> Origin {
    precondition(!origins.isEmpty, "merge checks shards only after finding some")
    var groups: [(origin: Origin, size: Int)] = []
    for origin in origins {
      if let index = groups.firstIndex(where: { $0.origin.matches(origin) }) {
        groups[index].size += 1
      } else {
        groups.append((origin, 1))
      }
    }
    // `max(by:)` keeps the last of equal elements; the first group wins a tie instead.
    var reference = groups[0]
    for group in groups.dropFirst() where group.size > reference.size { reference = group }
    let (a, aPath) = (reference.origin, reference.origin.path)
    guard let odd = origins.first(where: { !$0.matches(a) }) else { return a }
    let bPath = odd.path
    if odd.pipeline != a.pipeline {
      throw .differentPipelines(
        "\(aPath) ('\(a.pipeline.name)', \(a.pipeline.sha256.prefix(12)))",
        "\(bPath) ('\(odd.pipeline.name)', \(odd.pipeline.sha256.prefix(12)))")
    }
    if odd.asOf != a.asOf || odd.resolvedAsOf != a.resolvedAsOf {
      throw .differentAsOf("\(aPath): \(a.asOfShown)", "\(bPath): \(odd.asOfShown)")
    }
    if odd.shardCount != a.shardCount {
      throw .differentShardCounts("\(aPath): \(a.shardCount)", "\(bPath): \(odd.shardCount)")
    }
    func shown(_ origin: Origin) -> String { "\(origin.path) (run key \(origin.source.runKey.prefix(12)))" }
    throw .differentInputs(shown(a), shown(odd))
  }

  /// The input the shards recorded (or `folder`, where it is now), as it is now.
  static func currentInput(
    _ source: CohortPartial.InputRecord, folder: URL?, groupBy: String?, listing: URL?
  ) throws(Failure) -> Runner.Corpus {
    do throws(ExportError) {
      return try Runner.Corpus(recorded: source, folder: folder, groupBy: groupBy, listing: listing)
    } catch {
      throw .inputUnreadable(TerminalText.escaped((folder?.path ?? source.folder)), error.description)
    }
  }

  /// Reads and checks one shard folder's partial and manifest.
  static func load(_ folder: URL) throws(Failure) -> (partial: CohortPartial, manifest: Manifest) {
    let partialURL = folder.appendingPathComponent(OutputLayout.partial)
    let manifestURL = folder.appendingPathComponent(OutputLayout.manifest)
    return try check(partial: try bytes(partialURL), manifest: try bytes(manifestURL), folder: folder.path)
  }

  /// Decodes one shard's `cohort-partial.json` and `manifest.json` and checks them as merge
  /// does before using either: the schema, the partial's checksum, the manifest's SHA-256 as
  /// the partial recorded it, and every value merge indexes, sums or allocates by. The
  /// decoding path of merge, and the entry of the `cohort-partial` fuzz target.
  ///
  /// - Complexity: O(*v* + *m*), where *v* is the number of gathered values and *m* the
  ///   manifest's size.
  public static func check(partial partialData: Data, manifest manifestData: Data, folder: String) throws(Failure)
    -> (partial: CohortPartial, manifest: Manifest)
  {
    let partialPath = folder + "/" + OutputLayout.partial
    let manifestPath = folder + "/" + OutputLayout.manifest
    // The schema first: a partial of another version fails to decode for a reason that
    // would not say so.
    struct Schema: Decodable { var schema: String? }
    let schema = try decode(Schema.self, partialData, partialPath).schema ?? "unnamed"
    guard schema == CohortPartial.schemaID else { throw .unsupportedSchema(partialPath, found: schema) }
    let partial = try decode(CohortPartial.self, partialData, partialPath)
    guard let checksum = partial.checksum, checksum == (try? partial.contentChecksum()) else {
      throw .editedPartial(partialPath)
    }
    if let problem = partial.problem() { throw .outOfRange(partialPath, problem) }
    guard partial.manifestSHA256 == SHA256.hex([UInt8](manifestData)) else { throw .editedManifest(manifestPath) }
    let manifest = try decode(Manifest.self, manifestData, manifestPath)
    if let problem = manifestProblem(manifest, of: partial) { throw .outOfRange(manifestPath, problem) }
    return (partial, manifest)
  }

  /// What is out of range in a shard's manifest, or nil: its shard and pipeline must be its
  /// partial's, and its totals small enough to sum over 10,000 shards.
  private static func manifestProblem(_ manifest: Manifest, of partial: CohortPartial) -> String? {
    guard manifest.shard == partial.shard else {
      let shard = manifest.shard.map { "\($0.index)-of-\($0.count)" } ?? "none"
      return "the manifest is of shard \(shard), its partial of \(partial.shard.index)-of-\(partial.shard.count)"
    }
    guard manifest.pipeline == partial.pipeline else { return "the manifest and its partial name different pipelines" }
    let totals = manifest.totals
    let range = 0...CohortPartial.maximumCount
    let counts = [totals.users, totals.usersOK, totals.usersFailed, totals.sessions]
    guard counts.allSatisfy(range.contains), totals.rows.isWithin(range) else {
      return "a total is negative or over \(CohortPartial.maximumCount)"
    }
    // The report's index shows sessions − afterAsOf of each user.
    for user in manifest.users
    where !range.contains(user.sessions) || !(0...user.sessions).contains(user.afterAsOf) || !user.rows.isWithin(range)
    {
      return "user '\(TerminalText.escaped(user.user))' counts \(user.sessions) sessions, \(user.afterAsOf) after as-of"
    }
    return nil
  }

  /// The cohort files the partials reduce to, in memory: what merge writes under `cohort/`.
  /// For the `cohort-partial` fuzz target, which must reach the reduction without a folder.
  ///
  /// - Complexity: O(*v* log *v*), where *v* is the number of cohort values.
  public static func _cohortFiles(_ partials: [CohortPartial]) throws(Failure) -> [(name: String, data: Data)] {
    guard let first = partials.first else { return [] }
    var gatherer = CohortGatherer(compare: first.compare, groupBy: first.groupBy)
    for partial in partials { gatherer.merge(partial) }
    return try reducedCohort(gatherer, asOf: first.asOf).files
  }

  /// The merged cohort, reduced and encoded before anything is written: sums of huge values
  /// that overflow to infinity are the shards' fault, not an unwritable folder.
  private static func reducedCohort(_ gatherer: CohortGatherer, asOf: String) throws(Failure) -> SnapshotFinish.Cohort {
    do {
      return try SnapshotFinish.reduce(gatherer, asOf: asOf)
    } catch {
      throw .outOfRange("cohort", "the merged values cannot be written as JSON (\(error))")
    }
  }

  /// Refuses an output folder that is a partial folder, is inside one, or holds one anywhere
  /// but where a sharded run puts them (`<output>/shards/<I>-of-<N>`): merging into a shard
  /// folder overwrote its manifest, and each merge after it counted the merged users again
  /// (20, 30, 40 users). Paths are compared resolved (links followed) and standardized.
  static func checkOutput(_ output: URL, partials: [URL], protected: [URL]) throws(Failure) {
    let out = OutputSweep.resolved(output)
    let inside = OutputLayout.isInside
    for folder in protected where inside(out, OutputSweep.resolved(folder)) {
      throw .outputOverlapsPartial(output: output.path, partial: folder.path)
    }
    for folder in partials {
      let partial = OutputSweep.resolved(folder)
      let parent = (partial as NSString).deletingLastPathComponent
      if inside(partial, out) && parent != (out as NSString).appendingPathComponent(OutputLayout.shards) {
        throw .outputOverlapsPartial(output: output.path, partial: folder.path)
      }
    }
  }

  private static func bytes(_ url: URL) throws(Failure) -> Data {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw .unreadable(url.path, "no such file")
    }
    return data
  }

  private static func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ path: String) throws(Failure) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch let row as Compare.SeriesPart.RowIsNoDate {
      // A partial sound but for a row, as the rows `CohortPartial.problem()` refuses.
      throw .outOfRange(path, row.description)
    } catch {
      throw .unreadable(path, "not a Trendline partial file (\(error))")
    }
  }
}
