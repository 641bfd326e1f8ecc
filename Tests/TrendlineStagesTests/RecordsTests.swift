import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct RecordsTests {
  func bench(_ day: String, _ sets: [(Double, Double)]) -> Session {
    session("2026-09-\(day)T18:00:00Z", sets.map { trained("Bench Press", [2], kg: $0.0, reps: $0.1) })
  }

  /// The guide's table: a baseline, then three records in one session, then none.
  var history: [Session] {
    [bench("01", [(60, 5), (60, 5)]), bench("08", [(62.5, 5), (60, 6)]), bench("15", [(62.5, 4)])]
  }

  @Test func theFirstSessionIsABaselineAndEachKindCountsOncePerSession() {
    let book = RecordBook(history, through: at("2026-09-30T23:59:59Z"))
    #expect(book.newRecords == [0, 3, 0])
    let records = book.exercises["Bench Press"]!.records
    #expect(records.map(\.kind) == [.topSetKg, .e1rmKg, .repsAtWeight])
    #expect(records.map(\.previous) == [60, 70, 5])
    // 62.5 × (1 + 5/30) = 72.916…
    #expect(records[1].mark.value == 62.5 * (1 + 5.0 / 30))
  }

  @Test func risingSetsInOneSessionAreOneRecord() {
    let book = RecordBook(
      [bench("01", [(60, 5)]), bench("08", [(62.5, 5), (65, 5), (67.5, 5)])], through: at("2026-09-30T23:59:59Z"))
    #expect(book.newRecords == [0, 2])  // top set and e1RM, once each; no weight repeated
    #expect(book.exercises["Bench Press"]!.topSet?.value == 67.5)
  }

  @Test func sessionsAfterAsOfAreNotRead() {
    let book = RecordBook(history, through: at("2026-09-07T23:59:59Z"))
    #expect(book.newRecords == [0, 0, 0])
    #expect(book.exercises["Bench Press"]!.topSet?.value == 60)
  }

  @Test func bodyweightSetsHaveNoBestsAndNoRecords() {
    let pullUps = [5.0, 8].enumerated().map { index, reps in
      session("2026-09-0\(index + 1)T18:00:00Z", [trained("Pull Up", [9], kg: 0, reps: reps)])
    }
    let output = Records().apply(pullUps, calendar: utc, asOf: at("2026-09-30T23:59:59Z"), user: "u", chart: "r")
    #expect(output.exercises.count == 1)
    #expect(output.exercises[0].topSetKg == nil)
    #expect(output.exercises[0].e1rmKg == nil)
    #expect(output.exercises[0].records == [])
  }

  @Test func theChartListsBestsHeaviestWeightFirstAndRecordsOldestFirst() {
    let output = Records().apply(history, calendar: utc, asOf: at("2026-09-30T23:59:59Z"), user: "u", chart: "r")
    let bench = output.exercises[0]
    #expect(bench.topSetKg == .init(value: 62.5, weightKg: 62.5, reps: 5, at: date("2026-09-08T18:00:00Z")))
    #expect(bench.repsAtWeight.map(\.weightKg) == [62.5, 60])
    #expect(bench.repsAtWeight.map(\.value) == [5, 6])
    #expect(bench.records.map(\.at) == Array(repeating: date("2026-09-08T18:00:00Z"), count: 3))
  }

  @Test func theRecordsMeasureCountsThemPerBucket() {
    let series = Bucket(range: .oneMonth, granularity: .week, measures: [.records])
      .apply(history, calendar: utc, asOf: at("2026-09-16T23:59:59Z"))
    #expect(series.buckets.map { $0.values[.records] } == [0, 3, 0])
  }
}
