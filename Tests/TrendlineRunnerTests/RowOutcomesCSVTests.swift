import Foundation
import Testing
import TrendlineIngest

@testable import TrendlineRunner

/// Cells a spreadsheet would run as formulas are defused with a leading apostrophe; commas,
/// quotes and line breaks are quoted per RFC 4180.
@Test func rowOutcomesAreSafeToOpenInASpreadsheet() {
  let notes = [
    RowNote(file: "=cmd|' /C calc'!A0.csv", line: 3, column: 7, field: "Reps", reason: "'abc' is not a number"),
    RowNote(file: "a.csv", line: 4, column: 1, field: "+Weight", outcome: .duplicate, reason: "-1, \"really\""),
    RowNote(file: "@b.csv", line: 5, column: 2, field: "", outcome: .valueDropped, reason: "line\nbreak"),
  ]
  let expected =
    "file,line,column,field,outcome,reason\n"
    + "'=cmd|' /C calc'!A0.csv,3,7,Reps,rejected,'abc' is not a number\n"
    + "a.csv,4,1,'+Weight,duplicate,\"'-1, \"\"really\"\"\"\n"
    + "'@b.csv,5,2,,value-dropped,\"line\nbreak\"\n"
  #expect(RowOutcomesCSV.bytes(notes) == Array(expected.utf8))
}

/// A file is replaced whole: the final name holds the old bytes or the new, and no temporary
/// file is left beside it.
@Test func atomicWriteLeavesOnlyTheFinalFile() throws {
  // Free of links (the temporary folder is under `/var` on macOS), as a run's output folder is.
  let folder = OutputSweep.resolvedFolder(FileManager.default.temporaryDirectory)
    .appendingPathComponent("trendline-atomic-\(UUID())")
  defer { try? FileManager.default.removeItem(at: folder) }
  let file = folder.appendingPathComponent("chart.json")
  try AtomicFile.write(Data("one".utf8), to: file.path)
  try AtomicFile.write(Data("two".utf8), to: file.path)
  #expect(try String(contentsOf: file, encoding: .utf8) == "two")
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["chart.json"])
}

/// Writing under a read-only folder fails with the path and the system's reason, so the run
/// can stop with exit 74 and say what to do.
@Test func writeIntoAReadOnlyFolderNamesThePath() throws {
  let folder = OutputSweep.resolvedFolder(FileManager.default.temporaryDirectory)
    .appendingPathComponent("trendline-ro-\(UUID())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer {
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    try? FileManager.default.removeItem(at: folder)
  }
  try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
  // Root ignores permission bits; the check only means something for other users.
  guard getuid() != 0 else { return }
  #expect(throws: AtomicFile.WriteError.self) {
    try AtomicFile.write(Data("x".utf8), to: folder.appendingPathComponent("chart.json").path)
  }
}
