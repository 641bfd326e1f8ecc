import Foundation
import Testing
import TrendlineSchema

@testable import TrendlineIngest

// SPEC 11.3, "More apps": Liftosaur's CSV, Fitbod's older layout, assistance written as a
// negative weight, and an activity list refused for what it is. Every file is a stand-in
// written for the test, in the shape of the real exports (EXPORT-FORMATS §10.4, §10.5, §10.7).

private let oslo = ReadSettings(timeZone: TimeZone(identifier: "Europe/Oslo")!)

private func read(_ name: String, _ text: String, settings: ReadSettings = oslo) throws -> FileIngest {
  try ExportReader.read(file: name, bytes: Array(text.utf8), settings: settings)
}

private func listed(_ file: FileIngest, _ outcome: RowNote.Outcome) -> [String] {
  file.notes.filter { $0.outcome == outcome }.map { "\($0.line):\($0.column) \($0.field): \($0.reason)" }
}

private let liftosaurHeader =
  "Workout DateTime,Program,Day Name,Exercise,Is Warmup Set?,Required Reps,Completed Reps,Is AMRAP?,"
  + "Required RPE,Completed RPE,Log RPE?,Required Weight Value,Required Weight Unit,Completed Weight Value,"
  + "Completed Weight Unit,Ask Weight?,Completed Reps Time,Target Muscles,Synergist Muscles,Notes"

/// One workout of 2026-03-01 10:00Z (1,772,359,200). Line 2 is a warm-up of 45 lb
/// (45 × 0.45359237 = 20.41165665 kg); lines 3–4 two working sets of 100 kg where 105 were
/// planned (the completed weight is read, not the required one); line 5 planned and never done
/// (no completed reps): ignored; line 6 12 reps done where 10 were planned; line 7 assistance of
/// 20 kg, no load, repaired; line 8 an exercise no catalog has, named by its target muscles.
private let liftosaurFile =
  liftosaurHeader + "\n" + """
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,"Squat, Barbell",1,5,5,0,,,0,45,lb,45,lb,0,\
    2026-03-01T10:02:00.000Z,"Gluteus Maximus,Quadriceps","Adductor Magnus,Soleus",
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,"Squat, Barbell",0,3,3,0,,,0,105,kg,100,kg,0,\
    2026-03-01T10:05:00.000Z,"Gluteus Maximus,Quadriceps","Adductor Magnus,Soleus",
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,"Squat, Barbell",0,3,3,0,,,0,105,kg,100,kg,0,\
    2026-03-01T10:08:00.000Z,"Gluteus Maximus,Quadriceps","Adductor Magnus,Soleus",
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,"Squat, Barbell",0,3,,0,,,0,105,kg,105,kg,0,,\
    "Gluteus Maximus,Quadriceps","Adductor Magnus,Soleus",
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,"Lat Pulldown, Cable",0,10,12,1,,,0,50,kg,52.5,kg,0,\
    2026-03-01T10:20:00.000Z,Latissimus Dorsi,Biceps Brachii,felt good
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,"Assisted Pull Up, Leverage Machine",0,8,8,0,,,0,-20,kg,-20,kg,0,\
    2026-03-01T10:25:00.000Z,Latissimus Dorsi,,
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,Mystery Row,0,10,10,0,,,0,40,kg,40,kg,0,\
    2026-03-01T10:30:00.000Z,"Latissimus Dorsi,Trapezius Middle Fibers",,
    2026-03-01T10:00:00.000Z,GZCLP,Day 1,Odd Lift,0,10,10,0,,,0,,,,,0,2026-03-01T10:40:00.000Z,Gracilis,,
    """

@Test func liftosaurIsSniffedByItsHeader() {
  #expect(ExportFormat.sniff(Array((liftosaurHeader + "\n").utf8), fileName: "history.csv") == .liftosaurCSV)
}

