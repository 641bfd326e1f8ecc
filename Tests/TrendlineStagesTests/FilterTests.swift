import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct FilterTests {
  // Squat trains quadriceps (8) and glutes (14); bench press chest (2); curls biceps (3).
  let mixed = session(
    "2026-03-02T18:00:00Z",
    [
      trained("Squat", [8, 14], kg: 100, reps: 5), trained("Bench Press", [2], kg: 60, reps: 8),
      trained("Bicep Curl", [3], kg: 12, reps: 10),
    ])
  let upper = session(
    "2026-03-04T18:00:00Z",
    [trained("Bench Press", [2], kg: 62.5, reps: 5), trained("Bicep Curl", [3], kg: 12, reps: 10)])

  @Test func muscleGroupsKeepTheMatchingSetsAndDropEmptiedSessions() {
    let legs = Filter(muscleGroupIds: [8, 10, 14, 22]).apply([mixed, upper])
    #expect(legs.count == 1)
    #expect(legs[0].sets.map(\.exercise) == ["Squat"])
    #expect(legs[0].volumeKg == 500)
    // The workout's duration is kept whole: no export records one exercise's share of it.
    #expect(legs[0].durationSeconds == 3600)
  }

  @Test func criteriaOfOneFilterAllHoldAndEntriesOfAListAnyMatch() {
    var warmup = trained("Bench Press", [2], kg: 40, reps: 10)
    warmup.type = .warmup
    let session = session("2026-03-06T18:00:00Z", [warmup, trained("Bench Press", [2], kg: 60, reps: 5)])
    let working = Filter(exercises: ["Bench Press", "Squat"], setTypes: [.normal]).apply([session, mixed])
    #expect(working.map { $0.sets.map(\.weightKg) } == [[60], [100, 60]])
  }

  @Test func filtersInAChainNarrowFurther() {
    let first = Filter(exercises: ["Bench Press", "Bicep Curl"]).apply([mixed, upper])
    let second = Filter(muscleGroupIds: [3]).apply(first)
    #expect(second.map { $0.sets.map(\.exercise) } == [["Bicep Curl"], ["Bicep Curl"]])
  }

  @Test(arguments: [
    ("Leg Day", ["leg day"], true), ("Leg Day", ["Leg*"], true), ("Legs & Core", ["leg*"], true),
    ("Push A", ["Push ?"], true), ("Push AB", ["Push ?"], false), ("Upper Leg", ["Leg*"], false),
    ("Pull", ["*ul*"], true), ("", ["*"], true), ("Push", ["Pull", "Push"], true), ("Push", ["Pus"], false),
  ])
  func workoutNamesMatchExactlyOrByGlobInAnyCase(name: String, patterns: [String], kept: Bool) {
    var workout = session("2026-03-02T18:00:00Z")
    workout.name = name
    #expect(Filter(workouts: patterns).apply([workout]).count == (kept ? 1 : 0))
  }

  @Test func noSessionsStayNone() {
    #expect(Filter(exercises: ["Squat"]).apply([]) == [])
  }
}
