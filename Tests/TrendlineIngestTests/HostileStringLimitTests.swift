import Foundation
import Testing
import TrendlineIngest
import TrendlineSupport
import _TrendlineTestSupport

/// Strings without an end: a JSON string is held to `source.limits.maxFieldKB` as a CSV field
/// is, and a name that charts would show (an exercise's, a workout's) to 200 characters in
/// every format, so that no string of an export can make a chart of hundreds of megabytes.
@Suite struct HostileStringLimitTests {
  static let strongHeader = HostileLargeInputTests.strongHeader
  static let nativeStart = #"{"sessions": [{"start": "2025-01-08T13:04:52Z", "sets": ["#
  static let x40 = String(repeating: "x", count: 40)

  /// A 2 MB exercise name in a native export fails the file at the string's opening quote,
  /// naming the setting; raised, the file is read and the name rejects its row.
  @Test func nativeStringOverTheLimitFailsTheFile() {
    let text =
      Self.nativeStart + "\n" + #"{"exercise": ""# + String(repeating: "x", count: 2_000_000) + #"", "reps": 5}]}]}"#
    #expect(
      HostileInputTests.outcome("long.json", Array(text.utf8))
        == "long.json:2:14: error: string is longer than the limit of 1048576 bytes; "
        + "raise source.limits.maxFieldKB to read it"
    )
    let raised = HostileInputTests.outcome("long.json", Array(text.utf8), limits: ReadLimits(maxFieldBytes: 4 << 20))
    #expect(
      raised == """
        read 1: accepted 0, rejected 1, duplicate 0, ignored 0
        long.json:2:14: error: exercise: the name is 2000000 characters long ('\(Self.x40)…'), \
        over the limit of 200 characters for a name on a chart
        """)
  }

  /// A member key is a string too, held to the same limit.
  @Test func nativeKeyOverTheLimitFailsTheFile() {
    let text = #"{"sessions": [], ""# + String(repeating: "k", count: 2_000_000) + #"": 1}"#
    #expect(
      HostileInputTests.outcome("key.json", Array(text.utf8))
        == "key.json:1:18: error: string is longer than the limit of 1048576 bytes; "
        + "raise source.limits.maxFieldKB to read it"
    )
  }

  /// In NDJSON the line with the string is one rejected row; the next line is read.
  @Test func ndjsonStringOverTheLimitRejectsItsLine() {
    let line = #"{"session": "a", "start": "2025-01-08T13:04:52Z", "exercise": "Squat", "reps": 5}"#
    let long =
      #"{"session": "a", "start": "2025-01-08T13:04:52Z", "exercise": ""# + String(repeating: "x", count: 2_000_000)
      + #""}"#
    let text = long + "\n" + line + "\n"
    #expect(
      HostileInputTests.outcome("long.ndjson", Array(text.utf8)) == """
        read 2: accepted 1, rejected 1, duplicate 0, ignored 0
        long.ndjson:1:63: error: string is longer than the limit of 1048576 bytes; \
        raise source.limits.maxFieldKB to read it
        """)
  }

  /// 200 characters is a name; 201 rejects the row, in CSV as in JSON, for exercise and
  /// workout names alike. Characters, not bytes: 200 `é` (400 bytes) are a name.
  @Test(arguments: [
    (
      "name-200-strong.csv",
      "\(strongHeader)\n"
        + "2025-01-08 13:04:52,\"Evening\",1h 1m,\"\(String(repeating: "x", count: 200))\",1,60.0,5,0,0,,,\n",
      "read 1: accepted 1, rejected 0, duplicate 0, ignored 0"
    ),
    (
      "name-200-accents-strong.csv",
      "\(strongHeader)\n"
        + "2025-01-08 13:04:52,\"Evening\",1h 1m,\"\(String(repeating: "é", count: 200))\",1,60.0,5,0,0,,,\n",
      "read 1: accepted 1, rejected 0, duplicate 0, ignored 0"
    ),
    (
      "exercise-201-strong.csv",
      "\(strongHeader)\n"
        + "2025-01-08 13:04:52,\"Evening\",1h 1m,\"\(String(repeating: "x", count: 201))\",1,60.0,5,0,0,,,\n",
      """
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      exercise-201-strong.csv:2:37: error: Exercise Name: the name is 201 characters long ('\(x40)…'), \
      over the limit of 200 characters for a name on a chart
      """
    ),
    (
      "workout-201-strong.csv",
      "\(strongHeader)\n"
        + "2025-01-08 13:04:52,\"\(String(repeating: "x", count: 201))\",1h 1m,\"Squat\",1,60.0,5,0,0,,,\n",
      """
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      workout-201-strong.csv:2:21: error: Workout Name: the name is 201 characters long ('\(x40)…'), \
      over the limit of 200 characters for a name on a chart
      """
    ),
    (
      "exercise-201-native.json",
      nativeStart + "\n" + #"{"exercise": "Squat"}, {"exercise": ""# + String(repeating: "x", count: 201) + #""}]}]}"#,
      """
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      exercise-201-native.json:2:37: error: exercise: the name is 201 characters long ('\(x40)…'), \
      over the limit of 200 characters for a name on a chart
      """
    ),
    (
      "workout-201-native.json",
      #"{"sessions": [{"start": "2025-01-08T13:04:52Z", "name": ""# + String(repeating: "x", count: 201)
        + #"", "sets": [{"exercise": "Squat"}, {"exercise": "Squat"}]}]}"#,
      """
      read 2: accepted 0, rejected 2, duplicate 0, ignored 0
      workout-201-native.json:1:57: error: name: the name is 201 characters long ('\(x40)…'), \
      over the limit of 200 characters for a name on a chart
      workout-201-native.json:1:57: error: name: the name is 201 characters long ('\(x40)…'), \
      over the limit of 200 characters for a name on a chart
      """
    ),
  ])
  func namesLongerThan200CharactersRejectTheirRow(file: String, text: String, expected: String) {
    #expect(HostileInputTests.outcome(file, Array(text.utf8)) == expected)
  }

  /// The file's own units may follow its sessions: each session is decoded as it is parsed,
  /// yet with the units stated after it.
  @Test func nativeUnitsAfterTheSessionsStillApply() throws {
    let text =
      #"{"sessions": [{"start": "2025-01-08T13:04:52Z", "sets": [{"exercise": "Squat", "weight": 100, "reps": 5}]}], "#
      + #""weightUnit": "lb"}"#
    let ingest = try ExportReader.read(
      file: "late.json", bytes: Array(text.utf8), settings: ReadSettings(timeZone: TimeZone(identifier: "UTC")!))
    #expect(ingest.sets.map(\.weightKg) == [45.359237])
  }

  /// Two `sessions` members: the last is the one read, as a lookup reads a repeated key.
  @Test func nativeRepeatedSessionsKeyReadsTheLast() throws {
    let text =
      #"{"sessions": [{"start": "2025-01-08T13:04:52Z", "sets": [{"exercise": "Squat"}]}], "sessions": [{"start": "#
      + #""2025-01-09T13:04:52Z", "sets": [{"exercise": "Row"}, {"exercise": "Row", "reps": 1}]}]}"#
    let ingest = try ExportReader.read(
      file: "twice.json", bytes: Array(text.utf8), settings: ReadSettings(timeZone: TimeZone(identifier: "UTC")!))
    #expect(ingest.rows.read == 2)
    #expect(ingest.sets.map(\.exercise) == ["Row", "Row"])
  }

  /// One character with 500 combining accents is one character but 1,001 bytes: the name is
  /// bounded in bytes too, so a name cannot grow without bound under the character limit.
  @Test func aNameOfCombiningMarksIsBoundedInBytes() {
    let name = "q" + String(repeating: "\u{301}", count: 500)
    let text = Self.nativeStart + "\n" + #"{"exercise": ""# + name + #"", "reps": 5}]}]}"#
    let outcome = HostileInputTests.outcome("marks.json", Array(text.utf8))
    #expect(
      outcome.hasPrefix(
        "read 1: accepted 0, rejected 1, duplicate 0, ignored 0\nmarks.json:2:14: error: exercise: "
          + "the name is 1001 bytes long"
      ), "\(outcome)")
    #expect(outcome.hasSuffix("over the limit of 800 bytes for a name on a chart"), "\(outcome)")
  }
}
