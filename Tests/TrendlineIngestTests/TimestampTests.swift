import Foundation
import Testing
import TrendlineIngest

private func zone(_ id: String) -> ZoneResolver { ZoneResolver(timeZone: TimeZone(identifier: id)!) }

private func local(_ text: String) -> Int64 { TimestampParser.parse(text)!.civil.localSeconds }

@Test(arguments: [
  ("2020-12-30 18:51:52", CivilDateTime(year: 2020, month: 12, day: 30, hour: 18, minute: 51, second: 52), nil as Int?),
  // Strong on a 12-hour device: U+202F before a lower-case pm, hour not padded.
  ("2025-01-29 5:30:00\u{202F}pm", CivilDateTime(year: 2025, month: 1, day: 29, hour: 17, minute: 30), nil),
  ("2025-01-30 12:34:56\u{202F}am", CivilDateTime(year: 2025, month: 1, day: 30, hour: 0, minute: 34, second: 56), nil),
  ("2025-01-30 12:00:00 PM", CivilDateTime(year: 2025, month: 1, day: 30, hour: 12), nil),
  ("15 Sep 2025, 07:48", CivilDateTime(year: 2025, month: 9, day: 15, hour: 7, minute: 48), nil),
  ("9 sep 2025, 06:46", CivilDateTime(year: 2025, month: 9, day: 9, hour: 6, minute: 46), nil),
  ("2021-01-17 22:14:35 +0000", CivilDateTime(year: 2021, month: 1, day: 17, hour: 22, minute: 14, second: 35), 0),
  ("2016-04-02 10:40:38 +0100", CivilDateTime(year: 2016, month: 4, day: 2, hour: 10, minute: 40, second: 38), 3600),
  ("2026-08-24T18:00:00.750+02:00", CivilDateTime(year: 2026, month: 8, day: 24, hour: 18), 7200),
  ("2026-08-24T18:00:00Z", CivilDateTime(year: 2026, month: 8, day: 24, hour: 18), 0),
  ("2026-08-24T18:00:00-03:30", CivilDateTime(year: 2026, month: 8, day: 24, hour: 18), -12600),
  // Hevy on a US phone; Fitbod's 2017 app, as JavaScript writes a date.
  ("Apr 12, 2026, 2:01 PM", CivilDateTime(year: 2026, month: 4, day: 12, hour: 14, minute: 1), nil),
  (
    "Sun Jul 09 2017 10:55:21 GMT+0000 (UTC)",
    CivilDateTime(year: 2017, month: 7, day: 9, hour: 10, minute: 55, second: 21), 0
  ),
  (
    "Mon Feb 03 2025 08:00:00 GMT+0100 (Central European Standard Time)",
    CivilDateTime(year: 2025, month: 2, day: 3, hour: 8), 3600
  ),
])
func timestampShapesFromRealExports(text: String, civil: CivilDateTime, offset: Int?) {
  let parsed = TimestampParser.parse(text)
  #expect(parsed == ParsedTimestamp(civil: civil, hasTime: true, offsetSeconds: offset))
}

@Test func dateOnlyHasNoTime() {
  #expect(
    TimestampParser.parse("2025-04-29")
      == ParsedTimestamp(civil: CivilDateTime(year: 2025, month: 4, day: 29), hasTime: false))
}

@Test(arguments: [
  "2025-02-29 10:00:00",  // 2025 is not a leap year
  "2025-13-01", "2025-04-31", "2025-01-01 24:00:00", "2025-01-01 10:60", "2025-01-01 13:00 pm",
  "31 Foo 2025, 10:00", "yesterday", "", "2025-01-01 10:00:00 +25:00", "2025-01-01 10:00:00 junk",
  "Sun Jul 09 2017 10:55:21 +0000", "Sun Jul 09, 2017", "Jul 09 2017 10:55:21 GMT+0000",
])
func impossibleTimestampsAreNotRead(text: String) {
  #expect(TimestampParser.parse(text) == nil)
}

/// 2024-02-29 is day 19,782 since 1970: 54 years × 365 + 13 leap days (1972…2020) = 19,723,
/// plus 31 (January) + 28 (February 1–28) = 19,782 → 1,709,164,800 s.
@Test func leapDayIsCounted() {
  #expect(local("2024-02-29") == 1_709_164_800)
  #expect(CivilDateTime(localSeconds: 1_709_164_800) == CivilDateTime(year: 2024, month: 2, day: 29))
  #expect(CivilDateTime(localSeconds: -3600) == CivilDateTime(year: 1969, month: 12, day: 31, hour: 23))
}

/// Europe/Oslo springs forward on 2025-03-30 at 02:00 → 03:00. 02:30 does not exist: read with
/// the winter offset (+01:00) in force before the gap, it is 01:30Z, which shows as 03:30.
@Test func osloSpringForwardGapMovesForward() {
  #expect(zone("Europe/Oslo").instant(localSeconds: local("2025-03-30 02:30:00")) == 1_743_298_200)
}

/// Europe/Oslo falls back on 2025-10-26 at 03:00 → 02:00. 02:30 happens twice, at 00:30Z
/// (summer, +02:00) and 01:30Z (winter): the earlier is taken.
@Test func osloFallBackOverlapTakesTheEarlierInstant() {
  #expect(zone("Europe/Oslo").instant(localSeconds: local("2025-10-26 02:30:00")) == 1_761_438_600)
}

/// America/New_York springs forward on 2025-03-09 at 02:00 → 03:00: 02:30 read with EST
/// (−05:00) is 07:30Z. It falls back on 2025-11-02 at 02:00 → 01:00: 01:30 is first
/// 05:30Z (EDT, −04:00), then 06:30Z; the earlier is taken.
@Test func newYorkGapAndOverlap() {
  let resolver = zone("America/New_York")
  #expect(resolver.instant(localSeconds: local("2025-03-09 02:30:00")) == 1_741_505_400)
  #expect(resolver.instant(localSeconds: local("2025-11-02 01:30:00")) == 1_762_061_400)
}

/// An ordinary day uses the cached offset: Oslo in winter is +01:00, so 18:51:52 local on
/// 2020-12-30 is 17:51:52Z = 1,609,350,712.
@Test func ordinaryDayUsesTheDaysOffset() {
  let resolver = zone("Europe/Oslo")
  #expect(resolver.instant(localSeconds: local("2020-12-30 18:51:52")) == 1_609_350_712)
  #expect(resolver.instant(localSeconds: local("2020-12-30 18:51:52")) == 1_609_350_712)
}