@Test func liftosaurReadsWhatWasDone() throws {
  let file = try read("liftosaur.csv", liftosaurFile)
  #expect(file.format == .liftosaurCSV)
  #expect(file.rows.read == 8)
  #expect(
    file.sets.map(\.exercise) == [
      "Squat, Barbell", "Squat, Barbell", "Squat, Barbell", "Lat Pulldown, Cable",
      "Assisted Pull Up, Leverage Machine", "Mystery Row", "Odd Lift",
    ])
  #expect(file.sets.map(\.weightKg) == [20.41165665, 100, 100, 52.5, 0, 40, 0])
  #expect(file.sets.map(\.reps) == [5, 3, 3, 12, 8, 10, 10])
  #expect(file.sets.map(\.type) == [.warmup, .normal, .normal, .normal, .normal, .normal, .normal])
  // The place among the block's rows: the planned row (line 5) is the squat block's fourth.
  #expect(file.sets.map(\.setIndex) == [1, 2, 3, 1, 1, 1, 1])
  #expect(file.sets.map(\.stated.weight) == [.pounds, .kilograms, .kilograms, .kilograms, .kilograms, .kilograms, nil])
  #expect(Set(file.sets.map(\.start)) == [1_772_359_200])
  #expect(Set(file.sets.map(\.sessionName)) == ["Day 1"])
  #expect(Set(file.sets.map(\.durationSeconds)) == [nil])
  #expect(file.sets[0].muscleNames == ["Gluteus maximus", "Quadriceps"])
  #expect(file.sets[5].muscleNames == ["Latissimus dorsi", "Trapezius"])
  #expect(file.sets[6].muscleNames == ["Gracilis"])
  #expect(file.ignored == ["a planned set never done (no completed reps)": 1])
  #expect(listed(file, .ignored) == ["5:1 : a planned set never done (no completed reps)"])
  // Line 7's completed weight, `-20` after `…,0,-20,kg,`, starts at column 94.
  #expect(
    listed(file, .repaired) == [
      "7:94 Completed Weight Value: weight '-20' is negative on an assisted exercise: the assistance is not a "
        + "load, so the set counts with no load"
    ])
  #expect(file.rows.repaired == 1)
  #expect(file.rejects.isEmpty)
}

/// The catalog knows `Lat Pulldown, Cable` (its own groups win over the file's target
/// muscles); the squat, the assisted pull-up and `Mystery Row` take the groups their target
/// muscles name, found by name in this catalog's ids; `Odd Lift` names only a muscle (`Gracilis`)
/// no group is called, so it stays unmapped.
@Test func liftosaurTargetMusclesMapAnExerciseTheCatalogLacks() throws {
  let catalog = Catalog(
    muscleGroups: [
      .init(id: 3, name: "Biceps"), .init(id: 8, name: "Quadriceps"), .init(id: 9, name: "Latissimus dorsi"),
      .init(id: 14, name: "Gluteus maximus"), .init(id: 24, name: "Trapezius"),
    ],
    exercises: [.init(name: "Lat Pulldown, Cable", muscleGroupIds: [9, 3])])
  let user = Normalize.merge([try read("liftosaur.csv", liftosaurFile)], lookup: ExerciseLookup(catalog: catalog))
  #expect(user.sessions.count == 1)
  let session = try #require(user.sessions.first)
  // The warm-up is not counted (warmupSets: exclude).
  let groups = session.sets.map { session.exercise(of: $0).muscleGroupIds }
  #expect(groups == [[14, 8], [14, 8], [9, 3], [9], [9, 24], []])
  #expect(session.sets.map { session.exercise(of: $0).isUnmapped } == [false, false, false, false, false, true])
  #expect(user.unmappedExercises == ["Odd Lift": 1])
}

@Test(arguments: [
  (
    "2026-03-01T10:00:00.000Z,P,D,Squat,maybe,5,5,0,,,0,,,100,kg,0,,,,", 1, "Is Warmup Set?",
    "'maybe' is not 1 or 0 (warm-up or not)"
  ),
  (
    "2026-03-01T10:00:00.000Z,P,D,Squat,0,5,5,0,,,0,,,100,st,0,,,,", 1, "Completed Weight Unit",
    "'st' is not a weight unit (kg or lbs)"
  ),
  (
    "2026-03-01T10:00:00.000Z,P,D,Squat,0,5,5,0,,,0,,,-100,kg,0,,,,", 1, "Completed Weight Value",
    "weight '-100' is negative"
  ),
  (
    "2026-03-01T10:00:00.000Z,P,D,Squat,0,5,5000,0,,,0,,,100,kg,0,,,,", 1, "Completed Reps",
    "reps '5000' is more than 1000"
  ),
  (
    "1969-12-31T23:00:00.000Z,P,D,Squat,0,5,5,0,,,0,,,100,kg,0,,,,", 1, "Workout DateTime",
    "'1969-12-31T23:00:00.000Z' is before 1970, which no workout log holds"
  ),
])
func liftosaurRejects(row: String, count: Int, field: String, reason: String) throws {
  let file = try read("liftosaur.csv", liftosaurHeader + "\n" + row)
  #expect(file.rejects.map { "\($0.field): \($0.reason)" } == ["\(field): \(reason)"])
  #expect(file.rows.rejected == count)
  #expect(file.sets.isEmpty)
}

