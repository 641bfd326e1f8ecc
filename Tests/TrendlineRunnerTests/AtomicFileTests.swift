import Foundation
import Testing

@testable import TrendlineRunner

/// Files appear under their final names whole, in folders made on demand; a draft stamped in
/// place keeps its blocks (its inode) and leaves nothing beside the final file.
@Suite struct AtomicFileTests {
  func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func inode(_ path: String) -> UInt64? {
    var status = stat()
    return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
  }

  @Test func writeMakesMissingFoldersAndLeavesNoTemporary() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try AtomicFile.write(Data("{}\n".utf8), to: root + "/users/ada/volume.json")
    try AtomicFile.write(Data("[]\n".utf8), to: root + "/users/ada/radar.json")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root + "/users/ada").sorted() == [
        "radar.json", "volume.json",
      ])
    #expect(FileManager.default.contents(atPath: root + "/users/ada/radar.json") == Data("[]\n".utf8))
  }

  @Test func writeUnderAFileSaysWhy() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try AtomicFile.write(Data("x".utf8), to: root + "/users")
    #expect(throws: AtomicFile.WriteError.self) {
      try AtomicFile.write(Data("{}".utf8), to: root + "/users/ada/v.json")
    }
  }

  @Test func overwriteReusesTheDraftAndRenamesIt() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let draft = root + "/.staged-volume.json"
    let final = root + "/volume.json"
    try AtomicFile.write(Data("{\n  \"a\": 1\n}\n".utf8), to: draft)
    let before = inode(draft)
    let stamped = Array("{\n  \"a\": 1,\n  \"rank\": 50\n}\n".utf8)
    #expect(try AtomicFile.overwrite(draft, with: stamped, renamingTo: final))
    #expect(inode(final) == before)
    #expect(FileManager.default.contents(atPath: final).map(Array.init) == stamped)
    #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["volume.json"])
  }

  @Test func overwriteWithShorterBytesDropsTheTail() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try AtomicFile.write(Data("0123456789".utf8), to: root + "/draft")
    #expect(try AtomicFile.overwrite(root + "/draft", with: Array("abc".utf8), renamingTo: root + "/final"))
    #expect(FileManager.default.contents(atPath: root + "/final") == Data("abc".utf8))
  }

  @Test func overwriteWithoutADraftSaysSo() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(try AtomicFile.overwrite(root + "/missing", with: [1], renamingTo: root + "/final") == false)
    #expect(!FileManager.default.fileExists(atPath: root + "/final"))
  }
}
