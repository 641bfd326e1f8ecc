import Foundation
import Testing
import TrendlineIngest
import _TrendlineTestSupport

@testable import TrendlinePipeline

/// `source.limits`: each bound can be raised or lowered, and a value that would turn a limit
/// off, or is not a whole number, is reported at its key.
@Suite struct PipelineLimitsTests {
  static func text(_ limits: String) -> String {
    """
    {"version": 1, "source": {"input": "in", "catalog": "CATALOG", "limits": \(limits)},
     "charts": {"v": [{"bucket": {"range": "all", "measures": ["sessions"]}}]}}
    """
  }

  @Test func limitsAreReadInTheirUnits() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let pipeline = try scratch.load(
      Self.text(
        #"{"maxFileMB": 2, "maxFieldKB": 64, "maxColumns": 50, "maxJSONDepth": 40, "maxRejectedShare": 0.5}"#)
    ).get()
    var expected = ReadLimits(maxFileBytes: 2 << 20, maxFieldBytes: 64 << 10, maxColumns: 50, maxJSONDepth: 40)
    expected.maxRejectedShare = 0.5
    #expect(pipeline.source.limits == expected)
    #expect(pipeline.readOptions.limits == pipeline.source.limits)
  }

  @Test func limitsDefaultWhenLeftOut() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let pipeline = try scratch.load(Self.text("{}")).get()
    #expect(
      pipeline.source.limits
        == ReadLimits(maxFileBytes: 256 << 20, maxFieldBytes: 1 << 20, maxColumns: 1000, maxJSONDepth: 512))
    #expect(pipeline.source.limits.maxRejectedShare == 0.05)
  }

  @Test(arguments: [
    (
      #"{"maxFileMB": 0}"#,
      "broken.json:1:90: error: maxFileMB must be between 1 and 2047, found 0 at source.limits.maxFileMB"
    ),
    (
      #"{"maxFieldKB": 1.5}"#, "broken.json:1:91: error: expected a whole number, found 1.5 at source.limits.maxFieldKB"
    ),
    (
      #"{"maxColumns": "all"}"#,
      "broken.json:1:91: error: expected a whole number, found a string at source.limits.maxColumns"
    ),
    (
      #"{"maxJSONDepth": 100000}"#,
      "broken.json:1:93: error: maxJSONDepth must be between 1 and 10000, found 100000 at source.limits.maxJSONDepth"
    ),
    (
      #"{"maxRejectedShare": 5}"#,
      "broken.json:1:97: error: maxRejectedShare must be a share between 0 and 1 (0.05 is one row in twenty), "
        + "found 5 at source.limits.maxRejectedShare"
    ),
    (
      #"{"maxRejectedShare": "5%"}"#,
      "broken.json:1:97: error: expected a number, found a string at source.limits.maxRejectedShare"
    ),
  ])
  func badLimitIsReported(limits: String, expected: String) throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let text = Self.text(limits).replacingOccurrences(of: "CATALOG", with: Scratch.catalogPath)
    let descriptions = try scratch.load(text).failureDescriptions
    #expect(descriptions.count == 1)
    #expect(descriptions.first?.hasPrefix(String(expected.prefix(while: { $0 != ":" }))) == true)
    // The column depends on the catalog path's length; the rest of the line is pinned.
    #expect(
      descriptions.first.map { $0.split(separator: " ", maxSplits: 1)[1] }
        == expected.split(separator: " ", maxSplits: 1)[1])
  }
}
