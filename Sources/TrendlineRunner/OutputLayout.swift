import Foundation
import TrendlineSchema

/// The names of an output folder's entries, spelled here once: where a run, a shard and a merge
/// write, what the sweep keeps and what the checks of one folder inside another compare. A
/// user's own folder and page are ``UserLayout``'s.
///
///     manifest.json  _SUCCESS  users/  cohort/  report/  tables/  shards/<I>-of-<N>/
enum OutputLayout {
  static let manifest = "manifest.json"
  /// The empty file written last: the snapshot is whole.
  static let success = "_SUCCESS"
  static let users = UserLayout.usersFolder
  static let cohort = "cohort"
  static let report = "report"
  static let tables = "tables"
  static let shards = "shards"
  /// A shard's cohort values, beside its manifest in its shard folder.
  static let partial = "cohort-partial.json"
  /// Below `cohort/` and `tables/cohort/`: each compared chart's segments, with `compare.groupBy`.
  static let segments = "segments"
  static let cohortSegments = cohort + "/" + segments
  /// `tables/cohort`, `tables/cohort/segments` and `tables/manifest`: the cohort's and the
  /// manifest's tables beside the charts'.
  static let cohortTables = tables + "/" + cohort
  static let cohortSegmentTables = cohortTables + "/" + segments
  static let manifestTables = tables + "/manifest"

  /// Every top-level name a run or a merge writes: an output folder holding any other entry is
  /// refused, never emptied (``OutputSweep``).
  static let topLevel: Set<String> = [users, cohort, report, tables, shards, manifest, success]

  /// Every folder of Trendline's below an output folder, which a run replaces when it is a link.
  static let folders = [
    users, cohort, cohortSegments, report, UserLayout.pagesFolder, tables, cohortTables, cohortSegmentTables,
    manifestTables, shards,
  ]

  /// `cohort/<name>.json`: a compared chart's cohort, or its segments' (`segments/<chart>`).
  static func cohortFile(_ name: String) -> String { cohort + "/" + name + ".json" }

  /// `shards/<I>-of-<N>` under `output`: where shard `shard` writes its partial.
  static func shardFolder(_ shard: Shard, in output: URL) -> URL {
    output.appendingPathComponent(shards).appendingPathComponent(shard.description)
  }

  /// Whether `path` is `folder` or below it, both resolved (``OutputSweep/resolved(_:)``):
  /// every check of one folder inside another (input, output, cache, partials) asks this, so
  /// they agree at `/` too.
  ///
  /// - Complexity: O(*n*) in the length of the paths.
  static func isInside(_ path: String, _ folder: String) -> Bool {
    path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
  }
}
