import Foundation
import TrendlineIngest

/// `manifest.json`: the record of a run (SPEC 7), so the engineer who runs the nightly job can
/// see that nothing was lost: every user's status, every input file with its size and hash,
/// and every row counted.
///
/// The run's times and each user's elapsed milliseconds are the only values that differ
/// between two runs of the same command.
public struct Manifest: Codable, Sendable, Equatable {
  public static let schemaID = "trendline/manifest@1"

  public var schema = Manifest.schemaID
  public var toolVersion: String
  public var pipeline: PipelineRecord
  /// The as-of as given (`2025-11-29`, an instant, or `today`), and how it was read.
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

  public struct ShardSummary: Codable, Sendable, Equatable {
    public var shard: ShardRecord
    /// The shard's manifest, relative to the merged output folder when it is inside it.
    public var manifest: String
    public var totals: Totals
  }

  /// How many shards a merged manifest combines, nil for a run's own manifest.
  public var mergedShards: Int? { shards?.count }

  public struct PipelineRecord: Codable, Sendable, Equatable {
    public var name: String
    public var file: String
    public var sha256: String
  }

  public struct ShardRecord: Codable, Sendable, Equatable {
    public var index: Int
    public var count: Int
  }

  public struct Totals: Codable, Sendable, Equatable {
    public var users: Int
    public var usersOK: Int
    public var usersFailed: Int
    public var rowsRead: Int
    public var rowsAccepted: Int
    public var rowsRejected: Int
    public var rowsDuplicate: Int
    public var rowsIgnored: Int
    public var rowsRepaired: Int
    public var rowsValueDropped: Int
    public var sessions: Int

    mutating func add(_ other: Totals) {
      users += other.users
      usersOK += other.usersOK
      usersFailed += other.usersFailed
      rowsRead += other.rowsRead
      rowsAccepted += other.rowsAccepted
      rowsRejected += other.rowsRejected
      rowsDuplicate += other.rowsDuplicate
      rowsIgnored += other.rowsIgnored
      rowsRepaired += other.rowsRepaired
      rowsValueDropped += other.rowsValueDropped
      sessions += other.sessions
    }
  }

  public struct UserRecord: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case ok, failed }
    public var user: String
    public var status: Status
    public var message: String?
    public var files: [FileRecord]
    public var rowsRead: Int
    public var rowsAccepted: Int
    public var rowsRejected: Int
    public var rowsDuplicate: Int
    public var rowsIgnored: Int
    public var rowsRepaired: Int
    /// Rows accepted with an impossible value dropped, such as a workout timer left running
    /// (also in `rowsAccepted`; SPEC 10.2).
    public var rowsValueDropped: Int
    /// Sessions starting after the as-of instant: read, accepted, and left out of charts.
    public var afterAsOf: Int
    public var sessions: Int
    public var unmappedExercises: Int
    public var elapsedMs: Int
    /// With `--cache`: `hit`, `miss` or `rebuilt` (``SessionCache/Status``); absent without
    /// it and for a user that failed.
    public var cache: String? = nil
  }

  /// One input file: size and content hash identify it, and its own row accounting.
  public struct FileRecord: Codable, Sendable, Equatable {
    public var name: String
    public var bytes: Int
    /// `murmur3-128:` and the file's ``ContentHash``.
    public var contentHash: String
    public var format: String?
    public var rowsRead: Int
    public var rowsAccepted: Int
    public var rowsRejected: Int
    public var rowsDuplicate: Int
    public var rowsIgnored: Int
    public var rowsRepaired: Int
    public var rowsValueDropped: Int
    public var ignoredByReason: [String: Int]
  }

  /// An entry of the input folder that was not read: at the top, or inside a user's folder
  /// (`anna/old`), with the reason.
  public struct SkippedEntry: Codable, Sendable, Equatable {
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
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(self)
    data.append(0x0A)
    return data
  }
}
