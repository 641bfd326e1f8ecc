import Foundation
import TrendlineSchema

/// Consecutive whole calendar periods (days, weeks or months) in one user's calendar, as a list
/// of boundaries worked out once; instants are then placed by binary search.
///
/// Boundaries come from integer arithmetic on days since 1970, not from `Calendar`: a
/// `startOfDay(for:)` or `dateInterval(of:for:)` call costs about 6 µs (17 000 to 29 000
/// instructions, most for weeks), and one per period was 5.3 % of a run's CPU time over 2,000
/// users with weekly buckets. A period's first day is found by arithmetic (its weekday, or the
/// 1st of its month), and that day's local midnight becomes an instant through the zone's
/// offsets, which ``LocalMidnights`` asks for once per clock change rather than once per period.
/// The boundaries are Calendar's to the second; a differential test holds them to it for every
/// zone Foundation knows. The calendar is the proleptic Gregorian one, as Foundation's is from
/// 15 October 1582 on (before that, Foundation's months are Julian).
///
/// It does not cache across users, because two users rarely share a zone and a week start.
///
/// A period runs from its first instant to the next period's first instant. Its length follows
/// the calendar, not a fixed number of seconds: a day is 23 hours on a spring-forward day, 25 on
/// a fall-back day, and starts at 01:00 where a zone skips midnight (America/Santiago).
public struct Periods: Sendable, Equatable {
  /// The most periods a radar or heat map may show: ten years of months, and enough days or
  /// weeks for any chart a person reads.
  public static let maxShown = 120

  public let granularity: Granularity
  /// `count + 1` instants: period `i` is `boundaries[i] ..< boundaries[i + 1]`.
  public let boundaries: [Int64]

  /// The periods from the one containing `from` to the one containing `through`, both included.
  ///
  /// - Complexity: O(*p*), where *p* is the number of periods, plus two time-zone look-ups per
  ///   clock change in the periods and four more.
  public init(_ granularity: Granularity, from: Int64, through: Int64, calendar: UserCalendar) {
    precondition(from <= through, "a period list runs forward: \(from) is after \(through)")
    let rule = PeriodRule(granularity, calendar: calendar)
    var day = rule.firstDay(ofPeriodHolding: LocalMidnights.day(of: from, in: calendar.timeZone))
    var midnights = LocalMidnights(timeZone: calendar.timeZone, firstDay: day)
    var boundaries = [midnights.start(ofDay: day)]
    // On until a boundary is past `through`: the end of the period holding it.
    repeat {
      day = rule.firstDay(after: day)
      let start = midnights.start(ofDay: day)
      // A zone that skipped a period's first day (Pacific/Apia skipped 30 December 2011) starts
      // it when the next day starts; keeping both would make an empty period.
      if start > boundaries[boundaries.count - 1] { boundaries.append(start) }
    } while boundaries[boundaries.count - 1] <= through
    self.granularity = granularity
    self.boundaries = boundaries
  }

  /// The `count` most recent periods, the last one containing `through`.
  ///
  /// - Complexity: O(*count*), plus two time-zone look-ups per clock change in the periods and
  ///   four more.
  public init(_ granularity: Granularity, last count: Int, through: Int64, calendar: UserCalendar) {
    precondition(count >= 1, "at least one period is asked for, not \(count)")
    let rule = PeriodRule(granularity, calendar: calendar)
    let lastDay = rule.firstDay(
      ofPeriodHolding: LocalMidnights.day(of: through, in: calendar.timeZone))
    // The first days of `count` periods and the one after, worked out forward from the earliest,
    // because the zone's offsets are looked up forward. A first day the zone skipped merges into
    // the next period, so the walk starts one period earlier for each one found.
    var periodsBefore = count - 1
    while true {
      var day = rule.firstDay(lastDay, periodsBefore: periodsBefore)
      var midnights = LocalMidnights(timeZone: calendar.timeZone, firstDay: day)
      var boundaries: [Int64] = []
      boundaries.reserveCapacity(periodsBefore + 2)
      while true {
        let start = midnights.start(ofDay: day)
        if boundaries.isEmpty || start > boundaries[boundaries.count - 1] {
          boundaries.append(start)
        }
        if day > lastDay { break }
        day = rule.firstDay(after: day)
      }
      if boundaries.count >= count + 1 {
        self.granularity = granularity
        self.boundaries = Array(boundaries.suffix(count + 1))
        return
      }
      periodsBefore += count + 1 - boundaries.count
    }
  }

  /// The number of periods.
  public var count: Int { boundaries.count - 1 }

  /// Period `index`'s first instant.
  public func start(_ index: Int) -> Int64 { boundaries[index] }

  /// Period `index`'s end: the next period's first instant.
  public func end(_ index: Int) -> Int64 { boundaries[index + 1] }

  /// Whether period `index` is still running at `asOf`, the last second a chart counts: a
  /// period whose last second is as-of is finished (SPEC 11.9). A week whose Sunday is as-of
  /// has `elapsed` 1, so it is complete and counts in trends and averages; marking it partial
  /// hatched a whole week and left it out of the trend.
  ///
  /// - Complexity: O(1).
  public func isPartial(_ index: Int, asOf: Int64) -> Bool { asOf < end(index) - 1 }

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
}

