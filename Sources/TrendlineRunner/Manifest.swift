import Foundation
import TrendlineIngest
import TrendlineSchema

/// `manifest.json`: the record of a run (SPEC 7), so the engineer who runs the nightly job can
/// see that nothing was lost: every user's status, every input file with its size and hash,
/// and every row counted.
///
/// The run's times and each user's elapsed milliseconds are the only values that differ
/// between two runs of the same command.
public struct Manifest: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/manifest@1"

  public var schema = Manifest.schemaID
  public var toolVersion: String
  public var pipeline: PipelineRecord
  /// The as-of as given (`2025-11-29` or an instant), or the date today resolved to.
  public var asOf: String
  public var shard: ShardRecord?
  public var startedAt: String
  public var finishedAt: String
  public var totals: Totals
  /// Users in id order.
  public var users: [UserRecord]
  /// Input entries that are not users (an unsafe name, an empty folder), by escaped name.
  public var skippedEntries: [SkippedEntry]
  /// For a manifest written by `trendline merge`: the shards it combines, each with its own
  /// manifest (every user's record) and totals. A merged manifest's `users` then lists only
  /// the users that failed, so merging never holds every user's record at once.
  public var shards: [ShardSummary]? = nil
  /// The workers a run used (`--jobs`, by default the processors it may use, see
  /// ``CPUAllocation``); nil for a merge, which runs no user.
  public var jobs: Int? = nil
  /// Users whose folder is in `users/` but who are no longer in the input, written by a run
  /// over all users and by merge when there are any; nil otherwise.
  public var departed: Departed? = nil
  /// What the run's numbers were computed from (``InputIdentity``, SHA-256): the build, the
  /// pipeline, the source settings and catalog, and every user's exports and settings by
  /// content, so a backfill re-run can tell a snapshot made from this input from one made
  /// before an export or `users.csv` changed. A shard's manifest identifies its own users'
  /// input. Nil in manifests written before it, which are then never taken as complete.
  public var inputIdentity: String? = nil
  /// `partitioned` when users' folders and pages are one level lower, in the folder of their
  /// partition (``UserLayout``): `users/0a3/anna/`. Nil for the flat layout of SPEC 7.
  public var layout: UserLayout? = nil

  /// Users no longer in the input, and whether this run removed their folders.
  public struct Departed: Decodable, Sendable, Equatable {
    /// In id order.
    public var users: [String]
    /// True with `--remove-departed`; otherwise their folders and report pages were kept.
    public var removed: Bool
  }

  public struct ShardSummary: Decodable, Sendable, Equatable {
    public var shard: ShardRecord
    /// The shard's manifest, relative to the merged output folder when it is inside it.
    public var manifest: String
    public var totals: Totals
  }

  /// How many shards a merged manifest combines, nil for a run's own manifest.
  public var mergedShards: Int? { shards?.count }

  public struct PipelineRecord: Decodable, Sendable, Equatable {
    public var name: String
    public var file: String
    public var sha256: String
  }

  public struct ShardRecord: Decodable, Sendable, Equatable {
    public var index: Int
    public var count: Int
  }

  public struct Totals: Sendable, Equatable {
    public var users: Int
    public var usersOK: Int
    public var usersFailed: Int
    /// Every user's rows, written as the flat `rowsRead`, `rowsAccepted`, … members.
    public var rows: RowCounts
    public var sessions: Int

    mutating func add(_ other: Totals) {
      users += other.users
      usersOK += other.usersOK
      usersFailed += other.usersFailed
      rows += other.rows
      sessions += other.sessions
    }
  }

  public struct UserRecord: Sendable, Equatable {
    public enum Status: String, Decodable, Sendable { case ok, failed }
    public var user: String
    public var status: Status
    public var message: String?
    public var files: [FileRecord]
    /// The sum of the files' rows, written as the flat `rowsRead`, `rowsAccepted`, … members.
    public var rows: RowCounts
    /// Sessions starting after the as-of instant: read, accepted, and left out of charts.
    public var afterAsOf: Int
    public var sessions: Int
    public var unmappedExercises: Int
    public var elapsedMs: Int
    /// With `--cache`: `hit`, `miss` or `rebuilt` (``SessionCache/Status``); absent without
    /// it and for a user that failed.
    public var cache: String? = nil
    /// With `compare.groupBy`: the user's value in that column; absent for a user with none
    /// (the "unknown" segment) and without `groupBy`.
    public var segment: String? = nil
    /// ``InputIdentity`` of the user's exports and settings as this run read them, so a check
    /// of a shard can name the user whose input changed since.
    public var inputIdentity: String? = nil
    /// The user at a glance as of the run's as-of (``Glance``), for the report's index; absent
    /// for a user that failed.
    public var glance: Glance? = nil
  }

  /// One input file: size and content hash identify it, and its own row accounting.
  public struct FileRecord: Sendable, Equatable {
    public var name: String
    public var bytes: Int
    /// `murmur3-128:` and the file's ``ContentHash``.
    public var contentHash: String
    public var format: String?
    /// Written as the flat `rowsRead`, `rowsAccepted`, … members.
    public var rows: RowCounts
    public var ignoredByReason: [String: Int]
  }

  /// An entry of the input folder that was not read: at the top, or inside a user's folder
  /// (`anna/old`), with the reason.
  public struct SkippedEntry: Decodable, Sendable, Equatable {
    public var entry: String
    public var message: String
    /// True for a hidden entry (its name starts with `.`), which is listed but is no fault:
    /// it does not make the run exit 1. Absent otherwise.
    public var hidden: Bool?

    public init(entry: String, message: String, hidden: Bool? = nil) {
      self.entry = entry
      self.message = message
      self.hidden = hidden
    }

    /// Whether this entry counts against the run: every skipped entry but a hidden one.
    public var isFault: Bool { hidden != true }
  }

  /// The skipped entries that count against the run (``SkippedEntry/isFault``).
  public var faultyEntries: [SkippedEntry] { skippedEntries.filter(\.isFault) }

  /// The manifest's bytes: keys sorted, two-space indentation, a final newline.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the manifest.
  public func encoded() throws -> Data {
    try OutputWriter.encode(self, layout: Manifest.layout)
  }

  /// The layout manifests have always had (Foundation's pretty printer, `"key" : value`), so
  /// that tools diffing or hashing them see no change.
  static let layout = OutputWriter.Layout(spacing: .foundation)
}

