import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema
import _TrendlineTestSupport

private let realExports = TestPaths.shared.appendingPathComponent("real-exports")

private func read(_ path: String, settings: ReadSettings = ReadSettings()) throws -> FileIngest {
  let url = realExports.appendingPathComponent(path)
  return try ExportReader.read(
    file: url.lastPathComponent, bytes: try TestPaths.bytes(url), settings: settings)
}

/// Every real export is read with zero rejects, and every row is accounted for.
@Test(
  TestPaths.needsShared("real-exports"),
  arguments: [
    // Strong variant E: 166 rows, no final newline, including 7 placeholder sets (below).
    ("strong/strong_semicolon-quoted-13col_2024-2025_DaKheera47.csv", ExportFormat.strongCSV, 166, 0),
    // Strong variant A: 1,903 rows, two workouts with their timer left running (below).
    ("strong/strong_comma-12col_2020-2021_AlexandrosKyriakakis.csv", .strongCSV, 1903, 0),
    // Hevy: 226 rows, all sets.
    ("hevy/hevy_kg_2025_DaKheera47_EXCERPT.csv", .hevyCSV, 226, 0),
    // StrongLifts' spreadsheet: 24 rows, one workout each.
    ("stronglifts/stronglifts_spreadsheet-wide_2018-2019_chrispickford.csv", .strongLiftsCSV, 24, 0),
    // Apple Health's converter: one workout row, which has no sets and is ignored with a reason.
    ("apple-health/applehealthdata_Workout.csv", .appleHealthCSV, 1, 1),
  ])
func realExportsReadWithZeroRejects(path: String, format: ExportFormat, rows: Int, ignored: Int)
  throws
{
  let file = try read(path)
  #expect(file.format == format)
  #expect(file.rejects == [], "\(file.rejects)")
  #expect(file.rows.read == rows)
  #expect(file.rows.ignored == ignored)
  #expect(file.rows.accepted + file.rows.duplicate + file.rows.ignored == rows)
}

/// Strong variant A, 1,903 rows. Two workouts were left running: the rows of
/// 2021-02-22 18:37:40 (lines 369–387) say `42h 13m` and those of 2021-03-03 14:45:52
/// (lines 427–440) say `83h 31m`. No workout lasts 42 or 83 hours, but the 33 sets are real
/// (SPEC 10.2): they are all accepted, their duration dropped and each row listed with the
/// Duration column; the file's 86 sessions are all there.
@Test(TestPaths.needsShared("real-exports")) func strongVariantAKeepsTheSetsOfWorkoutsLeftRunning() throws {
  let file = try read("strong/strong_comma-12col_2020-2021_AlexandrosKyriakakis.csv")
  #expect(file.rows.read == 1903)
  #expect(file.sets.count == 1903)
  #expect(file.rows.valueDropped == 33)
  let dropped = file.notes.filter { $0.outcome == .valueDropped }
  #expect(dropped.map(\.line) == Array(369...387) + Array(427...440))
  #expect(Set(dropped.map(\.field)) == ["Duration"])
  #expect(
    dropped.first?.reason
      == "workout duration '42h 13m' is longer than 24 hours (a timer left running); the duration is dropped, "
      + "the sets kept"
  )
  #expect(dropped.first?.column == 39)  // `2021-02-22 18:37:40,"Evening Workout",` is 38 bytes
  #expect(file.sets.filter { $0.line >= 369 && $0.line <= 387 }.allSatisfy { $0.durationSeconds == nil })
  #expect(Set(file.sets.map(\.sessionKey)).count == 86)
}

