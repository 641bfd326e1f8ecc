import Foundation
import Testing
import TrendlineSchema

/// The one calendar core: days floored on the wall clock, weekdays, civil dates and their text.
@Suite struct LocalDayTests {
  /// 23:00 on 31 December 1969 is day −1, not day 0 (`/` rounds towards zero); midnight
  /// starts its day; the last second of a day is still in it.
  @Test func localSecondsFloorToTheirDay() {
    #expect(LocalDay(localSeconds: -3_600).number == -1)
    #expect(LocalDay(localSeconds: -86_400).number == -1)
    #expect(LocalDay(localSeconds: -86_401).number == -2)
    #expect(LocalDay(localSeconds: 0).number == 0)
    #expect(LocalDay(localSeconds: 86_399).number == 0)
    #expect(LocalDay(localSeconds: 86_400).number == 1)
  }

  /// An instant's day depends on the zone: 2025-10-26T00:30:00Z is the 26th in Oslo (+02:00
  /// until 01:00Z that day) and the 25th in New York (−04:00). 2025-10-26 is day 20,387.
  @Test func anInstantsDayIsTheZones() {
    let instant: Int64 = 1_761_438_600
    #expect(LocalDay(instant: instant, in: TimeZone(identifier: "Europe/Oslo")!).number == 20_387)
    #expect(LocalDay(instant: instant, in: TimeZone(identifier: "America/New_York")!).number == 20_386)
    #expect(LocalDay(instant: instant, offset: 0).text == "2025-10-26")
  }

  /// Days since 1970 and weekdays (0 Sunday) of a leap day, the eve of 1970, a century leap
  /// year and a century non-leap year, worked out from the calendar: 1970-01-01 was a Thursday.
  @Test(arguments: [
    (2024, 2, 29, 19_782, 4, "2024-02-29"),
    (1969, 12, 31, -1, 3, "1969-12-31"),
    (2000, 3, 1, 11_017, 3, "2000-03-01"),
    (1900, 1, 1, -25_567, 1, "1900-01-01"),
    (1970, 1, 1, 0, 4, "1970-01-01"),
  ])
  func civilDatesWeekdaysAndText(
    year: Int64, month: Int64, day: Int64, number: Int64, weekday: Int64, text: String
  ) {
    let local = LocalDay(year: year, month: month, day: day)
    #expect(local.number == number)
    #expect(local.weekday == weekday)
    #expect(local.civil == (year, month, day))
    #expect(local.text == text)
    #expect(LocalDay(text: text) == local)
  }

  /// Text is read as `text` writes it and nothing else, so a day read from a file writes back
  /// the same bytes: no day the calendar lacks (29 February 2025, 31 April, month 13, day 0),
  /// no short or long field, no other separator, no sign, space or trailing text.
  @Test(arguments: [
    "2025-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00", "2025-1-01", "2025-01-1", "20250-01-01",
    "2025/01/01", "+025-01-01", "2025-01-01 ", " 2025-01-01", "2025-01-01T00", "", "２０２５-01-01", "2025-0a-01",
  ])
  func onlyTheTextItWritesIsADay(text: String) {
    #expect(LocalDay(text: text) == nil)
  }

  @Test func aLeapDayAndTheEdgesOfFourDigitYearsAreRead() {
    #expect(LocalDay(text: "2024-02-29")?.number == 19_782)
    #expect(LocalDay(text: "0000-01-01")?.text == "0000-01-01")
    #expect(LocalDay(text: "9999-12-31")?.text == "9999-12-31")
    #expect(LocalDay(text: "1900-02-29") == nil)
    #expect(LocalDay(text: "2000-02-29")?.number == 11_016)
  }

  /// How far into a week a day is: Thursday 1970-01-01 is 3 days into a Monday week, 4 into a
  /// Sunday week, 0 into a Thursday week and 6 into a Friday week.
  @Test func daysIntoWeek() {
    let thursday = LocalDay(0)
    #expect(thursday.daysIntoWeek(startingOn: 1) == 3)
    #expect(thursday.daysIntoWeek(startingOn: 0) == 4)
    #expect(thursday.daysIntoWeek(startingOn: 4) == 0)
    #expect(thursday.daysIntoWeek(startingOn: 5) == 6)
    #expect(LocalDay(-1).daysIntoWeek(startingOn: 1) == 2)
  }

  /// A year past 9999 is written with all its digits rather than cut to four, and a year
  /// before 0 with its sign before the padding.
  @Test func yearsOutsideFourDigitsKeepTheirDigitsAndSign() {
    #expect(LocalDay(year: 10_000, month: 1, day: 1).text == "10000-01-01")
    #expect(LocalDay(year: -5, month: 3, day: 1).text == "-0005-03-01")
  }
}
