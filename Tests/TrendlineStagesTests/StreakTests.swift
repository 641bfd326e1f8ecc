import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct StreakTests {
  /// Weekly sessions [2, 3, 0, 2, 2, 1] in Monday weeks from 5 Jan 2026, as-of Wednesday
  /// 11 Feb, in the sixth week: the guide's example.
  func series(lastWeek: Int = 1) -> BucketedSeries {
    let perWeek = [2, 3, 0, 2, 2, lastWeek]
    var sessions: [Session] = []
    for (week, count) in perWeek.enumerated() {
      for day in 0..<count {
        let start = at("2026-01-05T18:00:00Z") + Int64(week * 7 + day) * 86_400
        sessions.append(Session(key: "\(start)", start: start, durationSeconds: 3600, name: "", sets: []))
      }
    }
    return Bucket(range: .oneMonth, granularity: .week, measures: [.sessions])
      .apply(sessions, calendar: utc, asOf: at("2026-02-11T23:59:59Z"))
  }

  @Test func theWeekUnderWayNeitherBreaksNorCounts() {
    let output = Streak(measure: .sessions, atLeast: 2).apply(series(), user: "u", chart: "s", calendar: utc)
    // 1 month back from 11 Feb is 11 Jan, in the week of 5 Jan: all six weeks.
    #expect(output.periods.map(\.met) == [true, true, false, true, true, false])
    #expect(output.complete == 5)
    #expect(output.met == 4)
    #expect(output.share == 0.8)
    #expect(
      output.current
        == .init(
          length: 2, start: date("2026-01-26T00:00:00Z"), end: date("2026-02-09T00:00:00Z"), includesPartial: false))
    // The longest is the earliest of two equal runs.
    #expect(output.longest.length == 2)
    #expect(output.longest.start == date("2026-01-05T00:00:00Z"))
  }

  @Test func aWeekUnderWayThatMetTheTargetExtendsTheStreak() {
    let output = Streak(measure: .sessions, atLeast: 2).apply(series(lastWeek: 2), user: "u", chart: "s", calendar: utc)
    #expect(output.current.length == 3)
    #expect(output.current.includesPartial)
    #expect(output.current.end == date("2026-02-16T00:00:00Z"))
    #expect(output.longest == output.current)
    #expect(output.share == 0.8)  // Still over complete weeks only.
  }

  @Test func anEmptyWeekIsAMissWithoutFillGaps() {
    // No bucket exists for the third week: Streak reads the window's periods, not the buckets.
    let input = series()
    #expect(input.buckets.count == 5)
    let output = Streak(measure: .sessions).apply(input, user: "u", chart: "s", calendar: utc)
    #expect(output.periods[2].value == 0)
    #expect(!output.periods[2].met)
  }

  @Test func aBestHasNoValueInAnEmptyPeriod() {
    let sessions = [session("2026-01-06T18:00:00Z")]
    let input = Bucket(range: .oneMonth, granularity: .week, measures: [.topSetKg])
      .apply(sessions, calendar: utc, asOf: at("2026-01-20T23:59:59Z"))
    let output = Streak(measure: .topSetKg, atLeast: 100).apply(input, user: "u", chart: "s", calendar: utc)
    // A month back from 20 Jan is 20 Dec: six weeks from 15 Dec, the session in the fourth.
    #expect(output.periods.map(\.value) == [nil, nil, nil, 100, nil, nil])
    #expect(output.periods.map(\.met) == [false, false, false, true, false, false])
  }

  @Test func noSessionsAtAllHaveNoRuns() {
    let input = Bucket(range: .all, measures: [.sessions]).apply([], calendar: utc, asOf: at("2026-01-20T23:59:59Z"))
    let output = Streak(measure: .sessions).apply(input, user: "u", chart: "s", calendar: utc)
    #expect(output.periods == [])
    #expect(output.current == .init(length: 0, start: nil, end: nil, includesPartial: false))
    #expect(output.share == nil)
  }
}
