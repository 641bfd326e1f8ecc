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
    #expect(exerciseNames(legs[0]) == ["Squat"])
    #expect(legs[0].volumeKg == 500)
    // The workout's duration is kept whole: no export records one exercise's share of it.
    #expect(legs[0].durationSeconds == 3600)
  }

  @Test func criteriaOfOneFilterAllHoldAndEntriesOfAListAnyMatch() {
    var warmup = trained("Bench Press", [2], kg: 40, reps: 10)
    warmup.set.type = .warmup
    let session = session("2026-03-06T18:00:00Z", [warmup, trained("Bench Press", [2], kg: 60, reps: 5)])
    let working = Filter(exercises: ["Bench Press", "Squat"], setTypes: [.normal]).apply([session, mixed])
    #expect(working.map { $0.sets.map(\.weightKg) } == [[60], [100, 60]])
  }

  @Test func filtersInAChainNarrowFurther() {
    let first = Filter(exercises: ["Bench Press", "Bicep Curl"]).apply([mixed, upper])
    let second = Filter(muscleGroupIds: [3]).apply(first)
    #expect(second.map(exerciseNames) == [["Bicep Curl"], ["Bicep Curl"]])
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

  /// Matches are decided once per table; sessions of one ingest share a table, and a session
  /// with another table of the same length (a cache entry's order) is decided afresh.
  @Test func eachTableIsMatchedOnItsOwn() {
    let squat = TrainedExercise(name: "Squat", muscleGroupIds: [8, 14], isUnmapped: false)
    let bench = TrainedExercise(name: "Bench Press", muscleGroupIds: [2], isUnmapped: false)
    func workout(_ start: String, _ table: [TrainedExercise], _ exercises: [Int32]) -> Session {
      Session(
        key: start, start: at(start), durationSeconds: 3600, name: "Workout", exercises: table,
        sets: exercises.map { TrainedSet(exercise: $0, type: .normal, weightKg: 50, reps: Double($0) + 1) })
    }
    let shared = [squat, bench]
    let sessions = [
      workout("2026-03-02T18:00:00Z", shared, [0, 1]), workout("2026-03-03T18:00:00Z", shared, [1, 1]),
      workout("2026-03-04T18:00:00Z", [bench, squat], [0, 1]),
    ]
    let kept = Filter(exercises: ["Bench Press"]).apply(sessions)
    #expect(kept.map(exerciseNames) == [["Bench Press"], ["Bench Press", "Bench Press"], ["Bench Press"]])
    #expect(kept.map { $0.sets.map(\.reps) } == [[2], [2, 2], [1]])
  }

  @Test func noSessionsStayNone() {
    #expect(Filter(exercises: ["Squat"]).apply([]) == [])
  }
}
