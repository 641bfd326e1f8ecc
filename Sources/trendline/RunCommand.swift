import Foundation
import Synchronization
import TrendlinePipeline
import TrendlineRunner
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// `trendline run PIPELINE [options]`: the main job. Loads and checks the pipeline (exit 2
/// before any input is read if it is wrong), runs it over every user, and reports.
enum RunCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "run"
  static let abstract = "Run a pipeline over every user's exports and write the charts."
  static let help = """
    OVERVIEW: \(abstract)

    USAGE: trendline run PIPELINE [--input DIR] [--output DIR]
                                  [--as-of WHEN | --as-of FROM..TO --every STEP] [--jobs N]
                                  [--shard I/N | --shards N] [--listing DIR]
                                  [--cache DIR [--cache-verify]]
                                  [--remove-departed [--confirm-removal]] [--strict] [--quiet]
                                  [--log json]

    ARGUMENTS:
      PIPELINE          The pipeline file (JSON, see Guides/PipelineFile.md).

    OPTIONS:
      --input DIR       Read users from DIR instead of the pipeline's source.input.
      --output DIR      Write to DIR (default: out).
      --as-of WHEN      An RFC 3339 instant, or YYYY-MM-DD meaning the end of that local
                        day for each user (default: today, the date in the pipeline's
                        default time zone when the run starts, for every user).
      --as-of FROM..TO  A backfill: every date from FROM to TO (YYYY-MM-DD) a step apart,
      --every STEP      STEP day, week or month (a month keeps FROM's day, or the month's
                        last), each written to DIR/as_of=<date>/ as its own run's output
                        with manifest.json and _SUCCESS; every user is read once for all of
                        them. A snapshot complete for this pipeline, build and input (by
                        content: every export's bytes, every users.csv row) is skipped, so
                        running it again finishes a backfill killed part way.
      --jobs N          Users processed at once (default: the processors this process may use:
                        its CPU affinity and cgroup quota, as Slurm, taskset or Kubernetes set them).
      --shard I/N       Run only shard I (0-based) of N: the users whose id hashes to I.
                        Writes their files and shards/I-of-N/ for 'trendline merge'.
      --shards N        Split into N shards and take the index from the scheduler:
                        JOB_COMPLETION_INDEX (Kubernetes), SLURM_ARRAY_TASK_ID (Slurm;
                        SLURM_ARRAY_TASK_COUNT may give N instead), AWS_BATCH_JOB_ARRAY_INDEX.
      --listing DIR     Read the users and files the night's listing names ('trendline
                        list'), not what the input holds now: exports that arrived since
                        wait for the next night. A shard reads its own slice of it.
      --cache DIR       Keep each user's read exports in DIR/<user>.tlcache (partitioned:
                        DIR/<partition>/<user>.tlcache) and reuse them
                        while the exports, users.csv settings, source settings, catalog and
                        trendline build are unchanged: a nightly run parses only new exports.
                        A file whose size, times and inode are unchanged is not re-read (as
                        git does); a damaged or foreign cache file is rebuilt, never trusted.
                        The manifest says per user: "cache": "hit", "miss" or "rebuilt".
      --cache-verify    With --cache, hash every export on every run instead of trusting
                        unchanged file stats.
      --remove-departed Remove the folders and report pages of users no longer in the input.
                        Without it they are kept, and the manifest's "departed" lists them
                        (a run over all users; a shard leaves this to 'trendline merge').
                        Refused (exit 2, nothing removed) when more than half of the users
                        with a folder in the output would go at once: an empty or wrongly
                        mounted input.
      --confirm-removal With --remove-departed, remove them even so.
      --strict          Fail a user that has any rejected row.
      --quiet           Print nothing but errors.
      --log json        Print one JSON object per event on stderr instead of progress.
      -h, --help        Show this help.

    OUTPUT (in DIR):
      users/<user>/<chart>.json   chart data
      users/<user>/row-outcomes.csv  rows not accepted as written, when there are any
      manifest.json               what was read, accepted, rejected, per user and file
      _SUCCESS                    written last, when the run completed
      as_of=<date>/               with --as-of FROM..TO, each snapshot's own folder of the above

    EXIT CODES:
      0   every user succeeded
      1   some users failed; the others were written and manifest.json says why
      2   bad arguments or pipeline file; nothing was read or written
      74  an output file could not be written

    """

  struct Options: Equatable {
    var pipeline: String
    var input: String?
    var output = "out"
    var asOf: String?
    /// `--as-of FROM..TO` with `--every`: a backfill, `asOf` then nil.
    var backfill: AsOfRange?
    var every: String?
    var jobs = CPUAllocation.usable
    var shard: Shard?
    var shards: Int?
    var strict = false
    var quiet = false
    var logJSON = false
    var cache: String?
    var listing: String?
    var cacheVerify = false
    var removeDeparted = false
    var confirmRemoval = false
  }

  /// Reads the command line; nil means help was asked for.
  ///
  /// - Complexity: O(*a*), where *a* is the number of arguments.
  static func parseArguments(_ arguments: [String]) throws(UsageError) -> Options? {
    var options = Options(pipeline: "")
    var pipeline: String?
    var remaining = arguments[...]
    func value(_ option: String) throws(UsageError) -> String {
      guard let next = remaining.popFirst() else { throw UsageError("missing value for '\(option)'") }
      return next
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help": return nil
      case "--input": options.input = try value(argument)
      case "--output": options.output = try value(argument)
      case "--as-of":
        let text = try value(argument)
        // A range is read once --every is known, after the loop.
        if !AsOfRange.isRange(text) {
          do throws(AsOf.Invalid) {
            _ = try AsOf(reading: text)
          } catch {
            throw UsageError(error.description)
          }
        }
        options.asOf = text
      case "--every": options.every = try value(argument)
      case "--jobs":
        let text = try value(argument)
        // More workers than this only queue for the same cores and memory.
        guard let jobs = Int(text), (1...1024).contains(jobs) else {
          throw UsageError("--jobs takes a whole number from 1 to 1024, not '\(text)'")
        }
        options.jobs = jobs
      case "--shard":
        let text = try value(argument)
        guard let shard = Shard(parsing: text) else {
          throw UsageError(
            "--shard takes I/N with 0 ≤ I < N ≤ \(Shard.counts.upperBound), such as 2/7, not '\(text)'")
        }
        options.shard = shard
      case "--shards":
        let text = try value(argument)
        guard let count = Int(text), Shard.counts.contains(count) else {
          throw UsageError("--shards takes a whole number from 1 to \(Shard.counts.upperBound), not '\(text)'")
        }
        options.shards = count
      case "--cache": options.cache = try value(argument)
      case "--listing": options.listing = try value(argument)
      case "--cache-verify": options.cacheVerify = true
      case "--strict": options.strict = true
      case "--remove-departed": options.removeDeparted = true
      case "--confirm-removal": options.confirmRemoval = true
      case "--quiet": options.quiet = true
      case "--log":
        let text = try value(argument)
        guard text == "json" else { throw UsageError("--log takes 'json', not '\(text)'") }
        options.logJSON = true
      default:
        if argument.hasPrefix("-") {
          let known = [
            "--input", "--output", "--as-of", "--every", "--jobs", "--shard", "--shards", "--cache", "--cache-verify",
            "--strict", "--listing",
            "--quiet", "--log", "--remove-departed", "--confirm-removal", "--help",
          ]
          var message = "unknown option '\(argument)'"
          if let near = nearMiss(argument, in: known) { message += ". Did you mean '\(near)'?" }
          throw UsageError(message)
        }
        guard pipeline == nil else { throw UsageError("unexpected argument '\(argument)'; run takes one pipeline") }
        pipeline = argument
      }
    }
    guard let pipeline else { throw UsageError("missing PIPELINE") }
    options.pipeline = pipeline
    if options.shard != nil && options.shards != nil { throw UsageError("give --shard I/N or --shards N, not both") }
    if options.cacheVerify && options.cache == nil { throw UsageError("--cache-verify needs --cache DIR") }
    // Alone it would do nothing, silently: the operator meant a removal that did not happen.
    if options.confirmRemoval && !options.removeDeparted {
      throw UsageError("--confirm-removal confirms --remove-departed; give both, or neither")
    }
    if let text = options.asOf, AsOfRange.isRange(text) {
      guard let every = options.every else {
        throw UsageError("--as-of \(text) is a range; give --every day, week or month")
      }
      do throws(AsOf.Invalid) {
        options.backfill = try AsOfRange(reading: text, every: every)
      } catch {
        throw UsageError(error.description)
      }
      options.asOf = nil
    } else if let every = options.every {
      throw UsageError("--every \(every) steps through a range; give --as-of FROM..TO with it")
    }
    return options
  }

  /// The shard to run: `--shard`, or `--shards` (or Slurm's task count) with the index from
  /// the scheduler's environment; nil for an unsharded run.
  static func resolveShard(_ options: Options, environment: [String: String]) throws(UsageError) -> Shard? {
    if let shard = options.shard { return shard }
    var count = options.shards
    // Slurm gives the count too, when the index is Slurm's (no Kubernetes index wins over it).
    if count == nil, environment["JOB_COMPLETION_INDEX"] == nil, environment["SLURM_ARRAY_TASK_ID"] != nil,
      let text = environment["SLURM_ARRAY_TASK_COUNT"]
    {
      guard let given = Int(text), Shard.counts.contains(given) else {
        throw UsageError(
          "SLURM_ARRAY_TASK_COUNT is '\(text)', not a shard count from 1 to \(Shard.counts.upperBound)")
      }
      count = given
    }
    // An unsharded run does not read the index at all, so a stray variable cannot stop it.
    guard let count else { return nil }
    let environmentIndex: (index: Int, source: String)?
    do throws(Shard.EnvironmentError) {
      environmentIndex = try Shard.indexFromEnvironment(environment)
    } catch {
      throw UsageError(error.description)
    }
    guard let (index, source) = environmentIndex else {
      throw UsageError(
        "--shards \(count) needs the shard index from JOB_COMPLETION_INDEX, "
          + "SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX; none is set (or give --shard I/N)"
      )
    }
    guard (0..<count).contains(index) else {
      throw UsageError("\(source) gives shard index \(index), outside 0..<\(count)")
    }
    return Shard(index: index, count: count)
  }

  static func run(_ arguments: [String]) -> ExitCode {
    var options: Options
    switch parse(arguments, with: parseArguments, help: help, command: name) {
    case .options(let parsed): options = parsed
    case .exit(let code): return code
    }
    let shard: Shard?
    do {
      shard = try resolveShard(options, environment: ProcessInfo.processInfo.environment)
    } catch {
      return usageFailure(error, help: "trendline run --help")
    }
    // After the scheduler's variables are read: a Slurm task is a shard without --shards.
    if options.removeDeparted && shard != nil {
      return usageFailure(
        UsageError(
          "--remove-departed needs every user: a shard cannot tell who left the input; give it to 'trendline merge'"),
        help: "trendline run --help")
    }
    let environment = ProcessInfo.processInfo.environment
    let early = options.logJSON ? CommandLog(command: name, shard: shard?.description, environment: environment) : nil
    guard let pipeline = loadPipelineOrReport(options.pipeline, log: early) else { return .usage }
    // The pipeline's own as-of (checked by the loader) stands where --as-of is not given.
    if options.asOf == nil && options.backfill == nil { options.asOf = pipeline.asOf }
    let now = Int64(Date().timeIntervalSince1970)
    if options.asOf == nil && options.backfill == nil && !AsOf.supportedInstants.contains(now) {
      return usageFailure(
        UsageError(
          "the system clock reads \(now) seconds since 1970, outside the supported dates \(AsOf.supportedDates); "
            + "set the clock or give --as-of"
        ),
        help: "trendline run --help")
    }

    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    var runOptions = RunOptions(
      input: options.input.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
      output: URL(fileURLWithPath: options.output, relativeTo: cwd).standardizedFileURL,
      asOf: options.asOf.flatMap(AsOf.init(parsing:)), asOfText: options.asOf,
      jobs: options.jobs, shard: shard, strict: options.strict, now: now, toolVersion: toolVersion,
      cache: options.cache.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
      cacheVerify: options.cacheVerify, removeDeparted: options.removeDeparted, backfill: options.backfill)
    runOptions.confirmRemoval = options.confirmRemoval
    // Today, resolved here as the runner would, so that every log line states the date.
    if runOptions.asOf == nil && options.backfill == nil {
      runOptions.asOf = AsOf.today(in: pipeline.source.defaults.calendar.timeZone, now: now)
    }
    runOptions.listing = options.listing.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
    let log =
      options.logJSON
      ? CommandLog(
        command: name, asOf: runOptions.asOf.map(\.text) ?? options.asOf, shard: shard?.description,
        environment: environment) : nil
    let reporter = RunReporter(quiet: options.quiet, log: log, snapshots: options.backfill != nil)
    let manifests: [Manifest]
    do throws(RunFailure) {
      if options.backfill != nil {
        let backfill = try Runner.backfill(pipeline, options: runOptions, events: reporter.report)
        reporter.reportBackfill(backfill)
        manifests = backfill.written
      } else {
        manifests = [try Runner.run(pipeline, options: runOptions, events: reporter.report)]
      }
    } catch {
      reporter.finishLine()
      if let log { log.fail(error.description) } else { printError(error.diagnostic + "\n") }
      switch error {
      case .input, .folders, .listing, .layout: return .usage
      case .output, .cache: return .ioError
      }
    }
    let someFailed = manifests.contains { $0.totals.usersFailed > 0 || !$0.faultyEntries.isEmpty }
    return someFailed ? .someFailed : .success
  }
}

