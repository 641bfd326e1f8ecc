import Foundation
import TrendlineSchema

/// The `--as-of` value before it meets a user (SPEC 5 and 9.1): nothing after the instant it
/// resolves to is used, so a backfill with a past as-of reproduces what a chart showed that day.
///
/// A date is kept as a date, not turned into an instant at parse time, because "the end of
/// 2025-11-29" is a different instant for a user in Oslo and one in Santiago.
public enum AsOf: Sendable, Equatable {
  /// An RFC 3339 instant, the same for every user.
  case instant(Int64)
  /// `YYYY-MM-DD`: the last second of that local day for each user. Also what "today" is
  /// (``today(in:now:)``): a run without `--as-of` resolves it once, so every output of the run
  /// states the same date (SPEC 10.7).
  case endOfDay(year: Int, month: Int, day: Int)

  /// The as-of a run without `--as-of` uses: the end of today, the date of `now` in `zone` (the
  /// pipeline's default time zone), resolved once when the run starts. Each user's as-of is then
  /// the end of that date in their own zone, as for any date; two shards started on either side
  /// of midnight resolve to different dates, and `merge` refuses to combine them.
  ///
  /// - Complexity: O(1).
  public static func today(in zone: TimeZone, now: Int64) -> AsOf {
    let date = RFC3339.format(seconds: now, timeZone: zone)
    guard let today = AsOf(parsing: String(date.prefix(10))) else {
      preconditionFailure("the clock was checked against the supported dates: \(date)")
    }
    return today
  }

  /// The as-of as outputs state it: `2025-11-29` for a date, the RFC 3339 instant in UTC for an
  /// instant.
  public var text: String {
    switch self {
    case .instant(let instant): return RFC3339.format(seconds: instant, timeZone: TimeZone(identifier: "UTC")!)
    case .endOfDay(let year, let month, let day):
      return LocalDay(year: Int64(year), month: Int64(month), day: Int64(day)).text
    }
  }

  /// The dates an as-of may name, and the instants: 1970-01-01 to 2199-12-31. Workout logs
  /// begin in 1970 (the readers refuse earlier times), and every period a chart computes lies
  /// within ten years of its as-of, so no date arithmetic leaves the years 1960–2210: no
  /// calendar before the Gregorian reform, no year 0, no negative year to write, and at most
  /// 84,000 day buckets between a 1970 session and the last as-of.
  public static let supportedDates = "1970-01-01 to 2199-12-31"
  /// 1970-01-01T00:00:00Z and 2199-12-31T23:59:59Z, in seconds since 1970.
  public static let supportedInstants: ClosedRange<Int64> = 0...7_258_118_399

  /// Why a text is not an as-of, in words for the command line.
  public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Reads `2025-11-29` or an RFC 3339 instant, within ``supportedDates``.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  public init(reading text: String) throws(Invalid) {
    let bytes = Array(text.utf8)
    let outside = Invalid(
      description: "'\(text)' is outside the supported dates \(Self.supportedDates); give an as-of within them")
    if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)),
      let day = Int(text.suffix(2)),
      bytes.enumerated().allSatisfy({
        $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element)
      })
    {
      guard (1...12).contains(month), day >= 1,
        day <= RFC3339.daysInMonth(year: Int64(year), month: Int64(month))
      else {
        throw Invalid(description: "'\(text)' is not a date: there is no day \(day) in month \(month) of \(year)")
      }
      guard (1970...2199).contains(year) else { throw outside }
      self = .endOfDay(year: year, month: month, day: day)
    } else if let instant = RFC3339.parse(text) {
      guard Self.supportedInstants.contains(instant) else { throw outside }
      self = .instant(instant)
    } else {
      throw Invalid(
        description: "'\(text)' is not an as-of: give YYYY-MM-DD or an RFC 3339 instant such as 2025-11-29T18:00:00Z")
    }
  }

  /// Reads an as-of as ``init(reading:)`` does; nil for anything it refuses.
  public init?(parsing text: String) {
    guard let asOf = try? AsOf(reading: text) else { return nil }
    self = asOf
  }

  /// The instant this as-of means for a user with `calendar`.
  ///
  /// The end of a day is the next day's start minus one second: 23:59:59 on every ordinary day,
  /// and still the day's true last second where a zone falls back at midnight and 23:59:59
  /// happens twice.
  ///
  /// - Complexity: O(1); at most one calendar call, for a date's noon.
  public func resolve(for calendar: UserCalendar) -> Int64 {
    switch self {
    case .instant(let instant):
      return instant
    case .endOfDay(let year, let month, let day):
      // Noon is inside the day in every zone (no zone shifts its clock at noon), so the day is
      // found without guessing which of its instants exist.
      var components = DateComponents()
      (components.year, components.month, components.day, components.hour) = (year, month, day, 12)
      guard let noon = calendar.calendar.date(from: components) else {
        preconditionFailure("a parsed date is a valid Gregorian date: \(year)-\(month)-\(day)")
      }
      return Periods(.day, last: 1, through: noon.epochSeconds, calendar: calendar).end(0) - 1
    }
  }
}
