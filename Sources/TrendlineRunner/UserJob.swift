import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineRender
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// One user's share of a run: read and normalize once (``read(_:context:)``), build the sessions
/// once, then for each as-of of the run (one, or a backfill's every snapshot) run every chart
/// and write (``write(_:into:context:compares:)``).
enum UserJob {
  struct Context: Sendable {
    var pipeline: Pipeline
    var options: RunOptions
    var usersFile: UsersFile
    var readOptions: UserReader.Options
    var cache: SessionCache? = nil
  }

  /// One as-of of a run, and the output folder its files go to: the run's own, or a backfill's
  /// `as_of=<date>/`.
  struct Snapshot: Sendable {
    var asOf: AsOf
    /// As the manifest states it: as typed, or the date today resolved to.
    var asOfText: String
    var output: URL
  }

  /// A user's exports as read, shared by every snapshot: the manifest record's as-of-free part
  /// (files, rows, sessions, cache), and either what was read or why the user failed.
  struct Read {
    var user: UserInput
    var record: Manifest.UserRecord
    var settings: UserSettings?
    var ingest: UserIngest?
    /// Why nothing of the user's can be trusted: their exports could not be read.
    var failure: String?
    var started: ContinuousClock.Instant
    /// `row-outcomes.csv`, the same for every snapshot: made once, written once and linked into
    /// the other snapshots' folders.
    var rowOutcomes = RowOutcomesFile()
  }

  /// A user's `row-outcomes.csv` across the snapshots of a run, used by the one worker that runs
  /// the user.
  final class RowOutcomesFile {
    var bytes: Data?
    /// Where it was first written in this run, for the next snapshot to link to.
    var writtenAt: String?
  }

  /// What one user produced: the manifest record, and the outputs of the charts the
  /// pipeline compares across users (every other output is written and dropped).
  struct Result {
    var record: Manifest.UserRecord
    var compared: [(chart: String, output: ChartOutput)] = []
    /// The user's `compare.groupBy` cell; nil without one (the "unknown" segment).
    var segment: String? = nil
    /// With `"tables"`: the user's rows of each chart's table, by the chart's index.
    var tables: [(chart: Int, rows: [UInt8])] = []
    /// Per compared series chart, what the user's ranks in the cohort need (``CohortStamp``).
    var ranked: [String: CohortRanks.Buckets] = [:]
  }

  /// Reads `user`'s exports (or takes them from the cache, storing them there when they were
  /// read), once for every snapshot of the run.
  ///
  /// A problem with the user's data fails the user (recorded, not thrown); only a failure to
  /// write the cache is thrown, because it would fail every user after it too.
  static func read(_ user: UserInput, context: Context) throws(AtomicFile.WriteError) -> Read {
    let clock = ContinuousClock.now
    var record = Manifest.UserRecord(
      user: user.id, status: .ok, message: nil, files: [], rows: RowCounts(), afterAsOf: 0, sessions: 0,
      unmappedExercises: 0, elapsedMs: 0)

    let settings: UserSettings
    let ingest: UserIngest
    var cached: SessionCache.Lookup?
    var read: (ingest: UserIngest, inputs: [InputFile])
    // What each export held as far as the read got, for the user's input identity.
    var reached: [(name: String, content: String)] = []
    do throws(ExportError) {
      let limits = context.readOptions.limits
      if user.files.count > limits.maxFilesPerUser { throw limits.tooManyFiles(user.id, count: user.files.count) }
      settings = try context.usersFile.settings(for: user.id, defaults: context.pipeline.source.defaults)
      cached = context.cache?.lookup(user, settings: settings)
      if let hit = cached?.cached {
        read = hit
      } else {
        read = try UserReader.read(user, settings: settings, options: context.readOptions, reached: &reached)
      }
      // Once per user, kept in the cache: every snapshot's glance reads it.
      read.ingest.newRecords = RecordBook.newRecords(read.ingest.sessions, given: read.ingest.newRecords)
      ingest = read.ingest
      record.files = zip(read.inputs, ingest.files).map { input, accounting in
        Manifest.FileRecord(
          name: input.name, bytes: input.bytes, contentHash: input.contentHash, format: accounting.format,
          rows: accounting.rows, ignoredByReason: accounting.ignoredByReason)
      }
      record.inputIdentity = InputIdentity.user(
        user.id, settings: InputIdentity.settings(of: user.id, in: context.usersFile),
        files: read.inputs.map { ($0.name, $0.contentHash) })
    } catch {
      // What the read got to is what the user failed on (a read that timed out stays "unreadable",
      // so a later check that reads the file redoes the user); the files it never reached are
      // read for it now, as a later check will read them.
      record.inputIdentity = InputIdentity.user(
        user.id, settings: InputIdentity.settings(of: user.id, in: context.usersFile),
        files: reached
          + InputIdentity.files(
            of: user, maxFileBytes: context.readOptions.limits.maxFileBytes, from: reached.count))
      return Read(user: user, record: record, failure: error.description, started: clock)
    }
    if let cache = context.cache, let cached {
      try cache.store(cached, read: read)
      record.cache = cached.status.rawValue
    }
    for file in record.files { record.rows += file.rows }
    record.sessions = ingest.sessions.count
    record.unmappedExercises = ingest.unmappedExercises.count
    return Read(
      user: user, record: record, settings: settings.settlingZone(statedIn: ingest), ingest: ingest, started: clock)
  }

