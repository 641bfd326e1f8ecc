import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// Hevy's JSON (the workouts API, SPEC 11.3). Inputs are written here, after the two real
/// pages surveyed (one writing `0` for the values a set does not have, one `null`); no real
/// file is copied.
@Suite struct HevyJSONTests {
  static let utc = ReadSettings(timeZone: TimeZone(identifier: "UTC")!)

  static func read(_ name: String, _ text: String, format: ExportReader.FormatChoice = .auto) throws -> FileIngest {
    let file = try ExportReader.read(file: name, bytes: Array(text.utf8), format: format, settings: utc)
    #expect(file.rows.read == file.sets.count + file.rows.rejected + file.rows.duplicate + file.rows.ignored)
    return file
  }

  /// A page, pretty-printed as the API's clients save it. 2026-06-23 is day 20,627 after
  /// 1970-01-01 (56 years with 14 leap days: 20,454, then 173 days of 2026), so 07:52:37Z is
  /// 20,627 × 86,400 + 28,357 = 1,782,201,157; it ends at 08:19:15, 1,598 s later. A set's
  /// line is the line of its `{`.
  static let page = """
    {
      "page": 1,
      "page_count": 2,
      "workouts": [
        {
          "id": "w1",
          "title": "Push",
          "start_time": "2026-06-23T07:52:37+00:00",
          "end_time": "2026-06-23T08:19:15+00:00",
          "exercises": [
            {
              "index": 0, "title": "Bench Press (Barbell)", "exercise_template_id": "79D0BB3A",
              "superset_id": null,
              "sets": [
                {"index": 0, "type": "warmup", "weight_kg": 40, "reps": 10, "distance_meters": 0,
                 "duration_seconds": 0, "rpe": null},
                {"index": 1, "type": "normal", "weight_kg": 82.5, "reps": 5, "distance_meters": 0,
                 "duration_seconds": 0, "rpe": 8.5},
                {"index": 2, "type": "dropset", "weight_kg": 60, "reps": 8, "distance_meters": null,
                 "duration_seconds": null, "rpe": null}
              ]
            },
            {
              "index": 1, "title": "Push Up", "exercise_template_id": "392887AA", "superset_id": 0,
              "sets": [
                {"index": 0, "type": "failure", "weight_kg": null, "reps": 21, "distance_meters": null,
                 "duration_seconds": null, "rpe": null}
              ]
            },
            {
              "index": 2, "title": "Walking", "exercise_template_id": "33EDD7DB", "superset_id": null,
              "sets": [
                {"index": 0, "type": "normal", "weight_kg": null, "reps": null, "distance_meters": 3170,
                 "duration_seconds": 1787, "rpe": null}
              ]
            }
          ]
        }
      ]
    }
    """