/// A day without a name is named by its program.
@Test func liftosaurDayWithoutANameTakesTheProgram() throws {
  let file = try read(
    "liftosaur.csv", liftosaurHeader + "\n2026-03-01T10:00:00.000Z,5/3/1,,Squat,0,5,5,0,,,0,,,100,kg,0,,,,")
  #expect(file.sets.map(\.sessionName) == ["5/3/1"])
}

/// Fitbod before 2020: dates without a time (a workout is the user's local day: 2019-02-13 in
/// Oslo starts at 2019-02-12T23:00Z = 1,550,012,400), weights in kilograms whatever the user's
/// unit (the real file's are pound entries converted: 20.41165665 kg = 45 lb), `isWarmup` empty
/// or `true` (`TRUE` in the real file). Line 4 is assistance (no load, repaired); line 5 states 3
/// sets, read as three identical sets from one row; line 6 states 0 sets (ignored); line 7's
/// negative weight is on no assisted exercise (rejected); line 8's 1.5 sets are no count
/// (rejected).
/// Fitbod's older layout writes weights in the user's unit: a pound user's `45` is 45 lb,
/// 20.41165665 kg (45 × 0.45359237).
@Test func fitbodOlderLayout() throws {
  let text = """
    Date,Exercise,Sets,Reps,Weight,isWarmup,Note
    2019-02-13,Barbell Bench Press,1,10,45,TRUE,
    2019-02-13,Barbell Bench Press,1,8,135,,
    2019-02-13,Assisted Pull Up,1,8,-50,,felt easy
    2019-02-13,Dumbbell Curl,3,12,25,,
    2019-02-13,Plank,0,0,0,,
    2019-02-14,Dip,1,10,-20,,
    2019-02-14,Row,1.5,10,100,,
    """
  #expect(ExportFormat.sniff(Array(text.utf8), fileName: "WorkoutExport.csv") == .fitbodCSV)
  var pounds = oslo
  pounds.weightUnit = .pounds
  let file = try read("WorkoutExport.csv", text, settings: pounds)
  #expect(file.format == .fitbodCSV)
  #expect(file.rows.read == 7)
  #expect(
    file.sets.map(\.exercise) == [
      "Barbell Bench Press", "Barbell Bench Press", "Assisted Pull Up", "Dumbbell Curl", "Dumbbell Curl",
      "Dumbbell Curl",
    ])
  #expect(file.sets.map(\.weightKg) == [20.41165665, 61.23496995, 0, 11.33980925, 11.33980925, 11.33980925])
  #expect(file.sets.map(\.reps) == [10, 8, 8, 12, 12, 12])
  #expect(file.sets.map(\.type) == [.warmup, .normal, .normal, .normal, .normal, .normal])
  #expect(file.sets.map(\.sharesRowWithPrevious) == [false, false, false, false, true, true])
  #expect(file.sets.map(\.line) == [2, 3, 4, 5, 5, 5])
  #expect(Set(file.sets.map(\.start)) == [1_550_012_400])
  #expect(Set(file.sets.map(\.stated.weight)) == [nil])
  #expect(file.rows.accepted == 4)
  #expect(file.ignored == ["Fitbod row of 0 sets": 1])
  #expect(
    listed(file, .repaired) == [
      "4:33 Weight: weight '-50' is negative on an assisted exercise: the assistance is not a load, "
        + "so the set counts with no load"
    ])
  #expect(
    file.rejects.map { "\($0.line):\($0.column) \($0.field): \($0.reason)" } == [
      "7:21 Weight: weight '-20' is negative",
      "8:16 Sets: '1.5' is not a number of sets (a whole number from 0 to 100)",
    ])
}

/// A negative weight is assistance on an exercise whose name holds `assist` in any case, in
/// every format; on any other exercise it is rejected as before, and assistance past 1500 kg
/// is as impossible as such a load.
@Test func assistanceInHevyIsNoLoad() throws {
  let file = try read(
    "workout_data.csv",
    """
    "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index",\
    "set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
    "Pull","1 Mar 2026, 10:00","1 Mar 2026, 11:00","","Pull Up (Assisted)",,"",0,"normal",-22.5,8,,,
    "Pull","1 Mar 2026, 10:00","1 Mar 2026, 11:00","","Pull Up (Assisted)",,"",1,"normal",-22.5,8,,,
    "Pull","1 Mar 2026, 10:00","1 Mar 2026, 11:00","","Bench Press (Barbell)",,"",0,"normal",-10,8,,,
    "Pull","1 Mar 2026, 10:00","1 Mar 2026, 11:00","","ASSISTED DIP MACHINE",,"",0,"normal",-2000,8,,,
    """)
  #expect(file.sets.map(\.weightKg) == [0, 0])
  #expect(file.sets.map(\.reps) == [8, 8])
  #expect(file.rows.repaired == 2)
  #expect(
    listed(file, .repaired).map { String($0.prefix(24)) } == ["2:87 weight_kg: weight '", "3:87 weight_kg: weight '"])
  #expect(
    file.rejects.map { "\($0.line) \($0.field): \($0.reason)" } == [
      "4 weight_kg: weight '-10' is negative", "5 weight_kg: weight '-2000' is more than 1500 kg",
    ])
}

