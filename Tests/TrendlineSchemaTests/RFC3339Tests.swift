import Foundation
import Testing
import TrendlineSchema

@Suite struct RFC3339Tests {
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
