import Foundation
import Testing
import TrendlineIngest

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
  #expect(problems.map(\.description) == ["eve.csv: links outside the input folder; it is not read"])
}
