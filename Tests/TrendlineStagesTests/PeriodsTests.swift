import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct PeriodsTests {
  @Test func springForwardDayIsTwentyThreeHours() {
    // Oslo moves from +01:00 to +02:00 at 02:00 on 2025-03-30: the day starts at +01:00 and the
    // next one at +02:00, 23 h = 82 800 s later.
    let periods = Periods(
      .day, from: at("2025-03-30T12:00:00+02:00"), through: at("2025-03-30T12:00:00+02:00"),
      calendar: oslo)
    #expect(
      periods.boundaries == [at("2025-03-30T00:00:00+01:00"), at("2025-03-31T00:00:00+02:00")])
    #expect(periods.end(0) - periods.start(0) == 82_800)
  }

  @Test func fallBackDayIsTwentyFiveHours() {
    // Oslo moves from +02:00 back to +01:00 at 03:00 on 2025-10-26: 25 h = 90 000 s.
    let periods = Periods(
      .day, from: at("2025-10-26T12:00:00+01:00"), through: at("2025-10-26T12:00:00+01:00"),
      calendar: oslo)
    #expect(
      periods.boundaries == [at("2025-10-26T00:00:00+02:00"), at("2025-10-27T00:00:00+01:00")])
    #expect(periods.end(0) - periods.start(0) == 90_000)
  }

  @Test func dayWithoutMidnightStartsAtOne() {
    // Santiago springs forward at local midnight on 2024-09-08 (00:00 −04:00 becomes 01:00
    // −03:00): the day starts at 01:00, as Calendar.startOfDay has it, and lasts 23 h.
    let periods = Periods(
      .day, from: at("2024-09-07T12:00:00-04:00"), through: at("2024-09-08T12:00:00-03:00"),
      calendar: santiago)
    #expect(
      periods.boundaries == [
        at("2024-09-07T00:00:00-04:00"), at("2024-09-08T01:00:00-03:00"),
        at("2024-09-09T00:00:00-03:00"),
      ])
  }

  @Test func dayWhoseMidnightIsInsideAJumpStartsAtTheJump() {
    // Toronto moved its clocks from 23:30 −05:00 to 00:30 −04:00 on 1919-03-30: 31 March has no
    // midnight and starts at 00:30, the first instant it has (not at 01:00, which is midnight
    // read with the offset before the jump). March 30 is 23 h 30 min, March 31 23 h 30 min.
    let toronto = UserCalendar(timeZone: zone("America/Toronto"))
    let periods = Periods(
      .day, from: at("1919-03-30T12:00:00-05:00"), through: at("1919-03-31T12:00:00-04:00"),
      calendar: toronto)
    #expect(
      periods.boundaries == [
        at("1919-03-30T00:00:00-05:00"), at("1919-03-31T00:30:00-04:00"),
        at("1919-04-01T00:00:00-04:00"),
      ])
  }

  @Test func dayAZoneSkippedIsNoPeriod() {
    // Samoa crossed the date line: Pacific/Apia went from Thursday 2011-12-29 23:59:59 −10:00
    // straight to Saturday 2011-12-31 00:00:00 +14:00. Friday has no instant, so it is no
    // period, not an empty one: Thursday is followed by Saturday, counting forward or back.
    let apia = UserCalendar(timeZone: zone("Pacific/Apia"))
    let forward = Periods(
      .day, from: at("2011-12-29T12:00:00-10:00"), through: at("2011-12-31T12:00:00+14:00"),
      calendar: apia)
    #expect(
      forward.boundaries == [
        at("2011-12-29T00:00:00-10:00"), at("2011-12-31T00:00:00+14:00"),
        at("2012-01-01T00:00:00+14:00"),
      ])
    let back = Periods(.day, last: 2, through: at("2011-12-31T12:00:00+14:00"), calendar: apia)
    #expect(back.boundaries == forward.boundaries)
  }

  @Test func weekThatShouldStartOnASkippedDayStartsWithTheNextDay() {
    // For a Friday-first user in Apia, the week of Friday 30 December 2011 (a day that did not
    // happen) starts when Saturday does and has six days; the week before has its seven.
    // Calendar has no such week (its week start walks back into the missing Friday and gives
    // up), so Periods used to trap here.
    let fridayFirst = UserCalendar(timeZone: zone("Pacific/Apia"), firstWeekday: .friday)
    let forward = Periods(
      .week, from: at("2011-12-29T12:00:00-10:00"), through: at("2011-12-31T12:00:00+14:00"),
      calendar: fridayFirst)
    #expect(
      forward.boundaries == [
        at("2011-12-23T00:00:00-10:00"), at("2011-12-31T00:00:00+14:00"),
        at("2012-01-06T00:00:00+14:00"),
      ])
    let back = Periods(
      .week, last: 2, through: at("2011-12-31T12:00:00+14:00"), calendar: fridayFirst)
    #expect(back.boundaries == forward.boundaries)
  }

  @Test func weeksAcrossAClockChangeAtElevenAtNight() {
    // America/Nuuk goes from 23:00 −02:00 on Saturday 2029-03-24 to 00:00 −01:00 on Sunday, so
    // that Saturday has no 23:59:59. Calendar's week start walks back a day at a time at the
    // wall-clock time it starts from, and gave up on that Saturday when counting weeks back
    // from a week's last second; Periods used to trap. These are ordinary Monday weeks, the
    // one with the change an hour short.
    let nuuk = UserCalendar(timeZone: zone("America/Nuuk"))
    let periods = Periods(.week, last: 3, through: at("2029-04-07T14:14:07-01:00"), calendar: nuuk)
    #expect(
      periods.boundaries == [
        at("2029-03-19T00:00:00-02:00"), at("2029-03-26T00:00:00-01:00"),
        at("2029-04-02T00:00:00-01:00"), at("2029-04-09T00:00:00-01:00"),
      ])
    #expect(periods.end(0) - periods.start(0) == 7 * 86_400 - 3600)
    // The same in 2025, forward from a bucket window's start: `range: 3m` as of 2025-06-30
    // starts at 23:59:59 on Sunday 30 March, the day of the change, in the week of Monday 24th.
    let window = Periods(
      .week, from: at("2025-03-30T23:59:59-01:00"), through: at("2025-04-07T12:00:00-01:00"),
      calendar: nuuk)
    #expect(
      window.boundaries == [
        at("2025-03-24T00:00:00-02:00"), at("2025-03-31T00:00:00-01:00"),
        at("2025-04-07T00:00:00-01:00"), at("2025-04-14T00:00:00-01:00"),
      ])
  }

  @Test func monthStartingAtAClockChange() {
    // Moscow moved its clocks from 00:00 +03:00 to 01:00 +04:00 on 1981-04-01: April starts at
    // 01:00, and March ends there.
    let moscow = UserCalendar(timeZone: zone("Europe/Moscow"))
    let periods = Periods(
      .month, last: 2, through: at("1981-04-15T12:00:00+04:00"), calendar: moscow)
    #expect(
      periods.boundaries == [
        at("1981-03-01T00:00:00+03:00"), at("1981-04-01T01:00:00+04:00"),
        at("1981-05-01T00:00:00+04:00"),
      ])
  }

  @Test func weekContainingAsOfForASundayFirstUser() {
    // SPEC 9.1: for a Sunday-first user and as-of Saturday 2025-11-29, the week of 23 November.
    let sundayFirst = UserCalendar(timeZone: zone("UTC"), firstWeekday: .sunday)
    let periods = Periods(
      .week, last: 1, through: at("2025-11-29T23:59:59Z"), calendar: sundayFirst)
    #expect(periods.boundaries == [at("2025-11-23T00:00:00Z"), at("2025-11-30T00:00:00Z")])
    // The same instant for a Monday-first user is in the week of Monday 24 November.
    let mondayFirst = Periods(.week, last: 1, through: at("2025-11-29T23:59:59Z"), calendar: utc)
    #expect(mondayFirst.boundaries == [at("2025-11-24T00:00:00Z"), at("2025-12-01T00:00:00Z")])
  }

  @Test func lastMonthsStepBackAcrossAYearAndADaylightChange() {
    // Three months up to 2026-01-10 in Oslo: November (+01:00), December, January; the end is
    // 1 February. None of these is in summer time, October would be.
    let periods = Periods(.month, last: 3, through: at("2026-01-10T12:00:00+01:00"), calendar: oslo)
    #expect(
      periods.boundaries == [
        at("2025-11-01T00:00:00+01:00"), at("2025-12-01T00:00:00+01:00"),
        at("2026-01-01T00:00:00+01:00"),
        at("2026-02-01T00:00:00+01:00"),
      ])
    // One more reaches October, which starts in summer time.
    let four = Periods(.month, last: 4, through: at("2026-01-10T12:00:00+01:00"), calendar: oslo)
    #expect(four.boundaries.first == at("2025-10-01T00:00:00+02:00"))
  }

  @Test func indexContainingUsesHalfOpenPeriods() {
    // Days of 1, 2 and 3 June 2025 in UTC. A period includes its start and excludes its end.
    let periods = Periods(
      .day, from: at("2025-06-01T10:00:00Z"), through: at("2025-06-03T10:00:00Z"), calendar: utc)
    #expect(periods.count == 3)
    #expect(periods.index(containing: at("2025-05-31T23:59:59Z")) == nil)
    #expect(periods.index(containing: at("2025-06-01T00:00:00Z")) == 0)
    #expect(periods.index(containing: at("2025-06-01T23:59:59Z")) == 0)
    #expect(periods.index(containing: at("2025-06-02T00:00:00Z")) == 1)
    #expect(periods.index(containing: at("2025-06-03T23:59:59Z")) == 2)
    #expect(periods.index(containing: at("2025-06-04T00:00:00Z")) == nil)
  }

  @Test func weekAcrossANewYear() {
    // The week holding 1 January 2026 (a Thursday) starts Monday 29 December 2025 for a
    // Monday-first user, and Sunday 28 December for a Sunday-first one: a week is not cut at
    // the year boundary, whatever week-of-year numbering says.
    let monday = Periods(
      .week, from: at("2025-12-31T12:00:00Z"), through: at("2026-01-01T12:00:00Z"), calendar: utc)
    #expect(monday.boundaries == [at("2025-12-29T00:00:00Z"), at("2026-01-05T00:00:00Z")])
    let sundayFirst = UserCalendar(timeZone: zone("UTC"), firstWeekday: .sunday)
    let sunday = Periods(.week, last: 2, through: at("2026-01-01T12:00:00Z"), calendar: sundayFirst)
    #expect(
      sunday.boundaries == [
        at("2025-12-21T00:00:00Z"), at("2025-12-28T00:00:00Z"), at("2026-01-04T00:00:00Z"),
      ])
  }
}
