import Dispatch
import Foundation
import Synchronization
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// What `trendline run` was asked to do, beyond the pipeline file.
public struct RunOptions: Sendable {
  /// Overrides `source.input`.
  public var input: URL?
  public var output: URL
  /// `--as-of`; nil for today, which the run resolves once when it starts (``AsOf/today(in:now:)``).
  public var asOf: AsOf?
  /// `--as-of FROM..TO --every STEP`, for ``Runner/backfill(_:options:events:)``: then `asOf` is
  /// nil and `output` holds one `as_of=<date>/` folder per snapshot.
  public var backfill: AsOfRange?
  /// The as-of as typed, for the manifest; nil for today, which the run writes as its date.
  public var asOfText: String?
  public var jobs: Int
  /// The part of the users this process takes; nil for all of them.
  public var shard: Shard?
  /// With `--strict`, any rejected row fails its user.
  public var strict: Bool
  /// The current instant; today is its date in the pipeline's default time zone.
  public var now: Int64
  public var toolVersion: String
  /// `--cache DIR`: keep each user's read exports in DIR and reuse them while they match.
  public var cache: URL?
  /// `--cache-verify`: hash every input even when its stat is unchanged.
  public var cacheVerify: Bool
  /// `--remove-departed`: remove the folders of users no longer in the input (a run over all
  /// users only; a shard never touches another user's folder).
  public var removeDeparted: Bool
  /// `--confirm-removal`: let `removeDeparted` remove more than half of the output's users
  /// at once, which it otherwise refuses before anything is read.
  public var confirmRemoval = false
  /// `--listing DIR`: the night's frozen input (``InputListing``), read instead of listing the
  /// input folder; a shard reads its own slice of it.
  public var listing: URL?

  public init(
    input: URL? = nil, output: URL, asOf: AsOf? = nil, asOfText: String? = nil,
    jobs: Int = CPUAllocation.usable, shard: Shard? = nil, strict: Bool = false,
    now: Int64 = Int64(Date().timeIntervalSince1970), toolVersion: String, cache: URL? = nil,
    cacheVerify: Bool = false, removeDeparted: Bool = false, backfill: AsOfRange? = nil
  ) {
    self.backfill = backfill
    self.removeDeparted = removeDeparted
    self.input = input
    self.output = output
    self.asOf = asOf
    self.asOfText = asOfText
    self.jobs = jobs
    self.shard = shard
    self.strict = strict
    self.now = now
    self.toolVersion = toolVersion
    self.cache = cache
    self.cacheVerify = cacheVerify
  }
}

/// What a run reports as it goes; the command turns these into a progress line or JSON lines.
public enum RunEvent: Sendable {
  case started(users: Int)
  case userFinished(Manifest.UserRecord, done: Int, total: Int)
  case finished(Manifest)
}

/// Why a run could not go on at all (as opposed to one user failing).
public enum RunFailure: Error, Sendable, CustomStringConvertible {
  /// The input folder is missing or unreadable: nothing was written.
  case input(ExportError)
  /// An output file could not be written: the output folder is read-only or full.
  case output(AtomicFile.WriteError)
  /// A cache entry could not be written: the cache folder is read-only or full.
  case cache(AtomicFile.WriteError)
  /// The folders given cannot be used together (an output inside the input, an output folder
  /// holding what no run writes): nothing was read or written.
  case folders(String)
  /// The night's listing cannot be read, or is of another input or shard count.
  case listing(InputListing.Failure)
  /// A partitioned input cannot be split into the shard count given.
  case layout(String)

  /// The line a command prints: an input error is already a diagnostic naming its file, line
  /// and column (`users.csv:2:5: error: …`), the others are made one.
  public var diagnostic: String {
    if case .input(let error) = self { return error.description }
    if case .listing(let error) = self { return error.description }
    return Diagnostic(.error, description).description
  }

  public var description: String {
    switch self {
    case .input(let error): return error.description
    case .folders(let message), .layout(let message): return message
    case .listing(let error): return error.message
    case .cache(let error):
      return "\(error). Check that the cache folder is writable and its disk has space, or run without --cache"
    case .output(let error) where error.isThroughLink:
      return "\(error). Something replaced a folder of the output with a link: remove the link, then run again"
    case .output(let error):
      return "\(error). Check that the output folder is writable and the disk has space, then run again"
    }
  }
}

