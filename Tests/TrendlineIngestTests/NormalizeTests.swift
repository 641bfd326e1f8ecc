import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

private let oslo = ReadSettings(timeZone: TimeZone(identifier: "Europe/Oslo")!)

private func read(_ name: String, _ text: String, settings: ReadSettings = oslo) throws -> FileIngest {
  try ExportReader.read(file: name, bytes: Array(text.utf8), settings: settings)
}

private let catalog = Catalog(
  muscleGroups: [
    .init(id: 9, name: "Latissimus dorsi"), .init(id: 12, name: "Lower back"),
    .init(id: 24, name: "Trapezius"), .init(id: 2, name: "Chest"),
  ],
  exercises: [
    .init(name: "Bent Over Row (Barbell)", aliases: ["Barbell Row"], muscleGroupIds: [9, 13]),
    .init(name: "Shrug (Barbell)", muscleGroupIds: [24]),
    .init(name: "Rücken Strecken", aliases: [], muscleGroupIds: [12]),
  ])

/// The same workout exported twice (EXPORT-FORMATS §1.1: Strong renumbers sets between
/// exports). The October file's latest session (2024-12-01) is newer than the September
/// file's (2024-11-28), so the shared workout of 2024-11-28 17:36:08 is taken whole from the
/// October file: its three rows are accepted and the September file's three rows of it are
/// duplicates, although their set numbers differ (16, 17, 13 reps as sets 1–3 there; 13, 16,
/// 17 here). Nothing is counted twice: 3 + 1 sets, in two sessions.
@Test func overlappingExportsTakeASessionOnceFromTheNewerExport() throws {
  let september = try read(
    "strong-2025-09.csv",
    """
    "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";\
    "Distance (meters)";"Seconds";"Notes";"Workout Notes"
    "1";"2024-11-28 17:36:08";"B";"2134";"Bent Over Row (Barbell)";"1";"10.0";"16";"";"";"";"";""
    "1";"2024-11-28 17:36:08";"B";"2134";"Bent Over Row (Barbell)";"2";"10.0";"17";"";"";"";"";""
    "1";"2024-11-28 17:36:08";"B";"2134";"Bent Over Row (Barbell)";"3";"10.0";"13";"";"";"";"";""
    """)
  let october = try read(
    "strong-2025-10.csv",
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
    2024-11-28 17:36:08,"B",35m,"Bent Over Row (Barbell)",1,10.0,13.0,0,0.0,
    2024-11-28 17:36:08,"B",35m,"Bent Over Row (Barbell)",2,10.0,16.0,0,0.0,
    2024-11-28 17:36:08,"B",35m,"Bent Over Row (Barbell)",3,10.0,17.0,0,0.0,
    2024-12-01 10:00:00,"C",40m,"Shrug (Barbell)",1,60.0,10.0,0,0.0,
    """)
  let user = Normalize.merge([september, october], lookup: ExerciseLookup(catalog: catalog))
  #expect(user.sessions.count == 2)
  #expect(user.sessions[0].sets.map(\.reps) == [13, 16, 17])  // from October, in its order
  #expect(user.sessions[0].durationSeconds == 2100)  // October's `35m`, not September's 2134 s
  #expect(user.files.map(\.rows.accepted) == [0, 4])
  #expect(user.files.map(\.rows.duplicate) == [3, 0])
  #expect(user.files.allSatisfy { $0.rows.balances })
}

/// With equal latest sessions the file whose name sorts last wins (SPEC 9.3).
@Test func tieBetweenExportsGoesToTheNameThatSortsLast() throws {
  let text = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
    2024-11-28 17:36:08,"B",35m,"Shrug (Barbell)",1,10.0,13.0,0,0.0,
    """
  let a = try read("a.csv", text)
  let b = try read("b.csv", text.replacingOccurrences(of: "13.0", with: "14.0"))
  let user = Normalize.merge([b, a], lookup: ExerciseLookup(catalog: catalog))
  #expect(user.sessions.map { $0.sets.map(\.reps) } == [[14]])
  #expect(user.files.map(\.rows.duplicate) == [0, 1])
}

/// `Rücken Strecken` typed as NFC (ü = U+00FC) and as NFD (u + U+0308) is one exercise, and
/// `BARBELL ROW` finds the catalog's `Bent Over Row (Barbell)` through its alias.
@Test func nfcAndNfdSpellingsAndCaseVariantsAreOneExercise() throws {
  let nfc = "R\u{00FC}cken Strecken"
  let nfd = "Ru\u{0308}cken Strecken"
  #expect(Array(nfc.utf8) != Array(nfd.utf8))
  let file = try read(
    "fitnotes.csv",
    """
    Date,Exercise,Category,Weight (kgs),Reps,Distance,Distance Unit,Time
    2025-04-29,\(nfc),Back,20.0,10,,,
    2025-04-29,\(nfd),Back,20.0,10,,,
    2025-04-29,BARBELL ROW,Back,40.0,8,,,
    """)
  let user = Normalize.merge([file], lookup: ExerciseLookup(catalog: catalog))
  let session = user.sessions[0]
  let names = session.sets.map { session.exercise(of: $0).name }
  // One exercise for the NFC and NFD spellings, another for the catalog's alias.
  #expect(session.sets.map(\.exercise) == [0, 0, 1])
  #expect(names == [nfc, nfc, "Bent Over Row (Barbell)"])
  #expect(Array(names[1].utf8) == Array(nfc.utf8))
  #expect(user.sessions[0].muscleGroupIds == [9, 12, 13])
}

/// FitNotes writes names with commas unquoted. `Overhead Press (Each Side, Dumbbells)` splits
/// into one extra field; everything after it then reads as the header says, so the row is
/// repaired. A row with an extra field that cannot be the name's (the weight is then `kgs`)
/// is rejected.
@Test func fitNotesUnquotedCommaIsRepairedOnlyWhenUnambiguous() throws {
  let file = try read(
    "fitnotes.csv",
    """
    Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time
    2025-04-29,Overhead Press (Each Side, Dumbbells),Shoulders,8.0,kgs,5,,,
    2025-04-29,Curl,Biceps,8.0,kgs,5,,,,extra
    """)
  #expect(file.rows.repaired == 1)
  #expect(file.sets.map(\.exercise) == ["Overhead Press (Each Side, Dumbbells)"])
  #expect(file.sets[0].weightKg == 8)
  #expect(file.rejects.map(\.line) == [3])
  #expect(file.rejects[0].reason == "expected 9 fields as in the header, found 10")
}

/// A FitNotes workout is a day: its sessions start at local midnight. 2025-04-29 00:00 in
/// Oslo (+02:00 in summer) is 2025-04-28T22:00:00Z = 1,745,877,600. Three identical sets of
/// 5 × 100 kg stay three sets: FitNotes has no set numbers, so none is a duplicate (SPEC 9.3).
@Test func fitNotesDaysAndIdenticalSets() throws {
  let file = try read(
    "fitnotes.csv",
    """
    Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time
    2025-04-29,Squat,Legs,100.0,5,,,
    2025-04-29,Squat,Legs,100.0,5,,,
    2025-04-29,Squat,Legs,100.0,5,,,
    """)
  #expect(file.sets.count == 3)
  #expect(file.sets[0].start == 1_745_877_600)
  #expect(file.sets[0].weightKg == 45.359237)  // 100 lb
}

/// Within one file a row that repeats a set index with the same values is a duplicate; the
/// same index with other values is another block of the exercise and stays (SPEC 9.3).
@Test func repeatedSetIndexWithinAFile() throws {
  let file = try read(
    "hevy.csv",
    """
    "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index",\
    "set_type","weight_lbs","reps","distance_miles","duration_seconds","rpe"
    "Pull","15 Sep 2025, 07:48","15 Sep 2025, 09:13","","Shrug (Barbell)",,"",0,"normal",100,10,,,
    "Pull","15 Sep 2025, 07:48","15 Sep 2025, 09:13","","Shrug (Barbell)",,"",0,"normal",100,10,,,
    "Pull","15 Sep 2025, 07:48","15 Sep 2025, 09:13","","Shrug (Barbell)",,"",0,"normal",120,8,,,
    """)
  #expect(file.rows.duplicate == 1)
  #expect(file.sets.map(\.reps) == [10, 8])
  #expect(file.sets[0].weightKg == 45.359237)  // the header's pounds
}

/// Strong's `Set Order` vocabulary: W, D, F are set types; `Note` and `Rest Timer` rows are not
/// sets. Warm-ups are read but not counted unless `warmupSets: include`.
@Test func strongSetOrderAndPseudoRows() throws {
  let text = """
    "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";\
    "Distance (meters)";"Seconds";"Notes";"Workout Notes"
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"W";"40.0";"15";"";"";"";"";""
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"1";"60.0";"10";"";"";"";"";""
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"D";"50.0";"10";"";"";"";"";""
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"F";"50.0";"6";"";"";"";"";""
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"Note";"";"";"";"";"";"Beine einzeln";""
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"Rest Timer";"";"";"";"";"100.0";"";""
    "1";"2020-05-28 12:58:47";"Day 3";"4195";"Shrug (Barbell)";"X";"50.0";"6";"";"";"";"";""
    """
  let file = try read("strong.csv", text)
  #expect(file.sets.map(\.type) == [.warmup, .normal, .dropset, .failure])
  #expect(file.ignored == ["Strong note row": 1, "Strong rest timer row": 1])
  #expect(
    file.rejects.map { "\($0.line):\($0.column) \($0.field): \($0.reason)" } == [
      "8:60 Set Order: 'X' is not a set number, W, D, F (or WARM_UP, DROP_SET, FAILURE), Note or Rest Timer (Ruhezeit)"
    ])
  let lookup = ExerciseLookup(catalog: catalog)
  // Volume without the warm-up: 60×10 + 50×10 + 50×6 = 1,400; with it, + 40×15 = 2,000.
  #expect(Normalize.merge([file], lookup: lookup).sessions[0].volumeKg == 1400)
  #expect(Normalize.merge([file], lookup: lookup, warmupSets: .include).sessions[0].volumeKg == 2000)
  #expect(Normalize.merge([file], lookup: lookup).sessions[0].setCount == 3)
}

