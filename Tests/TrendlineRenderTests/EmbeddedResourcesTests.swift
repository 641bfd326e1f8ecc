import Foundation
import Testing
import _TrendlineTestSupport

@testable import TrendlineRender

/// `ReportResources.swift` is generated from `Resources/report.css` and `Resources/report.js`,
/// and every page inlines the two. Editing a data file without running the script, or the Swift
/// by hand, fails here, byte for byte, before a report ships a style or script its file does
/// not hold.
@Test(arguments: embedded.keys.sorted())
func reportResourceIsItsDataFile(name: String) throws {
  let path = "Resources/" + name
  let file = try TestPaths.bytes(TestPaths.packageRoot.appendingPathComponent(path))
  let line = firstDifferingLine(Array(embedded[name, default: ""].utf8), file)
  #expect(
    line == nil,
    "the embedded \(name) differs from \(path) at line \(line ?? 0): run `bash Scripts/embed-resources.sh`")
}

/// The texts by their file's name, so that the test's arguments, which it prints, are only names.
private let embedded = ["report.css": HTMLReport.css, "report.js": HTMLReport.script]

/// The 1-based line of `file` where `text` first differs from it, or nil when the two are
/// the same bytes: a whole style sheet printed by a failed expectation would bury the place.
private func firstDifferingLine(_ text: [UInt8], _ file: [UInt8]) -> Int? {
  guard text != file else { return nil }
  let common = min(text.count, file.count)
  let index = (0..<common).first { text[$0] != file[$0] } ?? common
  return file[..<index].count { $0 == UInt8(ascii: "\n") } + 1
}