/// Runs a pipeline over every user of the input folder (SPEC 7 and 8).
///
/// Users are processed concurrently by `jobs` workers; each worker reads one user's exports,
/// normalizes them, builds the sessions once, runs every chart, writes the user's files and
/// drops everything before taking the next user, so memory is bounded by the users in
/// flight, never by the corpus (plus one value per user and bucket for the cohort charts).
/// A user that fails is recorded in the manifest and the others go on; the exit code is
/// decided once, at the end. The cohort files, `manifest.json` and then `_SUCCESS` are
/// written last.
///
/// With a shard, only the users whose id hashes to it are run, and the cohort values and
/// manifest go to `shards/<I>-of-<N>/` (with its own `_SUCCESS`) for `trendline merge`;
/// re-running one shard replaces that folder and its users' files, nothing else.
public enum Runner {
  /// Runs `pipeline` as of one date or instant and returns the manifest it wrote.
  ///
  /// - Complexity: O(*r* log *r*) per user, where *r* is the user's number of rows, spread
  ///   over `jobs` workers.
  public static func run(
    _ pipeline: Pipeline, options: RunOptions, events: @escaping @Sendable (RunEvent) -> Void = { _ in }
  ) throws(RunFailure) -> Manifest {
    precondition(options.backfill == nil, "a range of as-of dates runs through Runner.backfill")
    // Today is resolved here, once: every user, output, partial and the manifest state the one
    // date, and a run is never written as "today" (SPEC 10.7).
    let asOf = options.asOf ?? AsOf.today(in: pipeline.source.defaults.calendar.timeZone, now: options.now)
    let snapshot = UserJob.Snapshot(
      asOf: asOf, asOfText: options.asOfText ?? asOf.text, output: OutputSweep.resolvedFolder(options.output))
    let input = options.input ?? pipeline.source.input
    try checkFolders(input: input, output: options.output, cache: options.cache)
    if let problem = OutputSweep.layoutProblem(in: snapshot.output.path, layout: pipeline.layout) {
      throw .folders(
        "the output folder '\(options.output.path)' \(problem). Give a new output folder, a night of its own")
    }
    let corpus = try Corpus(
      pipeline: pipeline, input: input, toolVersion: options.toolVersion, strict: options.strict,
      shard: options.shard, listing: options.listing)
    if options.removeDeparted && !options.confirmRemoval,
      let problem = OutputSweep.departureProblem(
        output: options.output.path, layout: corpus.layout, users: Set(corpus.users.map(\.id)))
    {
      throw .folders(problem)
    }
    let manifests = try run(pipeline, snapshots: [snapshot], corpus: corpus, options: options, events: events)
    return manifests[0]
  }

  /// What a backfill did: the snapshots it wrote, and those it found complete and left alone.
  public struct Backfill: Sendable {
    /// The manifest of each snapshot written, oldest first.
    public var written: [Manifest]
    /// The as-of dates of the snapshots already complete for this pipeline, input and build.
    public var skipped: [String]
  }

