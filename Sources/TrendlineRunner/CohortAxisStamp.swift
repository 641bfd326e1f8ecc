import Foundation
import Synchronization
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
  /// one, over `jobs` workers; returns how many files were stamped. The first error stops the
  /// workers taking more files, and is thrown.
  ///
  /// - Complexity: O(*c* × *u* × *s*) for *c* compared series charts, *u* users and files of *s*
  ///   bytes, divided over the workers.
  @discardableResult
  static func stamp(_ reduced: [CohortChart], users: [String], output: URL, jobs: Int = 1) throws -> Int {
    let work = reduced.flatMap { chart -> [(CohortSeriesOutput, String)] in
      guard case .series(let cohort) = chart else { return [] }
      return users.map { (cohort, $0) }
    }
    let state = Mutex<(stamped: Int, failure: (any Error)?)>((0, nil))
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, work.count))) { worker in
      for index in stride(from: worker, to: work.count, by: max(1, min(jobs, work.count))) {
        if state.withLock({ $0.failure != nil }) { return }
        do {
          if try stamp(work[index].0, user: work[index].1, output: output) { state.withLock { $0.stamped += 1 } }
        } catch {
          state.withLock { if $0.failure == nil { $0.failure = error } }
        }
      }
    }
    let result = state.withLock { $0 }
    if let failure = result.failure { throw failure }
    return result.stamped
  }

  /// Stamps one user's file of `cohort`'s chart; false when there is none (the user failed).
  private static func stamp(_ cohort: CohortSeriesOutput, user: String, output: URL) throws -> Bool {
    let folder = output.appendingPathComponent("users").appendingPathComponent(user)
    let path = folder.appendingPathComponent(cohort.chart + ".json").path
    let staged = folder.appendingPathComponent(stagedName(cohort.chart)).path
    guard
      let data = FileManager.default.contents(atPath: staged) ?? FileManager.default.contents(atPath: path),
      let bytes = try SeriesOutput.stamping(cohortYAxis: cohort.yAxis, into: Array(data))
    else { return false }
    try AtomicFile.write(Data(bytes), to: path)
    try AtomicFile.remove(staged)
    return true
  }
}
