import Testing
import TrendlineSchema

/// `Session`: sets are numbers, their exercises a table the sets index.
@Suite struct SessionTests {
  static let bench = TrainedExercise(name: "Bench Press", muscleGroupIds: [1, 4], isUnmapped: false)
  static let squat = TrainedExercise(name: "Squat", muscleGroupIds: [7, 1], isUnmapped: false)
  static let hold = TrainedExercise(name: "Zercher Hold", muscleGroupIds: [], isUnmapped: true)

  static func set(_ weight: Double, _ reps: Double) -> TrainedSet {
    TrainedSet(type: .normal, weightKg: weight, reps: reps)
  }

  @Test func setsGivenWithTheirExercisesShareOneEntryPerExercise() {
    let session = Session(
      key: "k", start: 0, durationSeconds: nil, name: "Push",
      sets: [(Self.bench, Self.set(60, 8)), (Self.hold, Self.set(20, 3)), (Self.bench, Self.set(62.5, 6))])
    #expect(session.exercises == [Self.bench, Self.hold])
    #expect(session.sets.map(\.exercise) == [0, 1, 0])
    #expect(session.sets.map { session.exercise(of: $0).name } == ["Bench Press", "Zercher Hold", "Bench Press"])
  }

  /// Equality is what the sessions say, not how their tables happen to be ordered: a cache
  /// entry's table lists a user's exercises in another order than the ingest that wrote it.
  @Test func equalityComparesExercisesNotIndices() {
    let a = Session(
      key: "k", start: 0, durationSeconds: 60, name: "Push", exercises: [Self.bench, Self.squat],
      sets: [TrainedSet(exercise: 1, type: .normal, weightKg: 100, reps: 5)])
    let b = Session(
      key: "k", start: 0, durationSeconds: 60, name: "Push", exercises: [Self.squat, Self.hold, Self.bench],
      sets: [TrainedSet(exercise: 0, type: .normal, weightKg: 100, reps: 5)])
    #expect(a == b)
    let other = Session(
      key: "k", start: 0, durationSeconds: 60, name: "Push", exercises: [Self.squat, Self.bench],
      sets: [TrainedSet(exercise: 1, type: .normal, weightKg: 100, reps: 5)])
    #expect(a != other)
    var heavier = a
    heavier.sets[0].weightKg = 102.5
    #expect(a != heavier)
  }

  /// The union counts the exercises the sets use, not every exercise of a shared table.
  @Test func muscleGroupsAreThoseOfTheSetsExercises() {
    let session = Session(
      key: "k", start: 0, durationSeconds: nil, name: "", exercises: [Self.squat, Self.hold, Self.bench],
      sets: [
        TrainedSet(exercise: 2, type: .normal, weightKg: 60, reps: 8),
        TrainedSet(exercise: 1, type: .normal, weightKg: 20, reps: 3),
        TrainedSet(exercise: 2, type: .normal, weightKg: 60, reps: 8),
      ])
    #expect(session.muscleGroupIds == [1, 4])
    #expect(session.volumeKg == 1020)
    #expect(session.setCount == 3)
  }
}
