import Foundation

/// A user at a glance, as the report's index shows them beside every other user: when they last
/// trained, whether they are keeping at it, and which way it is going. The manifest keeps it per
/// user (`glance`), so a merge builds the same index from the shards' records.
///
/// Every count is over the user's sessions up to as-of, in their calendar (zone and first
/// weekday). "Stopped in June" must read as such: a total of sessions since the first export
/// (the index's old only figure) read the same for a user training today and one gone for months.
public struct Glance: Decodable, Sendable, Equatable {
  /// The local date of the last session up to as-of, `YYYY-MM-DD`; nil without one.
  public var lastSession: String?
  /// Local days from the last session's day to as-of's: 0 when they trained on as-of's day;
  /// nil without a session.
  public var daysSinceLastSession: Int?
  /// Consecutive weeks with at least one session, counted back from as-of's week. That week
  /// counts once it has a session; while it runs without one it neither counts nor breaks the
  /// streak (it is not over yet), and once finished without one the streak is 0.
  public var weekStreak: Int
  /// Sessions in the last ``days`` local days up to and including as-of's day.
  public var sessions: Int
  /// Sessions in the ``days`` days before those: what `sessions` is compared with.
  public var previousSessions: Int
  /// Personal records set in the last ``days`` days (``Measure/records``' rule: a set beating
  /// every earlier one of its exercise, the whole history counted).
  public var records: Int
  /// Sessions per week over the last ``weeks`` weeks, oldest first; the last is as-of's week,
  /// still running unless as-of is its last day: the index's sparkline.
  public var weekly: [Int]
  /// Whether the last week of `weekly` is still running at as-of (drawn lighter: "so far").
  public var lastWeekPartial: Bool

  /// The length of the compared periods, in days.
  public static let days = 28
  /// The weeks of `weekly`.
  public static let weeks = 12

  public init(
    lastSession: String?, daysSinceLastSession: Int?, weekStreak: Int, sessions: Int, previousSessions: Int,
    records: Int, weekly: [Int], lastWeekPartial: Bool
  ) {
    self.lastSession = lastSession
    self.daysSinceLastSession = daysSinceLastSession
    self.weekStreak = weekStreak
    self.sessions = sessions
    self.previousSessions = previousSessions
    self.records = records
    self.weekly = weekly
    self.lastWeekPartial = lastWeekPartial
  }
}

extension Glance: OutputWritable {
  /// Writes its members in UTF-8 byte order, as the manifest's other objects are;
  /// `lastSession` and `daysSinceLastSession` are `null` without a session.
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.key("daysSinceLastSession")
    if let daysSinceLastSession { writer.number(daysSinceLastSession) } else { writer.null() }
    writer.key("lastSession")
    if let lastSession { writer.string(lastSession) } else { writer.null() }
    writer.member("lastWeekPartial", lastWeekPartial)
    writer.member("previousSessions", previousSessions)
    writer.member("records", records)
    writer.member("sessions", sessions)
    writer.member("weekStreak", weekStreak)
    writer.key("weekly")
    writer.array(weekly) { $0.number($1) }
    writer.endObject()
  }
}
