import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// A file's sets are kept as records with tables of sessions and kinds (`FileSets`); what a
/// reader appended must come back field for field, whatever the tables share.
private let utc = ReadSettings(timeZone: TimeZone(identifier: "UTC")!)

private func read(_ name: String, _ text: String) throws -> FileIngest {
  try ExportReader.read(file: name, bytes: Array(text.utf8), settings: utc)
}

/// Two workouts whose rows interleave, a warm-up between numbered sets, pounds stated per
/// row, and a duration dropped as impossible: each set as Strong wrote it.
@Test func setsComeBackAsTheReaderGaveThem() throws {
  let file = try read(
    "strong.csv",
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Weight Unit,Reps,Distance,Seconds
    2025-01-06 10:00:00,Legs,1h 5m,Squat (Barbell),W,20,kg,10,,
    2025-01-06 10:00:00,Legs,1h 5m,Squat (Barbell),1,100,kg,5,,
    2025-01-07 18:30:00,Upper Body Strength Day,42h 13m,Bench Press (Barbell),1,135,lbs,8,,
    2025-01-06 10:00:00,Legs,1h 5m,Squat (Barbell),2,100,kg,5,,
    2025-01-07 18:30:00,Upper Body Strength Day,42h 13m,Bench Press (Barbell),2,135,lbs,8,,

    """)
  #expect(file.rows.read == 5 && file.rows.accepted == 5 && file.rows.valueDropped == 2)
  #expect(file.sets.count == 5)

  let legs = ("1736157600|Legs", "Legs", Int64(1_736_157_600), Int64?(3900))
  let upper = ("1736274600|Upper Body Strength Day", "Upper Body Strength Day", Int64(1_736_274_600), Int64?.none)
  let sessions = [legs, legs, upper, legs, upper]
  #expect(file.sets.map(\.sessionKey) == sessions.map(\.0))
  #expect(file.sets.map(\.sessionName) == sessions.map(\.1))
  #expect(file.sets.map(\.start) == sessions.map(\.2))
  #expect(file.sets.map(\.durationSeconds) == sessions.map(\.3))
  #expect(file.sets.map(\.line) == [2, 3, 4, 5, 6])
  #expect(file.sets.map(\.setIndex) == [nil, 1, 1, 2, 2])
  #expect(file.sets.map(\.type) == [.warmup, .normal, .normal, .normal, .normal])
  #expect(
    file.sets.map(\.exercise) == [
      "Squat (Barbell)", "Squat (Barbell)", "Bench Press (Barbell)",
      "Squat (Barbell)", "Bench Press (Barbell)",
    ])
  #expect(file.sets.map(\.weightKg) == [20, 100, 135 * 0.45359237, 100, 135 * 0.45359237])
  #expect(file.sets.map(\.reps) == [10, 5, 8, 5, 8])
  #expect(file.sets.map(\.stated.weight) == [.kilograms, .kilograms, .pounds, .kilograms, .pounds])
  // The dropped duration's note is on each of its sets' own lines.
  #expect(file.sets.map(\.droppedValueLine) == [0, 0, 4, 0, 6])
  #expect(file.sets.allSatisfy { !$0.sharesRowWithPrevious && $0.muscleGroupIds == nil })
}

/// The interleaved rows of one workout are one session after the merge, in the file's order.
@Test func interleavedRowsOfAWorkoutMergeIntoOneSession() throws {
  let file = try read(
    "strong.csv",
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds
    2025-01-06 10:00:00,Legs,1h 5m,Squat (Barbell),1,100,5,,
    2025-01-07 18:30:00,Push,50m,Bench Press (Barbell),1,60,8,,
    2025-01-06 10:00:00,Legs,1h 5m,Squat (Barbell),2,105,5,,

    """)
  let user = Normalize.merge([file], lookup: ExerciseLookup(catalog: Catalog.builtIn))
  #expect(user.sessions.map(\.name) == ["Legs", "Push"])
  #expect(user.sessions.map { $0.sets.map(\.weightKg) } == [[100, 105], [60]])
  #expect(user.sessions.map(\.durationSeconds) == [3900, 3000])
}