// MARK: - Reading

// Written by hand only to read each record's counters from the record's own members (see
// ``RowCounts``); the members are decoded in declaration order, as a derived `init(from:)`
// would, so a manifest missing several is reported by the same first one.

extension Manifest.Totals: Decodable {
  private enum CodingKeys: String, CodingKey { case users, usersOK, usersFailed, sessions }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    users = try container.decode(Int.self, forKey: .users)
    usersOK = try container.decode(Int.self, forKey: .usersOK)
    usersFailed = try container.decode(Int.self, forKey: .usersFailed)
    rows = try RowCounts(from: decoder)
    sessions = try container.decode(Int.self, forKey: .sessions)
  }
}

extension Manifest.UserRecord: Decodable {
  private enum CodingKeys: String, CodingKey {
    case user, status, message, files, afterAsOf, sessions, unmappedExercises, elapsedMs, cache, segment
    case inputIdentity, glance
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    user = try container.decode(String.self, forKey: .user)
    status = try container.decode(Status.self, forKey: .status)
    message = try container.decodeIfPresent(String.self, forKey: .message)
    files = try container.decode([Manifest.FileRecord].self, forKey: .files)
    rows = try RowCounts(from: decoder)
    afterAsOf = try container.decode(Int.self, forKey: .afterAsOf)
    sessions = try container.decode(Int.self, forKey: .sessions)
    unmappedExercises = try container.decode(Int.self, forKey: .unmappedExercises)
    elapsedMs = try container.decode(Int.self, forKey: .elapsedMs)
    cache = try container.decodeIfPresent(String.self, forKey: .cache)
    segment = try container.decodeIfPresent(String.self, forKey: .segment)
    inputIdentity = try container.decodeIfPresent(String.self, forKey: .inputIdentity)
    glance = try container.decodeIfPresent(Glance.self, forKey: .glance)
  }
}

