import Foundation
import Testing
import TrendlineIngest
import TrendlineSupport
import _TrendlineTestSupport

/// Bad files, each with the outcome it must produce, read as the run reads them
/// (`ExportReader` with `source.format: auto`). The files are in `Tests/Fixtures/hostile/`;
/// the large ones (a 10 MB field, 100,000 columns, JSON nested 100,000 deep, a file over the
/// size limit) are generated here at run time, so the repository stays small.
///
/// An outcome is either the error that fails the file (`file:line:column: error: …`), or the
/// file's accounting followed by every rejected row. Whatever the file, the accounting
/// identity holds and no value that is not finite is accepted.
@Suite struct HostileInputTests {
  static let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/hostile")

  /// Reads `bytes` as the export `name` and describes the outcome in one string.
  static func outcome(
    _ name: String, _ bytes: [UInt8], format: ExportReader.FormatChoice = .auto, limits: ReadLimits = ReadLimits(),
    layout: MappedCSVLayout? = nil
  ) -> String {
    let settings = ReadSettings(timeZone: TimeZone(identifier: "UTC")!)
    do {
      let ingest = try ExportReader.read(
        file: name, bytes: bytes, format: format, settings: settings, layout: layout, limits: limits)
      let accepted = ingest.sets.filter { !$0.sharesRowWithPrevious }.count
      let accounted = accepted + ingest.rows.rejected + ingest.rows.duplicate + ingest.rows.ignored
      #expect(ingest.rows.read == accounted, "accounting identity for \(name)")
      #expect(ingest.sets.allSatisfy { $0.weightKg.isFinite && $0.reps.isFinite && $0.distanceMeters.isFinite })
      var text =
        "read \(ingest.rows.read): accepted \(accepted), rejected \(ingest.rejects.count), "
        + "duplicate \(ingest.rows.duplicate), ignored \(ingest.rows.ignored)"
      for note in ingest.notes { text += "\n" + note.description }
      return text
    } catch {
      return error.description
    }
  }

