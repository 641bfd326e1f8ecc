import Foundation
import Synchronization
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineSupport

/// What a run's numbers were computed from, by content (SPEC 11.5): the one key behind a
/// backfill's skip of a complete snapshot, `trendline shards`' judgement of a shard and
/// `trendline merge`'s check of its partials. The session cache keys each user's entry on the
/// same parts (``SessionCache/runKey(source:toolVersion:)``, the user's settings, each
/// export's ``ContentHash``).
///
/// Names and sizes are not enough: a corrected weight keeps an export's size, and a time zone
/// fixed in `users.csv` changes no export at all; both left yesterday's numbers under
/// `_SUCCESS`. So every export's bytes are hashed, and so is each user's row of settings as
/// the run reads it (not the file: an edit of one user's row redoes that user's shard only).
///
/// Identity is kept per user and combined per shard: an export arriving for one user changes
/// the identity of that user's shard alone, so only that shard runs again.
public enum InputIdentity {
  /// What every user of a run shares that can change a number: the build, the tool's
  /// version, the time-zone data, the source settings, the catalog (the session cache's run
  /// key), the pipeline file's content and `--strict` (which decides who fails). SHA-256, hex.
  public static func runKey(pipeline: Pipeline, toolVersion: String, strict: Bool) -> String {
    let text =
      SessionCache.runKey(source: pipeline.source, toolVersion: toolVersion) + "pipeline \(pipeline.contentHash)\n"
      + "strict \(strict)\n"
    return SHA256.hex(Array(text.utf8))
  }

  /// One user's identity: their id, their settings as `users.csv` states them, and each export's
  /// name and content hash (or why it cannot be read). SHA-256, hex.
  static func user(_ id: String, settings: String, files: [(name: String, content: String)]) -> String {
    var text = "trendline user input 1\nuser \(id)\nsettings \(settings)\n"
    for file in files { text += "file \(file.name) \(file.content)\n" }
    return SHA256.hex(Array(text.utf8))
  }

  /// A user's row of `users.csv` as the run reads it: the values, not the line they are on
  /// (a row moved or another user's row edited changes nothing of this user's); every line
  /// when the user is listed twice, which fails them.
  static func settings(of id: String, in file: UsersFile) -> String {
    if let lines = file.repeated[id] { return "listed on lines \(lines.map(String.init).joined(separator: ","))" }
    guard let row = file.rows[id] else { return "none" }
    return [row.timeZone, row.weightUnit, row.distanceUnit, row.firstWeekday, row.dateOrder, row.group]
      .map { "\($0.utf8.count):\($0)" }.joined(separator: " ")
  }

  /// The identity of a slice of the input (a shard's users, or all of them): the run key, each
  /// user's identity in id order, and the entries skipped that belong to the slice (an entry
  /// belongs to the shard its first path component would as a user id). SHA-256, hex.
  ///
  /// - Complexity: O(*u* log *u* + *p*), for *u* users and *p* skipped entries.
  static func slice(runKey: String, users: [(id: String, identity: String)], skipped: [InputProblem]) -> String {
    var text = "trendline input 1\nrun \(runKey)\n"
    for user in users.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
      text += "user \(user.id) \(user.identity)\n"
    }
    for problem in skipped { text += "skipped \(problem.entry.utf8.count):\(problem.entry) \(problem.message)\n" }
    return SHA256.hex(Array(text.utf8))
  }

  /// The skipped entries that belong to `shard` (all of them without one).
  static func skipped(_ problems: [InputProblem], in shard: Shard?, layout: UserLayout) -> [InputProblem] {
    guard let shard else { return problems }
    return problems.filter { shardIndex(of: $0, count: shard.count, layout: layout) == shard.index }
  }

  /// The index of the shard of `count` a skipped entry belongs to: that of its first path
  /// component as a user id (`anna` of `anna/old`), or in a partitioned input, of the
  /// partition it is in: `0a3/bob` is found by the shard that lists partition 0a3, whoever
  /// bob is.
  static func shardIndex(of problem: InputProblem, count: Int, layout: UserLayout) -> Int {
    let first = problem.entry.split(separator: "/", maxSplits: 1).first ?? ""
    if layout == .partitioned, let partition = UserLayout.partition(named: first) { return partition % count }
    return Shard.index(of: String(first), count: count)
  }

  /// Each export of `user` from the `from`th on by name and content, read as a run reads it
  /// (inside the input folder, held to `maxFileBytes`); a file that cannot be read is named by
  /// why (``InputFile/content(failing:)``), so a run that failed on it and a check that finds
  /// it still so agree.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the user's exports.
  static func files(of user: UserInput, maxFileBytes: Int, from first: Int = 0) -> [(name: String, content: String)] {
    user.files.indices.dropFirst(first).map { index in
      let name = user.files[index].lastPathComponent
      do throws(FileBytes.Failure) {
        return (name, ContentHash.of(try user.bytes(ofFileAt: index, maximumBytes: maxFileBytes)))
      } catch {
        return (name, InputFile.content(failing: error))
      }
    }
  }

  /// A slice of the input as it is now: its identity, and each of its users' by id.
  struct Slice: Sendable {
    var identity: String
    var users: [String: String]
  }

  /// Why a shard's users, as its manifest records them, are not the input as it is now, in
  /// words for the operator: the first user added, gone or changed, in id order. Nil when
  /// every user's identity matches (the slice then differs in its skipped entries or run key).
  static func difference(recorded: [Manifest.UserRecord], current: [String: String]) -> String? {
    var recordedByID: [String: String] = [:]
    for user in recorded { recordedByID[user.user] = user.inputIdentity ?? "" }
    for id in Set(recordedByID.keys).union(current.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      let shown = TerminalText.escaped(id)
      switch (recordedByID[id], current[id]) {
      case (nil, _): return "user '\(shown)' is in the input and was not run"
      case (_, nil): return "user '\(shown)' was run and is no longer in the input"
      case (let old?, let new?) where old != new:
        return "user '\(shown)''s exports or users.csv row changed since"
      default: continue
      }
    }
    return nil
  }
}

