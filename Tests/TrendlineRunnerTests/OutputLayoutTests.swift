import Foundation
import Testing

@testable import TrendlineRunner

/// The one "is inside" every folder check asks: the run's input, output and cache checks and
/// the merge's partial checks once answered differently for `/`.
@Suite struct OutputLayoutTests {
  @Test(arguments: [
    ("/data/out", "/data/out", true),
    ("/data/out/users", "/data/out", true),
    ("/data/outside", "/data/out", false),
    ("/data", "/data/out", false),
    ("/data/out", "/", true),
    ("/", "/", true),
    ("/", "/data", false),
  ])
  func insideIsTheFolderOrBelowIt(path: String, folder: String, inside: Bool) {
    #expect(OutputLayout.isInside(path, folder) == inside)
  }

  /// An output at the root of the file system holds every input; the run refuses it with the
  /// message that says so, as the merge does, rather than comparing against `//`.
  @Test func aRootOutputHoldsTheInput() throws {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("in-\(UUID().uuidString)")
    do {
      try Runner.checkFolders(input: input, output: URL(fileURLWithPath: "/"), cache: nil)
      Issue.record("an output folder '/' was accepted")
    } catch {
      #expect("\(error)".contains("is inside the output folder '/'"))
    }
  }
}
