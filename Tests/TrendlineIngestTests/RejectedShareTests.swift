import Testing
import TrendlineIngest
import TrendlineSchema

/// SPEC 11.2: a file mostly rejected fails its user, naming the file, the share and the
/// commonest reasons with a line each.
@Suite struct RejectedShareTests {
  static func file(_ name: String, read: Int, rejected: Int, ignored: Int = 0) -> FileAccounting {
    FileAccounting(
      file: name, format: "hevy-csv",
      rows: RowCounts(read: read, accepted: read - rejected - ignored, rejected: rejected, ignored: ignored),
      ignoredByReason: ignored > 0 ? ["Strong rest timer row": ignored] : [:])
  }

  static func reject(_ file: String, _ line: Int, _ field: String, _ reason: String) -> RowNote {
    RowNote(file: file, line: line, column: 1, field: field, reason: reason)
  }

  @Test func aFileOverTheShareFailsWithItsCommonestReasons() {
    // 4 of 5 rows rejected: 80 %. Three dates in one shape, one weight.
    let notes = [
      Self.reject("h.csv", 2, "start_time", "'30 abr 2024, 19:25' is not a date and time"),
      Self.reject("h.csv", 3, "weight_kg", "weight '-5' is negative"),
      Self.reject("h.csv", 5, "start_time", "'2 dic 2024, 08:00' is not a date and time"),
      Self.reject("h.csv", 6, "start_time", "'9 ene 2025, 07:10' is not a date and time"),
    ]
    let problem = RejectedShare.problem(
      files: [Self.file("h.csv", read: 5, rejected: 4)], notes: notes, limit: 0.05)
    #expect(
      problem
        == "h.csv: 80 % of its rows are rejected (4 of 5), over source.limits.maxRejectedShare 0.05; "
        + "the commonest reasons: start_time: '30 abr 2024, 19:25' is not a date and time (3 rows, first at line 2); "
        + "weight_kg: weight '-5' is negative (1 row, first at line 3); see row-outcomes.csv for every row, "
        + "fix or re-export the file, or raise the limit in the pipeline")
  }

  /// 1 of 20 is exactly 0.05: at the limit is within it. 2 of 20 is over.
  @Test func theLimitItselfIsWithin() {
    let notes = [Self.reject("a.csv", 2, "Reps", "reps 'x' is not a number")]
    #expect(RejectedShare.problem(files: [Self.file("a.csv", read: 20, rejected: 1)], notes: notes, limit: 0.05) == nil)
    let two = notes + [Self.reject("a.csv", 3, "Reps", "reps 'y' is not a number")]
    let problem = RejectedShare.problem(files: [Self.file("a.csv", read: 20, rejected: 2)], notes: two, limit: 0.05)
    #expect(problem?.hasPrefix("a.csv: 10 % of its rows are rejected (2 of 20)") == true, "\(problem ?? "nil")")
  }

  /// Ignored rows (blank lines, rest-timer rows, sections not read) are not rows that could be
  /// sets: 2 rejected of 4 such rows, padded with 96 ignored ones, is half.
  @Test func ignoredRowsDoNotDiluteTheShare() {
    let notes = [
      Self.reject("a.csv", 2, "Reps", "reps 'x' is not a number"),
      Self.reject("a.csv", 3, "Reps", "reps 'y' is not a number"),
    ]
    let problem = RejectedShare.problem(
      files: [Self.file("a.csv", read: 100, rejected: 2, ignored: 96)], notes: notes, limit: 0.05)
    #expect(problem?.hasPrefix("a.csv: 50 % of its rows are rejected (2 of 4)") == true, "\(problem ?? "nil")")
  }

  /// Files are judged one by one: a good export beside an unreadable one does not hide it.
  @Test func eachFileIsJudgedOnItsOwn() {
    let notes = [Self.reject("b.csv", 2, "", "expected 12 fields as in the header, found 3")]
    let files = [Self.file("a.csv", read: 1000, rejected: 0), Self.file("b.csv", read: 1, rejected: 1)]
    #expect(
      RejectedShare.problem(files: files, notes: notes, limit: 0.05)
        == "b.csv: 100 % of its rows are rejected (1 of 1), over source.limits.maxRejectedShare 0.05; "
        + "the commonest reasons: expected 12 fields as in the header, found 3 (1 row, first at line 2); "
        + "see row-outcomes.csv for every row, fix or re-export the file, or raise the limit in the pipeline")
  }

  /// 1 of 1000 rounds to 0 % and 999 of 1000 to 100 %: neither is shown, the share is not that.
  @Test func aShareIsNeverShownAsNoneOrAll() {
    #expect(RejectedShare.percent(1, of: 1000) == "1 %")
    #expect(RejectedShare.percent(999, of: 1000) == "99 %")
    #expect(RejectedShare.percent(1000, of: 1000) == "100 %")
    #expect(RejectedShare.percent(2, of: 3) == "67 %")
  }

  @Test func limitsOfZeroAndOne() {
    let notes = [Self.reject("a.csv", 2, "Reps", "reps 'x' is not a number")]
    let files = [Self.file("a.csv", read: 1000, rejected: 1)]
    #expect(RejectedShare.problem(files: files, notes: notes, limit: 0) != nil)
    let all = [Self.file("a.csv", read: 1, rejected: 1)]
    #expect(RejectedShare.problem(files: all, notes: notes, limit: 1) == nil)
  }
}

/// A file of 25,000 rejected rows lists the first 10,000 and one note saying the rest are
/// counted, not listed (SPEC 11.6): every count has every row, and memory follows the bound,
/// not the file's rejected rows.
@Test func rowsPastTheListingBoundAreCountedNotListed() throws {
  let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
  let bad = String(repeating: "2026-11-20 10:00:00,A,1h,Squat (Barbell),1,abc,5,0,0,,,\n", count: 25_000)
  let text = header + "\n2026-11-20 10:00:00,A,1h,Squat (Barbell),1,100,5,0,0,,,\n" + bad
  let file = try ExportReader.read(file: "big.csv", bytes: Array(text.utf8), settings: ReadSettings())
  #expect(file.rows.read == 25_001)
  #expect(file.rows.rejected == 25_000)
  #expect(file.sets.count == 1)
  #expect(file.notes.count == 10_001)
  #expect(file.notes[9_999].line == 10_002)
  #expect(
    file.notes.last?.description
      == "big.csv:10003:1: error: this row and the file's later rejected rows are counted (the manifest has every "
      + "count) but not listed: a file lists at most 10000 rows; the first is 'abc' is not a number")
}
