import Foundation
import Testing
import TrendlineSchema

@Suite struct RFC3339Tests {
  /// A formatter's local dates, from its cached offset, are the zone's: local midnights in Oslo
  /// across the spring-forward night (30 March 2025, 02:00 → 03:00) and the fall-back one
  /// (26 October 2025), worked out by hand: a day before is +01:00 or +02:00, the day after the
  /// other one.
  @Test func formatterLocalDatesFollowTheOffsetAcrossTransitions() {
    let oslo = TimeZone(identifier: "Europe/Oslo")!
    let dates = RFC3339.Formatter(timeZone: oslo)
    let midnights: [(Int64, String)] = [
      (1_743_202_800, "2025-03-29"),  // 2025-03-28T23:00Z, +01:00
      (1_743_289_200, "2025-03-30"),  // 2025-03-29T23:00Z, +01:00: the night that loses an hour
      (1_743_372_000, "2025-03-31"),  // 2025-03-30T22:00Z, +02:00
      (1_761_429_600, "2025-10-26"),  // 2025-10-25T22:00Z, +02:00: the night that gains one
      (1_761_519_600, "2025-10-27"),  // 2025-10-26T23:00Z, +01:00
      (1_761_519_599, "2025-10-26"),  // a second before: not rising, so the cache is asked again
    ]
    for (seconds, date) in midnights {
      #expect(dates.localDate(seconds) == date, "\(seconds)")
      #expect(RFC3339.localDate(seconds: seconds, timeZone: oslo) == date, "\(seconds)")
    }
  }

  @Test(arguments: [
    // (epoch seconds, zone, expected). Epoch values worked out from the UTC time:
    // 2026-08-24T00:00:00+02:00 = 2026-08-23T22:00:00Z = 1 787 522 400 (Oslo summer, +02:00).
    (Int64(1_787_522_400), "Europe/Oslo", "2026-08-24T00:00:00+02:00"),
    // 2026-01-15T00:00:00+01:00 = 2026-01-14T23:00:00Z = 1 768 431 600 (Oslo winter, +01:00).
    (1_768_431_600, "Europe/Oslo", "2026-01-15T00:00:00+01:00"),
    // UTC is written +00:00, never Z.
    (0, "UTC", "1970-01-01T00:00:00+00:00"),
    // Santiago in its winter, −04:00: 1 787 522 400 is 2026-08-23T18:00:00−04:00.
    (1_787_522_400, "America/Santiago", "2026-08-23T18:00:00-04:00"),
    // India's half hour: 1 787 522 400 + 5 h 30 min = 2026-08-24T03:30:00+05:30.
    (1_787_522_400, "Asia/Kolkata", "2026-08-24T03:30:00+05:30"),
    // 29 February 2024 12:00 UTC: 1 709 208 000.
    (1_709_208_000, "UTC", "2024-02-29T12:00:00+00:00"),
  ])
  func format(seconds: Int64, zone: String, expected: String) throws {
    let timeZone = try #require(TimeZone(identifier: zone))
    #expect(RFC3339.format(seconds: seconds, timeZone: timeZone) == expected)
  }

  @Test(arguments: [
    ("2026-08-24T00:00:00+02:00", Int64(1_787_522_400)),
    ("2026-08-23T22:00:00Z", 1_787_522_400),
    ("2026-08-23t22:00:00z", 1_787_522_400),
    ("2026-08-23 22:00:00+00:00", 1_787_522_400),
    // A fraction is dropped, never rounded up into the next second.
    ("2026-08-23T22:00:00.999Z", 1_787_522_400),
    ("2026-08-23T18:00:00-04:00", 1_787_522_400),
    ("1970-01-01T00:00:00Z", 0),
  ])
  func parse(text: String, expected: Int64) {
    #expect(RFC3339.parse(text) == expected)
  }

  @Test(arguments: [
    "2026-08-24", "2026-08-24T00:00:00", "2026-02-30T00:00:00Z", "2026-08-24T24:00:00Z",
    "2026-08-24T00:00:00+2:00", "2026-08-24T00:00:00.Z", "2026-08-24T00:00:00Zjunk",
  ])
  func rejects(text: String) {
    #expect(RFC3339.parse(text) == nil)
  }
}