/// What a run or merge says of users no longer in the input: how many, the first few ids, and
/// what became of their folders.
func departedWarning(_ departed: Manifest.Departed) -> Diagnostic {
  let count = departed.users.count
  var shown = departed.users.prefix(5).map { "'\(TerminalText.escaped($0))'" }.joined(separator: ", ")
  if count > 5 { shown += " and \(count - 5) more" }
  let who = count == 1 ? "1 user is" : "\(count) users are"
  if departed.removed {
    return Diagnostic(.warning, "\(who) no longer in the input (\(shown)); their folders were removed")
  }
  return Diagnostic(
    .warning,
    "\(who) no longer in the input (\(shown)); their folders are kept and the manifest's \"departed\" "
      + "lists them. Check the input folder, or run with --remove-departed to remove them")
}

/// Loads `path`, or prints every problem in it (compiler style) and returns nil.
///
/// With a `log`, each mistake is one of its lines.
func loadPipelineOrReport(_ path: String, log: CommandLog? = nil) -> Pipeline? {
  switch PipelineLoader.load(URL(fileURLWithPath: path)) {
  case .success(let pipeline):
    return pipeline
  case .failure(let errors):
    for diagnostic in errors.diagnostics {
      if let log { log.fail(diagnostic.description) } else { printError("\(diagnostic)\n") }
    }
    return nil
  }
}

