import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema
import _TrendlineTestSupport

/// `BuiltInCatalog.swift` is generated from `Resources/catalog.json`, so the binary carries the
/// catalog. Editing one without the other (the JSON without running the script, or the Swift by
/// hand) fails here, byte for byte, before a build ships a catalog its data file does not hold.
@Test func builtInCatalogIsItsDataFile() throws {
  let path = "Resources/catalog.json"
  let file = try TestPaths.bytes(TestPaths.packageRoot.appendingPathComponent(path))
  let line = firstDifferingLine(Array(Catalog.builtInJSON.utf8), file)
  #expect(
    line == nil,
    "Catalog.builtInJSON differs from \(path) at line \(line ?? 0): run `bash Scripts/embed-resources.sh`")
}

/// The 1-based line of `file` where `text` first differs from it, or nil when the two are
/// the same bytes: a whole catalog printed by a failed expectation would bury the place.
private func firstDifferingLine(_ text: [UInt8], _ file: [UInt8]) -> Int? {
  guard text != file else { return nil }
  let common = min(text.count, file.count)
  let index = (0..<common).first { text[$0] != file[$0] } ?? common
  return file[..<index].count { $0 == UInt8(ascii: "\n") } + 1
}
