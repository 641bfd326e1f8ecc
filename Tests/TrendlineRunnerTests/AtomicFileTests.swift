import Foundation
import Testing

@testable import TrendlineRunner

/// Files appear under their final names whole, in folders made on demand; a draft stamped in
/// place keeps its blocks (its inode) and leaves nothing beside the final file. Nothing is
/// written, created or removed through a link on the way (SPEC 11.7).
@Suite struct AtomicFileTests {
  /// A new folder, its path free of links (the temporary folder is under the link `/var` on
  /// macOS), as a run's resolved output folder is.
  func folder() throws -> String {
    let path = OutputSweep.resolved(FileManager.default.temporaryDirectory) + "/atomic-\(UUID().uuidString)"
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

  // MARK: Links on the way (SPEC 11.7)

  /// An output folder `out/users/` holding `ada`, and a folder `elsewhere` outside it holding
  /// `ada/volume.json` and `precious.txt`, what a link swapped into the output would lead to.
  func outputAndElsewhere() throws -> (root: String, out: String, elsewhere: String) {
    let root = try folder()
    try FileManager.default.createDirectory(atPath: root + "/out/users/ada", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/elsewhere/ada", withIntermediateDirectories: true)
    try Data("precious".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere/precious.txt"))
    try Data("theirs".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere/ada/volume.json"))
    return (root, root + "/out", root + "/elsewhere")
  }

  /// Every file and folder under `path`, relative to it, sorted; links not followed.
  func contents(_ path: String) -> [String] {
    (FileManager.default.subpaths(atPath: path) ?? []).sorted()
  }

  /// Replaces the folder at `path` with a link to `target`, as an attacker would mid-run.
  func swapForLink(_ path: String, to target: String) throws {
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
  }

  /// A write whose folder, or a folder above it, is a link to a folder outside the output
  /// fails, naming the link, and leaves nothing at the link's target: no file, no temporary.
  @Test(arguments: ["users/ada", "users"])
  func aWriteThroughALinkedFolderFailsAndWritesNothingThere(linked: String) throws {
    let (root, out, elsewhere) = try outputAndElsewhere()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try swapForLink(out + "/" + linked, to: linked == "users" ? elsewhere : elsewhere + "/ada")
    let expected = AtomicFile.WriteError(
      path: out + "/users/ada/volume.json",
      reason: "'\(out)/\(linked)' is a link; Trendline does not write through links in its output",
      isThroughLink: true)
    #expect(throws: expected) { try AtomicFile.write(Data("{}\n".utf8), to: out + "/users/ada/volume.json") }
    #expect(
      expected.description
        == "cannot write '\(out)/users/ada/volume.json': '\(out)/\(linked)' is a link; "
        + "Trendline does not write through links in its output")
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.TemporaryFile(for: out + "/users/ada/table.csv") }
    try AtomicFile.write(Data("rows".utf8), to: root + "/source.csv")
    #expect(throws: AtomicFile.WriteError.self) {
      try AtomicFile.link(root + "/source.csv", to: out + "/users/ada/row-outcomes.csv")
    }
    #expect(throws: AtomicFile.WriteError.self) {
      try AtomicFile.overwrite(out + "/users/ada/volume.json", with: [1], renamingTo: out + "/users/ada/v.json")
    }
    #expect(throws: AtomicFile.WriteError.self) {
      try AtomicFile.extend(
        out + "/users/ada/volume.json", replacing: Array("}".utf8), with: [1], renamingTo: out + "/users/ada/v.json")
    }
    #expect(contents(elsewhere) == ["ada", "ada/volume.json", "precious.txt"])
    #expect(FileManager.default.contents(atPath: elsewhere + "/ada/volume.json") == Data("theirs".utf8))
  }

  /// A folder is not created through a link, at any depth.
  @Test func createFolderThroughALinkFails() throws {
    let (root, out, elsewhere) = try outputAndElsewhere()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try swapForLink(out + "/users", to: elsewhere)
    #expect(
      throws: AtomicFile.WriteError(
        path: out + "/users/bob/deep",
        reason: "'\(out)/users' is a link; Trendline does not write through links in its output",
        isThroughLink: true)
    ) { try AtomicFile.createFolder(out + "/users/bob/deep") }
    #expect(throws: AtomicFile.WriteError.self) { try OutputSweep.claim(out + "/users/nested") }
    #expect(contents(elsewhere) == ["ada", "ada/volume.json", "precious.txt"])
  }

  /// Removing and sweeping never delete through a link: a path under a link fails, a folder
  /// that is a link is not swept, a link removed is the link itself, and a folder removed
  /// whole has its links removed, not what they lead to.
  @Test func removeAndSweepDoNotDeleteThroughALink() throws {
    let (root, out, elsewhere) = try outputAndElsewhere()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let dead = "\(AtomicFile.temporaryPrefix)4194305@\(AtomicFile.hostTag)-0-volume.json"
    try Data("x".utf8).write(to: URL(fileURLWithPath: elsewhere + "/ada/" + dead))
    try swapForLink(out + "/users", to: elsewhere)
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.remove(out + "/users/ada") }
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.remove(out + "/users/ada/volume.json") }
    #expect(throws: AtomicFile.WriteError.self) { try OutputSweep.removeAll(in: out + "/users/ada", except: []) }
    #expect(throws: AtomicFile.WriteError.self) { try OutputSweep.unlinkIfLink(out + "/users/ada") }
    try OutputSweep.removeAll(in: out + "/users", except: [])
    try OutputSweep.keepOnly([], under: "users", in: out)
    AtomicFile.removeStaleTemporaries(under: URL(fileURLWithPath: out))
    AtomicFile.removeStaleTemporaries(in: out + "/users/ada")
    #expect(contents(elsewhere) == ["ada", "ada/\(dead)", "ada/volume.json", "precious.txt"])

    // A folder removed whole: the link in it goes, its target stays.
    try FileManager.default.createDirectory(atPath: out + "/report/users", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: out + "/report/users/ada", withDestinationPath: elsewhere)
    try AtomicFile.remove(out + "/report")
    #expect(!FileManager.default.fileExists(atPath: out + "/report"))
    // And the link in the output's place of a folder: removed itself.
    try OutputSweep.unlinkIfLink(out + "/users")
    try AtomicFile.remove(out + "/users")
    #expect(contents(out) == [])
    #expect(contents(elsewhere) == ["ada", "ada/\(dead)", "ada/volume.json", "precious.txt"])
  }

  /// An output folder given as a link to a real folder, as operators do, is resolved once and
  /// written; so is one not made yet under it. Its own path, link and all, is not written
  /// through: a run writes through the resolved one.
  @Test func anOutputGivenAsALinkIsResolvedOnceAndWritten() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/disk/night", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: "disk/night")
    #expect(OutputSweep.resolved(URL(fileURLWithPath: root + "/out")) == root + "/disk/night")
    #expect(
      OutputSweep.resolved(URL(fileURLWithPath: root + "/out/as_of=2026-11-29/")) == root
        + "/disk/night/as_of=2026-11-29")
    let output = OutputSweep.resolvedFolder(URL(fileURLWithPath: root + "/out"))
    try OutputSweep.claim(output.path)
    try AtomicFile.write(Data("{}\n".utf8), to: output.path + "/users/ada/volume.json")
    #expect(contents(root + "/disk/night") == [".trendline-output", "users", "users/ada", "users/ada/volume.json"])
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Data(), to: root + "/out/users/ada/v.json") }
  }
}