/// Turns run events into what a person or a log collector reads on stderr and stdout.
///
/// Workers report from many threads; the output goes through one lock so lines never mix.
final class RunReporter: Sendable {
  let quiet: Bool
  /// With `--log json`: every line is one of its JSON lines.
  let log: CommandLog?
  let showsProgress: Bool
  /// A backfill: a manifest per snapshot, each summed up in one line, and a user's failure or an
  /// input entry said once, not once per snapshot.
  let snapshots: Bool
  private let state = Mutex<
    (started: ContinuousClock.Instant, rows: Int, lastDraw: ContinuousClock.Instant?, said: Set<String>)
  >((ContinuousClock.now, 0, nil, []))

  init(quiet: Bool, log: CommandLog?, snapshots: Bool = false) {
    self.quiet = quiet
    self.log = log
    self.snapshots = snapshots
    showsProgress = !quiet && log == nil && isatty(STDERR_FILENO) != 0
  }

  func report(_ event: RunEvent) {
    state.withLock { state in
      switch event {
      case .started(let users):
        state.started = .now
        printError(log?.line(.info, "start", [("users", .number(users))]) ?? "")
      case .userFinished(let record, let done, let total):
        state.rows += record.rows.read
        if let log {
          var members: [(String, CommandLog.Value)] = [
            ("elapsedMs", .number(record.elapsedMs)), ("rowsRead", .number(record.rows.read)),
            ("rowsRejected", .number(record.rows.rejected)), ("sessions", .number(record.sessions)),
            ("status", .text(record.status.rawValue)), ("user", .text(record.user)),
          ]
          if let message = record.message { members.append(("message", .text(message))) }
          printError(log.line(record.status == .failed ? .error : .info, "user", members))
        } else if showsProgress {
          let now = ContinuousClock.now
          // Redraw at most ten times a second; a terminal cannot show more.
          if done == total || state.lastDraw.map({ now - $0 > .milliseconds(100) }) ?? true {
            state.lastDraw = now
            printControl("\r\u{1B}[K")
            printError(progressLine(done: done, total: total, rows: state.rows, since: state.started))
          }
        }
      case .finished(let manifest):
        if showsProgress && (!snapshots || state.lastDraw != nil) { printError("\n") }
        state.lastDraw = nil
        if let log {
          // The failures were each a `user` line already; an entry not read and the users
          // departed are said here, as lines of their own.
          for entry in manifest.faultyEntries {
            printError(
              log.line(
                .error, "entry",
                [
                  ("asOf", .text(manifest.asOf)), ("entry", .text(entry.entry)),
                  ("message", .text(entry.message)),
                ]))
          }
          if let departed = manifest.departed {
            printError(
              log.line(
                .warning, "departed",
                [
                  ("asOf", .text(manifest.asOf)), ("users", .number(departed.users.count)),
                  ("removed", .text(departed.removed ? "yes" : "no")),
                ]))
          }
          let failed = manifest.totals.usersFailed > 0 || !manifest.faultyEntries.isEmpty
          var members: [(String, CommandLog.Value)] = [
            ("rowsRead", .number(manifest.totals.rows.read)), ("skippedEntries", .number(manifest.faultyEntries.count)),
            ("users", .number(manifest.totals.users)), ("usersFailed", .number(manifest.totals.usersFailed)),
            ("usersOK", .number(manifest.totals.usersOK)),
          ]
          if snapshots { members.append(("asOf", .text(manifest.asOf))) }
          printError(log.line(failed ? .warning : .info, "finish", members))
          return
        }
        func sayOnce(_ diagnostic: Diagnostic) {
          if state.said.insert(diagnostic.description).inserted { printError("\(diagnostic)\n") }
        }
        for user in manifest.users where user.status == .failed {
          sayOnce(Diagnostic(.error, "user '\(user.user)' failed: \(user.message ?? "")"))
        }
        for entry in manifest.faultyEntries {
          sayOnce(Diagnostic(.error, "input entry '\(entry.entry)' \(entry.message)"))
        }
        if let departed = manifest.departed { sayOnce(departedWarning(departed)) }
        if !quiet { printOutput(snapshots ? snapshotLine(manifest) : summary(manifest)) }
      }
    }
  }