extension Manifest.FileRecord: Decodable {
  private enum CodingKeys: String, CodingKey { case name, bytes, contentHash, format, ignoredByReason }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    bytes = try container.decode(Int.self, forKey: .bytes)
    contentHash = try container.decode(String.self, forKey: .contentHash)
    format = try container.decodeIfPresent(String.self, forKey: .format)
    rows = try RowCounts(from: decoder)
    ignoredByReason = try container.decode([String: Int].self, forKey: .ignoredByReason)
  }
}

// MARK: - Writing

// Every type writes its keys in UTF-8 byte order, the order manifests have always had, and
// leaves out a member whose value is nil.

extension Manifest: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("asOf", asOf)
    if let departed {
      writer.key("departed")
      writer.beginObject()
      writer.member("removed", departed.removed)
      writer.key("users")
      writer.array(departed.users) { $0.string($1) }
      writer.endObject()
    }
    writer.member("finishedAt", finishedAt)
    if let inputIdentity { writer.member("inputIdentity", inputIdentity) }
    if let jobs { writer.member("jobs", jobs) }
    if let layout { writer.member("layout", layout.rawValue) }
    writer.key("pipeline")
    pipeline.write(to: &writer)
    writer.member("schema", schema)
    if let shard {
      writer.key("shard")
      shard.write(to: &writer)
    }
    if let shards {
      writer.key("shards")
      writer.array(shards) { $1.write(to: &$0) }
    }
    writer.key("skippedEntries")
    writer.array(skippedEntries) { $1.write(to: &$0) }
    writer.member("startedAt", startedAt)
    writer.member("toolVersion", toolVersion)
    writer.key("totals")
    totals.write(to: &writer)
    writer.key("users")
    writer.array(users) { $1.write(to: &$0) }
    writer.endObject()
  }
}

extension Manifest.ShardSummary: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("manifest", manifest)
    writer.key("shard")
    shard.write(to: &writer)
    writer.key("totals")
    totals.write(to: &writer)
    writer.endObject()
  }
}

extension Manifest.PipelineRecord: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("file", file)
    writer.member("name", name)
    writer.member("sha256", sha256)
    writer.endObject()
  }
}

extension Manifest.ShardRecord: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("count", count)
    writer.member("index", index)
    writer.endObject()
  }
}

extension Manifest.Totals: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    rows.writeMembers(to: &writer)
    writer.member("sessions", sessions)
    writer.member("users", users)
    writer.member("usersFailed", usersFailed)
    writer.member("usersOK", usersOK)
    writer.endObject()
  }
}

extension Manifest.UserRecord: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("afterAsOf", afterAsOf)
    if let cache { writer.member("cache", cache) }
    writer.member("elapsedMs", elapsedMs)
    writer.key("files")
    writer.array(files) { $1.write(to: &$0) }
    if let glance {
      writer.key("glance")
      glance.write(to: &writer)
    }
    if let inputIdentity { writer.member("inputIdentity", inputIdentity) }
    if let message { writer.member("message", message) }
    rows.writeMembers(to: &writer)
    if let segment { writer.member("segment", segment) }
    writer.member("sessions", sessions)
    writer.member("status", status.rawValue)
    writer.member("unmappedExercises", unmappedExercises)
    writer.member("user", user)
    writer.endObject()
  }
}

extension Manifest.FileRecord: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("bytes", bytes)
    writer.member("contentHash", contentHash)
    if let format { writer.member("format", format) }
    writer.key("ignoredByReason")
    writer.object(sortingKeys: ignoredByReason) { $0.number($1) }
    writer.member("name", name)
    rows.writeMembers(to: &writer)
    writer.endObject()
  }
}

extension Manifest.SkippedEntry: OutputWritable {
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("entry", entry)
    if let hidden { writer.member("hidden", hidden) }
    writer.member("message", message)
    writer.endObject()
  }
}
