import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// A user's files are read largest first, so that a large export's bytes are never held beside
/// the sets of the user's others (`UserInput.readingOrder()`), yet everything a user sees is as
/// a read in name order gives it: the sessions, the files' order in the manifest, and when files
/// are broken, which one the user is told about and which files the failure reached.
@Suite final class ReadingOrderTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-order-\(UUID().uuidString)")
  static let lookup = ExerciseLookup(catalog: Catalog(muscleGroups: [], exercises: []))

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// A Strong export of `sessions` sessions, one a day from 1 November 2026, each one set.
  static func strong(sessions: Int) -> String {
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
      + (1...sessions).map { day in
        "2026-\(day > 30 ? "12" : "11")-\(String(format: "%02d", (day - 1) % 30 + 1)) 18:00:00,Legs,1h,"
          + "Squat (Barbell),1,100,5,0,0,,,\n"
      }.joined()
  }

  /// Not an export of any kind: its user fails on it.
  static let broken = "this is not an export\n"
  /// The same, larger than any export above.
  static let largeBroken = broken + String(repeating: "nor is this\n", count: 400)
  static let empty = ""

  func user(_ files: [(String, String)]) throws -> UserInput {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let urls = try files.map { name, text in
      let url = folder.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      return url
    }
    return UserInput(id: "lena", files: urls)
  }

  /// What reading `files` gives: the file names of the inputs, or the error's file, and the
  /// names of the files the read reached.
  func read(_ files: [(String, String)]) throws -> (outcome: String, reached: [String]) {
    var reached: [(name: String, content: String)] = []
    let input = try user(files)
    do throws(ExportError) {
      let read = try UserReader.read(
        input, settings: UserSettings(), options: .init(lookup: Self.lookup), reached: &reached)
      #expect(read.ingest.files.map(\.file) == read.inputs.map(\.name))
      return ("read " + read.inputs.map(\.name).joined(separator: " "), reached.map(\.name))
    } catch {
      return ("failed on \(error.file)", reached.map(\.name))
    }
  }

  @Test func theLargestFileIsReadFirstAndTiesKeepNameOrder() throws {
    let input = try user([
      ("a.csv", Self.strong(sessions: 1)), ("b.csv", Self.strong(sessions: 3)), ("c.csv", Self.strong(sessions: 1)),
    ])
    #expect(input.readingOrder() == [1, 0, 2])
    #expect(UserInput(id: "one", files: [input.files[0]]).readingOrder() == [0])
    // A file that cannot be sized is read last, in name order among such files.
    let gone = folder.appendingPathComponent("gone.csv")
    #expect(UserInput(id: "lena", files: [gone, input.files[0]]).readingOrder() == [1, 0])
  }

  /// The inputs and the sessions in name order, whatever order the files were read in.
  @Test func aUserOfSeveralFilesIsReportedInNameOrder() throws {
    let files = [("a.csv", Self.strong(sessions: 2)), ("b.csv", Self.strong(sessions: 40))]
    let (outcome, reached) = try read(files)
    #expect(outcome == "read a.csv b.csv")
    #expect(reached == ["a.csv", "b.csv"])
  }

  /// Two broken files: the user is told about the first in name order, as before, though the
  /// larger one was read first; the failure reached that file alone.
  @Test func ofTwoBrokenFilesTheFirstByNameIsReported() throws {
    let (outcome, reached) = try read([("a.csv", Self.broken), ("b.csv", Self.largeBroken)])
    #expect(outcome == "failed on a.csv")
    #expect(reached == ["a.csv"])
  }

  /// A broken file after a good one by name: the failure reached both, as a read in name order.
  @Test func aBrokenFileAfterAGoodOneReachedBoth() throws {
    let (outcome, reached) = try read([("a.csv", Self.strong(sessions: 1)), ("b.csv", Self.largeBroken)])
    #expect(outcome == "failed on b.csv")
    #expect(reached == ["a.csv", "b.csv"])
  }

  /// A large broken file before a small good one: the good one, never reached in name order, is
  /// not in what the failure reached.
  @Test func aLargeBrokenFileFirstReachesItAlone() throws {
    let (outcome, reached) = try read([("a.csv", Self.largeBroken), ("b.csv", Self.strong(sessions: 1))])
    #expect(outcome == "failed on a.csv")
    #expect(reached == ["a.csv"])
  }

  /// A small broken file before a large good one: the good one was read first, but the failure
  /// reached only the broken one, the first by name.
  @Test func aSmallBrokenFileFirstReachesItAlone() throws {
    let (outcome, reached) = try read([("a.csv", Self.empty), ("b.csv", Self.strong(sessions: 3))])
    #expect(outcome == "failed on a.csv")
    #expect(reached == ["a.csv"])
  }
}