  /// What a backfill did beyond its snapshots' own lines: the snapshots it found complete.
  func reportBackfill(_ backfill: Runner.Backfill) {
    guard !quiet else { return }
    state.withLock { _ in
      if let log {
        printError(
          log.line(
            .info, "backfill",
            [("skipped", .number(backfill.skipped.count)), ("written", .number(backfill.written.count))]
          ))
      } else {
        func snapshots(_ count: Int) -> String { count == 1 ? "1 snapshot" : "\(count) snapshots" }
        var line = snapshots(backfill.written.count) + " written"
        let skipped = backfill.skipped
        if !skipped.isEmpty {
          let which = skipped.count <= 5 ? skipped.joined(separator: ", ") : "\(skipped[0]) … \(skipped.last!)"
          line += ", \(snapshots(skipped.count)) already complete and skipped (\(which))"
        }
        printOutput(line + "\n")
      }
    }
  }

  /// Ends a progress line before an error is printed under it.
  func finishLine() {
    if showsProgress { printError("\n") }
  }

  private func progressLine(done: Int, total: Int, rows: Int, since start: ContinuousClock.Instant) -> String {
    let elapsed = max(
      0.001,
      Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        + Double((ContinuousClock.now - start).components.seconds))
    let rate = Int(Double(rows) / elapsed)
    let remaining = done == 0 ? 0 : Int(elapsed / Double(done) * Double(total - done))
    return "users \(done)/\(total) · \(rate) rows/s · ETA \(remaining / 60):\(String(format: "%02d", remaining % 60))"
  }

  /// One snapshot of a backfill: `as_of=2025-01-06: 2000 users, 2000 ok, 0 failed`.
  private func snapshotLine(_ manifest: Manifest) -> String {
    let t = manifest.totals
    return "as_of=\(manifest.asOf): \(t.users) users, \(t.usersOK) ok, \(t.usersFailed) failed\n"
  }

  private func summary(_ manifest: Manifest) -> String {
    let t = manifest.totals
    let rows = t.rows
    let notRead = manifest.faultyEntries.isEmpty ? "" : ", \(manifest.faultyEntries.count) input entries not read"
    return """
      \(t.users) users: \(t.usersOK) ok, \(t.usersFailed) failed\(notRead)
      \(rows.read) rows read: \(rows.accepted) accepted, \(rows.rejected) rejected, \(rows.duplicate) duplicate, \
      \(rows.ignored) ignored (\(rows.repaired) repaired, \(rows.valueDropped) with a value dropped)
      \(t.sessions) sessions; as-of \(manifest.asOf)

      """
  }
}

/// The version written into manifests.
let toolVersion = "0.1.0"