  /// Runs `pipeline` as of every date of `options.backfill`, reading each user once: every
  /// snapshot is computed from the same sessions, and written to `as_of=<date>/` in the output
  /// folder, each a whole run's output with its own manifest and `_SUCCESS` (with a shard, its
  /// own `shards/<I>-of-<N>/` for `trendline merge`).
  ///
  /// A snapshot already complete for this pipeline, this input and this build (``isComplete``)
  /// is skipped, so a backfill killed part way is finished by running it again; any other is
  /// written again in full.
  ///
  /// - Complexity: O(*r* log *r* + *s* × *c*) per user, for *r* rows, *s* snapshots to write
  ///   and *c*, the cost of the user's charts at one as-of.
  public static func backfill(
    _ pipeline: Pipeline, options: RunOptions, events: @escaping @Sendable (RunEvent) -> Void = { _ in }
  ) throws(RunFailure) -> Backfill {
    guard let range = options.backfill else { preconditionFailure("a backfill is given its range of dates") }
    let input = options.input ?? pipeline.source.input
    try checkFolders(input: input, output: options.output, cache: options.cache, backfill: true)
    let root = OutputSweep.resolvedFolder(options.output)
    let snapshots = range.dates.map {
      UserJob.Snapshot(
        asOf: $0, asOfText: $0.text, output: root.appendingPathComponent(AsOfRange.folderName(of: $0)))
    }
    for snapshot in snapshots {
      if let problem = OutputSweep.ownershipProblem(in: snapshot.output.path) {
        throw .folders(
          "the snapshot folder '\(snapshot.output.path)' \(problem); a run removes what it did not write, "
            + "so it refuses a folder it does not own. Remove it, or give another output folder")
      }
      if let problem = OutputSweep.layoutProblem(in: snapshot.output.path, layout: pipeline.layout) {
        throw .folders(
          "the snapshot folder '\(snapshot.output.path)' \(problem). Give a new output folder for the backfill")
      }
    }
    let corpus = try Corpus(
      pipeline: pipeline, input: input, toolVersion: options.toolVersion, strict: options.strict,
      shard: options.shard, listing: options.listing)
    // Identified by content only when some snapshot may be complete: that reads every export.
    var current: InputIdentity.Slice?
    let pending = snapshots.filter { snapshot in
      !isComplete(snapshot, pipeline: pipeline, shard: options.shard, toolVersion: options.toolVersion) {
        if let current { return current }
        let made = corpus.slice(options.shard, jobs: options.jobs)
        current = made
        return made
      }
    }
    do throws(AtomicFile.WriteError) {
      try OutputSweep.claim(root.path, backfill: true)
      AtomicFile.removeStaleTemporaries(in: root.path)
      // A snapshot folder that is a link would carry the snapshot's writes and sweep to its target.
      for snapshot in pending { try OutputSweep.unlinkIfLink(snapshot.output.path) }
    } catch {
      throw .output(error)
    }
    var written: [Manifest] = []
    // A pass holds every one of its snapshots' cohort values, ranks' values and manifest
    // records at once, for each user; passes keep that bounded on a long daily range or a large
    // corpus, at the cost of reading each user once per pass.
    let users = options.shard.map { shard in corpus.users.count { shard.contains($0.id) } } ?? corpus.users.count
    let perPass = snapshotsPerPass(users: users)
    for start in stride(from: 0, to: pending.count, by: perPass) {
      let pass = Array(pending[start..<min(pending.count, start + perPass)])
      written += try run(pipeline, snapshots: pass, corpus: corpus, options: options, events: events)
    }
    let done = Set(pending.map(\.asOfText))
    return Backfill(written: written, skipped: snapshots.map(\.asOfText).filter { !done.contains($0) })
  }

  /// The snapshots one pass over `users` users computes: at most 64, and at most 500,000
  /// user-snapshots (about 3 KB each with the overview pipeline's compared charts, measured:
  /// 356 MB for 52 snapshots of 2,000 users; so about 1.5 GB at the cap).
  static func snapshotsPerPass(users: Int) -> Int { max(1, min(64, 500_000 / max(1, users))) }

  /// Whether `snapshot` was completed by a run of this pipeline, this build and this input as it
  /// is now, by content (``InputIdentity``): its `_SUCCESS` is there, its manifest says so and
  /// what it lists is written; with a shard, whether that shard's folder is complete as
  /// ``ShardStatus`` judges it for a driver. `current` identifies the input (the run's slice of
  /// it), and is asked only for a snapshot that passes every other check.
  static func isComplete(
    _ snapshot: UserJob.Snapshot, pipeline: Pipeline, shard: Shard?, toolVersion: String,
    current: () -> InputIdentity.Slice
  ) -> Bool {
    let record = Manifest.PipelineRecord(
      name: pipeline.name, file: pipeline.file.lastPathComponent, sha256: pipeline.contentHash)
    let charts = pipeline.charts.map(\.name)
    let formats = pipeline.output.formats.map(\.rawValue)
    if let shard {
      let state = ShardStatus.state(
        of: OutputLayout.shardFolder(shard, in: snapshot.output), pipeline: record, asOf: snapshot.asOfText,
        resolvedAsOf: snapshot.asOf.text, current: current, outputs: (snapshot.output, charts, formats))
      if case .complete = state { return true }
      return false
    }
    let folder = snapshot.output.path
    var status = stat()
    guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
      FileManager.default.fileExists(atPath: folder + "/" + OutputLayout.success),
      let data = FileManager.default.contents(atPath: folder + "/" + OutputLayout.manifest),
      let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
      manifest.pipeline == record, manifest.asOf == snapshot.asOfText, manifest.toolVersion == toolVersion,
      manifest.shard == nil, manifest.inputIdentity != nil,
      // Complete means written: a user's folder or chart deleted since is work to do again.
      Merger.missingOutput(
        in: snapshot.output, layout: pipeline.layout, users: manifest.users.filter { $0.status == .ok }.map(\.user),
        charts: charts,
        formats: formats) == nil
    else { return false }
    return manifest.inputIdentity == current().identity
  }

