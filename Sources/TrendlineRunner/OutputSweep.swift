import Foundation
import TrendlineSupport

/// Keeps a reused output folder to what its last run wrote.
///
/// A nightly job writes into the same folder every night. Without a sweep, a chart removed
/// from the pipeline, a user deleted from the input or a cohort file of another pipeline would
/// stay beside the new `manifest.json` and `_SUCCESS`, and a reader could not tell them from
/// tonight's. So a completed run's folder holds only what that run wrote:
///
/// - each user job removes, in its own `users/<user>/`, every file it did not write (a shard
///   does this for its own users only);
/// - a run over all users, and `merge`, then remove the folders of users it did not run, the
///   report pages of users it did not run, and every cohort and report file they did not write;
///   a run over all users also removes `shards/`, whose partials belong to an earlier split.
///
/// Removing is safe only in a folder Trendline owns, so a run refuses, before anything is read,
/// an output folder whose top level holds an entry no run writes (``foreignEntry(in:)``): an
/// `--output` mistyped as a home folder is refused, not emptied. Hidden entries (`.DS_Store`,
/// `.nfs…`, live temporaries) are never removed by the sweep.
enum OutputSweep {
  /// The top-level names of an output folder: all a run or a merge writes there.
  static let ownNames: Set<String> = ["users", "cohort", "report", "shards", "manifest.json", "_SUCCESS"]

  /// The first top-level entry of `output` that no run writes, escaped for a message; nil when
  /// the folder is missing, empty or holds only Trendline's names and hidden entries.
  ///
  /// - Complexity: O(*e*), where *e* is the number of top-level entries.
  static func foreignEntry(in output: String) -> String? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: output) else { return nil }
    let foreign = names.filter { !$0.hasPrefix(".") && !ownNames.contains($0) }
    return foreign.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { TerminalText.escaped($0) }
  }

  /// Removes every entry of `folder` (a file or a whole folder) whose name is not in `kept`,
  /// hidden entries apart, and `folder` itself if that leaves it empty.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries removed or kept.
  static func removeAll(in folder: String, except kept: Set<String>) throws(AtomicFile.WriteError) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    var left = 0
    for name in names {
      if name.hasPrefix(".") || kept.contains(name) {
        left += 1
        continue
      }
      try AtomicFile.remove(folder + "/" + name)
    }
    if left == 0 { rmdir(folder) }
  }

  /// The run-level sweep of a run over all users (`keepShards` false) or a merge (true): what
  /// is left of users not in `users` and of cohort and report files not in `written` (paths
  /// relative to `output`, such as `cohort/training-volume.json`).
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries in the swept folders.
  static func sweepRun(output: String, users: [String], written: [String], keepShards: Bool)
    throws(AtomicFile.WriteError)
  {
    let writtenSet = Set(written)
    try removeAll(in: output + "/users", except: Set(users))
    try removeAll(in: output + "/cohort", except: Set(written.compactMap { name(of: $0, in: "cohort/") }))
    let pages = writtenSet.contains("report/index.html") ? Set(users.map { $0 + ".html" }) : []
    try removeAll(in: output + "/report/users", except: pages)
    try removeAll(
      in: output + "/report", except: Set(written.compactMap { name(of: $0, in: "report/") }).union(["users"]))
    if !keepShards { try AtomicFile.remove(output + "/shards") }
  }

  /// The file name of `path` when it lies directly in `folder` (`cohort/`).
  private static func name(of path: String, in folder: String) -> String? {
    guard path.hasPrefix(folder) else { return nil }
    let name = path.dropFirst(folder.count)
    return name.contains("/") ? nil : String(name)
  }
  /// `url`'s path with links resolved as far as it exists (an output folder may not yet), the
  /// rest appended, `.` and `..` removed.
  static func resolved(_ url: URL) -> String {
    var existing = url.standardizedFileURL
    var rest: [String] = []
    while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
      rest.insert(existing.lastPathComponent, at: 0)
      existing.deleteLastPathComponent()
    }
    var path = existing.resolvingSymlinksInPath().standardizedFileURL.path
    for component in rest { path = (path as NSString).appendingPathComponent(component) }
    return (path as NSString).standardizingPath
  }

}
