import Foundation
import TrendlineSchema

extension Glance {
  /// The glance of a user with `sessions` (sorted by start, as ``UserIngest`` holds them) in
  /// `calendar`, as of `asOf`; sessions after as-of are not counted. `newRecords`, the records
  /// each session set (``RecordBook/newRecords`` over all of `sessions`), is worked out here
  /// when not given.
  ///
  /// - Complexity: O(*n* + *w*) for *n* sessions and *w* weeks from the first session to
  ///   as-of, and O(*s*) more for *s* sets when `newRecords` is not given.
  public init(_ sessions: [Session], newRecords: [Int]? = nil, calendar: UserCalendar, asOf: Int64) {
    let counted = sessions.prefix { $0.start <= asOf }
    let recent = Periods(.week, last: Self.weeks, through: asOf, calendar: calendar)
    guard let first = counted.first, let last = counted.last else {
      self.init(
        lastSession: nil, daysSinceLastSession: nil, weekStreak: 0, sessions: 0, previousSessions: 0, records: 0,
        weekly: [Int](repeating: 0, count: Self.weeks),
        lastWeekPartial: recent.isPartial(Self.weeks - 1, asOf: asOf))
      return
    }
    let zone = calendar.timeZone
    // Every week from the first session's (or the sparkline's first, if later) to as-of's, each
    // session counted in its week by one pointer walking alongside.
    let weeks = Periods(.week, from: min(first.start, recent.start(0)), through: asOf, calendar: calendar)
    var perWeek = [Int](repeating: 0, count: weeks.count)
    var week = 0
    for session in counted where session.start >= weeks.start(0) {
      while session.start >= weeks.end(week) { week += 1 }
      perWeek[week] += 1
    }
    var streak = 0
    var index = weeks.count - 1
    // As-of's week without a session yet is not over: it neither counts nor breaks the streak.
    if perWeek[index] == 0 && weeks.isPartial(index, asOf: asOf) { index -= 1 }
    while index >= 0 && perWeek[index] > 0 {
      streak += 1
      index -= 1
    }
    // Two periods of `days` local days, the later one ending with as-of's day.
    let days = Periods(.day, last: 2 * Self.days, through: asOf, calendar: calendar)
    let (previousStart, currentStart) = (days.start(0), days.start(Self.days))
    var (current, previous, records) = (0, 0, 0)
    // Over all the sessions, not a copy of the counted ones, which are the first: their
    // positions are the same.
    let newRecords = RecordBook.newRecords(sessions, given: newRecords)
    for (offset, session) in counted.enumerated() where session.start >= previousStart {
      if session.start >= currentStart {
        current += 1
        records += newRecords[offset]
      } else {
        previous += 1
      }
    }
    self.init(
      lastSession: RFC3339.localDate(seconds: last.start, timeZone: zone),
      daysSinceLastSession: Int(LocalMidnights.day(of: asOf, in: zone) - LocalMidnights.day(of: last.start, in: zone)),
      weekStreak: streak, sessions: current, previousSessions: previous, records: records,
      weekly: Array(perWeek.suffix(Self.weeks)), lastWeekPartial: weeks.isPartial(weeks.count - 1, asOf: asOf))
  }
}
