import Foundation
import Testing
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// `Periods` against ``CalendarPeriods``, the Calendar-based computation it replaced, in every
/// zone Foundation knows, from 1970 to 2040: around each of the zone's clock changes and at
/// instants drawn with a fixed seed.
///
/// Calendar calls are what this test spends its time on (about 10 µs each), so the default run
/// (135 000 comparisons, 371 000 calendar calls) picks the cases where a difference would
/// show: both sides of every transition for days and months, and for the weeks that start on
/// the transition's day; at the random instants, every granularity and week start.
/// `TRENDLINE_PERIODS_THOROUGH=1` checks every week start and both initializers at five instants
/// around every transition, and 200 random instants per zone (about a minute on two cores,
/// against 3 s).
@Suite struct PeriodsCalendarTests {
  /// 1970-01-01T00:00:00Z ..< 2040-01-01T00:00:00Z.
  static let instants: Range<Int64> = 0..<2_208_988_800
  static let thorough = ProcessInfo.processInfo.environment["TRENDLINE_PERIODS_THOROUGH"] == "1"

  /// Zones are compared in child tasks, in parallel; one parameterized case per zone would print
  /// 443 lines into every test run.
  @Test func boundariesAreCalendars() async {
    let identifiers = TimeZone.knownTimeZoneIdentifiers
    let zones = await withTaskGroup(of: Comparison.Result.self) { group in
      for identifier in identifiers { group.addTask { Self.compare(identifier) } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(zones.count == identifiers.count)
    #expect(zones.allSatisfy { $0.checks > 0 })
    let mismatches = zones.flatMap(\.mismatches)
    #expect(mismatches.isEmpty, "\(mismatches.count) differences: \(mismatches.prefix(10))")
    let unexplained = zones.flatMap(\.unexplained)
    #expect(unexplained.isEmpty, "\(unexplained.count) unexplained: \(unexplained.prefix(10))")
  }

  /// The only midnights a clock change has jumped over without starting at them are in
  /// America/Toronto and four zones with its rules, on 1919-03-31 (23:30 became 00:30; a scan
  /// of every zone from 1800 to 2100 found no others). There a day's start moves back from
  /// midnight read with the earlier offset to the jump, so they are compared too, before 1970.
  @Test func boundariesAreCalendarsWhereAJumpPassesMidnight() {
    let jump = at("1919-03-31T04:30:00Z")
    for identifier in [
      "America/Toronto", "America/Montreal", "America/Nassau", "America/Nipigon",
      "America/Thunder_Bay",
    ] where TimeZone(identifier: identifier) != nil {
      let comparison = Comparison(zone(identifier))
      for instant in [jump - 3600, jump - 1, jump, jump + 1, jump + 3600] {
        for periods in comparison.all {
          comparison.check(periods, from: instant, through: instant + 3600)
          comparison.check(periods, last: 3, through: instant)
        }
      }
      #expect(comparison.result.mismatches.isEmpty, "\(comparison.result.mismatches.prefix(5))")
      #expect(comparison.result.unexplained.isEmpty)
    }
  }

  static func compare(_ identifier: String) -> Comparison.Result {
    let comparison = Comparison(zone(identifier))
    var transitions: [Int64] = []
    var after = Date(epochSeconds: instants.lowerBound - 1)
    while let next = comparison.timeZone.nextDaylightSavingTimeTransition(after: after),
      instants.contains(next.epochSeconds)
    {
      transitions.append(next.epochSeconds)
      after = next
    }
    for transition in transitions {
      if thorough {
        for instant in [-3600, -1, 0, 1, 3600].map({ transition + $0 }) {
          for periods in comparison.all {
            comparison.check(periods, from: instant, through: instant + 3600)
            comparison.check(periods, last: 3, through: instant)
          }
        }
        continue
      }
      // The second before the clock change and the second it happens: the offset each side.
      comparison.check(comparison.day, from: transition - 1, through: transition + 3600)
      comparison.check(comparison.day, last: 2, through: transition)
      comparison.check(comparison.month, from: transition - 1, through: transition)
      // The weeks whose boundary is the midnight nearest the change: those starting on the
      // local day before it and the day it happens (the same day, unless it is at midnight).
      for weekday in Set([transition - 1, transition].map(comparison.weekday(of:))) {
        comparison.check(comparison.weeks[weekday - 1], from: transition - 1, through: transition)
      }
    }
    // Instants anywhere: every granularity and week start, both initializers, several periods.
    // Seeded from the zone's name, so each zone draws its own instants, the same on every run
    // (FNV-1a of the name: `hashValue` is seeded per process).
    var random = SplitMix64(
      seed: identifier.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
    let span = UInt64(instants.count)
    for _ in 0..<(thorough ? 200 : 5) {
      let instant = instants.lowerBound + Int64(random.next() % span)
      for periods in comparison.all {
        let days: Int64 =
          switch periods.granularity {
          case .day: 2
          case .week: 15
          case .month: 62
          }
        comparison.check(periods, from: instant, through: instant + days * 86_400)
        comparison.check(periods, last: 3, through: instant)
      }
    }
    // A long run per granularity: the offsets of many transitions, looked up in turn.
    let start = instants.lowerBound + Int64(random.next() % (span - 3 * 366 * 86_400))
    comparison.check(comparison.day, from: start, through: start + 40 * 86_400)
    let weeks = comparison.weeks[Int(random.next() % 7)]
    comparison.check(weeks, from: start, through: start + 366 * 86_400)
    comparison.check(comparison.month, last: 36, through: start + 3 * 366 * 86_400)
    return comparison.result
  }

  /// One zone's oracles and what has been compared so far.
  final class Comparison {
    struct Result: Sendable {
      var checks = 0
      /// Boundaries that differ from Calendar's.
      var mismatches: [String] = []
      /// Cases without a Calendar answer that are not the known kind, or periods that are not
      /// whole weeks there.
      var unexplained: [String] = []
    }

    let timeZone: TimeZone
    let day: CalendarPeriods
    let month: CalendarPeriods
    /// By first weekday: `weeks[0]` starts on Sunday … `weeks[6]` on Saturday.
    let weeks: [CalendarPeriods]
    var all: [CalendarPeriods] { [day, month] + weeks }
    private(set) var result = Result()
    private let gregorian: Calendar

    init(_ timeZone: TimeZone) {
      self.timeZone = timeZone
      day = CalendarPeriods(.day, calendar: UserCalendar(timeZone: timeZone))
      month = CalendarPeriods(.month, calendar: UserCalendar(timeZone: timeZone))
      weeks = Weekday.allCases.map {
        CalendarPeriods(.week, calendar: UserCalendar(timeZone: timeZone, firstWeekday: $0))
      }
      gregorian = day.calendar
    }

    /// Foundation's weekday of `instant` in this zone: 1 = Sunday … 7 = Saturday.
    func weekday(of instant: Int64) -> Int {
      gregorian.component(.weekday, from: Date(epochSeconds: instant))
    }

    func check(_ oracle: CalendarPeriods, from: Int64, through: Int64) {
      let periods = Periods(
        oracle.granularity, from: from, through: through, calendar: user(oracle))
      compare(
        periods, oracle.boundaries(from: from, through: through), oracle, "from \(text(from))")
    }

    func check(_ oracle: CalendarPeriods, last count: Int, through: Int64) {
      let periods = Periods(
        oracle.granularity, last: count, through: through, calendar: user(oracle))
      compare(
        periods, oracle.boundaries(last: count, through: through), oracle,
        "last \(count) through \(text(through))")
      if periods.count != count {
        result.mismatches.append("\(describe(oracle)) last \(count): \(periods.count) periods")
      }
    }

    /// An instant as RFC 3339 text in this zone, for messages.
    private func text(_ instant: Int64) -> String {
      RFC3339.format(seconds: instant, timeZone: timeZone)
    }

    private func user(_ oracle: CalendarPeriods) -> UserCalendar {
      UserCalendar(
        timeZone: timeZone, firstWeekday: Weekday.allCases[oracle.calendar.firstWeekday - 1])
    }

    private func describe(_ oracle: CalendarPeriods) -> String {
      let weekStart =
        oracle.granularity == .week ? " from weekday \(oracle.calendar.firstWeekday)" : ""
      return "\(timeZone.identifier) \(oracle.granularity)\(weekStart)"
    }

    private func compare(
      _ periods: Periods, _ expected: [Int64]?, _ oracle: CalendarPeriods, _ what: String
    ) {
      result.checks += 1
      guard let expected else {
        // Calendar has no answer only for weeks: its week start walks back a day at a time at
        // the instant's wall-clock time, and gives up (or lands a week early) where that time
        // does not exist on a day it passes (America/Nuuk at 23:xx on the Saturday its clocks
        // go forward) or where the week's first day was skipped (Pacific/Apia, Friday 30
        // December 2011). `Periods` trapped there, or wrote an empty or a two-week period; now
        // the weeks are whole, at most a day short.
        let whole = (0..<periods.count).allSatisfy {
          (6 * 86_400 - 3600...7 * 86_400 + 3600).contains(periods.end($0) - periods.start($0))
        }
        if oracle.granularity != .week || !whole {
          result.unexplained.append(
            "\(describe(oracle)) \(what): \(periods.boundaries.map(text))")
        }
        return
      }
      if periods.boundaries != expected {
        result.mismatches.append(
          "\(describe(oracle)) \(what): \(periods.boundaries.map(text)), Calendar \(expected.map(text))"
        )
      }
    }
  }
}
