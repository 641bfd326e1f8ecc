import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema
import _TrendlineTestSupport

/// The variants a survey of real exports found (EXPORT-FORMATS §9), each built from the
/// literal rows documented there, with the values worked out by hand. These need nothing
/// beside the checkout; `RealExportTests` reads the real files themselves when they are there.
private func read(_ text: String, name: String = "export.csv", settings: ReadSettings = ReadSettings())
  throws(ExportError) -> FileIngest
{
  try ExportReader.read(file: name, bytes: Array(text.utf8), settings: settings)
}

private func notes(_ file: FileIngest, _ outcome: RowNote.Outcome) -> [RowNote] {
  file.notes.filter { $0.outcome == outcome }
}

// MARK: Strong

/// §9.1: the 2015–2017 app names the weight and distance columns by their unit and numbers
/// sets from 0. Without the `kg` header read as the weight, every set would be 0 kg.
@Test func strongLegacyReadsWeightsFromItsUnitNamedColumns() throws {
  let file = try read(
    """
    Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes
    2015-03-13 20:15:08,"GVT Incline Bench","Incline Bench Press",0,25.0,10,0.0,0,""
    2016-10-03 19:30:55,"W1D1","Squat",0,70.0,5,0.0,0,""
    2016-10-03 19:30:55,"W1D1","Squat",1,70.0,3310,0.0,0,""

    """, settings: ReadSettings(weightUnit: .pounds))
  #expect(file.format == .strongCSV)
  #expect(file.sets.map(\.weightKg) == [25, 70])  // the header's kg wins over the user's pounds
  #expect(file.sets.map(\.setIndex) == [0, 0])
  #expect(file.sets.map(\.durationSeconds) == [nil, nil])
  #expect(file.rejects.map(\.description) == ["export.csv:4:43: error: Reps: reps '3310' is more than 1000"])
}

@Test func strongLegacyInPoundsAndMiles() throws {
  let file = try read(
    """
    Date,Workout Name,Exercise Name,Set Order,lb,Reps,mi,Seconds
    2016-07-25 18:00:00,"A","Squat",1,135,5,0,0
    2016-07-25 18:00:00,"A","Running",1,0,0,2,900

    """)
  #expect(file.sets.map(\.weightKg) == [135 * 0.45359237, 0])
  #expect(file.sets.map(\.distanceMeters) == [0, 2 * 1609.344])
}

/// SPEC 10.1: a Strong header whose weight column has a name Trendline does not know fails
/// the file, naming what it looked for and the header it saw — never 0 kg on every set.
@Test func strongWithAnUnknownWeightColumnFailsTheFile() {
  #expect {
    try read(
      """
      Date,Workout Name,Exercise Name,Set Order,Pounds,Reps,Distance,Seconds
      2016-07-25 18:00:00,"A","Squat",1,135,5,0,0

      """)
  } throws: { error in
    (error as? ExportError)?.message
      == "Strong (English header): the header has no 'Weight' column (looked for 'Weight', 'Weight (kg)', "
      + "'Weight (lbs)', 'Weight (lb)', 'kg', 'lbs', 'lb'); the header is: Date, Workout Name, Exercise Name, "
      + "Set Order, Pounds, Reps, Distance, Seconds; if this is another app's CSV, "
      + "or a variant Trendline does not know, read it with source.format \"csv\" and a source.csv column mapping"
  }
}

/// §9.2: French headers, `35min` durations, English exercise names.
@Test func strongInFrench() throws {
  let file = try read(
    """
    Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre de la série,Poids,Réps,Distance,Secondes,Notes,\
    Notes d'entraînement,RPE
    2023-08-16 13:10:30,"Pecs Et Dos",35min,"Aerobics",1,0,0,0,600,"","",
    2023-08-16 13:10:30,"Pecs Et Dos",35min,"Bench Press (Dumbbell)",1,20.0,8,0,0,"",,

    """)
  #expect(file.format == .strongCSV)
  #expect(file.sets.map(\.durationSeconds) == [2100, 2100])
  #expect(file.sets.map(\.seconds) == [600, 0])
  #expect(file.sets[1].weightKg == 20 && file.sets[1].reps == 8)
  #expect(file.sets[1].sessionName == "Pecs Et Dos")
}

