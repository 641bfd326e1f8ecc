import Testing
import TrendlineIngest
import TrendlineSchema

/// `UserIngestValidator` on what a set's exercise may be: sessions are public and mutable, so
/// an index outside the table, or an exercise unmapped yet with muscle groups, is a problem
/// named here rather than a trap in a stage.
@Suite struct UserIngestValidatorTests {
  static let squat = TrainedExercise(name: "Squat", muscleGroupIds: [8, 14], isUnmapped: false)

  static func ingest(_ change: (inout Session) -> Void) -> UserIngest {
    var session = Session(
      key: "2025-11-03 18:00:00|Legs", start: 1_762_192_800, durationSeconds: 3600, name: "Legs",
      exercises: [squat], sets: [TrainedSet(exercise: 0, type: .normal, weightKg: 100, reps: 5)])
    change(&session)
    return UserIngest(sessions: [session])
  }

  @Test func aWholeSessionKeepsTheGuarantees() {
    #expect(UserIngestValidator.problem(in: Self.ingest { _ in }, limits: ReadLimits()) == nil)
  }

  @Test func aSetOutsideTheTableIsNamed() {
    let ingest = Self.ingest { $0.sets.append(TrainedSet(exercise: 1, type: .normal, weightKg: 60, reps: 5)) }
    #expect(
      UserIngestValidator.problem(in: ingest, limits: ReadLimits())
        == "a set of session '2025-11-03 18:00:00|Legs' names exercise 1 of 1")
  }

  @Test func anUnmappedExerciseWithMuscleGroupsIsNamed() {
    let ingest = Self.ingest { $0.exercises[0].isUnmapped = true }
    #expect(
      UserIngestValidator.problem(in: ingest, limits: ReadLimits())
        == "exercise 'Squat' is unmapped but has muscle groups")
  }
}