  /// The users of the input as a run finds them, with the settings table and what every
  /// user's input identity shares (``InputIdentity``).
  struct Corpus {
    var users: [UserInput]
    var problems: [InputProblem]
    var usersFile: UsersFile
    var layout: UserLayout
    /// The input folder, absolute, as partials record it.
    var folder: String
    /// ``InputIdentity/runKey(pipeline:toolVersion:strict:)``.
    var runKey: String
    var maxFileBytes: Int

    /// The input's users, discovered in `input`, or with a `listing`, the ones it lists for
    /// `shard` (all of them for nil). The settings table keeps the rows of `shard`'s users.
    init(
      pipeline: Pipeline, input: URL, toolVersion: String, strict: Bool, shard: Shard? = nil, listing: URL? = nil
    ) throws(RunFailure) {
      layout = pipeline.layout
      if layout == .partitioned, let shard, let problem = Shard.partitionProblem(count: shard.count) {
        throw .layout(problem + "; run it with --shards 16, 64 or another such count")
      }
      if let listing {
        do throws(InputListing.Failure) {
          (users, problems) = try InputListing.read(listing, input: input, shard: shard, layout: layout)
        } catch {
          throw .listing(error)
        }
      } else {
        do {
          (users, problems) = try InputLayout.discover(
            input, layout: layout, partitions: shard.map { shard in { shard.contains(partition: $0) } })
        } catch {
          throw .input(error)
        }
      }
      if let named = pipeline.source.users, !FileManager.default.fileExists(atPath: named.path) {
        throw .input(
          ExportError(file: named.path, message: "source.users names a settings file that does not exist"))
      }
      do throws(ExportError) {
        usersFile = try loadUsersFile(
          named: pipeline.source.users, input: input, limits: pipeline.source.limits,
          groupBy: pipeline.compare?.groupBy, keeping: shard, layout: layout)
        if let problem = usersFile.problems.first { throw problem }
      } catch {
        throw .input(error)
      }
      folder = input.standardizedFileURL.path
      runKey = InputIdentity.runKey(pipeline: pipeline, toolVersion: toolVersion, strict: strict)
      maxFileBytes = pipeline.source.limits.maxFileBytes
    }

    /// What a shard's partial records of it, with `identity`, the slice's.
    func record(pipeline: Pipeline, identity: String) -> CohortPartial.InputRecord {
      CohortPartial.InputRecord(
        folder: folder, usersFile: pipeline.source.users?.standardizedFileURL.path, maxFileBytes: maxFileBytes,
        runKey: runKey, identity: identity, layout: layout)
    }
  }

  /// What one snapshot gathers while users run: the cohort's values and each user's record.
  private final class SnapshotState: Sendable {
    let snapshot: UserJob.Snapshot
    let cohort: Mutex<CohortGatherer>
    let records: Mutex<[Manifest.UserRecord?]>
    /// Per user, what their ranks in the cohort need, until the cohort is stamped.
    let ranked: Mutex<[[String: CohortRanks.Buckets]]>
    /// With `"tables"`: every user's rows of every chart, until the tables are written.
    let tables: TableSpool?

    init(_ snapshot: UserJob.Snapshot, cohort: CohortGatherer, users: Int, tables: TableSpool?) {
      self.snapshot = snapshot
      self.cohort = Mutex(cohort)
      records = Mutex(Array(repeating: nil, count: users))
      ranked = Mutex(Array(repeating: [:], count: users))
      self.tables = tables
    }
  }