/// Bad values are rejected with the column's name and a reason, never guessed at (SPEC 3);
/// an empty weight is a body-weight set of 0 kg (SPEC 9.5).
@Test func impossibleValuesAreRejected() throws {
  let file = try read(
    "strong.csv",
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2024-01-05 10:00:00,"A",1h,"Pull Up",1,,8,0,0,,,
    2024-01-05 10:00:00,"A",1h,"Squat",1,-20,5,0,0,,,
    2024-01-05 10:00:00,"A",1h,"Squat",2,100,5000,0,0,,,
    2024-01-05 10:00:00,"A",1h,"Squat",3,100,abc,0,0,,,
    1969-05-01 10:00:00,"A",1h,"Squat",1,100,5,0,0,,,
    2024-01-05 10:00:00,"A",-5m,"Squat",4,100,5,0,0,,,
    2024-01-05 10:00:00,"A",1h,"Squat",5,1600,1,0,0,,,
    2024-02-30 10:00:00,"A",1h,"Squat",1,100,5,0,0,,,
    """)
  #expect(file.sets.map(\.weightKg) == [0])
  #expect(
    file.rejects.map { "\($0.line) \($0.field): \($0.reason)" } == [
      "3 Weight: weight '-20' is negative",
      "4 Reps: reps '5000' is more than 1000",
      "5 Reps: 'abc' is not a number",
      "6 Date: '1969-05-01 10:00:00' is before 1970, which no workout log holds",
      "7 Duration: '-5m' is not a duration (like 1h 5m, 45m, 01:05:00 or seconds)",
      "8 Weight: weight '1600' is more than 1500 kg",
      "9 Date: '2024-02-30 10:00:00' is not a date and time",
    ])
  #expect(file.rows.read == 8)
}

/// Fitbod: offsets as written, newest first, blank lines between rows (ignored, counted),
/// the leading space in Reps, `isWarmup`.
@Test func fitbodRows() throws {
  let file = try read(
    "WorkoutExport.csv",
    """
    Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
    2022-01-05 22:06:49 +0000,Dumbbell Front Raise, 5,7.937875915123695,0.0,0.0,0.0,0.0,false,, 2.0

    2021-10-30 14:48:56 +0000,V-Bar Pulldown, 8,27.215574566138386,0.0,0.0,0.0,0.0,true,, 1.0
    """)
  #expect(file.sets.map(\.reps) == [5, 8])
  #expect(file.sets.map(\.type) == [.normal, .warmup])
  #expect(file.sets[0].start == 1_641_420_409)  // 2022-01-05T22:06:49Z, the offset wins over Oslo
  #expect(file.ignored == ["blank line": 1])
  #expect(file.rows.read == 3)
}

/// Native JSON: the file's own unit and zone win; a local start is read in that zone. The
/// session starts 2026-03-29 02:30 in Oslo, inside the spring-forward gap, so it moves to
/// 03:30 (+02:00) = 01:30Z = 1,774,747,800. 100 lb = 45.359237 kg.
@Test func nativeJSONWithFileSettings() throws {
  let file = try read(
    "export.json",
    """
    {"weightUnit": "lb", "timeZone": "Europe/Oslo", "sessions": [
      {"id": "s1", "start": "2026-03-29T02:30:00", "durationSeconds": 3600, "name": "Push",
       "sets": [{"exercise": "Bench", "weight": 100, "reps": 5, "index": 0},
                {"exercise": "Bench", "weight": 100, "reps": 5, "index": 0},
                {"exercise": "Bench", "weight": "heavy", "reps": 5, "index": 1}]}]}
    """, settings: ReadSettings())
  #expect(file.sets.map(\.weightKg) == [45.359237])
  #expect(file.sets[0].start == 1_774_747_800)
  #expect(file.rows.duplicate == 1)
  // Line 5 is the third set; `"heavy"` starts at byte 45 after 12 spaces of indentation.
  #expect(
    file.rejects.map { "\($0.line):\($0.column) \($0.field): \($0.reason)" } == [
      "5:45 weight: weight must be a number, found the string 'heavy'"
    ])
  #expect(file.rows.read == 3)
}

/// NDJSON: a line that is not JSON is rejected and the next line is read.
@Test func ndjsonLines() throws {
  let file = try read(
    "sets.ndjson",
    """
    {"session": "a", "start": "2026-01-05T10:00:00Z", "durationSeconds": 600, "exercise": "Squat", "weight": 100, \
    "reps": 5}
    {"session": "a", "start": "2026-01-05T10:00:00Z", "exercise": "Squat", "weight": 100, "reps": 5, oops}

    {"session": "a", "start": "2026-01-05T10:00:00Z", "exercise": "Squat", "weight": 110, "reps": 3}
    """)
  #expect(file.sets.map(\.weightKg) == [100, 110])
  #expect(file.rejects.map(\.line) == [2])
  #expect(file.ignored == ["blank line": 1])
  #expect(file.rows.read == 4)
}

/// A mapped CSV with its own date pattern: `29.11.2026 18:30` in Oslo (+01:00) is
/// 2026-11-29T17:30:00Z = 1,795,973,400; 31 November does not exist.
@Test func mappedCSVWithADatePattern() throws {
  let layout = MappedCSVLayout(
    columns: .init(start: "day", exercise: "lift", session: "session", weight: "kg", reps: "reps"),
    delimiter: ";", dateFormat: "dd.MM.yyyy HH:mm")
  let file = try ExportReader.read(
    file: "log.csv",
    bytes: Array(
      "day;lift;kg;reps;session\n29.11.2026 18:30;Squat;100;5;Legs\n31.11.2026 18:30;Squat;100;5;Legs\n".utf8),
    format: .fixed(.mappedCSV), settings: oslo, layout: layout)
  #expect(file.sets.map(\.start) == [1_795_973_400])
  #expect(file.rejects.map(\.reason) == ["'31.11.2026 18:30' does not match the date format 'dd.MM.yyyy HH:mm'"])
}

@Test func unknownExportIsAClearError() {
  #expect(throws: ExportError.self) {
    _ = try read("notes.csv", "what,is,this\n1,2,3\n")
  }
}

/// A set index too large for any set is rejected, not converted (`Int(1e20)` would trap).
@Test func hugeSetIndexIsRejected() throws {
  let file = try read(
    "hevy.csv",
    """
    "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index",\
    "set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
    "Pull","15 Sep 2025, 07:48","15 Sep 2025, 09:13","","Shrug (Barbell)",,"",99999999999999999999,"normal",100,10,,,
    """)
  #expect(file.rejects.map(\.reason) == ["'99999999999999999999' is not a set index"])
}

/// NDJSON in a file named `.json` whose first line has no `session` key is still one set per
/// line: the first line is a whole object and more follows.
@Test func ndjsonIsSniffedFromItsShape() {
  let text =
    "{\"start\": \"2026-01-05T10:00:00Z\", \"exercise\": \"Squat\"}\n{\"start\": \"2026-01-05T10:00:00Z\", "
    + "\"exercise\": \"Squat\"}\n"
  #expect(ExportFormat.sniff(Array(text.utf8), fileName: "sets.json") == .ndjson)
  #expect(ExportFormat.sniff(Array("{\"sessions\": []}".utf8), fileName: "a.json") == .nativeJSON)
  #expect(
    ExportFormat.sniff(Array("{\n  \"weightUnit\": \"kg\",\n  \"sessions\": []\n}".utf8), fileName: "a.json")
      == .nativeJSON)
}

/// A comma in an unquoted comment could belong there as well as to the name: not repaired. A
/// row whose shifted category would be a number is not repaired either.
@Test func fitNotesRepairRefusesAmbiguousRows() throws {
  let file = try read(
    "fitnotes.csv",
    """
    Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time,Comment
    2025-04-29,Overhead Press (Each Side, Dumbbells),Shoulders,8.0,kgs,5,,,,""
    2025-04-29,Bench Press,Chest,100,kgs,5,,,,felt good, heavy
    """)
  #expect(file.rows.repaired == 1)
  #expect(file.sets.map(\.exercise) == ["Overhead Press (Each Side, Dumbbells)"])
  #expect(file.rejects.map(\.line) == [3])
}
