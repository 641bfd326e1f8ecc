import Testing
import TrendlineStages

/// `--as-of FROM..TO --every STEP`: which dates a backfill computes, worked out on a calendar.
@Suite struct AsOfRangeTests {
  static func dates(_ text: String, _ every: String) throws -> [String] {
    try AsOfRange(reading: text, every: every).dates.map(\.text)
  }

  @Test func weeksRunFromTheFirstDateAndStopAtTheLastStepNotAfterIt() throws {
    // 6 January 2025 is a Monday; 27 January is the last Monday up to the 30th.
    #expect(
      try Self.dates("2025-01-06..2025-01-30", "week") == ["2025-01-06", "2025-01-13", "2025-01-20", "2025-01-27"])
    // TO itself when a step lands on it, across a year boundary.
    #expect(
      try Self.dates("2025-12-22..2026-01-12", "week") == ["2025-12-22", "2025-12-29", "2026-01-05", "2026-01-12"])
  }

  @Test func daysCrossALeapDay() throws {
    #expect(
      try Self.dates("2024-02-27..2024-03-01", "day") == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"])
    #expect(try Self.dates("2025-02-27..2025-03-01", "day") == ["2025-02-27", "2025-02-28", "2025-03-01"])
  }

  @Test func monthsKeepTheFirstDayOrTheMonthsLast() throws {
    // From the 31st: February has 29 days in 2024, April 30; the 31st comes back in March and May.
    #expect(
      try Self.dates("2024-01-31..2024-05-31", "month") == [
        "2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31",
      ])
    // A clamped date before TO counts: 28 February 2025 ≤ TO although the 31st is not.
    #expect(try Self.dates("2025-01-31..2025-02-28", "month") == ["2025-01-31", "2025-02-28"])
    #expect(try Self.dates("2025-11-15..2026-02-14", "month") == ["2025-11-15", "2025-12-15", "2026-01-15"])
  }

  @Test func oneDateIsOneSnapshot() throws {
    #expect(try Self.dates("2025-06-02..2025-06-02", "month") == ["2025-06-02"])
  }

  @Test func theFolderIsThePartitionName() throws {
    let range = try AsOfRange(reading: "2025-06-02..2025-06-02", every: "day")
    #expect(AsOfRange.folderName(of: range.dates[0]) == "as_of=2025-06-02")
  }

  @Test func mistakesAreNamed() throws {
    func message(_ text: String, _ every: String) -> String? {
      do {
        _ = try AsOfRange(reading: text, every: every)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(
      message("2025-06-09..2025-06-02", "day")
        == "'2025-06-09..2025-06-02' ends before it starts: give the earlier date first")
    #expect(
      message("2025-06-02..2025-06-09", "fortnight") == "'fortnight' is not a step of --every: give day, week or month")
    #expect(
      message("2025-06-02...2025-06-09", "day")?.hasPrefix("'2025-06-02...2025-06-09' is not a range of dates") == true)
    #expect(message("2025-06-02..", "day")?.hasPrefix("'' is not an as-of") == true)
    #expect(message("2025-06-02T00:00:00Z..2025-06-09", "day")?.contains("is an instant; a range takes dates") == true)
    #expect(
      message("2025-02-30..2025-03-09", "day") == "'2025-02-30' is not a date: there is no day 30 in month 2 of 2025")
    // Ten years of days is the most one run takes: 2015-01-01 to 2025-01-08 is 3,661 days.
    #expect(try Self.dates("2015-01-01..2025-01-07", "day").count == 3_660)
    #expect(message("2015-01-01..2025-01-08", "day")?.contains("more than 3660 snapshots") == true)
  }
}