/// The stems of the apps' languages: Spanish, Turkish, Italian, Portuguese, German.
@Test(arguments: [
  ("Dominadas asistidas", true), ("Barfiks (Yardımlı)", true), ("Trazioni assistite", true),
  ("Barra Fixa Assistida", true), ("Klimmzug (unterstützt)", true), ("Assisted Pull-Up", true),
  ("Pull Up", false), ("Barfiks (Ağırlıklı)", false), ("Sit", false),
])
func assistedExercisesInTheAppsLanguages(name: String, assisted: Bool) {
  #expect(AssistedExercise.contains(name) == assisted)
}

@Test func assistanceInNativeJSONAndNDJSONIsNoLoad() throws {
  let native = try read(
    "export.json",
    """
    {"sessions": [{"id": "a", "start": "2026-03-01T10:00:00Z", "sets": [
      {"exercise": "Assisted Dip", "weight": -15, "reps": 10},
      {"exercise": "Dip", "weight": -15, "reps": 10}]}]}
    """)
  #expect(native.sets.map(\.weightKg) == [0])
  // The repaired set is placed at its weight: line 2, column 42.
  #expect(native.sets.map(\.line) == [2])
  #expect(
    listed(native, .repaired) == [
      "2:42 weight: weight '-15' is negative on an assisted exercise: the assistance is not a load, "
        + "so the set counts with no load"
    ])
  #expect(native.rejects.map { "\($0.line) \($0.field): \($0.reason)" } == ["3 weight: weight is negative"])

  let ndjson = try read(
    "sets.ndjson",
    """
    {"session": "a", "start": "2026-03-01T10:00:00Z", "exercise": "assisted pull-up", "weight": -20, "reps": 5}
    {"session": "a", "start": "2026-03-01T10:00:00Z", "exercise": "Pull-Up", "weight": -20, "reps": 5}
    """)
  #expect(ndjson.sets.map(\.weightKg) == [0])
  #expect(listed(ndjson, .repaired).map { String($0.prefix(30)) } == ["1:1 weight: weight '-20' is ne"])
  #expect(ndjson.rejects.map { "\($0.line) \($0.field): \($0.reason)" } == ["2 weight: weight is negative"])
}

/// Garmin Connect's activity list, in both of its English layouts and in a translated header
/// (recognised by its structure: 20 columns, a date and time second, a clock time seventh), is
/// refused saying what it is.
@Test(arguments: [
  "Aktivitätstyp,Datum,Favorit,Titel,Distanz,Kalorien,Zeit,Ø Herzfrequenz,Maximale Herzfrequenz,Anstieg gesamt,"
    + "Abstieg gesamt,Schritte,Runden,Bewegungszeit,Verstrichene Zeit,Min. Höhe,Max. Höhe,Min. Temp.,Max. Temp.,"
    + "Dekompression\r\nKrafttraining,2026-03-01 10:00:00,false,\"Studio\",\"0,00\",\"312\",\"00:55:10.5\",\"101\","
    + "\"130\",--,--,--,3,00:50:00,00:55:10,--,--,21.0,24.0,Nein",
  #""Activity Type","Date","Favorite","Title","Distance","Calories","Time","Avg HR""#
    + "\n" + #""Strength Training","2026-03-01 10:00:00","false","Gym","0.00","312","00:55:10","101""#,
  #""Start Time","End Time","Activity ID","Activity Name","Description","Location Name","Activity Type""#
    + "\n" + #""2026-03-01 10:00:00","2026-03-01 10:55:10","1234","Gym","","Oslo","strength_training""#,
])
func garminActivityListIsRefused(text: String) {
  #expect(throws: ExportError.self) { try read("Activities.csv", text) }
  do {
    _ = try ExportReader.read(file: "Activities.csv", bytes: Array(text.utf8), settings: oslo)
  } catch {
    #expect(
      error.description
        == "Activities.csv:1:1: error: this is Garmin Connect's activity list (Activities.csv): one row per "
        + "activity with its time, distance and calories, and no sets, so Trendline cannot read workouts from it; "
        + "export your log from the app you record sets in (Strong, Hevy, FitNotes, Fitbod, Liftosaur, StrongLifts, "
        + "GymBook) and read that file instead")
  }
}
