import Foundation
import Testing
import TrendlineIngest

/// SPEC 11.4: a mapping suggested for an unknown CSV names a column only when its values fit,
/// takes done values over planned ones, and holds no placeholder that `validate` would accept.
@Suite struct MappingGuessTests {
  /// The mapping the refusal of `text` suggests, or nil when it offers none.
  static func suggestion(_ text: String) -> String? {
    do {
      _ = try ExportReader.read(file: "other.csv", bytes: Array(text.utf8), settings: ReadSettings())
      return "read"
    } catch {
      let marker = "to check and paste into the pipeline's source: "
      guard let range = error.message.range(of: marker) else { return nil }
      return String(error.message[range.upperBound...])
    }
  }

  /// A layout like Liftosaur's (which has its own reader): the day's name is no date, planned
  /// weights and reps are not what was done, and the warm-up flag is no set number.
  @Test func doneValuesOverPlannedOnes() {
    let text =
      "Workout DateTime,Program,Day Name,Exercise,Is Warmup Set?,Required Reps,Completed Reps,"
      + "Required Weight,Completed Weight\n"
      + "2025-11-05T07:28:35.243Z,PPL,Day 1,Bench Press,0,5,5,60,62.5\n"
      + "2025-11-05T07:28:35.243Z,PPL,Day 1,Bench Press,1,5,4,40,40\n"
    #expect(
      Self.suggestion(text)
        == #""format": "csv", "csv": {"columns": {"start": "Workout DateTime", "exercise": "Exercise", "#
        + #""session": "Program", "weight": "Completed Weight", "reps": "Completed Reps"}}"#)
  }

  /// An activity's id is a number, not an exercise's name: the activity's type is taken
  /// instead.
  @Test func aNumberIsNoExerciseName() {
    let text = """
      Activity ID,Activity Name,Date,Reps
      9921,Morning,2026-01-05 07:00:00,10
      9922,Evening,2026-01-05 19:00:00,12

      """
    #expect(
      Self.suggestion(text)
        == #""format": "csv", "csv": {"columns": {"start": "Date", "exercise": "Activity Name", "reps": "Reps"}}"#)
  }

  /// Dates no known pattern reads leave no `start` to map, so no mapping is offered at all,
  /// rather than one with a placeholder for the pattern.
  @Test func datesNoPatternReadsGiveNoMapping() {
    let text = """
      date,exercise,reps
      5th of May,Squat,5

      """
    #expect(Self.suggestion(text) == nil)
  }

  /// A placeholder is no pattern: letters other than the pattern's are refused, so `validate`
  /// refuses what `run` could not read.
  @Test func aPlaceholderIsNoDatePattern() {
    #expect(
      DatePattern.problem("CHECK: a pattern of yyyy MM dd HH mm ss")
        == "dateFormat 'CHECK: a pattern of yyyy MM dd HH mm ss' has 'C', which is not a pattern letter (yyyy or yy, "
        + "MM or MMM, dd, HH or hh, mm, ss, a, and T between a date and a time); quote literal text, as in 'UTC'")
    #expect(DatePattern.problem("yyyy-MM-ddTHH:mm") == nil)
    // Literal text is quoted, as in ICU's patterns.
    #expect(DatePattern.problem("dd.MM.yyyy HH:mm 'UTC'") == nil)
    #expect(
      DatePattern.problem("dd.MM.yyyy 'UTC")
        == "dateFormat 'dd.MM.yyyy 'UTC' has a quote that is never closed; "
        + "write literal text as 'UTC' and a quote as ''"
    )
    var text = "05.11.2026 18:30 UTC"
    #expect(
      text.withUTF8 { DatePattern("dd.MM.yyyy HH:mm 'UTC'").parse($0) }?.civil
        == CivilDateTime(year: 2026, month: 11, day: 5, hour: 18, minute: 30))
    text = "it's 05.11.2026"
    #expect(text.withUTF8 { DatePattern("'it''s' dd.MM.yyyy").parse($0) }?.civil.day == 5)
  }
}