  static let cases: [(file: String, expected: String)] = [
    (
      "1e400-native.json",
      #"""
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      1e400-native.json:1:199: error: weight: weight is not a finite number
      """#
    ),
    (
      "1e400-reps-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      1e400-reps-strong.csv:3:68: error: Reps: '1e400' is not a number
      """#
    ),
    (
      "1e400-weight-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      1e400-weight-strong.csv:3:63: error: Weight: '1e400' is not a number
      """#
    ),
    (
      "array-line.ndjson",
      #"""
      read 3: accepted 2, rejected 1, duplicate 0, ignored 0
      array-line.ndjson:2:1: error: a line must be one JSON object (a set)
      """#
    ),
    (
      "bad-date-fitbod.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      bad-date-fitbod.csv:3:1: error: Date: 'yesterday' is not a date and time
      """#
    ),
    (
      "bad-unit-fitnotes.csv",
      #"""
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      bad-unit-fitnotes.csv:2:48: error: Weight Unit: 'stone' is not a weight unit (kg or lbs)
      """#
    ),
    (
      "bare-quote-strong.csv",
      #"""
      read 3: accepted 2, rejected 1, duplicate 0, ignored 0
      bare-quote-strong.csv:3:24: error: quote inside an unquoted field; quote the whole field and double the quote
      """#
    ),
    (
      "binary-junk-after-header-strong.csv",
      #"""
      read 4: accepted 0, rejected 4, duplicate 0, ignored 0
      binary-junk-after-header-strong.csv:2:1: error: Date: invalid UTF-8 (byte 0xDE); save the file as UTF-8
      binary-junk-after-header-strong.csv:3:1: error: Date: invalid UTF-8 (byte 0xCA); save the file as UTF-8
      binary-junk-after-header-strong.csv:4:1: error: Date: invalid UTF-8 (byte 0x86); save the file as UTF-8
      binary-junk-after-header-strong.csv:5:215: error: quote inside an unquoted field; \#
      quote the whole field and double the quote
      """#
    ),
    (
      "binary-junk.csv",
      #"binary-junk.csv:1:1: error: not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, "#
        + #"StrongLifts, GymBook, Liftosaur, JEFIT, native JSON or NDJSON); for another app's CSV set "#
        + #"source.format to "csv" with a source.csv column mapping"#
    ),
    (
      "bom-only.csv",
      #"bom-only.csv:1:1: error: not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, "#
        + #"StrongLifts, GymBook, Liftosaur, JEFIT, native JSON or NDJSON); for another app's CSV set "#
        + #"source.format to "csv" with a source.csv column mapping"#
    ),
    ("cr-only-strong.csv", "read 2: accepted 2, rejected 0, duplicate 0, ignored 0"),
    (
      "duplicate-header-strong.csv",
      "duplicate-header-strong.csv:1:64: error: column 'Weight' appears twice in the header (columns 6 and 8); "
        + "remove or rename one"
    ),
    (
      "duration-over-24h-strong.csv",
      #"""
      read 2: accepted 2, rejected 0, duplicate 0, ignored 0
      duration-over-24h-strong.csv:3:31: note: value-dropped: Duration: workout duration '25h' is longer than 24 \#
      hours (a timer left running); the duration is dropped, the sets kept
      """#
    ),
    ("empty.csv", "empty.csv:1:1: error: the file is empty; export it again from the app"),
    (
      "formula-injection-strong.csv",
      #"""
      read 2: accepted 0, rejected 2, duplicate 0, ignored 0
      formula-injection-strong.csv:2:72: error: Weight: 'abc' is not a number
      formula-injection-strong.csv:3:65: error: Reps: 'x' is not a number
      """#
    ),
    ("header-only-no-newline-strong.csv", "read 0: accepted 0, rejected 0, duplicate 0, ignored 0"),
    ("header-only-strong.csv", "read 0: accepted 0, rejected 0, duplicate 0, ignored 0"),
    (
      "huge-index.ndjson",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      huge-index.ndjson:2:1: error: index: index must be a whole number from 0 to 2147483647
      """#
    ),
    (
      "huge-set-index-hevy.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      huge-set-index-hevy.csv:3:75: error: set_index: '99999999999999999999' is not a set index
      """#
    ),
    (
      "impossible-date-strong.csv",
      #"""
      read 3: accepted 1, rejected 2, duplicate 0, ignored 0
      impossible-date-strong.csv:3:1: error: Date: '2025-02-30 10:00:00' is not a date and time
      impossible-date-strong.csv:4:1: error: Date: '2025-13-01 10:00:00' is not a date and time
      """#
    ),
    (
      "infinity-weight-strong.csv",
      #"""
      read 3: accepted 1, rejected 2, duplicate 0, ignored 0
      infinity-weight-strong.csv:3:63: error: Weight: 'Infinity' is not a number
      infinity-weight-strong.csv:4:63: error: Weight: '-inf' is not a number
      """#
    ),
    (
      "infinity.ndjson",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      infinity.ndjson:2:140: error: unexpected character 'I', expected a value
      """#
    ),
    ("invalid-utf8-native.json", "invalid-utf8-native.json:1:136: error: invalid UTF-8 byte 0xC3 in string"),
    (
      "invalid-utf8-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      invalid-utf8-strong.csv:3:34: error: Exercise Name: invalid UTF-8 (byte 0xFF); save the file as UTF-8
      """#
    ),
    (
      "missing-column-strong.csv",
      #"missing-column-strong.csv:1:1: error: Strong (English header): the header has no 'Workout Name' column; "#
        + #"the header is: Date, Duration, Exercise Name, Set Order, Weight, Reps, Distance, Seconds, Notes, "#
        + #"Workout Notes, RPE; if this is another app's CSV, or a variant Trendline does not know, "#
        + #"read it with source.format "csv" and a source.csv column mapping"#
    ),
    (
      "missing-header-strong.csv",
      #"missing-header-strong.csv:1:1: error: not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, "#
        + #"StrongLifts, GymBook, Liftosaur, JEFIT, native JSON or NDJSON); for another app's CSV set "#
        + #"source.format to "csv" with a source.csv column mapping"#
    ),
    ("nan-native.json", "nan-native.json:1:199: error: unexpected character 'N', expected a value"),
    (
      "nan-weight-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      nan-weight-strong.csv:3:63: error: Weight: 'NaN' is not a number
      """#
    ),
    (
      "negative-duration-hevy.csv",
      #"""
      read 2: accepted 2, rejected 0, duplicate 0, ignored 0
      negative-duration-hevy.csv:3:29: note: value-dropped: end_time: \#
      end_time '16 Sep 2025, 07:48' is before start_time; the duration is dropped, the sets kept
      """#
    ),
    (
      "negative-duration-native.json",
      #"""
      read 1: accepted 1, rejected 0, duplicate 0, ignored 0
      negative-duration-native.json:1:119: note: value-dropped: durationSeconds: workout duration '-60' is negative; \#
      the duration is dropped, the sets kept
      """#
    ),
    (
      "negative-duration-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      negative-duration-strong.csv:3:31: error: Duration: '-1h 5m' is not a duration (like 1h 5m, 45m, \#
      01:05:00 or seconds)
      """#
    ),
    (
      "non-object-session-native.json",
      #"""
      read 4: accepted 1, rejected 3, duplicate 0, ignored 0
      non-object-session-native.json:1:15: error: a session must be an object
      non-object-session-native.json:2:91: error: sets: sets must be an array of sets
      non-object-session-native.json:3:139: error: exercise: exercise is missing or not a string
      """#
    ),
    ("nul-bytes-strong.csv", "read 2: accepted 2, rejected 0, duplicate 0, ignored 0"),
    (
      "out-of-range-values-strong.csv",
      #"""
      read 4: accepted 1, rejected 3, duplicate 0, ignored 0
      out-of-range-values-strong.csv:3:63: error: Weight: weight '-5' is negative
      out-of-range-values-strong.csv:4:68: error: Reps: reps '1001' is more than 1000
      out-of-range-values-strong.csv:5:63: error: Weight: weight '1501' is more than 1500 kg
      """#
    ),
    (
      "sessions-not-array-native.json",
      #"sessions-not-array-native.json:1:1: error: a native JSON export is an object with a "sessions" array"#
    ),
    (
      "too-few-fields-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      too-few-fields-strong.csv:3:31: error: expected 12 fields as in the header, found 3
      """#
    ),
    (
      "too-many-fields-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      too-many-fields-strong.csv:3:83: error: expected 12 fields as in the header, found 14
      """#
    ),
    (
      "top-level-scalar.json",
      #"top-level-scalar.json:1:1: error: not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, "#
        + #"StrongLifts, GymBook, Liftosaur, JEFIT, native JSON or NDJSON); for another app's CSV set "#
        + #"source.format to "csv" with a source.csv column mapping"#
    ),
    (
      "trailing-garbage-native.json",
      "trailing-garbage-native.json:2:1: error: unexpected character '}', expected end of input"
    ),
    (
      "truncated-fitnotes.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      truncated-fitnotes.csv:3:43: error: expected 10 fields as in the header, found 4
      """#
    ),
    (
      "truncated-in-quotes-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      truncated-in-quotes-strong.csv:3:21: error: quoted field is never closed
      """#
    ),
    (
      "truncated-mid-row-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      truncated-mid-row-strong.csv:3:37: error: quoted field is never closed
      """#
    ),
    ("truncated-native.json", "truncated-native.json:1:200: error: unexpected end of input, expected ',' or '}'"),
    (
      "truncated.ndjson",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      truncated.ndjson:2:154: error: unexpected end of input, expected a value
      """#
    ),
    (
      "unknown-time-zone-native.json",
      #"unknown-time-zone-native.json:1:14: error: timeZone must be an IANA zone name such as "Europe/Oslo""#
    ),
    (
      "unknown-weight-unit-native.json",
      #"unknown-weight-unit-native.json:1:35: error: weightUnit must be "kg" or "lb""#
    ),
    (
      "utf16-strong.csv",
      "utf16-strong.csv:1:1: error: the file is UTF-16; save or export it as UTF-8 and read it again"
    ),
    (
      "whitespace-only.csv",
      #"whitespace-only.csv:1:1: error: not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, "#
        + #"StrongLifts, GymBook, Liftosaur, JEFIT, native JSON or NDJSON); for another app's CSV set "#
        + #"source.format to "csv" with a source.csv column mapping"#
    ),
    (
      "year-0-native.json",
      #"""
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      year-0-native.json:1:76: error: start: '0000-01-01T00:00:00Z' is before 1970, which no workout log holds
      """#
    ),
    (
      "year-0-strong.csv",
      #"""
      read 2: accepted 1, rejected 1, duplicate 0, ignored 0
      year-0-strong.csv:3:1: error: Date: '0000-01-01 10:00:00' is before 1970, which no workout log holds
      """#
    ),
    (
      "year-1969-strong.csv",
      #"""
      read 1: accepted 0, rejected 1, duplicate 0, ignored 0
      year-1969-strong.csv:2:1: error: Date: '1969-12-31 23:59:59' is before 1970, which no workout log holds
      """#
    ),
    ("year-9999-native.json", "read 1: accepted 1, rejected 0, duplicate 0, ignored 0"),
    ("year-9999-strong.csv", "read 2: accepted 2, rejected 0, duplicate 0, ignored 0"),
  ]

  @Test(arguments: cases)
  func hostileFile(file: String, expected: String) throws {
    let bytes = try TestPaths.bytes(Self.folder.appendingPathComponent(file))
    let actual = Self.outcome(file, bytes)
    #expect(actual == expected)
  }

  /// The UTF-8 check reads eight bytes at a time and then the last few one by one: a bad
  /// last byte is found wherever it falls (the padding moves it through all eight positions
  /// of a word, so it is in a whole word once and in the tail seven times).
  @Test(arguments: 0..<8)
  func invalidUTF8IsFoundInTheLastWordAndInTheTail(padding: Int) {
    let text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2025-01-06 10:00:00,Legs,Squat,1,100,5"
    let bytes = Array((text + String(repeating: "0", count: padding)).utf8) + [0xFF]
    #expect(
      Self.outcome("padded.csv", bytes) == """
        read 1: accepted 0, rejected 1, duplicate 0, ignored 0
        padded.csv:2:38: error: Reps: invalid UTF-8 (byte 0xFF); save the file as UTF-8
        """)
  }

  /// Every committed fixture has a row in the table, so a new file cannot go unchecked.
  @Test func everyFixtureIsInTheTable() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
    #expect(Set(names) == Set(Self.cases.map(\.file)))
    #expect(names.count >= 40)
  }
}
