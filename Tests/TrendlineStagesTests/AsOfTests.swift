import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct AsOfTests {
  @Test func dateMeansTheLastSecondOfThatLocalDayPerUser() throws {
    // SPEC 9.1: "2025-11-29" is 23:59:59 local, a different instant per zone.
    let asOf = try #require(AsOf(parsing: "2025-11-29"))
    #expect(asOf == .endOfDay(year: 2025, month: 11, day: 29))
    #expect(asOf.resolve(for: oslo) == at("2025-11-29T23:59:59+01:00"))
    #expect(asOf.resolve(for: santiago) == at("2025-11-29T23:59:59-03:00"))
    #expect(asOf.resolve(for: utc) == at("2025-11-29T23:59:59Z"))
  }

  @Test func dateOnADaylightChangeDay() throws {
    // Oslo 2025-10-26 is 25 h long; its last second is still 23:59:59 +01:00.
    let asOf = try #require(AsOf(parsing: "2025-10-26"))
    #expect(asOf.resolve(for: oslo) == at("2025-10-26T23:59:59+01:00"))
  }

  @Test func fallBackAtMidnightTakesTheLaterOfTwoLastSeconds() throws {
    // Santiago falls back at midnight on 2025-04-06: 23:59:59 −03:00 is followed by 23:00:00
    // −04:00, so 23:59:59 happens twice on 5 April. The day's last second is the second one,
    // 23:59:59 −04:00, just before 6 April starts at 00:00 −04:00.
    let asOf = try #require(AsOf(parsing: "2025-04-05"))
    #expect(asOf.resolve(for: santiago) == at("2025-04-05T23:59:59-04:00"))
  }

  @Test func instantIsTheSameForEveryUser() throws {
    let asOf = try #require(AsOf(parsing: "2025-11-29T12:00:00+01:00"))
    #expect(asOf == .instant(at("2025-11-29T11:00:00Z")))
    #expect(asOf.resolve(for: santiago) == at("2025-11-29T11:00:00Z"))
  }

  @Test func todayIsOneDateForTheWholeRun() {
    // 22:30 UTC on 1 June is already 00:30 on 2 June in Oslo (+02:00) but still 18:30 on
    // 1 June in Santiago (−04:00). Today is the date in the pipeline's zone, resolved once; each
    // user's as-of is then the end of that date in their own zone (SPEC 10.7).
    let now = at("2025-06-01T22:30:00Z")
    let inOslo = AsOf.today(in: zone("Europe/Oslo"), now: now)
    #expect(inOslo == .endOfDay(year: 2025, month: 6, day: 2))
    #expect(inOslo.text == "2025-06-02")
    #expect(inOslo.resolve(for: santiago) == at("2025-06-02T23:59:59-04:00"))
    #expect(AsOf.today(in: zone("UTC"), now: now).text == "2025-06-01")
    #expect(AsOf.today(in: zone("America/Santiago"), now: now).resolve(for: oslo) == at("2025-06-01T23:59:59+02:00"))
  }

  @Test func anInstantIsStatedInUTC() throws {
    #expect(try AsOf(reading: "2025-11-29T12:00:00+01:00").text == "2025-11-29T11:00:00+00:00")
  }

  @Test(arguments: [
    "2025-02-30", "2025-13-01", "2025-11-29T10:00", "yesterday", "2025-1-05", "", "2025-11-29Z",
  ])
  func rejects(text: String) {
    #expect(AsOf(parsing: text) == nil)
  }

  /// As-of dates and instants are read within 1970-01-01 … 2199-12-31 and refused outside it
  /// with a message saying so: year 0 trapped, and before 1582 the calendar shifted ten days.
  @Test(arguments: [
    ("1970-01-01", nil), ("2199-12-31", nil), ("1970-01-01T00:00:00Z", nil), ("2199-12-31T23:59:59Z", nil),
    ("1969-12-31", "'1969-12-31' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"),
    ("2200-01-01", "'2200-01-01' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"),
    ("0000-01-01", "'0000-01-01' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"),
    ("0005-01-01", "'0005-01-01' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"),
    ("1500-03-01", "'1500-03-01' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"),
    ("9999-12-31", "'9999-12-31' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"),
    (
      "1969-12-31T23:59:59Z",
      "'1969-12-31T23:59:59Z' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"
    ),
    (
      "2200-01-01T00:00:00Z",
      "'2200-01-01T00:00:00Z' is outside the supported dates 1970-01-01 to 2199-12-31; give an as-of within them"
    ),
    ("2025-02-29", "'2025-02-29' is not a date: there is no day 29 in month 2 of 2025"),
  ])
  func asOfIsReadWithinTheSupportedDates(text: String, message: String?) {
    do throws(AsOf.Invalid) {
      _ = try AsOf(reading: text)
      #expect(message == nil, "\(text) was read")
    } catch {
      #expect(error.description == message)
    }
  }

  /// The last supported date resolves in the zones furthest from UTC, and periods a chart can
  /// look back from the first one (ten years) stay after year 0.
  @Test func edgesResolveInEveryZone() throws {
    for zone in ["Pacific/Kiritimati", "Etc/GMT+12", "UTC"] {
      let calendar = UserCalendar(timeZone: TimeZone(identifier: zone)!, firstWeekday: .monday)
      let last = try AsOf(reading: "2199-12-31").resolve(for: calendar)
      #expect(RFC3339.format(seconds: last, timeZone: calendar.timeZone).hasPrefix("2199-12-31T23:59:59"))
      let first = try AsOf(reading: "1970-01-01").resolve(for: calendar)
      let periods = Periods(.month, last: 120, through: first, calendar: calendar)
      #expect(RFC3339.format(seconds: periods.start(0), timeZone: calendar.timeZone).hasPrefix("1960-02-01T00:00:00"))
    }
  }
}
