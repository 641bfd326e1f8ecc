import TrendlineSchema

/// What became of the rows of one file, one user or a whole run: the one declaration of the
/// counters, so that a counter added here is summed, range-checked, cached and written
/// everywhere rows are counted, and cannot be left out of one of them.
///
/// Every row read is exactly one of accepted, rejected, duplicate or ignored (``balances``);
/// repaired rows and rows with a value dropped are accepted rows, counted a second time.
///
/// It deliberately does not hold ignored rows by reason: only a file's accounting keeps those,
/// and summing reasons over a user's files would make a user's record grow with its exports.
/// Nor does it count sessions (after the as-of, or at all), which are not rows.
///
/// Its `Codable` form is flat, the counters beside the holder's own members
/// (`"rowsRead" : 12` next to `"user"`): that is how the manifest has always written them and
/// how its readers decode them, so a holder decodes its counters from its own decoder.
public struct RowCounts: Sendable, Equatable {
  public var read: Int
  public var accepted: Int
  public var rejected: Int
  /// Rows that repeat a set already read, in the same file or in a newer export (SPEC 10.5).
  public var duplicate: Int
  /// Rows that are not sets: blank lines, pseudo-rows, skipped sets.
  public var ignored: Int
  /// Rows read only after repairing a known exporter bug (also in `accepted`).
  public var repaired: Int
  /// Rows accepted with an impossible value dropped, such as a workout timer left running
  /// (also in `accepted`; SPEC 10.2).
  public var valueDropped: Int

  /// Counts, all zero unless given.
  ///
  /// - Complexity: O(1).
  public init(
    read: Int = 0, accepted: Int = 0, rejected: Int = 0, duplicate: Int = 0, ignored: Int = 0, repaired: Int = 0,
    valueDropped: Int = 0
  ) {
    self.read = read
    self.accepted = accepted
    self.rejected = rejected
    self.duplicate = duplicate
    self.ignored = ignored
    self.repaired = repaired
    self.valueDropped = valueDropped
  }

  /// Adds `other`'s counters to these: a user's rows are its files', a run's its users'.
  ///
  /// - Complexity: O(1).
  public static func += (counts: inout RowCounts, other: RowCounts) {
    counts.read += other.read
    counts.accepted += other.accepted
    counts.rejected += other.rejected
    counts.duplicate += other.duplicate
    counts.ignored += other.ignored
    counts.repaired += other.repaired
    counts.valueDropped += other.valueDropped
  }

  /// The accounting identity `read == accepted + rejected + duplicate + ignored`.
  ///
  /// - Complexity: O(1).
  public var balances: Bool {
    read == accepted + rejected + duplicate + ignored
  }

  /// The counters in their one fixed order (`read`, `accepted`, `rejected`, `duplicate`,
  /// `ignored`, `repaired`, `valueDropped`): the order of the session cache's bytes, and of
  /// ``init(reading:)``.
  ///
  /// - Complexity: O(1).
  public var values: [Int] {
    [read, accepted, rejected, duplicate, ignored, repaired, valueDropped]
  }

  /// Counts read one at a time by `next`, in the order of ``values``: so that a binary format
  /// decodes what it encoded from ``values`` without listing the counters again.
  ///
  /// - Complexity: O(1), plus the cost of seven calls of `next`.
  public init<Failure: Error>(reading next: () throws(Failure) -> Int) throws(Failure) {
    // Separate statements: the order of evaluation is the order of `values`.
    let read = try next()
    let accepted = try next()
    let rejected = try next()
    let duplicate = try next()
    let ignored = try next()
    let repaired = try next()
    self.init(
      read: read, accepted: accepted, rejected: rejected, duplicate: duplicate, ignored: ignored, repaired: repaired,
      valueDropped: try next())
  }

  /// Whether every counter is in `range`: a count decoded from a file must not be negative,
  /// nor so large that summing it overflows.
  ///
  /// - Complexity: O(1).
  public func isWithin(_ range: ClosedRange<Int>) -> Bool {
    values.allSatisfy(range.contains)
  }

  /// Writes the counters as members of the object being written, under the manifest's names,
  /// in UTF-8 key order (the names share the `rows` prefix, so they sort together in every
  /// holder).
  ///
  /// - Complexity: O(1).
  public func writeMembers(to writer: inout OutputWriter) {
    writer.member("rowsAccepted", accepted)
    writer.member("rowsDuplicate", duplicate)
    writer.member("rowsIgnored", ignored)
    writer.member("rowsRead", read)
    writer.member("rowsRejected", rejected)
    writer.member("rowsRepaired", repaired)
    writer.member("rowsValueDropped", valueDropped)
  }
}

extension RowCounts: Codable {
  /// The manifest's names, the ones ``writeMembers(to:)`` writes.
  private enum CodingKeys: String, CodingKey {
    case read = "rowsRead"
    case accepted = "rowsAccepted"
    case rejected = "rowsRejected"
    case duplicate = "rowsDuplicate"
    case ignored = "rowsIgnored"
    case repaired = "rowsRepaired"
    case valueDropped = "rowsValueDropped"
  }

  /// Decodes the counters from the members of `decoder`'s object, beside its holder's own.
  ///
  /// - Complexity: O(1).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      read: try container.decode(Int.self, forKey: .read),
      accepted: try container.decode(Int.self, forKey: .accepted),
      rejected: try container.decode(Int.self, forKey: .rejected),
      duplicate: try container.decode(Int.self, forKey: .duplicate),
      ignored: try container.decode(Int.self, forKey: .ignored),
      repaired: try container.decode(Int.self, forKey: .repaired),
      valueDropped: try container.decode(Int.self, forKey: .valueDropped))
  }

  /// Encodes the counters as members of `encoder`'s object, beside its holder's own.
  ///
  /// - Complexity: O(1).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(read, forKey: .read)
    try container.encode(accepted, forKey: .accepted)
    try container.encode(rejected, forKey: .rejected)
    try container.encode(duplicate, forKey: .duplicate)
    try container.encode(ignored, forKey: .ignored)
    try container.encode(repaired, forKey: .repaired)
    try container.encode(valueDropped, forKey: .valueDropped)
  }
}