  /// The one pass both a run and a backfill make: each user is read once and written as of
  /// every snapshot, then each snapshot's cohort, report, manifest and `_SUCCESS` are written.
  private static func run(
    _ pipeline: Pipeline, snapshots: [UserJob.Snapshot], corpus: Corpus, options: RunOptions,
    events: @escaping @Sendable (RunEvent) -> Void
  ) throws(RunFailure) -> [Manifest] {
    let startedAt = Date()
    // One writer a folder (a shard: one a shard), before anything in it is removed or written.
    var locks: [OutputLock] = []
    defer { for lock in locks { lock.release() } }
    for snapshot in snapshots {
      do throws(AtomicFile.WriteError) {
        try OutputSweep.claim(snapshot.output.path)
      } catch {
        throw .output(error)
      }
      do throws(OutputLock.Held) {
        if let lock = try OutputLock.acquire(snapshot.output.path, shard: options.shard) { locks.append(lock) }
      } catch {
        throw .folders(error.description)
      }
    }
    // A run that stops part way must not look complete: the marker goes first, and comes back last.
    do throws(AtomicFile.WriteError) {
      for snapshot in snapshots { try prepare(snapshot.output, shard: options.shard) }
      // Cache entries are written the same way, and a killed run leaves its temporaries there too.
      if let cache = options.cache { AtomicFile.removeStaleTemporaries(under: cache) }
    } catch {
      throw .output(error)
    }

    let users = options.shard.map { shard in corpus.users.filter { shard.contains($0.id) } } ?? corpus.users
    events(.started(users: users.count))
    let empty = CohortGatherer(pipeline: pipeline)
    var made: [SnapshotState] = []
    do throws(AtomicFile.WriteError) {
      for snapshot in snapshots {
        let spool = pipeline.output.formats.contains(.tables) ? try TableSpool(in: snapshot.output.path) : nil
        made.append(SnapshotState(snapshot, cohort: empty, users: users.count, tables: spool))
      }
    } catch {
      for state in made { state.tables?.discard() }
      throw .output(error)
    }
    let states = made
    // A spool is a temporary file of its own: removed when the run fails, as when it ends.
    defer { for state in states { state.tables?.discard() } }
    let compares: @Sendable (String) -> Bool = { empty.compares($0) }
    let context = UserJob.Context(
      pipeline: pipeline, options: options, usersFile: corpus.usersFile, readOptions: pipeline.readOptions,
      cache: options.cache.map {
        SessionCache(
          folder: $0, source: pipeline.source, toolVersion: options.toolVersion, verify: options.cacheVerify,
          layout: pipeline.layout)
      })
    let writeFailure = Mutex<AtomicFile.WriteError?>(nil)
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)

