import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct AsOfTests {
  @Test func dateMeansTheLastSecondOfThatLocalDayPerUser() throws {
    // SPEC 9.1: "2025-11-29" is 23:59:59 local, a different instant per zone.
    let asOf = try #require(AsOf(parsing: "2025-11-29"))
    #expect(asOf == .endOfDay(year: 2025, month: 11, day: 29))
    #expect(asOf.resolve(for: oslo, now: 0) == at("2025-11-29T23:59:59+01:00"))
    #expect(asOf.resolve(for: santiago, now: 0) == at("2025-11-29T23:59:59-03:00"))
    #expect(asOf.resolve(for: utc, now: 0) == at("2025-11-29T23:59:59Z"))
  }

  @Test func dateOnADaylightChangeDay() throws {
    // Oslo 2025-10-26 is 25 h long; its last second is still 23:59:59 +01:00.
    let asOf = try #require(AsOf(parsing: "2025-10-26"))
    #expect(asOf.resolve(for: oslo, now: 0) == at("2025-10-26T23:59:59+01:00"))
  }

  @Test func fallBackAtMidnightTakesTheLaterOfTwoLastSeconds() throws {
    // Santiago falls back at midnight on 2025-04-06: 23:59:59 −03:00 is followed by 23:00:00
    // −04:00, so 23:59:59 happens twice on 5 April. The day's last second is the second one,
    // 23:59:59 −04:00, just before 6 April starts at 00:00 −04:00.
    let asOf = try #require(AsOf(parsing: "2025-04-05"))
    #expect(asOf.resolve(for: santiago, now: 0) == at("2025-04-05T23:59:59-04:00"))
  }

  @Test func instantIsTheSameForEveryUser() throws {
    let asOf = try #require(AsOf(parsing: "2025-11-29T12:00:00+01:00"))
    #expect(asOf == .instant(at("2025-11-29T11:00:00Z")))
    #expect(asOf.resolve(for: santiago, now: 0) == at("2025-11-29T11:00:00Z"))
  }

  @Test func todayIsTheEndOfTodayInTheUsersZone() {
    // 22:30 UTC on 1 June is already 00:30 on 2 June in Oslo (+02:00) but still 18:30 on
    // 1 June in Santiago (−04:00): each user's today ends at their own 23:59:59.
    let now = at("2025-06-01T22:30:00Z")
    #expect(AsOf.today.resolve(for: oslo, now: now) == at("2025-06-02T23:59:59+02:00"))
    #expect(AsOf.today.resolve(for: santiago, now: now) == at("2025-06-01T23:59:59-04:00"))
  }

  @Test(arguments: [
    "2025-02-30", "2025-13-01", "2025-11-29T10:00", "yesterday", "2025-1-05", "", "2025-11-29Z",
  ])
  func rejects(text: String) {
    #expect(AsOf(parsing: text) == nil)
  }
}
