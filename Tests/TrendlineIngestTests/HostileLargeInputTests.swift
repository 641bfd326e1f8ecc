import Foundation
import Testing
import TrendlineIngest
import TrendlineSupport
import _TrendlineTestSupport

/// Inputs too large to commit, generated here: each is refused at a limit, with the file and
/// line, in bounded time, and each limit can be raised (`source.limits` in the pipeline file).
@Suite struct HostileLargeInputTests {
  static let strongHeader =
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
  static let strongRow = "2025-01-08 13:04:52,\"Evening\",1h 1m,\"Bench Press (Barbell)\",1,60.0,5,0,0,,,"

  /// A 10 MB quoted field: the record is rejected at the field, the rows around it are read.
  @Test func tenMegabyteFieldIsRejected() {
    let huge = String(repeating: "x", count: 10_000_000)
    let text =
      "\(Self.strongHeader)\n\(Self.strongRow)\n2025-01-08 13:04:52,\"Evening\",1h 1m,\"\(huge)\",2,60.0,5,0,0,,,\n"
      + Self.strongRow.replacingOccurrences(of: ",1,60.0", with: ",3,60.0") + "\n"
    let outcome = HostileInputTests.outcome("field.csv", Array(text.utf8))
    #expect(
      outcome == """
        read 3: accepted 2, rejected 1, duplicate 0, ignored 0
        field.csv:3:37: error: field is longer than the limit of 1048576 bytes; \
        raise source.limits.maxFieldKB to read it
        """)
    // Raised to 16 MiB, the field is read, and as an exercise name it is far over the limit
    // of a name on a chart: the row is still rejected, now for its name.
    let raised = HostileInputTests.outcome("field.csv", Array(text.utf8), limits: ReadLimits(maxFieldBytes: 16 << 20))
    #expect(
      raised == """
        read 3: accepted 2, rejected 1, duplicate 0, ignored 0
        field.csv:3:37: error: Exercise Name: \
        the name is 10000000 characters long ('\(String(repeating: "x", count: 40))…'), \
        over the limit of 200 characters for a name on a chart
        """)
  }

  /// 100,000 columns: the header alone fails the file, before any row is read.
  @Test func hundredThousandColumnsFailTheFile() {
    let extra = (0..<100_000).map { "c\($0)" }.joined(separator: ",")
    let text = "\(Self.strongHeader),\(extra)\n\(Self.strongRow)\(String(repeating: ",", count: 100_000))\n"
    let outcome = HostileInputTests.outcome("wide.csv", Array(text.utf8))
    #expect(
      outcome
        == "wide.csv:1:1: error: the header has more than 1000 columns, over the limit; "
        + "raise source.limits.maxColumns to read the file"
    )
    let raised = HostileInputTests.outcome("wide.csv", Array(text.utf8), limits: ReadLimits(maxColumns: 200_000))
    #expect(raised == "read 1: accepted 1, rejected 0, duplicate 0, ignored 0")
  }

  /// A record with far more fields than its header is one rejected row, and the reader stops
  /// collecting its fields at the limit (a file of commas cannot cost 40 bytes per comma).
  @Test func recordWithTooManyFieldsIsRejected() {
    let text = "\(Self.strongHeader)\n\(Self.strongRow)\(String(repeating: ",", count: 200_000))\n\(Self.strongRow)\n"
    #expect(
      HostileInputTests.outcome("commas.csv", Array(text.utf8)) == """
        read 2: accepted 1, rejected 1, duplicate 0, ignored 0
        commas.csv:2:1065: error: a record has more than 1000 fields; raise source.limits.maxColumns to read it
        """)
  }

  /// JSON nested 100,000 deep: refused at the depth limit, without recursion.
  @Test(arguments: ["deep.json", "deep.ndjson"])
  func jsonNestedHundredThousandDeepIsRefused(name: String) {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let text = name.hasSuffix(".ndjson") ? "\(deep)\n" : "{\"sessions\": \(deep)}\n"
    // The object around `sessions` is the first level, so the 512th `[` is one too deep.
    let column = name.hasSuffix(".ndjson") ? 513 : 525
    let outcome = HostileInputTests.outcome(name, Array(text.utf8))
    let expected =
      name.hasSuffix(".ndjson")
      ? "read 1: accepted 0, rejected 1, duplicate 0, ignored 0\n\(name):1:\(column): error: "
        + "nesting deeper than 512 levels"
      : "\(name):1:\(column): error: nesting deeper than 512 levels"
    #expect(outcome == expected)
  }

  /// A file over the size limit fails with its size, the limit and the setting that raises it.
  /// Room for the sets is made before reading, but a file of blank lines (200 MB of line
  /// feeds) must not ask for a set per line: 30 GB at once, which killed the run.
  @Test func roomMadeForSetsIsBoundedByTheFileSize() {
    #expect(expectedSetCount(lines: 200_000_000, bytes: 200_000_000) == 5_000_000)
    #expect(expectedSetCount(lines: 2_400_000, bytes: 173_349_968) == 2_400_000)
    #expect(expectedSetCount(lines: 0, bytes: 0) == 0)
  }

  @Test func fileOverTheSizeLimitFails() {
    let text = Self.strongHeader + "\n" + String(repeating: Self.strongRow + "\n", count: 40_000)
    let limits = ReadLimits(maxFileBytes: 1 << 20)
    #expect(
      HostileInputTests.outcome("big.csv", Array(text.utf8), limits: limits)
        == "big.csv:1:1: error: the file is 2.9 MB, over the limit of 1 MB; raise source.limits.maxFileMB to read it")
  }
}