/// German headers write `2h 23min` and a rest row as `Ruhezeit`, which is not a set.
@Test func strongInGermanWithARestRow() throws {
  let file = try read(
    """
    Datum,Workout-Name,Dauer,Name der Übung,Reihenfolge festlegen,Gewicht,Wiederh.,Entfernung,Sekunden,Notizen,\
    Workout-Notizen,RPE
    2025-08-23 17:51:23,"Ganzkörper",2h 23min,"Chest Press (Machine)",1,50.0,12.0,0,0.0,"","Erstes Training",
    2025-08-23 17:51:23,"Ganzkörper",2h 23min,"Chest Press (Machine)",Ruhezeit,0,0.0,0,120.0,,,

    """)
  #expect(file.sets.count == 1)
  #expect(file.sets[0].durationSeconds == 8580)
  #expect(file.sets[0].weightKg == 50)
  #expect(notes(file, .ignored).map(\.line) == [3])
  #expect(file.ignored == ["Strong rest timer row": 1])
}

/// §9.3 and SPEC 10.2: a workout whose timer was left running keeps its sets; its duration is
/// dropped (unknown) and every row of it is listed with the column.
@Test func strongWorkoutLeftRunningKeepsItsSets() throws {
  let file = try read(
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2023-05-24 06:58:24,"1 Back/Bi",24h 13m,"Pull Up",1,0.0,7,0,0,"","",
    2023-05-24 06:58:24,"1 Back/Bi",24h 13m,"Lat Pulldown (Cable)",1,100.0,10,0,0,,,
    2023-05-25 07:00:00,"Legs",1h 5m,"Squat (Barbell)",1,100.0,5,0,0,,,

    """)
  #expect(file.rejects == [])
  #expect(file.sets.map(\.durationSeconds) == [nil, nil, 3900])
  #expect(file.rows.valueDropped == 2)
  #expect(
    notes(file, .valueDropped).map(\.description) == [
      "export.csv:2:33: note: value-dropped: Duration: workout duration '24h 13m' is longer than 24 hours (a timer "
        + "left running); the duration is dropped, the sets kept",
      "export.csv:3:33: note: value-dropped: Duration: workout duration '24h 13m' is longer than 24 hours (a timer "
        + "left running); the duration is dropped, the sets kept",
    ])
}

/// Strong's automatic export spells set kinds as words.
@Test func strongSetKindsAsWords() throws {
  let file = try read(
    """
    "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";\
    "Distance (meters)";"Seconds";"Notes";"Workout Notes"
    "71";"2022-10-23 17:41:11";"Pull";"3608";"Knelt Pulldown";"WARM_UP";"2.5";"5";"";"";"";"";""
    "71";"2022-10-23 17:41:11";"Pull";"3608";"Knelt Pulldown";"1";"40";"8";"";"";"";"";""
    "71";"2022-10-23 17:41:11";"Pull";"3608";"Knelt Pulldown";"FAILURE";"40";"6";"";"";"";"";""

    """)
  #expect(file.sets.map(\.type) == [.warmup, .normal, .failure])
}

/// A sync that wrote a whole workout twice: the second copy is a duplicate, each row naming
/// the line it repeats. An exercise repeated inside one workout is not (below).
@Test func strongWorkoutWrittenTwiceIsOneWorkout() throws {
  let file = try read(
    """
    Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds
    2016-07-25 18:00:00,"A","Squat",1,60,5,0,0
    2016-07-25 18:00:00,"A","Squat",2,60,5,0,0
    2016-07-25 18:00:00,"A","Bench Press",1,50,5,0,0
    2016-07-25 18:00:00,"A","Squat",1,60,5,0,0
    2016-07-25 18:00:00,"A","Squat",2,60,5,0,0
    2016-07-25 18:00:00,"A","Bench Press",1,50,5,0,0

    """)
  #expect(file.sets.map(\.line) == [2, 3, 4])
  #expect(
    notes(file, .duplicate).map(\.description) == [
      "export.csv:5:1: note: duplicate: repeats line 2: the whole workout is written twice in the file",
      "export.csv:6:1: note: duplicate: repeats line 3: the whole workout is written twice in the file",
      "export.csv:7:1: note: duplicate: repeats line 4: the whole workout is written twice in the file",
    ])
  #expect(file.rows.accepted == 3 && file.rows.duplicate == 3)
}

/// Work repeated is not a workout written twice: one exercise done in two equal blocks, a
/// circuit of single sets done twice, and blocks behind warm-ups all stay sets.
@Test(arguments: [
  ["\"Hammer Curl\",1,20,10", "\"Hammer Curl\",2,20,10", "\"Hammer Curl\",1,20,10", "\"Hammer Curl\",2,20,10"],
  ["\"Curl\",1,20,10", "\"Dip\",1,0,10", "\"Curl\",1,20,10", "\"Dip\",1,0,10"],
  [
    "\"Hammer Curl\",W,10,10", "\"Hammer Curl\",1,20,10", "\"Hammer Curl\",2,20,10",
    "\"Hammer Curl\",W,10,10", "\"Hammer Curl\",1,20,10", "\"Hammer Curl\",2,20,10",
  ],
])
func repeatedWorkIsNotADuplicate(rows: [String]) throws {
  let text =
    "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
    + rows.map { "2016-07-25 18:00:00,\"A\"," + $0 + "\n" }.joined()
  let file = try read(text)
  #expect(file.sets.count == rows.count)
  #expect(file.rows.duplicate == 0)
}

/// One exercise block of 50,000 numbered sets is read in linear time (the duplicate search
/// looks only at the sets with the same number), every set kept.
@Test func oneLongBlockIsLinear() throws {
  var text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
  for number in 1...50_000 { text += "2016-07-25 18:00:00,\"A\",\"Plank\",\(number),0,1\n" }
  let file = try read(text)
  #expect(file.sets.count == 50_000 && file.rows.duplicate == 0)
}

// MARK: Hevy

private let hevyHeader =
  #""title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","#
  + #""set_type","weight_kg","reps","distance_miles","duration_seconds","rpe""#

/// §9.4 and SPEC 10.5: Front Squat done in two blocks; `set_index` restarts in each, so rows
/// 2 and 5 (equal index, equal values) are two sets. Five rows, five sets, no duplicate.
@Test func hevyExerciseDoneTwiceIsTwoBlocks() throws {
  let file = try read(
    """
    \(hevyHeader)
    "A","28 Feb 2025, 06:07","28 Feb 2025, 07:12","","Front Squat",,"",0,"normal",83.91,3,,,
    "A","28 Feb 2025, 06:07","28 Feb 2025, 07:12","","Front Squat",,"",1,"normal",86.18,3,,,
    "A","28 Feb 2025, 06:07","28 Feb 2025, 07:12","","Push Press",,"",0,"normal",61.24,2,,,
    "A","28 Feb 2025, 06:07","28 Feb 2025, 07:12","","Front Squat",,"",0,"normal",83.91,3,,,
    "A","28 Feb 2025, 06:07","28 Feb 2025, 07:12","","Front Squat",,"",1,"normal",92.99,2,,,

    """)
  #expect(file.sets.count == 5)
  #expect(file.rows.duplicate == 0)
  #expect(file.sets.map(\.durationSeconds) == Array(repeating: 3900, count: 5))
}

/// Two blocks back to back (the numbers start again), and a row truly repeated within one
/// block: only the repeat is a duplicate, and it says which line it repeats.
@Test func hevyBlocksBackToBackAndATrueRepeat() throws {
  let file = try read(
    """
    \(hevyHeader)
    "B","12 Oct 2024, 12:18","12 Oct 2024, 12:39","","Hammer Curl (Dumbbell)",,"",0,"normal",30,10,,,
    "B","12 Oct 2024, 12:18","12 Oct 2024, 12:39","","Hammer Curl (Dumbbell)",,"",1,"normal",40,5,,,
    "B","12 Oct 2024, 12:18","12 Oct 2024, 12:39","","Hammer Curl (Dumbbell)",,"",0,"normal",40,9,,,
    "B","12 Oct 2024, 12:18","12 Oct 2024, 12:39","","Hammer Curl (Dumbbell)",,"",1,"normal",40,5,,,
    "B","12 Oct 2024, 12:18","12 Oct 2024, 12:39","","Hammer Curl (Dumbbell)",,"",1,"normal",40,5,,,

    """)
  #expect(file.sets.map(\.line) == [2, 3, 4, 5])
  #expect(
    notes(file, .duplicate).map(\.description) == [
      "export.csv:6:1: note: duplicate: repeats line 5: the same set of the same exercise block, with the same values"
    ])
}

/// A Hevy workout that ends the next day was left running: the duration goes, the sets stay.
@Test func hevyWorkoutEndingADayLater() throws {
  let file = try read(
    """
    \(hevyHeader)
    "C","1 Mar 2025, 18:00","2 Mar 2025, 18:26","","Squat (Barbell)",,"",0,"normal",100,5,,,

    """)
  #expect(file.sets.map(\.durationSeconds) == [nil])
  #expect(notes(file, .valueDropped).map(\.field) == ["end_time"])
}

// MARK: FitNotes

/// §9.5: `kg` in Distance Unit on a row whose distance is 0 means nothing; the row is a set.
@Test func fitNotesUnitOnAnEmptyDistanceIsIgnored() throws {
  let file = try read(
    """
    Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time
    2017-08-10,Side Plank,Abs,,,0.0,kg,0:00:00
    2017-08-10,Running,Cardio,,,2.0,mi,0:19:30

    """)
  #expect(file.rejects == [])
  #expect(file.sets.map(\.distanceMeters) == [0, 2 * 1609.344])
  #expect(file.sets.map(\.seconds) == [0, 1170])
}

// MARK: StrongLifts

private let strongLiftsHeader =
  "Date,Note,Body Weight (KG),Body Weight (LB),Exercise 1,Weight (KG),Weight (LB),Set 1,Set 2,Set 3,Set 4,Set 5,"
  + "Exercise 2,Weight (KG),Weight (LB),Set 1,Set 2,Set 3,Set 4,Set 5,"

/// §9.6: a day-first file (19 > 12), rows shorter than the header, an empty set cell not
/// done, a failed set as fewer reps.
@Test func strongLiftsDayFirst() throws {
  let file = try read(
    """
    \(strongLiftsHeader)
    19/11/18,,91,,Squat,40,,5,5,5,5,5,Overhead Press,30,,5,5,3,,
    05/12/18,,91,,Squat,42.5,,5,5,5,5,5

    """, settings: ReadSettings(timeZone: TimeZone(identifier: "Europe/London")!))
  #expect(file.format == .strongLiftsCSV)
  #expect(file.rows.read == 2 && file.rows.accepted == 2)
  #expect(file.sets.count == 13)
  let firstVolume = file.sets.filter { $0.line == 2 }.reduce(0.0) { $0 + $1.weightKg * $1.reps }
  #expect(firstVolume == 1390)  // 40 kg × 25 + 30 kg × (5 + 5 + 3)
  // 5 December 2018, not 12 May: local midnight in London (UTC+0 in winter).
  #expect(file.sets.last?.start == 1_543_968_000)
  #expect(file.sets.map(\.sessionKey).filter { $0 != file.sets[0].sessionKey }.count == 5)
}

/// A month-first file (25 > 12 in second place), both weight columns filled: the one in the
/// user's unit is read.
@Test func strongLiftsMonthFirstInPounds() throws {
  let file = try read(
    """
    "Date","Note","Workout","Body Weight","Exercise 1","Weight (KG)","Weight (LB)","Set 1","Set 2","Set 3","Set 4",\
    "Set 5"
    07/25/16,"",A,183lb,Squat,60,135,5,5,5,5,5
    08/01/16,"",B,183lb,Squat,62.5,140,5,,,,

    """, settings: ReadSettings(weightUnit: .pounds))
  let pounds: [Double] = [135, 135, 135, 135, 135, 140]
  #expect(file.sets.map(\.weightKg) == pounds.map { $0 * 0.45359237 })
  #expect(file.sets[0].sessionName == "Workout A")
  #expect(file.sets.last?.start == 1_470_009_600)  // 1 August 2016, not 8 January
}

/// When no date has a number above 12 the order cannot be told: the file is refused with the
/// way to set it, and read once it is set.
@Test func strongLiftsAmbiguousDatesAreRefusedUntilTheOrderIsSet() throws {
  let text = """
    \(strongLiftsHeader)
    05/06/18,,91,,Squat,40,,5,5,5,5,5

    """
  #expect {
    try read(text)
  } throws: { error in
    (error as? ExportError)?.message
      == "StrongLifts: no date in the file has a number above 12, so whether its dates are day-first (19/11/18) or "
      + "month-first (11/19/18) cannot be told; set dateOrder to \"day-first\" or \"month-first\" for this user in "
      + "users.csv, or in the pipeline's source.defaults"
  }
  let file = try read(text, settings: ReadSettings(dateOrder: .monthFirst))
  #expect(file.sets[0].start == 1_525_564_800)  // 6 May 2018
}

/// The date order is read from the `Date` column wherever it stands, and an impossible date
/// (31 February) is no evidence of an order.
@Test func strongLiftsDateOrderFromItsDateColumn() throws {
  let file = try read(
    """
    Workout,Date,Exercise 1,Weight (KG),Weight (LB),Set 1,Set 2
    A,31/02/18,Squat,40,,5,5
    A,05/06/18,Squat,40,,5,5
    B,19/11/18,Squat,40,,5,5

    """)
  #expect(file.rejects.map(\.line) == [2])  // 31 February is no date, in the file's day-first order
  #expect(file.sets.map(\.start).first == 1_528_156_800)  // 5 June 2018
}

// MARK: GymBook

private let gymBookHeader =
  "Data,Programma,Orario,Esercizio,Zona,Gruppi muscolari (Primari),Gruppi muscolari (Secondari),"
  + "Set / Set di riscaldamento / Set di defaticamento,Ripetizioni / Tempo,Peso / Distanza,Appunti,Saltato"

/// §9.7: Italian headers and values, units inside the values, a decimal comma, the session
/// starting at its first set's time, a warm-up, a skipped set, a timed set and a distance.
/// (`09/01/25` alone cannot tell its order, so the user's `dateOrder` says it.)
@Test func gymBookInItalian() throws {
  let file = try read(
    """
    \(gymBookHeader)
    09/01/25,"AltoScheda Giorno 4",19:30,"Alzate di Gambe alla Macchina",Addome,"Addominali","Obliqui, Quadricipite",\
    Set,"20 ripetizioni","0,00 kg",,No
    09/01/25,"AltoScheda Giorno 4",19:34,"Panca piana",Petto,"Pettorali","Tricipiti",Set di riscaldamento,\
    "12 ripetizioni","40,00 kg",,No
    09/01/25,"AltoScheda Giorno 4",19:38,"Panca piana",Petto,"Pettorali","Tricipiti",Set,"8 ripetizioni","62,50 kg",,No
    09/01/25,"AltoScheda Giorno 4",19:42,"Panca piana",Petto,"Pettorali","Tricipiti",Set,"8 ripetizioni","62,50 kg",,Si
    09/01/25,"AltoScheda Giorno 4",19:50,"Tapis roulant",Cardio,"","",Set,"12 minuti","2,50 km",,No

    """, settings: ReadSettings(timeZone: TimeZone(identifier: "Europe/Rome")!, dateOrder: .dayFirst))
  #expect(file.format == .gymBookCSV)
  #expect(file.rows.read == 5 && file.rows.accepted == 4)
  #expect(file.ignored == ["GymBook set marked skipped": 1])
  #expect(file.sets.map(\.type) == [.normal, .warmup, .normal, .normal])
  #expect(file.sets.map(\.weightKg) == [0, 40, 62.5, 0])
  #expect(file.sets.map(\.reps) == [20, 12, 8, 0])
  #expect(file.sets[3].seconds == 720 && file.sets[3].distanceMeters == 2500)
  // 9 January 2025, 19:30 in Rome (UTC+1) = 18:30Z, for every set of the session.
  #expect(Set(file.sets.map(\.start)) == [1_736_447_400])
  #expect(file.sets.allSatisfy { $0.durationSeconds == nil && $0.sessionName == "AltoScheda Giorno 4" })
}

/// Values out of range reject their row, naming the column: a time over a day, a distance
/// in an unknown unit, a clock time that is none.
@Test func gymBookImpossibleValuesAreRejected() throws {
  let file = try read(
    """
    \(gymBookHeader)
    19/01/25,"A",19:30,"Plank",Addome,"","",Set,"99999999999999999999 minuti","0,00 kg",,No
    19/01/25,"A",25:99,"Plank",Addome,"","",Set,"30 secondi","0,00 kg",,No
    19/01/25,"B",19:30,"Plank",Addome,"","",Set,"30 secondi","5 parsecs",,No

    """)
  #expect(
    file.rejects.map(\.description) == [
      "export.csv:2:45: error: Ripetizioni / Tempo: time '99999999999999999999 minuti' is longer than 24 hours",
      "export.csv:3:14: error: Orario: '25:99' is not a time of day (HH:MM)",
      "export.csv:4:58: error: Peso / Distanza: '5 parsecs' is neither a weight nor a distance",
    ])
}

/// The last of `,` and `.` in a value is its decimal mark; the other groups thousands.
@Test func gymBookThousandsSeparators() throws {
  let file = try read(
    """
    \(gymBookHeader)
    19/01/25,"A",19:30,"Leg Press",Gambe,"","",Set,"8 ripetizioni","1.000,50 lb",,No
    19/01/25,"A",19:34,"Leg Press",Gambe,"","",Set,"8 ripetizioni","1,000.5 lb",,No

    """)
  #expect(file.sets.map(\.weightKg) == [1000.5 * 0.45359237, 1000.5 * 0.45359237])
}

// MARK: Other CSV

/// A CSV no reader knows is refused with its header and a mapping guessed from it.
@Test func anUnknownCSVGetsAGuessedMapping() {
  #expect {
    try read(
      """
      day;lift;kg;reps;session
      01.06.2026 18:28;Kniebeuge;62,5;5;Tag A

      """)
  } throws: { error in
    (error as? ExportError)?.message
      == "not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, StrongLifts, GymBook, Liftosaur, JEFIT, "
      + "native JSON or NDJSON); "
      + "for another app's CSV set source.format to \"csv\" with a source.csv column mapping. "
      + "Its header is: day;lift;kg;reps;session. A mapping guessed from it, "
      + "to check and paste into the pipeline's source: "
      + "\"format\": \"csv\", \"csv\": {\"delimiter\": \";\", \"decimalSeparator\": \",\", \"dateFormat\": "
      + "\"dd.MM.yyyy HH:mm\", \"columns\": {\"start\": \"day\", \"exercise\": \"lift\", \"session\": "
      + "\"session\", \"weight\": \"kg\", \"reps\": \"reps\"}}"
  }
}

/// Two-digit years read in `run` exactly as `validate` accepts them: `yy` is 00–69 → 20xx,
/// 70–99 → 19xx; a pattern with a year of one or three letters is refused by both.
@Test func mappedCSVTwoDigitYears() throws {
  #expect(DatePattern.problem("dd/MM/yy") == nil)
  #expect(
    DatePattern.problem("dd/MM/y")
      == "dateFormat 'dd/MM/y' has a year of 1 letter; write yyyy (four digits) or yy (two)")
  let pattern = DatePattern("dd/MM/yy")
  var text = "19/11/18"
  #expect(text.withUTF8 { pattern.parse($0) }?.civil == CivilDateTime(year: 2018, month: 11, day: 19))
  text = "01/01/75"
  #expect(text.withUTF8 { pattern.parse($0) }?.civil.year == 1975)
  let layout = MappedCSVLayout(
    columns: .init(start: "day", exercise: "lift", weight: "kg", reps: "reps"), dateFormat: "dd/MM/yy")
  let file = try ExportReader.read(
    file: "log.csv", bytes: Array("day,lift,kg,reps\n19/11/18,Squat,40,5\n".utf8), format: .fixed(.mappedCSV),
    settings: ReadSettings(), layout: layout)
  #expect(file.sets.map(\.start) == [1_542_585_600])
}

/// A mapped CSV's impossible length is dropped like any other export's (SPEC 10.2).
@Test func mappedCSVDropsAnImpossibleLength() throws {
  let layout = MappedCSVLayout(columns: .init(start: "start", exercise: "lift", end: "end", weight: "kg", reps: "reps"))
  let file = try ExportReader.read(
    file: "log.csv",
    bytes: Array("start,end,lift,kg,reps\n2026-11-20 18:00:00,2026-11-22 18:00:00,Squat,100,5\n".utf8),
    format: .fixed(.mappedCSV), settings: ReadSettings(), layout: layout)
  #expect(file.sets.map(\.durationSeconds) == [nil])
  #expect(
    file.notes.map(\.description) == [
      "log.csv:2:21: note: value-dropped: end: workout duration '172800 s from start to end' is longer than 24 hours "
        + "(a timer left running); the duration is dropped, the sets kept"
    ])
}

/// A row of an older export whose session the newer export holds is a duplicate and nothing
/// else: the value it dropped when read is withdrawn, and the counts still balance.
@Test func aDuplicateOfANewerExportWithdrawsItsDroppedValue() throws {
  let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds"
  let older = try read(
    "\(header)\n2026-11-20 18:00:00,\"A\",30h,\"Squat (Barbell)\",1,100,5,0,0\n", name: "old.csv")
  let newer = try read(
    "\(header)\n2026-11-20 18:00:00,\"A\",1h,\"Squat (Barbell)\",1,100,5,0,0\n"
      + "2026-11-27 18:00:00,\"B\",1h,\"Squat (Barbell)\",1,100,5,0,0\n",
    name: "new.csv")
  #expect(older.rows.valueDropped == 1)
  let user = Normalize.merge([older, newer], lookup: ExerciseLookup(catalog: .builtIn))
  let old = try #require(user.files.first { $0.file == "old.csv" })
  #expect(old.rows == RowCounts(read: 1, duplicate: 1))
  #expect(old.rows.balances)
  #expect(
    user.notes.map(\.description) == [
      "old.csv:2:1: note: duplicate: the session is taken whole from new.csv (line 2), the newer export"
    ])
  #expect(user.sessions.map(\.durationSeconds) == [3600, 3600])
}

/// Native JSON places a dropped duration's note at `durationSeconds`, not at a set: when the
/// session turns out a duplicate of a newer export, each of its notes is withdrawn all the same.
@Test func aNativeDuplicateWithdrawsItsDroppedDurations() throws {
  func native(_ duration: Int) -> String {
    #"{"sessions": [{"id": "s1", "start": "2026-11-20T18:00:00Z", "durationSeconds": \#(duration), "sets": "#
      + #"[{"exercise": "Squat", "weight": 100, "reps": 5}, {"exercise": "Squat", "weight": 100, "reps": 5}]}]}"#
  }
  let older = try read(native(200_000), name: "a.json")
  let newer = try read(native(3600), name: "b.json")
  #expect(older.rows.valueDropped == 2)
  let user = Normalize.merge([older, newer], lookup: ExerciseLookup(catalog: .builtIn))
  let old = try #require(user.files.first { $0.file == "a.json" })
  #expect(old.rows.duplicate == 2 && old.rows.valueDropped == 0 && old.rows.balances)
  #expect(user.notes.map(\.outcome) == [.duplicate, .duplicate])
}