    let workers = max(1, min(options.jobs, users.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < users.count else { return }
        if writeFailure.withLock({ $0 != nil }) { return }
        var last: Manifest.UserRecord?
        do throws(AtomicFile.WriteError) {
          let read = try UserJob.read(users[index], context: context)
          for state in states {
            let result = try UserJob.write(read, into: state.snapshot, context: context, compares: compares)
            if !result.compared.isEmpty {
              state.cohort.withLock { gatherer in
                for (chart, output) in result.compared { gatherer.add(output, chart: chart, segment: result.segment) }
              }
            }
            for table in result.tables { try state.tables?.append(table: table.chart, user: index, rows: table.rows) }
            state.records.withLock { $0[index] = result.record }
            if !result.ranked.isEmpty { state.ranked.withLock { $0[index] = result.ranked } }
            last = result.record
          }
        } catch {
          writeFailure.withLock { $0 = $0 ?? error }
          return
        }
        let finished = done.add(1, ordering: .relaxed).newValue
        if let last { events(.userFinished(last, done: finished, total: users.count)) }
      }
    }
    if let failure = writeFailure.withLock({ $0 }) {
      let inCache =
        options.cache.map { OutputLayout.isInside(failure.path, OutputSweep.resolved($0)) } ?? false
      throw inCache ? .cache(failure) : .output(failure)
    }
    // Snapshots are finished side by side, a worker each: a finish is mostly one thread's work
    // (the sweep, the manifest), so a backfill's 52 of them one after another left a core idle.
    // One snapshot keeps every worker for its own stamping instead.
    let finishers = max(1, min(options.jobs, states.count))
    let finished = Mutex<[Int: Result<Manifest, RunFailure>]>([:])
    DispatchQueue.concurrentPerform(iterations: finishers) { worker in
      for index in stride(from: worker, to: states.count, by: finishers) {
        let state = states[index]
        if finished.withLock({ $0.values.contains { if case .failure = $0 { true } else { false } } }) { return }
        let ranked = state.ranked.withLock { $0 }
        let stamped = state.records.withLock { records in
          records.indices.compactMap { index in
            records[index].flatMap { record in
              record.status == .ok
                ? CohortStamp.User(id: record.user, segment: record.segment, values: ranked[index]) : nil
            }
          }
        }
        state.ranked.withLock { $0 = [] }
        let result = Result { () throws(RunFailure) -> Manifest in
          try finish(
            state.snapshot, records: state.records.withLock { $0.compactMap { $0 } }, stamped: stamped,
            gathered: state.cohort.withLock { $0 }, tables: state.tables, pipeline: pipeline, corpus: corpus,
            options: options, stampers: max(1, options.jobs / finishers), startedAt: startedAt)
        }
        finished.withLock { $0[index] = result }
      }
    }
    let results = finished.withLock { $0 }
    var manifests: [Manifest] = []
    for index in states.indices {
      // The first failure in snapshot order; the snapshots finished are complete on disk anyway.
      guard let result = results[index] else { continue }
      let manifest = try result.get()
      events(.finished(manifest))
      manifests.append(manifest)
    }
    if let failure = results.sorted(by: { $0.key < $1.key }).lazy.compactMap({
      if case .failure(let error) = $0.value { error } else { nil }
    }).first {
      throw failure
    }
    return manifests
  }

  /// Readies `output` for a snapshot to be written: claimed, its `_SUCCESS` (and the shard's)
  /// removed first, the temporaries a killed run left removed.
  private static func prepare(_ output: URL, shard: Shard?) throws(AtomicFile.WriteError) {
    try OutputSweep.claim(output.path)
    try AtomicFile.remove(output.appendingPathComponent(OutputLayout.success).path)
    if let shard {
      // This shard's marker goes too, before any of its users is rewritten: a re-run killed
      // part way must not leave yesterday's marker beside today's half-written users.
      try OutputSweep.unlinkIfLink(OutputLayout.shardFolder(shard, in: output).path)
      try AtomicFile.remove(
        OutputLayout.shardFolder(shard, in: output).appendingPathComponent(OutputLayout.success).path)
      // A shard cleans what it writes: the top of the output, its own shard folder here, and
      // each of its users' folders as it writes them (``OutputSweep/removeAll(in:except:)``).
      // Listing every user's folder of a shared tree cost a shard of 50,000 users seconds.
      AtomicFile.removeStaleTemporaries(in: output.path)
      AtomicFile.removeStaleTemporaries(in: OutputLayout.shardFolder(shard, in: output).path)
    } else {
      AtomicFile.removeStaleTemporaries(under: output)
    }
  }

  /// Writes what a snapshot holds once every user ran: a shard's partial and manifest, or the
  /// cohort, the axis stamps, the report, the sweep and the manifest, then `_SUCCESS`.
  private static func finish(
    _ snapshot: UserJob.Snapshot, records userRecords: [Manifest.UserRecord], stamped: [CohortStamp.User],
    gathered: CohortGatherer, tables: TableSpool?, pipeline: Pipeline, corpus: Corpus, options: RunOptions,
    stampers: Int, startedAt: Date
  ) throws(RunFailure) -> Manifest {
    let output = snapshot.output
    let asOfText = snapshot.asOfText
    let pipelineRecord = Manifest.PipelineRecord(
      name: pipeline.name, file: pipeline.file.lastPathComponent, sha256: pipeline.contentHash)
    var manifest = Manifest(
      toolVersion: options.toolVersion, pipeline: pipelineRecord, asOf: asOfText,
      shard: options.shard.map { .init(index: $0.index, count: $0.count) }, startedAt: timestamp(startedAt),
      finishedAt: timestamp(Date()), totals: totals(userRecords), users: userRecords,
      skippedEntries: corpus.problems.map {
        .init(entry: $0.entry, message: $0.message, hidden: $0.isHidden ? true : nil)
      })
    manifest.jobs = options.jobs
    manifest.layout = pipeline.layout == .flat ? nil : pipeline.layout
    manifest.inputIdentity = InputIdentity.slice(
      runKey: corpus.runKey, users: userRecords.map { ($0.user, $0.inputIdentity ?? "") },
      skipped: InputIdentity.skipped(corpus.problems, in: options.shard, layout: corpus.layout))
    do {
      if let shard = options.shard {
        let folder = OutputLayout.shardFolder(shard, in: output)
        let manifestData = try manifest.encoded()
        let partial = try CohortPartial(
          pipeline: pipelineRecord, asOf: asOfText, resolvedAsOf: snapshot.asOf.text,
          shard: .init(index: shard.index, count: shard.count),
          input: corpus.record(pipeline: pipeline, identity: manifest.inputIdentity ?? ""),
          compare: gathered.compare, series: gathered.series, radar: gathered.radar,
          formats: pipeline.output.formats.map(\.rawValue), groupBy: gathered.groupBy,
          segments: gathered.groupBy == nil ? nil : gathered.segments
        ).sealed(manifest: manifestData)
        // A shard's own tables, for merge; a chart since removed from the pipeline leaves none.
        let tableFiles = try tables.map {
          try writeUserTables($0, records: userRecords, pipeline: pipeline, to: folder)
        }
        try OutputSweep.keepOnly(tableFiles ?? [], under: Tables.folder, in: folder.path)
        try AtomicFile.write(try partial.encoded(), to: folder.appendingPathComponent(OutputLayout.partial).path)
        try AtomicFile.write(manifestData, to: folder.appendingPathComponent(OutputLayout.manifest).path)
        // The spool goes before the marker: a re-run skips a complete snapshot, so nothing would
        // remove it after a kill between the two.
        tables?.discard()
        try AtomicFile.write(Data(), to: folder.appendingPathComponent(OutputLayout.success).path)
      } else {
        let finish = SnapshotFinish(
          output: output, layout: pipeline.layout, formats: pipeline.output.formats, pipelineName: pipeline.name,
          asOf: asOfText, gathered: gathered)
        try finish.write(
          try SnapshotFinish.reduce(gathered, asOf: asOfText), stamped: stamped, ownStaged: true, stampers: stampers,
          index: userRecords.map(ReportWriter.indexEntry), swept: userRecords.map(\.user), keepShards: false,
          removeDeparted: options.removeDeparted, manifest: &manifest,
          userTables: {
            try tables.map { try writeUserTables($0, records: userRecords, pipeline: pipeline, to: output) } ?? []
          },
          beforeSuccess: { tables?.discard() })
      }
    } catch let error as AtomicFile.WriteError {
      throw .output(error)
    } catch {
      preconditionFailure("outputs of plain values always encode: \(error)")
    }
    return manifest
  }

  /// Writes the users' tables of `spool`, one per chart, and the manifest's users and files, in
  /// `tables/` of `folder`; returns their paths, relative to `folder`.
  @discardableResult
  private static func writeUserTables(
    _ spool: TableSpool, records: [Manifest.UserRecord], pipeline: Pipeline, to folder: URL
  ) throws(AtomicFile.WriteError) -> [String] {
    let paths = Tables.chartPaths(pipeline)
    for (index, header) in Tables.headers(pipeline).enumerated() {
      try spool.write(table: index, header: header, to: folder.path + "/" + paths[index])
    }
    try AtomicFile.write(Data(Tables.users(records)), to: folder.path + "/" + Tables.usersPath)
    try AtomicFile.write(Data(Tables.files(records)), to: folder.path + "/" + Tables.filesPath)
    return paths + [Tables.usersPath, Tables.filesPath]
  }

  /// Refuses folders that cannot be used together, before anything is read or written: an
  /// output or cache folder inside the input (the next run would read it as users), an input
  /// or cache inside the output (a sweep would remove it), and an output folder holding entries no run
  /// writes (``OutputSweep``: a mistyped `--output` is refused, never emptied).
  ///
  /// A backfill's output folder (`backfill`) holds `as_of=<date>/` folders, each checked as
  /// an output folder of its own when the backfill writes it.
  static func checkFolders(input: URL, output: URL, cache: URL?, backfill: Bool = false) throws(RunFailure) {
    let isInside = OutputLayout.isInside
    let inputPath = OutputSweep.resolved(input)
    let outputPath = OutputSweep.resolved(output)
    if isInside(outputPath, inputPath) {
      throw .folders(
        "the output folder '\(output.path)' is inside the input folder '\(input.path)': "
          + "the next run would read its outputs as users. Write outside the input"
      )
    }
    if isInside(inputPath, outputPath) {
      throw .folders(
        "the input folder '\(input.path)' is inside the output folder '\(output.path)': "
          + "a run removes what it did not write there. Write elsewhere"
      )
    }
    if let cache, isInside(OutputSweep.resolved(cache), inputPath) {
      throw .folders(
        "the cache folder '\(cache.path)' is inside the input folder '\(input.path)': "
          + "the next run would read its entries as users. Keep the cache outside the input"
      )
    }
    if let cache, isInside(OutputSweep.resolved(cache), outputPath) {
      throw .folders(
        "the cache folder '\(cache.path)' is inside the output folder '\(output.path)': "
          + "a run removes what it did not write there. Keep the cache outside the output"
      )
    }
    if let problem = OutputSweep.ownershipProblem(in: output.path, backfill: backfill) {
      throw .folders(
        "the output folder '\(output.path)' \(problem); a run removes what it did not write, "
          + "so it refuses a folder it does not own. Give an empty folder or a Trendline output folder"
          + (backfill ? " of a backfill" : "")
      )
    }
  }

  /// The settings table: `source.users` if the pipeline names one, else `users.csv` in the
  /// input folder (partitioned: each partition's `0a3/users.csv`, of the partitions `shard`
  /// reads); none at all means every user gets the pipeline's defaults.
  ///
  /// A `users.csv` in the input folder is input like any export: it is opened inside the
  /// folder (``InputFolder``), so a link out of it is refused, and must be a regular file. A
  /// `source.users` table was named by the operator and is read where it is.
  ///
  /// With `shard`, only its users' rows are kept: every shard reads the table, but holds only
  /// its own part of it.
  static func loadUsersFile(
    named: URL?, input: URL, limits: ReadLimits, groupBy: String?, keeping shard: Shard? = nil,
    layout: UserLayout = .flat
  ) throws(ExportError) -> UsersFile {
    var keeping: (@Sendable (String) -> Bool)?
    if let shard { keeping = { id in shard.contains(id) } }
    if let named {
      let bytes = try settingsBytes(named.lastPathComponent, at: named.path, in: nil, limits: limits)
      return UsersFile(bytes: bytes ?? [], file: named.lastPathComponent, groupBy: groupBy, keeping: keeping)
    }
    let folder = InputFolder(resolving: input)
    let top = try settingsBytes(InputLayout.settingsFileName, in: folder, limits: limits)
    var table: UsersFile?
    switch layout {
    case .flat:
      table = top.map { UsersFile(bytes: $0, groupBy: groupBy, keeping: keeping) }
    case .partitioned:
      guard top == nil else {
        throw ExportError(
          file: InputLayout.settingsFileName,
          message: "a partitioned input's settings are in each partition's folder (0a3/users.csv), and none at "
            + "the top; move each user's row to the users.csv of their partition")
      }
      for partition in 0..<UserLayout.partitionCount where shard?.contains(partition: partition) ?? true {
        let name = UserLayout.partitionName(partition) + "/" + InputLayout.settingsFileName
        guard let bytes = try settingsBytes(name, in: folder, limits: limits) else { continue }
        let part = UsersFile(bytes: bytes, file: name, groupBy: groupBy, keeping: keeping, partition: partition)
        if table == nil { table = part } else { table!.add(part) }
      }
      // Counted over this process's partitions: a shard's few may pass where the night's
      // many do not, which its merge finds (``CohortPartial``).
      table?.checkSegmentCount(groupBy: groupBy)
    }
    guard let table else {
      // Segments come from users.csv: without one, every user would be "unknown", which is a
      // mistake to report, not a cohort to draw. A shard of a partitioned input may hold no
      // partition with a table while others do: the whole input's run and merge judge.
      if groupBy != nil && (layout == .flat || shard == nil) {
        throw ExportError(
          file: InputLayout.settingsFileName,
          message: "compare.groupBy names a column of users.csv, and the input has none; add users.csv with a "
            + "user column and that one")
      }
      return UsersFile()
    }
    return table
  }

  /// The bytes of the settings table `name`, opened inside `folder` (or at `path`, named by
  /// the operator); nil when there is none.
  private static func settingsBytes(_ name: String, at path: String? = nil, in folder: InputFolder?, limits: ReadLimits)
    throws(ExportError) -> [UInt8]?
  {
    do throws(FileBytes.Failure) {
      guard let folder else { return try FileBytes.read(path ?? name, maximumBytes: limits.maxFileBytes) }
      switch folder.kind(of: name) {
      case .failure(.system(_, let code)) where code == ENOENT || code == ENOTDIR: return nil
      case .failure(.system(let reason, let code)): throw .unreadable(reason: reason, code: code)
      case .failure(let failure): throw .outsideInput(failure)
      case .success(.folder): throw .unreadable(reason: String(cString: strerror(EISDIR)), code: EISDIR)
      case .success: return try FileBytes.read(name, in: folder, maximumBytes: limits.maxFileBytes)
      }
    } catch {
      switch error {
      case .tooLarge(let size): throw limits.fileTooLarge(name, size: size)
      case .outsideInput(let failure):
        throw ExportError(file: name, message: failure.reason + ". Put the file itself there")
      default: throw ExportError(file: name, message: error.reason)
      }
    }
  }

  static func totals(_ users: [Manifest.UserRecord]) -> Manifest.Totals {
    var totals = Manifest.Totals(
      users: users.count, usersOK: 0, usersFailed: 0, rows: RowCounts(), sessions: 0)
    for user in users {
      if user.status == .ok { totals.usersOK += 1 } else { totals.usersFailed += 1 }
      totals.rows += user.rows
      totals.sessions += user.sessions
    }
    return totals
  }

  /// A run time in RFC 3339, UTC, whole seconds.
  static func timestamp(_ date: Date) -> String {
    RFC3339.format(seconds: Int64(date.timeIntervalSince1970), timeZone: TimeZone(identifier: "UTC")!)
  }
}
