import Foundation
import Testing
import TrendlineIngest
import TrendlineSupport

@Test(arguments: [
  ("u00001", true), ("anna.k", true), ("a-b_c.d", true), ("...", true),
  (".", false), ("..", false), ("", false), ("bad name", false), ("a/b", false),
  ("bell\u{07}", false), ("ünï", false), (String(repeating: "x", count: 128), true),
  (String(repeating: "x", count: 129), false),
])
func userIdsAreCheckedBeforeTheyBecomePaths(id: String, valid: Bool) {
  #expect(InputLayout.isValidUserID(id) == valid)
}

/// A symbolic link out of the input folder is not followed: its target is never read.
@Test func symlinkOutOfTheInputIsSkipped() throws {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-layout-\(UUID())")
  let input = root.appendingPathComponent("in")
  try FileManager.default.createDirectory(at: input.appendingPathComponent("anna"), withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: root) }
  try Data("x".utf8).write(to: input.appendingPathComponent("anna/export.csv"))
  try Data("secret".utf8).write(to: root.appendingPathComponent("outside.csv"))
  try FileManager.default.createSymbolicLink(
    at: input.appendingPathComponent("eve.csv"), withDestinationURL: root.appendingPathComponent("outside.csv"))
  try FileManager.default.createSymbolicLink(
    at: input.appendingPathComponent("anna/link.csv"), withDestinationURL: root.appendingPathComponent("outside.csv"))
  let (users, problems) = try InputLayout.discover(input)
  #expect(users.map(\.id) == ["anna"])
  #expect(users[0].files.map(\.lastPathComponent) == ["export.csv"])
  #expect(
    problems.map(\.description) == [
      "anna/link.csv: links outside the input folder; it is not read",
      "eve.csv: links outside the input folder; it is not read",
    ])
}

/// A scratch input folder `in/` with a file `outside.csv` beside it, removed at the end.
private struct LayoutScratch: ~Copyable {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-layout-\(UUID())")
  var input: URL { root.appendingPathComponent("in") }

  init() throws {
    try FileManager.default.createDirectory(at: root.appendingPathComponent("in"), withIntermediateDirectories: true)
    try Data("secret".utf8).write(to: root.appendingPathComponent("outside.csv"))
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func write(_ text: String, to relative: String) throws {
    let url = input.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func link(_ relative: String, to target: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: input.appendingPathComponent(relative).path, withDestinationPath: target)
  }
}

/// A file swapped for a link out of the input after the folder was listed is not followed
/// when it is opened: the check and the open are one walk (``InputFolder``). The same holds
/// for the user's folder swapped for a link to a folder outside.
@Test func fileSwappedForALinkAfterDiscoveryIsNotRead() throws {
  let scratch = try LayoutScratch()
  try scratch.write("mine", to: "anna/export.csv")
  try scratch.write("mine", to: "bob/export.csv")
  let (users, _) = try InputLayout.discover(scratch.input)
  #expect(users.map(\.id) == ["anna", "bob"])
  #expect(try users[0].bytes(ofFileAt: 0, maximumBytes: 100) == Array("mine".utf8))

  try FileManager.default.removeItem(at: scratch.input.appendingPathComponent("anna/export.csv"))
  try scratch.link("anna/export.csv", to: scratch.root.appendingPathComponent("outside.csv").path)
  #expect(throws: FileBytes.Failure.outsideInput(.outside)) {
    try users[0].bytes(ofFileAt: 0, maximumBytes: 100)
  }

  let elsewhere = scratch.root.appendingPathComponent("elsewhere")
  try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
  try Data("secret".utf8).write(to: elsewhere.appendingPathComponent("export.csv"))
  try FileManager.default.removeItem(at: scratch.input.appendingPathComponent("bob"))
  try scratch.link("bob", to: "../elsewhere")
  #expect(throws: FileBytes.Failure.outsideInput(.outside)) {
    try users[1].bytes(ofFileAt: 0, maximumBytes: 100)
  }
}

