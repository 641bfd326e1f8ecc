import Foundation

/// A day of a user's calendar: whole days since 1970-01-01 on the wall clock, whatever the zone.
///
/// The one place local seconds are floored to a day (before 1970 too, where `/` would round
/// towards zero and put 23:00 on 31 December 1969 on 1 January), a day's weekday is worked out,
/// and a day is named `YYYY-MM-DD`: periods, cohort rows, timestamps, zone look-ups and
/// read-outs each did it themselves, with three spellings of the floor and four of the weekday.
public struct LocalDay: Hashable, Comparable, Sendable {
  /// Days since 1970-01-01 (day 0), negative before it.
  public var number: Int64

  public init(_ number: Int64) {
    self.number = number
  }

  /// The day holding `localSeconds`, seconds since 1970-01-01T00:00 on the wall clock.
  ///
  /// - Complexity: O(1).
  @inlinable public init(localSeconds: Int64) {
    number = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
  }

  /// The day holding `instant` (seconds since 1970-01-01T00:00:00Z) where the clock is
  /// `offset` seconds ahead of UTC.
  ///
  /// - Complexity: O(1).
  @inlinable public init(instant: Int64, offset: Int64) {
    self.init(localSeconds: instant + offset)
  }

  /// The day holding `instant` in `zone`, as `Calendar.dateComponents` reads it.
  ///
  /// - Complexity: O(1); one time-zone look-up.
  public init(instant: Int64, in zone: TimeZone) {
    self.init(instant: instant, offset: Int64(zone.secondsFromGMT(for: Date(epochSeconds: instant))))
  }

  /// The day of a civil date in the proleptic Gregorian calendar.
  ///
  /// - Complexity: O(1).
  public init(year: Int64, month: Int64, day: Int64) {
    number = RFC3339.days(fromCivil: year, month: month, day: day)
  }

  /// The day `text` names as ``text`` writes it, `2026-08-24`: four digits, a hyphen, two, a
  /// hyphen, two, and a date the calendar has; nil for anything else, so a day read from a file
  /// writes back as the very text it was read from.
  ///
  /// - Complexity: O(1).
  public init?(text: String) {
    guard text.utf8.count == 10 else { return nil }
    var (year, month, day): (Int64, Int64, Int64) = (0, 0, 0)
    for (index, byte) in text.utf8.enumerated() {
      if index == 4 || index == 7 {
        guard byte == UInt8(ascii: "-") else { return nil }
        continue
      }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let digit = Int64(byte - UInt8(ascii: "0"))
      if index < 4 {
        year = year * 10 + digit
      } else if index < 7 {
        month = month * 10 + digit
      } else {
        day = day * 10 + digit
      }
    }
    guard (1...12).contains(month), (1...RFC3339.daysInMonth(year: year, month: month)).contains(day) else {
      return nil
    }
    self.init(year: year, month: month, day: day)
  }

  /// 0 for Sunday through 6 for Saturday: 1970-01-01 was a Thursday (4). Foundation's
  /// `Calendar` numbers the same days 1 through 7.
  public var weekday: Int64 { ((number + 4) % 7 + 7) % 7 }

  /// Days from the latest `first` (0 Sunday … 6 Saturday) on or before this day, 0…6: how far
  /// into its week the day is, for weeks starting on `first`.
  public func daysIntoWeek(startingOn first: Int64) -> Int64 { (weekday - first + 7) % 7 }

  /// The civil date.
  public var civil: (year: Int64, month: Int64, day: Int64) { RFC3339.civilDate(fromDays: number) }

  /// `2026-08-24`: a period's `id`, a cohort row's key. A year outside 0…9999, which no input
  /// reaches (the readers take 1970 to 2199), is written with its sign and at least four digits.
  ///
  /// - Complexity: O(1).
  public var text: String { RFC3339.dateText(civil) }

  public static func < (left: LocalDay, right: LocalDay) -> Bool { left.number < right.number }
}