  @Test func aPageIsReadSetBySet() throws {
    let file = try Self.read("hevy_workouts.json", Self.page)
    #expect(file.format == .hevyJSON)
    #expect(file.rows.read == 5)
    #expect(file.notes.isEmpty)
    #expect(file.sets.map(\.line) == [15, 17, 19, 26, 33])
    #expect(
      file.sets.map(\.exercise) == [
        "Bench Press (Barbell)", "Bench Press (Barbell)", "Bench Press (Barbell)",
        "Push Up", "Walking",
      ])
    #expect(file.sets.map(\.type) == [.warmup, .normal, .dropset, .failure, .normal])
    #expect(file.sets.map(\.weightKg) == [40, 82.5, 60, 0, 0])
    #expect(file.sets.map(\.reps) == [10, 5, 8, 21, 0])
    #expect(file.sets.map(\.distanceMeters) == [0, 0, 0, 0, 3170])
    #expect(file.sets.map(\.seconds) == [0, 0, 0, 0, 1787])
    #expect(file.sets.map(\.setIndex) == [0, 1, 2, 0, 0])
    let first = file.sets[0]
    #expect(first.start == 1_782_201_157)
    #expect(first.durationSeconds == 1598)
    #expect(first.sessionName == "Push")
    // The key is the start to the minute (1,782,201,120 = 07:52:00Z) and the title, as Hevy's
    // CSV export writes the same workout.
    #expect(first.sessionKey == "1782201120|Push")
    // The API writes kilograms whatever the user reads: the file states no unit.
    #expect(first.stated == StatedUnits())
  }

  /// The same workout in Hevy's CSV export (`23 Jun 2026, 07:52`, read in the user's zone, UTC
  /// here) has the same session key, so the merge takes it once.
  @Test func theKeyMatchesHevysCSVExport() throws {
    let csv = try Self.read(
      "workout_data.csv",
      """
      "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index",\
      "set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
      "Push","23 Jun 2026, 07:52","23 Jun 2026, 08:19","","Bench Press (Barbell)",,"",0,"warmup",40,10,,0,
      """)
    let json = try Self.read("hevy_workouts.json", Self.page)
    #expect(csv.sets[0].sessionKey == json.sets[0].sessionKey)
  }

  /// Two pages of one history that overlap (the API's pages shift as workouts are added): the
  /// shared workout is taken whole from the newer page, its sets in the other counted as
  /// duplicates, by the merge every format shares.
  @Test func overlappingPagesKeepAWorkoutOnce() throws {
    func workout(_ title: String, _ start: String, reps: Int) -> String {
      """
      {"title": "\(title)", "start_time": "\(start)", "end_time": null, "exercises": [{"title": "Squat", \
      "sets": [{"index": 0, "type": "normal", "weight_kg": 100, "reps": \(reps)}]}]}
      """
    }
    let older = try Self.read(
      "page-2.json", "{\"page\": 2, \"workouts\": [\(workout("A", "2026-01-05T10:00:00Z", reps: 5))]}")
    let newer = try Self.read(
      "page-1.json",
      "{\"page\": 1, \"workouts\": [\(workout("B", "2026-01-07T10:00:00Z", reps: 3)), "
        + "\(workout("A", "2026-01-05T10:00:30Z", reps: 6))]}")
    let user = Normalize.merge(
      [older, newer], lookup: ExerciseLookup(catalog: Catalog(muscleGroups: [], exercises: [])))
    #expect(user.sessions.map(\.name) == ["A", "B"])
    #expect(user.sessions[0].sets.map(\.reps) == [6])
    #expect(user.files.map(\.rows.duplicate) == [1, 0])
    #expect(user.files.map(\.rows.accepted) == [0, 2])
    // Unknown is not zero: `end_time: null` leaves the length unknown.
    #expect(user.sessions[0].durationSeconds == nil)
  }

  /// Only a workout that is the same is a repeat: the same `id` when both have one, else the
  /// same start to the second, title and sets. A workout of the same title 30 s later with
  /// other reps is read (line 4), and so is one with another id and the first's very sets
  /// (line 6); `w1` again is a repeat whatever its sets (line 8), as is a copy of line 4
  /// without an id (line 10), and a copy with an id of a workout that had none (line 14), which
  /// its id then names (line 16). The workouts titled B within 10:00 are one session, as Hevy's
  /// CSV export writes them (start to the minute, 1,767,607,200 = 2026-01-05T10:00:00Z): its
  /// sets are every set of the three read, at the first one's start.
  @Test func onlyTheSameWorkoutIsARepeat() throws {
    func workout(_ id: String?, _ title: String, _ start: String, reps: Int) -> String {
      """
      {\(id.map { "\"id\": \"\($0)\", " } ?? "")"title": "\(title)", "start_time": "2026-01-05T\(start)Z",
        "exercises": [{"title": "Squat", "sets": [{"index": 0, "weight_kg": 100, "reps": \(reps)}]}]}
      """
    }
    let text =
      "[\n"
      + [
        workout("w1", "B", "10:00:00", reps: 5), workout("w2", "B", "10:00:30", reps: 6),
        workout("w3", "B", "10:00:00", reps: 5), workout("w1", "B", "10:00:00", reps: 7),
        workout(nil, "B", "10:00:30", reps: 6), workout(nil, "C", "11:00:00", reps: 8),
        workout("w9", "C", "11:00:00", reps: 8), workout("w9", "C", "11:00:00", reps: 9),
      ].joined(separator: ",\n") + "\n]"
    let file = try Self.read("t.json", text)
    #expect(file.sets.map(\.line) == [3, 5, 7, 13])
    #expect(file.sets.map(\.reps) == [5, 6, 5, 8])
    #expect(file.sets.map(\.start) == [1_767_607_200, 1_767_607_230, 1_767_607_200, 1_767_610_800])
    #expect(
      file.notes.map(\.description) == [
        "t.json:9:1: note: duplicate: repeats the workout at line 2: the same workout (the same id) is written "
          + "twice in the file",
        "t.json:11:1: note: duplicate: repeats the workout at line 4: the same workout (the same start, title and "
          + "sets) is written twice in the file",
        "t.json:15:1: note: duplicate: repeats the workout at line 12: the same workout (the same start, title and "
          + "sets) is written twice in the file",
        "t.json:17:1: note: duplicate: repeats the workout at line 12: the same workout (the same id) is written "
          + "twice in the file",
      ])
    let user = Normalize.merge([file], lookup: ExerciseLookup(catalog: Catalog(muscleGroups: [], exercises: [])))
    #expect(user.sessions.map(\.name) == ["B", "C"])
    #expect(user.sessions.map(\.start) == [1_767_607_200, 1_767_610_800])
    #expect(user.sessions[0].sets.map(\.reps) == [5, 6, 5])
  }

  /// A negative weight on an assisted exercise is the machine's assistance: the set counts with
  /// no load and is listed repaired at its `weight_kg` (line 3, column 18), whose line it
  /// carries, as in Hevy's CSV
  /// export; on another exercise it is still rejected.
  @Test func assistanceIsNoLoad() {
    let text = """
      [{"title": "Pull", "start_time": "2026-01-05T10:00:00Z", "exercises": [
        {"title": "Assisted Pull Up", "sets": [{"index": 0, "reps": 8,
          "weight_kg": -20}]},
        {"title": "Pull Up", "sets": [{"index": 0, "reps": 8, "weight_kg": -20}]}]}]
      """
    #expect(
      HostileInputTests.outcome("t.json", Array(text.utf8)) == """
        read 2: accepted 1, rejected 1, duplicate 0, ignored 0
        t.json:3:18: note: repaired: weight_kg: weight '-20' is negative on an assisted exercise: the assistance \
        is not a load, so the set counts with no load
        t.json:4:70: error: weight_kg: weight '-20' is negative
        """)
    let file = try? Self.read("t.json", text)
    #expect(file?.sets.map(\.weightKg) == [0])
    #expect(file?.sets.map(\.line) == [3])
  }

  /// An array of workouts (no page around it), and one workout alone, with its keys in another
  /// order; the app's own feed writes Unix seconds, `name` and `indicator`.
  @Test func otherShapesOfTheSameWorkouts() throws {
    let array = try Self.read(
      "full-history.json",
      """
      [{"exercises": [{"sets": [{"reps": 12, "weight_kg": 20, "type": "normal", "index": 0}], "title": "Row"}],
        "start_time": "2026-01-05T10:00:00Z", "title": "Pull"}]
      """)
    #expect(array.sets.map(\.weightKg) == [20])
    let single = try Self.read(
      "workout.json",
      #"{"title": "Pull", "start_time": "2026-01-05T10:00:00Z", "exercises": [{"title": "Row", "sets": []}]}"#)
    #expect(single.format == .hevyJSON)
    #expect(single.rows.read == 0)
    // 1,767,607,200 = 2026-01-05T10:00:00Z; 1,767,610,800 is an hour later.
    let feed = try Self.read(
      "feed.json",
      """
      [{"name": "Pull", "start_time": 1767607200, "end_time": 1767610800, "exercises": [{"title": "Row",
        "exercise_template_id": "x", "sets": [{"index": 0, "indicator": "warmup", "weight_kg": 20, "reps": 12}]}]}]
      """)
    #expect(feed.sets.map(\.start) == [1_767_607_200])
    #expect(feed.sets.map(\.durationSeconds) == [3600])
    #expect(feed.sets.map(\.type) == [.warmup])
    #expect(feed.sets.map(\.sessionName) == ["Pull"])
  }

  @Test func sniffingFindsHevyWhateverTheLayout() {
    func sniff(_ text: String) -> ExportFormat? { ExportFormat.sniff(Array(text.utf8), fileName: "a.json") }
    #expect(sniff(Self.page) == .hevyJSON)
    #expect(sniff(#"{"workouts": [], "page": 1}"#) == .hevyJSON)
    // `workouts` last, after a long member: found by its key, not its line.
    #expect(
      sniff("{\n\"page\": 1,\n\"note\": \"\(String(repeating: "x", count: 500))\",\n\"workouts\": []}") == .hevyJSON)
    #expect(sniff(#"[{"exercises": [], "start_time": "2026-01-05T10:00:00Z"}]"#) == .hevyJSON)
    #expect(sniff(#"{"exercises": [{"exercise_template_id": "x"}]}"#) == .hevyJSON)
    // A value spelled like a key is no key; native JSON and NDJSON stay theirs.
    #expect(sniff(#"{"sessions": [{"name": "workouts", "sets": []}]}"#) == .nativeJSON)
    #expect(sniff(#"{"name": "workouts", "sessions": []}"#) == .nativeJSON)
    #expect(sniff("{\"session\": \"a\", \"start_time\": \"x\"}\n{\"session\": \"a\"}\n") == .ndjson)
  }

  /// Every rejected set names its line and column, at the value at fault; an unreadable
  /// workout rejects each of its sets, at the key at fault.
  @Test(arguments: [
    (
      "bad values",
      """
      {"workouts": [{"title": "Push", "start_time": "2026-06-23T07:52:37+00:00", "exercises": [{"title": "Bench",
        "sets": [{"index": 0, "weight_kg": "heavy", "reps": 5},
                 {"index": 1, "weight_kg": -5, "reps": 5},
                 {"index": 2, "weight_kg": 1600, "reps": 5},
                 {"index": 3, "weight_kg": 60, "reps": 1001},
                 {"index": 4, "weight_kg": 60, "reps": 5, "type": "superset"},
                 {"index": 0.5, "weight_kg": 60, "reps": 5},
                 {"index": 6, "weight_kg": 60, "reps": 5, "duration_seconds": 90000},
                 {"index": 7, "weight_kg": 60, "reps": 5, "distance_meters": -1},
                 7]}]}]}
      """,
      """
      read 9: accepted 0, rejected 9, duplicate 0, ignored 0
      t.json:2:38: error: weight_kg: weight_kg must be a number, found the string 'heavy'
      t.json:3:38: error: weight_kg: weight '-5' is negative
      t.json:4:38: error: weight_kg: weight '1600' is more than 1500 kg
      t.json:5:50: error: reps: reps '1001' is more than 1000
      t.json:6:61: error: type: type must be normal, warmup, dropset or failure
      t.json:7:22: error: index: index must be a whole number from 0 to 1000000
      t.json:8:73: error: duration_seconds: duration '90000' is longer than 24 hours
      t.json:9:72: error: distance_meters: distance '-1' is negative
      t.json:10:12: error: a set must be an object
      """
    ),
    (
      "an unreadable workout",
      """
      {"workouts": [{"title": "Push", "start_time": "yesterday", "exercises": [
        {"title": "Bench", "sets": [{"weight_kg": 60, "reps": 5}, {"weight_kg": 60, "reps": 5}]},
        {"title": "Dip", "sets": {}}]},
        "not a workout",
        {"title": "Pull", "start_time": "2026-06-23T07:52:37+00:00", "exercises": {}},
        {"title": "Pull", "start_time": "1969-12-31T23:59:59Z", "exercises": [{"title": "Row", "sets": [{}]}]}]}
      """,
      """
      read 6: accepted 0, rejected 6, duplicate 0, ignored 0
      t.json:1:47: error: start_time: 'yesterday' is not a date and time
      t.json:1:47: error: start_time: 'yesterday' is not a date and time
      t.json:1:47: error: start_time: 'yesterday' is not a date and time
      t.json:4:3: error: a workout must be an object
      t.json:5:77: error: exercises: exercises must be an array of exercises
      t.json:6:35: error: start_time: '1969-12-31T23:59:59Z' is before 1970, which no workout log holds
      """
    ),
    (
      // The second workout has no id and the first's start, title and sets: the same workout
      // (its end is not compared). Its untitled exercise is rejected again, at its own title.
      "an exercise without a title, a workout twice, a repeated set, a timer left running",
      """
      {"workouts": [
        {"title": "A", "start_time": "2026-01-05T10:00:00Z", "end_time": "2026-01-07T10:00:00Z",
         "exercises": [{"title": " ", "sets": [{"reps": 5}]},
                       {"title": "Row", "sets": [{"index": 0, "reps": 5}, {"index": 0, "reps": 5}]}]},
        {"title": "A", "start_time": "2026-01-05T10:00:00Z", "exercises": [{"title": " ", "sets": [{"reps": 5}]},
         {"title": "Row", "sets": [{"index": 0, "reps": 5}, {"index": 0, "reps": 5}]}]}
      ]}
      """,
      """
      read 6: accepted 1, rejected 2, duplicate 3, ignored 0
      t.json:3:28: error: title: the exercise title is empty
      t.json:2:68: note: value-dropped: end_time: end_time '2026-01-07T10:00:00Z' is more than 24 hours after \
      start_time (a timer left running); the duration is dropped, the sets kept
      t.json:4:1: note: duplicate: repeats line 4: the same set of the same exercise block, with the same values
      t.json:5:80: error: title: the exercise title is empty
      t.json:6:1: note: duplicate: repeats the workout at line 2: the same workout (the same start, title and \
      sets) is written twice in the file
      t.json:6:1: note: duplicate: repeats the workout at line 2: the same workout (the same start, title and \
      sets) is written twice in the file
      """
    ),
  ])
  func rejectedSetsNameTheirPlace(_ name: String, input: String, expected: String) {
    #expect(HostileInputTests.outcome("t.json", Array(input.utf8)) == expected, "\(name)")
  }

  @Test(arguments: [
    (#"{"page": 1, "workouts": {}}"#, 1, 1),
    (#"{"title": "Push", "start_time": "2026-01-05T10:00:00Z"}"#, 1, 1),
    (#"{"workouts": [}"#, 1, 15),
  ])
  func aFileOfAnotherShapeFails(_ input: String, line: Int, column: Int) {
    let settings = Self.utc
    let error = #expect(throws: ExportError.self) {
      _ = try ExportReader.read(file: "t.json", bytes: Array(input.utf8), format: .fixed(.hevyJSON), settings: settings)
    }
    #expect(error?.line == line && error?.column == column)
    if column == 1 { #expect(error?.message == HevyJSONTests.shapeMessage) }
  }

  static let shapeMessage =
    "a Hevy JSON export is an object with a \"workouts\" array (a page of the workouts API), "
    + "an array of workouts, or one workout object with \"exercises\""
}