/// Links that stay inside the input folder are read, relative or absolute, when they lead to
/// the user's own entry or a hidden one (`.store`, no user's); a link that leads into another
/// user's entry, climbs out with `..`, loops or leads nowhere is not.
@Test func linksAreFollowedOnlyInsideTheInputFolder() throws {
  let scratch = try LayoutScratch()
  try scratch.write("shared", to: ".store/shared.csv")
  try scratch.write("bob's", to: "bob/export.csv")
  let folder = InputFolder(resolving: scratch.input)
  try scratch.link("relative.csv", to: ".store/shared.csv")
  try scratch.link("absolute.csv", to: folder.root + "/.store/shared.csv")
  try scratch.link("climbs.csv", to: ".store/../../outside.csv")
  try scratch.link("mallory.csv", to: "bob/export.csv")
  #expect(throws: FileBytes.Failure.outsideInput(.otherEntry("bob"))) { try FileBytes.read("mallory.csv", in: folder) }
  try scratch.link("loop.csv", to: "loop.csv")
  try scratch.link("dangling.csv", to: ".store/missing.csv")
  #expect(try FileBytes.read("relative.csv", in: folder) == Array("shared".utf8))
  #expect(try FileBytes.read("absolute.csv", in: folder) == Array("shared".utf8))
  #expect(throws: FileBytes.Failure.outsideInput(.otherEntry("relative.csv"))) {
    try FileBytes.read("bob/../relative.csv", in: folder)
  }
  #expect(throws: FileBytes.Failure.outsideInput(.outside)) { try FileBytes.read("climbs.csv", in: folder) }
  #expect(throws: FileBytes.Failure.outsideInput(.outside)) { try FileBytes.read("../outside.csv", in: folder) }
  #expect(throws: FileBytes.Failure.outsideInput(.linkLoop)) { try FileBytes.read("loop.csv", in: folder) }
  #expect(throws: FileBytes.Failure.outsideInput(.danglingLink)) { try FileBytes.read("dangling.csv", in: folder) }

  // A `/` that Swift joins into one Character with its neighbour (after U+0600, before an
  // accent) is still a separator: the walk splits bytes, so the link `.e؀` to a folder
  // outside is seen and refused, not followed by the kernel inside one component.
  try FileManager.default.createDirectory(
    at: scratch.root.appendingPathComponent("etc"), withIntermediateDirectories: true)
  try Data("secret".utf8).write(to: scratch.root.appendingPathComponent("etc/passwd"))
  try scratch.link(".e\u{600}", to: scratch.root.appendingPathComponent("etc").path)
  try scratch.link("prepend.csv", to: ".e\u{600}/passwd")
  try scratch.link("accent.csv", to: ".store/\u{301}/../../../outside.csv")
  #expect(throws: FileBytes.Failure.outsideInput(.outside)) { try FileBytes.read("prepend.csv", in: folder) }
  #expect(throws: FileBytes.Failure.outsideInput(.outside)) { try FileBytes.read(".e\u{600}/passwd", in: folder) }
  #expect(throws: (any Error).self) { try FileBytes.read("accent.csv", in: folder) }
  #expect(throws: (any Error).self) { try FileBytes.read(".store/\u{301}/../../../outside.csv", in: folder) }
}