/// The input as it is now, identified the way a run identifies what it read: what a backfill,
/// `trendline shards` and `merge` compare a snapshot's or shard's record with.
extension Runner.Corpus {
  /// The input a shard's partial records (or `folder`, where it is now), discovered and with
  /// its settings file read as the shard read them: merge's view of it, without the pipeline.
  /// With the night's `listing`, its users and files, not the folder's.
  init(recorded source: CohortPartial.InputRecord, folder: URL?, groupBy: String?, listing: URL? = nil)
    throws(ExportError)
  {
    let input = folder ?? URL(fileURLWithPath: source.folder)
    layout = source.layout
    if let listing {
      do throws(InputListing.Failure) {
        (users, problems) = try InputListing.read(listing, input: input, shard: nil, layout: layout)
      } catch {
        throw ExportError(file: error.file, line: error.line ?? 1, message: error.message)
      }
    } else {
      (users, problems) = try InputLayout.discover(input, layout: layout)
    }
    usersFile = try Runner.loadUsersFile(
      named: source.usersFile.map { URL(fileURLWithPath: $0) }, input: input,
      limits: ReadLimits(maxFileBytes: source.maxFileBytes), groupBy: groupBy, layout: layout)
    if let problem = usersFile.problems.first { throw problem }
    self.folder = input.standardizedFileURL.path
    runKey = source.runKey
    maxFileBytes = source.maxFileBytes
  }

  /// The identity of `shard`'s slice of the input (all of it without one): its users' exports
  /// read and hashed on `jobs` threads. Reading is the cost (about a second for 600 MB from
  /// the page cache).
  ///
  /// - Complexity: O(*n*), where *n* is the size of the slice's exports.
  func slice(_ shard: Shard?, jobs: Int) -> InputIdentity.Slice {
    let mine = shard.map { shard in users.filter { shard.contains($0.id) } } ?? users
    return slice(of: mine, skipped: InputIdentity.skipped(problems, in: shard, layout: layout), jobs: jobs)
  }

  /// The identity of every shard of `count`, in index order: each user is read once, and
  /// users are grouped by shard in one pass (10,000 shards of ten million users are not ten
  /// million filters).
  ///
  /// - Complexity: O(*n* + *u* + *s*), for *n* bytes of exports, *u* users and *s* shards.
  func slices(count: Int, jobs: Int) -> [InputIdentity.Slice] {
    var users = Array(repeating: [UserInput](), count: count)
    for user in self.users { users[Shard.index(of: user.id, count: count)].append(user) }
    var skipped = Array(repeating: [InputProblem](), count: count)
    for problem in problems {
      skipped[InputIdentity.shardIndex(of: problem, count: count, layout: layout)].append(problem)
    }
    let all = identities(of: self.users, jobs: jobs)
    return (0..<count).map { index in
      let mine = users[index].map { ($0.id, all[$0.id] ?? "") }
      return InputIdentity.Slice(
        identity: InputIdentity.slice(runKey: runKey, users: mine, skipped: skipped[index]),
        users: Dictionary(mine) { first, _ in first })
    }
  }

  private func slice(of selected: [UserInput], skipped: [InputProblem], jobs: Int) -> InputIdentity.Slice {
    let found = identities(of: selected, jobs: jobs)
    return InputIdentity.Slice(
      identity: InputIdentity.slice(
        runKey: runKey, users: selected.map { ($0.id, found[$0.id] ?? "") }, skipped: skipped),
      users: found)
  }

  /// Each of `selected`'s identity, by id.
  private func identities(of selected: [UserInput], jobs: Int) -> [String: String] {
    let found = Mutex<[String: String]>([:])
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, selected.count))) { _ in
      var mine: [String: String] = [:]
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < selected.count else { break }
        let user = selected[index]
        mine[user.id] = InputIdentity.user(
          user.id, settings: InputIdentity.settings(of: user.id, in: usersFile),
          files: InputIdentity.files(of: user, maxFileBytes: maxFileBytes))
      }
      found.withLock { $0.merge(mine) { first, _ in first } }
    }
    return found.withLock { $0 }
  }
}
