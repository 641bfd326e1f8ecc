import Foundation
import Testing
import TrendlineIngest
import TrendlineSupport
import _TrendlineTestSupport

/// Inputs that crashed, hung or ran away with memory under `Fuzz/run.sh`, inlined as bytes,
/// each with the outcome it has now. Every one goes through ``HostileInputTests/outcome``,
/// which also checks the accounting identity.
@Suite struct FuzzRegressionTests {
  static let mappedLayout = MappedCSVLayout(
    columns: .init(start: "day", exercise: "lift", setIndex: "set"), dateFormat: "yyyy-MM-dd")

  /// A set index past `Int.max` trapped in `Int(_: Double)` (Hevy's `set_index`, the mapped
  /// CSV's `setIndex`); the row is rejected.
  @Test(arguments: [
    (
      "hevy.csv", ExportFormat.hevyCSV,
      Array(
        """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index",\
        "set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Legs","15 Sep 2025, 07:48","15 Sep 2025, 09:13","","Squat (Barbell)",,"",99999999999999999999,"normal",60,5,,0,

        """.utf8),
      """
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      hevy.csv:2:75: error: set_index: '99999999999999999999' is not a set index
      """
    ),
    (
      "mapped.csv", ExportFormat.mappedCSV,
      Array("day,lift,set\n2025-09-15,Squat,99999999999999999999\n2025-09-15,Squat,1e300\n".utf8),
      """
      read 2: accepted 0, rejected 2, duplicate 0, ignored 0
      mapped.csv:2:18: error: set: '99999999999999999999' is not a set index
      mapped.csv:3:18: error: set: '1e300' is not a set index
      """
    ),
  ])
  func hugeSetIndexIsRejected(file: String, format: ExportFormat, bytes: [UInt8], expected: String) {
    #expect(HostileInputTests.outcome(file, bytes, format: .fixed(format), layout: Self.mappedLayout) == expected)
  }
}