/// A StrongLifts row is a whole workout: its second and later sets share the row.
@Test func setsOfOneRowSayTheyShareIt() throws {
  let file = try read(
    "stronglifts.csv",
    """
    Date,Note,Body Weight (KG),Body Weight (LB),Exercise 1,Weight (KG),Weight (LB),Set 1,Set 2,Set 3,Set 4,Set 5
    19/11/18,,91,,Squat,40,,5,5,3,,

    """)
  #expect(file.sets.map(\.reps) == [5, 5, 3])
  #expect(file.sets.map(\.sharesRowWithPrevious) == [false, true, true])
  #expect(file.sets.map(\.setIndex) == [1, 2, 3])
}

/// Muscle groups a native export states come back with their sets, and a change of them
/// alone is a set of another kind.
@Test func statedMuscleGroupsComeBackWithTheirSets() throws {
  let file = try read(
    "native.json",
    #"""
    {"sessions": [{"start": "2025-01-06T10:00:00Z", "name": "Legs", "sets": [
      {"exercise": "Squat", "weight": 100, "reps": 5, "muscleGroupIds": [1, 2], "index": 1},
      {"exercise": "Squat", "weight": 100, "reps": 5, "muscleGroupIds": [1], "index": 2},
      {"exercise": "Squat", "weight": 100, "reps": 5, "index": 3}]}]}
    """#)
  #expect(file.sets.map(\.muscleGroupIds) == [[1, 2], [1], nil])
  #expect(file.sets.map(\.setIndex) == [1, 2, 3])
}

/// The bound the 2× memory target of a huge export rests on (Benchmarks/README.md, "A very
/// large export"): a kept set is 48 bytes.
@Test func aKeptSetIs48Bytes() {
  #expect(FileSets.bytesPerSet == 48)
}

/// A workout written twice over loses its copy; the notes of the sets kept, and of the sets
/// after the copy, stay with their own lines.
@Test func droppedValueLinesFollowTheSetsKeptAfterARepeat() throws {
  let row = { (exercise: String, order: Int) in
    "2025-01-06 10:00:00,Legs,42h 13m,\(exercise),\(order),100,5,,"
  }
  let workout = [row("Squat (Barbell)", 1), row("Squat (Barbell)", 2), row("Lunge", 1), row("Lunge", 2)]
  let file = try read(
    "strong.csv",
    (["Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds"] + workout + workout
      + ["2025-01-08 10:00:00,Arms,42h 13m,Curl,1,20,10,,", ""]).joined(separator: "\n"))
  #expect(file.rows.duplicate == 4 && file.rows.valueDropped == 5)
  #expect(file.sets.map(\.line) == [2, 3, 4, 5, 10])
  #expect(file.sets.map(\.droppedValueLine) == [2, 3, 4, 5, 10])
}

/// A workout's length is read once per run of rows that repeat it, and a reader refills one
/// set per row: each row of a workout left running keeps its own note, a rejected row leaves
/// nothing behind, and the next workout's length is its own.
@Test func aRepeatedLengthIsReadOnceAndDroppedOnEveryRow() throws {
  let file = try read(
    "strong.csv",
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds
    2025-01-06 10:00:00,Legs,42h 13m,Squat (Barbell),1,100,5,,
    2025-01-06 10:00:00,Legs,42h 13m,Squat (Barbell),2,100,5,,
    2025-01-08 10:00:00,Legs,soon,Squat (Barbell),1,100,5,,
    2025-01-08 10:00:00,Legs,1h 5m,Squat (Barbell),1,100,5,,
    2025-01-10 10:00:00,Legs,42h 13m,Squat (Barbell),1,100,5,,

    """)
  #expect(file.rows.read == 5 && file.rows.rejected == 1 && file.rows.valueDropped == 3)
  #expect(file.sets.map(\.durationSeconds) == [nil, nil, 3900, nil])
  #expect(file.sets.map(\.droppedValueLine) == [2, 3, 0, 6])
  #expect(file.sets.map(\.start) == [1_736_157_600, 1_736_157_600, 1_736_330_400, 1_736_503_200])
  #expect(file.notes.filter { $0.outcome == .valueDropped }.map(\.line) == [2, 3, 6])
  #expect(file.notes.filter { $0.outcome == .rejected }.map(\.line) == [4])
}