  /// Runs every chart of the pipeline over `read`'s sessions as of `snapshot` and writes the
  /// user's files into the snapshot's output folder; returns its manifest record and compared
  /// outputs.
  ///
  /// Only a failure to write output is thrown, because it would fail every user after it too.
  static func write(_ read: Read, into snapshot: Snapshot, context: Context, compares: (String) -> Bool)
    throws(AtomicFile.WriteError) -> Result
  {
    let user = read.user
    let clock = read.started
    var record = read.record
    // The id was checked by InputLayout; it is the only input-derived part of any path.
    let layout = context.pipeline.layout
    let folder = snapshot.output.path + "/" + layout.userFolder(user.id)
    // A partition folder that is a link is replaced by a real one too, as a user's is below.
    for partition in layout.partitionFolders(of: user.id) {
      try OutputSweep.unlinkIfLink(snapshot.output.path + "/" + partition)
    }
    // A link left here is replaced by a real folder; one swapped in later fails the writes
    // (``AtomicFile``), which never reach its target.
    try OutputSweep.unlinkIfLink(folder)
    guard let settings = read.settings, let ingest = read.ingest else {
      // Nothing of this user's can be trusted: remove what an earlier run wrote for them, so
      // the folder never shows charts the manifest calls failed.
      let message = read.failure ?? ""
      try AtomicFile.remove(folder)
      try ReportWriter.writeFailedUserPage(
        user: user.id, message: message, timeZone: context.pipeline.source.defaults.read.timeZone,
        output: snapshot.output, layout: layout, formats: context.pipeline.output.formats)
      return Result(record: finish(failed(record, message), since: clock))
    }
    let calendar = settings.calendar
    let asOf = snapshot.asOf.resolve(for: calendar)
    record.afterAsOf = ingest.sessions.reduce(0) { $0 + ($1.start > asOf ? 1 : 0) }
    record.glance = Glance(ingest.sessions, newRecords: ingest.newRecords, calendar: calendar, asOf: asOf)

    // The names this run writes in the user's folder; whatever else an earlier run left there
    // (a chart since removed from the pipeline, an SVG no longer asked for) goes at the end.
    var written: Set<String> = []
    if !ingest.notes.isEmpty {
      // A backfill's snapshots share the file: a link costs no bytes and no inode, where 52
      // copies of a 30 KB file per user were half of what a weekly backfill of a year wrote.
      let path = folder + "/" + RowOutcomesCSV.fileName
      let outcomes = read.rowOutcomes
      var linked = false
      if let source = outcomes.writtenAt { linked = try AtomicFile.link(source, to: path) }
      if !linked {
        let bytes = outcomes.bytes ?? Data(RowOutcomesCSV.bytes(ingest.notes))
        outcomes.bytes = bytes
        try AtomicFile.write(bytes, to: path)
        outcomes.writtenAt = path
      }
      written.insert(RowOutcomesCSV.fileName)
    }
    let rejects = ingest.notes.filter { $0.outcome == .rejected }
    let strictFailure = context.options.strict && !rejects.isEmpty
    // Mostly unreadable is not "ok" (SPEC 11.2); --strict's message, naming the first reject,
    // says the more when both apply.
    let shareFailure =
      strictFailure
      ? nil
      : RejectedShare.problem(
        files: ingest.files, notes: ingest.notes, limit: context.readOptions.limits.maxRejectedShare)
    let catalog = context.pipeline.source.catalog
    // What the person reads every drawn value in (SPEC 10.8); the JSON stays in kg and m.
    let units = settings.units(stated: ingest.statedUnits)
    func chartContext(_ chart: Chart) -> ChartContext {
      ChartContext(user: user.id, chart: chart.name, calendar: calendar, asOf: asOf, catalog: catalog, units: units)
    }
    let tooLarge = context.pipeline.charts.lazy.compactMap {
      $0.sizeProblem(ingest.sessions, in: chartContext($0))
    }.first
    if let tooLarge, !strictFailure, shareFailure == nil {
      try OutputSweep.removeAll(in: folder, except: written)
      try ReportWriter.writeFailedUserPage(
        user: user.id, message: tooLarge, timeZone: calendar.timeZone, output: snapshot.output, layout: layout,
        formats: context.pipeline.output.formats)
      return Result(record: finish(failed(record, tooLarge), since: clock))
    }
    if strictFailure || shareFailure != nil {
      try OutputSweep.removeAll(in: folder, except: written)
      let message =
        shareFailure
        ?? "--strict: \(rejects.count) rejected row(s), the first \(rejects[0]); see \(RowOutcomesCSV.fileName)"
      try ReportWriter.writeFailedUserPage(
        user: user.id, message: message, timeZone: calendar.timeZone, output: snapshot.output, layout: layout,
        formats: context.pipeline.output.formats)
      return Result(record: finish(failed(record, message), since: clock))
    }

    var compared: [(chart: String, output: ChartOutput)] = []
    let formats = context.pipeline.output.formats
    // An aligned cohort (`compare.weekStart`) sees a weekly chart bucketed again with its weeks
    // starting on that day; the user's own chart keeps their first weekday.
    func cohortView(of output: ChartOutput, chart: Chart) -> ChartOutput {
      guard let weekStart = context.pipeline.compare?.weekStart, let series = output.content as? SeriesOutput,
        series.granularity == .week, calendar.firstWeekday != weekStart
      else { return output }
      var aligned = chartContext(chart)
      aligned.calendar.firstWeekday = weekStart
      return chart.run(ingest.sessions, in: aligned)
    }
    var documents: [ChartDocument] = []
    // Sessions are oldest first; drawn charts with an empty window name the last one.
    let lastSession =
      formats.contains(.svg)
      ? ingest.sessions.last(where: { $0.start <= asOf }).map { Date(epochSeconds: $0.start) } : nil
    var tables: [(chart: Int, rows: [UInt8])] = []
    var ranked: [String: CohortRanks.Buckets] = [:]
    for (index, chart) in context.pipeline.charts.enumerated() {
      let output = chart.run(ingest.sessions, in: chartContext(chart))
      if formats.contains(.tables) { tables.append((index, output.tableRows(trend: chart.hasTrend))) }
      let data: Data
      do {
        data = try output.encoded(timeZone: calendar.timeZone)
      } catch {
        preconditionFailure("chart '\(chart.name)' produced a value JSON cannot hold: \(error)")
      }
      if compares(chart.name), let series = output.content as? SeriesOutput {
        ranked[chart.name] = CohortRanks.Buckets(series)
        // Staged until the cohort is known, then stamped with its axis under the final name
        // (``CohortStamp``), so a file under the final name is never one still missing it.
        let staged = CohortStamp.stagedName(chart.name)
        try AtomicFile.write(data, to: folder + "/" + staged)
        written.insert(staged)
      } else {
        try AtomicFile.write(data, to: folder + "/" + chart.name + ".json")
      }
      written.insert(chart.name + ".json")
      if compares(chart.name) { compared.append((chart.name, cohortView(of: output, chart: chart))) }
      let document = ChartDocument.user(output)
      if let svg = try ReportWriter.writeSVG(
        document, named: chart.name, in: folder, formats: formats, lastSession: lastSession)
      {
        written.insert(svg)
      }
      documents.append(document)
    }
    try OutputSweep.removeAll(in: folder, except: written)
    try ReportWriter.writeUserPage(
      user: user.id, failure: nil, calendar: calendar, asOf: asOf, units: units, charts: documents,
      sessions: ingest.sessions, notes: ingest.notes, output: snapshot.output, layout: layout, formats: formats,
      compared: Set(compared.compactMap { $0.output.content is SeriesOutput ? $0.chart : nil }))
    let segment = context.usersFile.rows[user.id].map(\.group).flatMap { $0.isEmpty ? nil : $0 }
    if context.pipeline.compare?.groupBy != nil { record.segment = segment }
    return Result(
      record: finish(record, since: clock), compared: compared, segment: segment, tables: tables,
      ranked: ranked)
  }

  private static func failed(_ record: Manifest.UserRecord, _ message: String) -> Manifest.UserRecord {
    var record = record
    record.status = .failed
    record.message = message
    // A failed user's charts are not shown, and neither is a glance of them.
    record.glance = nil
    return record
  }

  private static func finish(_ record: Manifest.UserRecord, since start: ContinuousClock.Instant)
    -> Manifest.UserRecord
  {
    var record = record
    let elapsed = ContinuousClock.now - start
    record.elapsedMs = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    return record
  }
}
