import Testing
import TrendlineSchema
import TrendlineStages

/// A user at a glance for the report's index, worked out by hand. UTC, Monday weeks, as of the
/// end of Wednesday 26 November 2025. Sessions (squats, 5 × 100 kg unless said): Monday
/// 1 September; 3 and 5 November; 12 November at 110 kg; 18 November at 110 kg; 27 November,
/// after as-of, counted nowhere.
@Suite struct GlanceTests {
  static let heavy = [trained("Squat", [20], kg: 110, reps: 5)]
  static let sessions = [
    session("2025-09-01T09:00:00Z"), session("2025-11-03T09:00:00Z"), session("2025-11-05T09:00:00Z"),
    session("2025-11-12T09:00:00Z", Self.heavy), session("2025-11-18T09:00:00Z", Self.heavy),
    session("2025-11-27T09:00:00Z"),
  ]
  static let asOf = at("2025-11-26T23:59:59Z")

  @Test func aUserInTheMiddleOfAWeek() {
    let glance = Glance(Self.sessions, calendar: utc, asOf: Self.asOf)
    // The last session up to as-of is 18 November, 8 days before the 26th.
    #expect(glance.lastSession == "2025-11-18")
    #expect(glance.daysSinceLastSession == 8)
    // As-of's week (24 Nov) has no session yet and is not over: it neither counts nor breaks
    // the streak. 17, 10 and 3 Nov have sessions, 27 Oct none: 3 weeks.
    #expect(glance.weekStreak == 3)
    // The last 28 days are 30 Oct … 26 Nov: 3, 5, 12 and 18 Nov. The 28 before, 2 … 29 Oct: none.
    #expect(glance.sessions == 4)
    #expect(glance.previousSessions == 0)
    // 12 Nov's 110 kg beats the 100 kg before it as a top set and as an e1RM: 2 records; 18 Nov
    // only equals it (and 110 kg × 5 is no longer a first).
    #expect(glance.records == 2)
    // Twelve weeks, 8 Sep … 24 Nov; 1 September's week is the thirteenth back.
    #expect(glance.weekly == [0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 0])
    #expect(glance.lastWeekPartial)
  }

  /// As of Sunday 30 November the week of 24 November is over without a session: the streak
  /// is broken, and the 27th's session, now up to as-of, counts in that week.
  @Test func aWeekFinishedWithoutASessionBreaksTheStreak() {
    let sunday = Glance(Array(Self.sessions.prefix(5)), calendar: utc, asOf: at("2025-11-30T23:59:59Z"))
    #expect(sunday.weekStreak == 0)
    #expect(!sunday.lastWeekPartial)
    let trained = Glance(Self.sessions, calendar: utc, asOf: at("2025-11-30T23:59:59Z"))
    #expect(trained.weekStreak == 4)
    #expect(trained.weekly.suffix(2) == [1, 1])
    #expect(trained.lastSession == "2025-11-27")
    #expect(trained.daysSinceLastSession == 3)
  }

  /// The records each session set, as the session cache keeps them: the book's count through
  /// the last session, which is the glance's at any as-of. Given, they are what the glance
  /// counts; a list of another length than the sessions is not taken.
  @Test func givenRecordsAreCountedAsGiven() {
    let book = RecordBook(Self.sessions, through: .max).newRecords
    #expect(book == [0, 0, 0, 2, 0, 0])
    #expect(Glance(Self.sessions, newRecords: book, calendar: utc, asOf: Self.asOf).records == 2)
    // 3, 5, 12 and 18 November are in the last 28 days; 1 September and 27 November are not.
    #expect(Glance(Self.sessions, newRecords: [7, 0, 1, 5, 0, 9], calendar: utc, asOf: Self.asOf).records == 6)
    #expect(Glance(Self.sessions, newRecords: [7], calendar: utc, asOf: Self.asOf).records == 2)
  }

  @Test func aUserWithNoSessionUpToAsOf() {
    let glance = Glance([session("2025-12-01T09:00:00Z")], calendar: utc, asOf: Self.asOf)
    #expect(glance.lastSession == nil)
    #expect(glance.daysSinceLastSession == nil)
    #expect(glance.weekStreak == 0)
    #expect(glance.sessions == 0 && glance.previousSessions == 0 && glance.records == 0)
    #expect(glance.weekly == [Int](repeating: 0, count: 12))
  }

  /// Days are the user's: a session at 23:30 in Oslo on the 25th (22:30Z) is on the 25th there,
  /// one day before as-of's 26th.
  @Test func daysAreLocal() {
    let glance = Glance(
      [session("2025-11-25T23:30:00+01:00")], calendar: oslo, asOf: at("2025-11-26T23:59:59+01:00"))
    #expect(glance.lastSession == "2025-11-25")
    #expect(glance.daysSinceLastSession == 1)
  }
}
