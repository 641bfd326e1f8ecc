import Foundation

/// A weekday by name, as pipeline files and `users.csv` spell it.
public enum Weekday: String, Sendable, Codable, CaseIterable {
  case sunday, monday, tuesday, wednesday, thursday, friday, saturday

  /// Foundation's numbering: 1 = Sunday … 7 = Saturday.
  public var calendarValue: Int { Weekday.allCases.firstIndex(of: self)! + 1 }

  /// Reads a weekday name in any case (`Monday`, `MONDAY`); nil for anything else.
  public init?(name: String) {
    self.init(rawValue: name.lowercased())
  }
}

/// What a user's calendar needs: the zone every local date is read in and the first day of
/// the week. Stages take it instead of a `Calendar` so that a test can state both plainly.
public struct UserCalendar: Sendable, Equatable {
  public var timeZone: TimeZone
  public var firstWeekday: Weekday

  public init(timeZone: TimeZone, firstWeekday: Weekday = .monday) {
    self.timeZone = timeZone
    self.firstWeekday = firstWeekday
  }

  /// The zone's name as outputs write it. Foundation on Linux names UTC `GMT`; a user who
  /// configured `UTC` (the pipeline default) gets `UTC` back, the name every decoder knows.
  public var timeZoneName: String {
    timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier
  }

  /// A Gregorian calendar in this zone with this week start, for the one or two calls per user
  /// that step a window back by months (`Bucket`) or find a date's noon (`AsOf`). Period
  /// boundaries are worked out without it (`Periods`): a calendar call per period was too slow.
  public var calendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    calendar.firstWeekday = firstWeekday.calendarValue
    calendar.minimumDaysInFirstWeek = 1
    return calendar
  }
}
