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
      let accounted = ingest.sets.count + ingest.rejects.count + ingest.duplicateRows + ingest.ignoredRows
      #expect(ingest.rowsRead == accounted, "accounting identity for \(name)")
      #expect(ingest.sets.allSatisfy { $0.weightKg.isFinite && $0.reps.isFinite && $0.distanceMeters.isFinite })
      var text =
        "read \(ingest.rowsRead): accepted \(ingest.sets.count), rejected \(ingest.rejects.count), duplicate \(ingest.duplicateRows), ignored \(ingest.ignoredRows)"
      for reject in ingest.rejects { text += "\n" + reject.description }
      return text
    } catch {
      return error.description
    }
  }

  static let cases: [(file: String, expected: String)] = [
  ]

  @Test(arguments: cases)
  func hostileFile(file: String, expected: String) {
    let bytes = TestPaths.bytes(Self.folder.appendingPathComponent(file))
    let actual = Self.outcome(file, bytes)
    if ProcessInfo.processInfo.environment["DUMP_HOSTILE"] != nil {
      print("HOSTILE<<\(file)>>\(actual)<<END")
    }
    #expect(actual == expected)
  }

  /// Every committed fixture has a row in the table, so a new file cannot go unchecked.
  @Test func everyFixtureIsInTheTable() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
    #expect(Set(names) == Set(Self.cases.map(\.file)))
    #expect(names.count >= 40)
  }

  @Test func dumpAll() throws {
    guard ProcessInfo.processInfo.environment["DUMP_HOSTILE"] != nil else { return }
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
    for file in names {
      print("HOSTILE<<\(file)>>\(Self.outcome(file, TestPaths.bytes(Self.folder.appendingPathComponent(file))))<<END")
    }
  }
}
