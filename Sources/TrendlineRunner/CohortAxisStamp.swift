import Foundation
import TrendlineSchema

/// Stamps each compared series chart of every user with the cohort's shared axis
/// (``SeriesOutput/cohortYAxis``) once the cohort is reduced: at the end of a run, and at
/// `merge` for a sharded one, whose shards cannot know the cohort.
///
/// Users' files are written as each user finishes, so a run holds no user's output in memory. A
/// compared series is written under a staged name (``stagedName(_:)``) and stamped into its final
/// name here (read, splice, atomic write, without decoding it): a file under a final name is
/// always whole and final, even in a run killed before its cohort, and a shard's compared
/// series wait, staged, for the merge.
enum CohortAxisStamp {
  /// `.staged-<chart>.json`: hidden, so no reader of the output takes it for a chart.
  static func stagedName(_ chart: String) -> String { stagedPrefix + chart + ".json" }
  static let stagedPrefix = ".staged-"

  /// Stamps `users/<user>/<chart>.json` for every cohort series of `reduced` and every user of
  /// `users`, from the staged file (removed after) or, when a merge runs again, from the final
  /// one; returns how many files were stamped.
  ///
  /// - Complexity: O(*c* × *u* × *s*) for *c* compared series charts, *u* users and files of *s*
  ///   bytes.
  @discardableResult
  static func stamp(_ reduced: [CohortChart], users: [String], output: URL) throws -> Int {
    var stamped = 0
    for case .series(let cohort) in reduced {
      for user in users {
        let folder = output.appendingPathComponent("users").appendingPathComponent(user)
        let path = folder.appendingPathComponent(cohort.chart + ".json").path
        let staged = folder.appendingPathComponent(stagedName(cohort.chart)).path
        // A user whose chart was not written (it failed) has nothing to stamp.
        guard
          let data = FileManager.default.contents(atPath: staged) ?? FileManager.default.contents(atPath: path),
          let bytes = try SeriesOutput.stamping(cohortYAxis: cohort.yAxis, into: Array(data))
        else { continue }
        try AtomicFile.write(Data(bytes), to: path)
        try AtomicFile.remove(staged)
        stamped += 1
      }
    }
    return stamped
  }
}