/// StrongLifts' spreadsheet, 24 workouts from 19/11/18 to 26/01/19, day-first (the file has
/// days above 12). Worked by hand from its rows:
/// - line 2, `19/11/18`: Squat 40 kg × 5,5,5,5,5 = 1,000; Overhead Press 30 × 25 = 750; Deadlift
///   40 with no set cell filled (not done, no set): 10 sets, 1,750 kg;
/// - line 3, `22/11/18`: Squat 42.5 × 25 = 1,062.5; Bench Press 40 × (5,5,5,5,4) = 960; Barbell
///   Row 30 × 25 = 750: 15 sets, 2,772.5 kg;
/// - line 25, `26/01/19`: Squat 100 × 25, Bench 65 × 24, Row 65 × 25 = 5,685 kg.
/// The whole file: 326 sets and 90,755 kg (the sum of weight × reps over every filled set cell).
@Test(TestPaths.needsShared("real-exports")) func strongLiftsSpreadsheetReadsItsWorkouts() throws {
  let file = try read("stronglifts/stronglifts_spreadsheet-wide_2018-2019_chrispickford.csv")
  #expect(file.rows.read == 24)
  #expect(file.rows.accepted == 24)
  #expect(Set(file.sets.map(\.sessionKey)).count == 24)
  #expect(file.sets.count == 326)
  #expect(file.sets.reduce(0) { $0 + $1.weightKg * $1.reps } == 90_755)
  func volume(_ line: Int) -> Double { file.sets.filter { $0.line == line }.reduce(0) { $0 + $1.weightKg * $1.reps } }
  #expect(file.sets.filter { $0.line == 2 }.count == 10)
  #expect(volume(2) == 1750)
  #expect(volume(3) == 2772.5)
  #expect(volume(25) == 5685)
  // 2018-11-19 00:00 UTC, the first set the first of its row.
  #expect(file.sets[0].start == 1_542_585_600)
  #expect(file.sets[0].exercise == "Squat" && file.sets[0].setIndex == 1 && !file.sets[0].sharesRowWithPrevious)
  #expect(file.sets[1].sharesRowWithPrevious)
}

/// Strong variant E writes placeholder sets with every value empty
/// (`"2";"2025-08-19 13:47:15";"Midday Workout";"1834";"Leg Press";"4";"";"";…`), on lines 15, 27,
/// 82, 96, 123, 124 and 126. SPEC 9.5 reads empty values as 0, so each is a set of 0 kg × 0.
@Test(TestPaths.needsShared("real-exports")) func strongVariantEPlaceholderRowsAreSetsOfNothing() throws {
  let file = try read("strong/strong_semicolon-quoted-13col_2024-2025_DaKheera47.csv")
  let placeholders = file.sets.filter { [15, 27, 82, 96, 123, 124, 126].contains($0.line) }
  #expect(placeholders.count == 7)
  #expect(placeholders.allSatisfy { $0.weightKg == 0 && $0.reps == 0 })
}

/// The first rows of the Strong A file: `2020-12-30 18:51:52,"Evening Workout",2h 38m,
/// "Snatch (Barbell)",1,40.0,3,…` read in Europe/Athens (UTC+2 in December) start at
/// 16:51:52Z = 1,609,347,112; 2h 38m is 9,480 s.
@Test(TestPaths.needsShared("real-exports")) func strongVariantAValues() throws {
  let file = try read(
    "strong/strong_comma-12col_2020-2021_AlexandrosKyriakakis.csv",
    settings: ReadSettings(timeZone: TimeZone(identifier: "Europe/Athens")!))
  let first = file.sets[0]
  #expect(first.start == 1_609_347_112)
  #expect(first.durationSeconds == 9480)
  #expect(first.exercise == "Snatch (Barbell)")
  #expect(first.sessionName == "Evening Workout")
  #expect(first.weightKg == 40)
  #expect(first.reps == 3)
  #expect(first.setIndex == 1)
  #expect(first.line == 2)
}

/// Variant E states kilograms in its header and the duration in seconds (`"2134"`).
@Test(TestPaths.needsShared("real-exports")) func strongVariantEValues() throws {
  let file = try read(
    "strong/strong_semicolon-quoted-13col_2024-2025_DaKheera47.csv",
    settings: ReadSettings(weightUnit: .pounds))
  let first = file.sets[0]
  #expect(first.durationSeconds == 2134)
  #expect(first.weightKg == 10)  // the header's kg wins over the user's pounds (SPEC 9.4)
  #expect(first.reps == 16)
  #expect(first.exercise == "Bent Over Row (Barbell)")
}

/// Hevy: `"15 Sep 2025, 07:48"` → `"15 Sep 2025, 09:13"` is 85 minutes = 5,100 s; the first
/// rows are warm-ups at 39 kg × 10 (set_index 0).
@Test(TestPaths.needsShared("real-exports")) func hevyValues() throws {
  let file = try read("hevy/hevy_kg_2025_DaKheera47_EXCERPT.csv")
  let first = file.sets[0]
  #expect(first.durationSeconds == 5100)
  #expect(first.type == .warmup)
  #expect(first.weightKg == 39)
  #expect(first.reps == 10)
  #expect(first.setIndex == 0)
  #expect(first.exercise == "Seated Leg Curl (Machine)")
}
