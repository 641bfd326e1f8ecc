import Foundation
import TrendlineSchema
import TrendlineStages

/// Period boundaries as Foundation's `Calendar` gives them: how `Periods` worked them out
/// before it moved to integer arithmetic, kept here as the oracle that `Periods` must match.
///
/// A period's start is `startOfDay(for:)` for days and `dateInterval(of: .weekOfYear / .month,
/// for:).start` otherwise; the next period's start is the start of the period containing
/// `start + reach` (36 h, 7½ days or 45 days: past the period, short of the one after), and the
/// previous one's is the start of the period containing `start − 1 s`.
///
/// It answers nil where `Calendar` has no answer: `dateInterval` returns nil, its period does not
/// hold the instant (it starts later, or longer ago than a period lasts: a day 47 hours, as
/// Pacific/Kwajalein's 30 September 1969, a week 8 days, a month 32), or the steps do not move
/// forward. `Periods` trapped on a nil, wrote a two-week week for a period too far back and an
/// empty period for a step that stood still, so these are the cases where the two may differ.
/// Answers are remembered, because calendar calls are what make the comparison slow and
/// neighbouring instants share periods.
final class CalendarPeriods {
  let granularity: Granularity
  let calendar: Calendar
  private var containing: [Int64: Int64?] = [:]

  init(_ granularity: Granularity, calendar: UserCalendar) {
    self.granularity = granularity
    self.calendar = calendar.calendar
  }

  /// The first instant of the period containing `instant`.
  func start(containing instant: Int64) -> Int64? {
    if let known = containing[instant] { return known }
    let date = Date(epochSeconds: instant)
    let start: Int64?
    switch granularity {
    case .day: start = calendar.startOfDay(for: date).epochSeconds
    case .week: start = calendar.dateInterval(of: .weekOfYear, for: date)?.start.epochSeconds
    case .month: start = calendar.dateInterval(of: .month, for: date)?.start.epochSeconds
    }
    let longest: Int64 =
      switch granularity {
      case .day: 47 * 3600
      case .week: 8 * 86_400
      case .month: 32 * 86_400
      }
    let holding = start.flatMap { $0 <= instant && instant - $0 < longest ? $0 : nil }
    containing[instant] = holding
    return holding
  }

  /// The first instant of the period after the one starting at `start`.
  func start(after start: Int64) -> Int64? {
    let reach: Int64
    switch granularity {
    case .day: reach = 36 * 3600
    case .week: reach = 180 * 3600
    case .month: reach = 45 * 86_400
    }
    guard let next = self.start(containing: start + reach), next > start else { return nil }
    return next
  }

  /// What `Periods(_:from:through:calendar:)` gave.
  func boundaries(from: Int64, through: Int64) -> [Int64]? {
    guard let first = start(containing: from) else { return nil }
    var boundaries = [first]
    while true {
      guard let next = start(after: boundaries[boundaries.count - 1]) else { return nil }
      boundaries.append(next)
      if next > through { return boundaries }
    }
  }

  /// What `Periods(_:last:through:calendar:)` gave.
  func boundaries(last count: Int, through: Int64) -> [Int64]? {
    guard let last = start(containing: through), let after = start(after: last) else {
      return nil
    }
    var boundaries = [after, last]
    while boundaries.count < count + 1 {
      let later = boundaries[boundaries.count - 1]
      guard let earlier = start(containing: later - 1), earlier < later else { return nil }
      boundaries.append(earlier)
    }
    return boundaries.reversed()
  }
}