/// Every entry in a user's folder is read or named with its reason: a sub-folder, a dangling
/// link, a link out, a loop, a name that is not UTF-8 or holds control characters, a hidden
/// file (listed as hidden, no fault).
@Test func everyEntryInAUserFolderIsReadOrNamed() throws {
  let scratch = try LayoutScratch()
  try scratch.write("x", to: "anna/export.csv")
  try scratch.write("x", to: "anna/2025/old.csv")
  try scratch.write("x", to: "anna/.DS_Store")
  try scratch.write("x", to: "anna/bell\u{07}.csv")
  try scratch.link("anna/dangling.csv", to: "nothing.csv")
  try scratch.link("anna/out.csv", to: "../../outside.csv")
  try scratch.link("anna/loop.csv", to: "loop.csv")
  // A name of raw bytes that are not UTF-8 (Latin-1 "é" = 0xE9).
  let bad = Array((scratch.input.path + "/anna/caf").utf8) + [0xE9] + Array(".csv".utf8) + [0]
  let descriptor = bad.withUnsafeBufferPointer { pointer in
    pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { creat($0, 0o644) }
  }
  try #require(descriptor >= 0)
  close(descriptor)

  let (users, problems) = try InputLayout.discover(scratch.input)
  #expect(users.map(\.id) == ["anna"])
  #expect(users[0].files.map(\.lastPathComponent) == ["export.csv"])
  #expect(
    problems.map(\.description) == [
      "anna/.DS_Store: is hidden; hidden entries are not read",
      "anna/2025: is a folder; exports are read only directly in a user's folder, so it is not read",
      "anna/bell\\u{7}.csv: has control characters in its name; rename it to read it",
      "anna/caf\\x{e9}.csv: has a name that is not valid UTF-8; rename it to read it",
      "anna/dangling.csv: is a link to nothing (its target does not exist); it is not read",
      "anna/loop.csv: is a link that loops (or a chain of more than 40 links); it is not read",
      "anna/out.csv: links outside the input folder; it is not read",
    ])
  #expect(problems.map(\.isHidden) == [true, false, false, false, false, false, false])
}

/// A file removed between listing and reading says so, rather than "check its permissions".
@Test func aFileRemovedAfterListingSaysSo() throws {
  let scratch = try LayoutScratch()
  try scratch.write("x", to: "anna/export.csv")
  let (users, _) = try InputLayout.discover(scratch.input)
  try FileManager.default.removeItem(at: scratch.input.appendingPathComponent("anna/export.csv"))
  do {
    _ = try users[0].bytes(ofFileAt: 0, maximumBytes: 100)
    Issue.record("a removed file was read")
  } catch {
    #expect(error.reason == "no longer exists (it was removed or renamed after the input folder was listed); run again")
  }
}

/// A partitioned input (``UserLayout``): users in the folder of their partition, both kinds
/// of user entry; each partition's `users.csv` is no user; a user in another partition's
/// folder, a top-level name that is no partition and a partition that is a file are named and
/// not read; a filter walks only the partitions it accepts. `anna` is partition 4bb and
/// `ben` 92a (FNV-1a 64 mod 4,096, worked out in Python).
@Test func aPartitionedInputIsReadFromTheFolderOfEachUsersPartition() throws {
  let scratch = try LayoutScratch()
  try scratch.write("x", to: "4bb/anna/strong.csv")
  try scratch.write("x", to: "4bb/users.csv")
  try scratch.write("x", to: "92a/ben.csv")
  try scratch.write("x", to: "92a/anna.csv")
  try scratch.write("x", to: "loose/carl.csv")
  try scratch.write("x", to: "fff")
  let (users, problems) = try InputLayout.discover(scratch.input, layout: .partitioned)
  #expect(users.map(\.id) == ["anna", "ben"])
  #expect(users.map(\.relativePaths) == [["4bb/anna/strong.csv"], ["92a/ben.csv"]])
  #expect(
    problems.map(\.description) == [
      "92a/anna.csv: is user 'anna', whose partition is 4bb; move it there to read it",
      "fff: is not a folder; a partition is a folder of users",
      "loose: is not a partition folder (000 to fff); in a partitioned input every user is in the folder of "
        + "their partition, so it is not read",
    ])
  let (mine, _) = try InputLayout.discover(scratch.input, layout: .partitioned) { $0 == 0x92a }
  #expect(mine.map(\.id) == ["ben"])
}