/// Which days start periods, in days since 1970-01-01 (the proleptic Gregorian calendar).
private struct PeriodRule {
  let granularity: Granularity
  /// Foundation's weekday numbering less one: 0 = Sunday … 6 = Saturday.
  let firstWeekday: Int64

  init(_ granularity: Granularity, calendar: UserCalendar) {
    self.granularity = granularity
    self.firstWeekday = Int64(calendar.firstWeekday.calendarValue - 1)
  }

  /// The first day of the period holding `day`.
  func firstDay(ofPeriodHolding day: Int64) -> Int64 {
    switch granularity {
    case .day:
      return day
    case .week:
      return day - LocalDay(day).daysIntoWeek(startingOn: firstWeekday)
    case .month:
      let date = RFC3339.civilDate(fromDays: day)
      return RFC3339.days(fromCivil: date.year, month: date.month, day: 1)
    }
  }

  /// The first day of the period after the one that starts on `day`.
  func firstDay(after day: Int64) -> Int64 {
    switch granularity {
    case .day: return day + 1
    case .week: return day + 7
    case .month:
      let date = RFC3339.civilDate(fromDays: day)
      return day + RFC3339.daysInMonth(year: date.year, month: date.month)
    }
  }

  /// The first day of the period `count` periods before the one that starts on `day`.
  func firstDay(_ day: Int64, periodsBefore count: Int) -> Int64 {
    let count = Int64(count)
    switch granularity {
    case .day: return day - count
    case .week: return day - 7 * count
    case .month:
      let date = RFC3339.civilDate(fromDays: day)
      // Months since January of year 0, divided rounding down so that earlier years work too.
      let months = date.year * 12 + (date.month - 1) - count
      let year = months >= 0 ? months / 12 : (months - 11) / 12
      return RFC3339.days(fromCivil: year, month: months - year * 12 + 1, day: 1)
    }
  }
}

/// Turns the local midnights of one zone, asked for in rising order, into instants exactly as
/// Foundation's Gregorian `Calendar` does, with two time-zone look-ups per clock change instead
/// of one calendar call per midnight.
///
/// It keeps a cursor on one stretch between two of the zone's transitions (``ZoneStretch``, as
/// `RFC3339.Formatter` does). It does not go backwards: the zone only names the *next* transition, so
/// callers work out their days first and ask for them from the earliest.
///
/// What Calendar does, and so what this does: a local midnight is read with the offset of the
/// last transition whose local edge it has reached, where a transition's local edge is its
/// instant plus the larger of the offsets before and after it (ICU's "former" rule for local
/// times). So a midnight that happens twice (clocks go back over it) is the earlier of the two
/// instants, and one that never happens (clocks go forward over it) is read with the offset from
/// before the jump, which lands it at or after the jump. America/Santiago's 2024-09-08, whose
/// clocks jump at midnight, starts at the jump, 01:00 −03:00. Where the jump passes over
/// midnight without starting at it, Calendar moves a day's start back to the jump, the day's
/// first instant: America/Toronto's 1919-03-31 starts at 00:30 −04:00, not at 01:00. Calendar
/// does not move a *month's* start back, but that would only differ on a 1st whose midnight a
/// jump passed over, and no zone has one (every zone's transitions from 1800 to 2100 were
/// searched; Toronto's and four zones with its rules on 1919-03-31 are the only such midnights).
struct LocalMidnights {
  /// The stretch of the zone's clock the last midnight was read in.
  private var stretch: ZoneStretch

  /// The local day (days since 1970-01-01) of `instant`, as `Calendar.dateComponents` reads it.
  ///
  /// - Complexity: O(1); one time-zone look-up.
  static func day(of instant: Int64, in timeZone: TimeZone) -> Int64 {
    LocalDay(instant: instant, in: timeZone).number
  }

  /// A cursor for midnights from `firstDay`'s on.
  ///
  /// - Complexity: O(1); three time-zone look-ups.
  init(timeZone: TimeZone, firstDay: Int64) {
    // The cursor starts on the stretch holding the instant two days before the first midnight
    // read as UTC. No offset reaches a day, so that stretch's transition has its local edge
    // before the midnight, and the stretch the midnight is read in is this one or a later one.
    // Starting nearer (at the midnight read with today's offset, say) could start after it.
    stretch = ZoneStretch(timeZone: timeZone, holding: firstDay * 86_400 - 2 * 86_400)
  }

  /// The instant `day` starts at, as `Calendar` gives it. Days must be asked for in rising order.
  ///
  /// - Complexity: O(1) amortized over rising days, plus two time-zone look-ups per transition
  ///   passed.
  mutating func start(ofDay day: Int64) -> Int64 {
    let midnight = day * 86_400
    // Past the current stretch's local edge the midnight is read with a later offset. The edge
    // uses the larger offset: with the offset after a fall-back, a midnight that happens twice
    // would be read the second time, starting the day an hour late; with the offset after a
    // jump forward, a midnight that never happens would land before the jump, on the day before.
    while stretch.end != Int64.max, midnight >= stretch.end + max(stretch.offset, stretch.offsetAfter()) {
      stretch.advance()
    }
    let instant = midnight - stretch.offset
    // Read with the offset before a forward jump, a midnight inside the jump lands after it; the
    // day's first instant is the jump itself, not 00:00 read with an offset the day never had.
    if instant >= stretch.end { return stretch.end }
    return instant
  }
}
