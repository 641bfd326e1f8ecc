import Foundation
import TrendlineSchema

/// Consecutive whole calendar periods (days, weeks or months) in one user's calendar, as a list
/// of boundaries worked out once; instants are then placed by binary search.
///
/// Calendar calls are slow and time zones are where charts start to lie, so this type makes a
/// constant number of `Calendar` calls per *period* and none per session: a year of daily
/// buckets is 366 calls whatever the number of sessions. It does not cache across users, because
/// two users rarely share a zone and a week start.
///
/// A period runs from its first instant to the next period's first instant. Its length follows
/// the calendar, not a fixed number of seconds: a day is 23 hours on a spring-forward day, 25 on
/// a fall-back day, and starts at 01:00 where a zone skips midnight (America/Santiago).
public struct Periods: Sendable, Equatable {
  public let granularity: Granularity
  /// `count + 1` instants: period `i` is `boundaries[i] ..< boundaries[i + 1]`.
  public let boundaries: [Int64]

  /// The periods from the one containing `from` to the one containing `through`, both included.
  ///
  /// - Complexity: O(*p*) calendar calls, where *p* is the number of periods.
  public init(_ granularity: Granularity, from: Int64, through: Int64, calendar: UserCalendar) {
    precondition(from <= through, "a period list runs forward: \(from) is after \(through)")
    let calendar = calendar.calendar
    var boundaries = [Self.start(of: granularity, containing: from, in: calendar)]
    while true {
      let next = Self.start(of: granularity, after: boundaries[boundaries.count - 1], in: calendar)
      boundaries.append(next)
      if next > through { break }
    }
    self.granularity = granularity
    self.boundaries = boundaries
  }

  /// The `count` most recent periods, the last one containing `through`.
  ///
  /// - Complexity: O(*count*) calendar calls.
  public init(_ granularity: Granularity, last count: Int, through: Int64, calendar: UserCalendar) {
    precondition(count >= 1, "at least one period is asked for, not \(count)")
    let calendar = calendar.calendar
    let last = Self.start(of: granularity, containing: through, in: calendar)
    var boundaries = [Self.start(of: granularity, after: last, in: calendar), last]
    // The period before a start is the one containing the second before it: one calendar call,
    // and no assumption about how long that period is.
    while boundaries.count < count + 1 {
      boundaries.append(
        Self.start(of: granularity, containing: boundaries[boundaries.count - 1] - 1, in: calendar))
    }
    self.granularity = granularity
    self.boundaries = boundaries.reversed()
  }

  /// The number of periods.
  public var count: Int { boundaries.count - 1 }

  /// Period `index`'s first instant.
  public func start(_ index: Int) -> Int64 { boundaries[index] }

  /// Period `index`'s end: the next period's first instant.
  public func end(_ index: Int) -> Int64 { boundaries[index + 1] }

  /// The index of the period containing `instant`, or nil when it is outside them all.
  ///
  /// - Complexity: O(log *p*), where *p* is the number of periods.
  public func index(containing instant: Int64) -> Int? {
    guard let first = boundaries.first, let last = boundaries.last, instant >= first, instant < last
    else { return nil }
    // The last boundary <= instant: binary search over the sorted boundaries.
    var low = 0
    var high = boundaries.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if boundaries[middle] <= instant { low = middle } else { high = middle }
    }
    return low
  }

  /// The first instant of the period containing `instant`.
  ///
  /// Uses Calendar's own notion of a day's start (`startOfDay`, `dateInterval(of:)`), so a day
  /// whose midnight does not exist starts at the first instant that does.
  ///
  /// - Complexity: O(1) calendar calls.
  public static func start(
    of granularity: Granularity, containing instant: Int64, in calendar: Calendar
  )
    -> Int64
  {
    let date = Date(epochSeconds: instant)
    switch granularity {
    case .day:
      return calendar.startOfDay(for: date).epochSeconds
    case .week:
      guard let interval = calendar.dateInterval(of: .weekOfYear, for: date) else {
        preconditionFailure(
          "the Gregorian calendar has a week around every instant, not \(instant)")
      }
      return interval.start.epochSeconds
    case .month:
      guard let interval = calendar.dateInterval(of: .month, for: date) else {
        preconditionFailure(
          "the Gregorian calendar has a month around every instant, not \(instant)")
      }
      return interval.start.epochSeconds
    }
  }

  /// The first instant of the period after the one starting at `start`.
  ///
  /// Found as the start of the period containing `start + reach`, where `reach` lands safely
  /// inside the next period whatever the offsets do: 36 h after a day's start is past that day
  /// (at most 25 h) and before the end of the next (at least 46 h), 7½ days for weeks, 45 days
  /// for months. That is one calendar call, and it also steps over a day a zone skipped
  /// entirely (Pacific/Apia, 30 December 2011).
  ///
  /// - Complexity: O(1) calendar calls.
  public static func start(of granularity: Granularity, after start: Int64, in calendar: Calendar)
    -> Int64
  {
    let reach: Int64
    switch granularity {
    case .day: reach = 36 * 3600
    case .week: reach = 180 * 3600
    case .month: reach = 45 * 86_400
    }
    return Self.start(of: granularity, containing: start + reach, in: calendar)
  }
}
