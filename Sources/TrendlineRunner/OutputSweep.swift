import Foundation
import TrendlineRender
import TrendlineSchema
import TrendlineStages
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
/// - a run over all users, and `merge`, then remove every cohort and report file they did not
///   write, and the folders and report pages of users no longer in the input when asked to
///   (`--remove-departed`; otherwise they are kept and the manifest lists them);
///   a run over all users also removes `shards/`, whose partials belong to an earlier split.
///
/// Removing is safe only in a folder Trendline owns, so a run refuses, before anything is read,
/// an output folder it does not own (``ownershipProblem(in:)``): one whose top level holds an
/// entry no run writes, or Trendline's names without its marker (``markerName``, written
/// when a run first claims an empty folder) or a manifest. An `--output` mistyped as a home
/// folder, or as someone's site holding `report/`, is refused, not emptied. Hidden entries
/// (`.DS_Store`, `.nfs…`, live temporaries) are never removed, and no link is followed: a
/// folder of Trendline's that is a link (`users` → elsewhere) when a run starts is replaced by
/// a real one, and one swapped in later fails the write or sweep that meets it (``AtomicFile``
/// opens every folder with `O_NOFOLLOW`), so neither a write nor a sweep reaches the link's
/// target.
enum OutputSweep {
  /// The empty file that marks a folder as a Trendline output folder.
  static let markerName = ".trendline-output"

  /// Why `output` cannot be written and swept, or nil: it is missing or empty but for hidden
  /// entries, holds the marker or a Trendline manifest, and holds nothing else at its top.
  ///
  /// A backfill's folder (`backfill`) holds only `as_of=<date>/` snapshot folders and the
  /// marker; each snapshot folder is then an output folder of its own. Neither kind is taken
  /// for the other, so a run's `--output` given to a backfill (or the reverse) is refused.
  ///
  /// - Complexity: O(*e*), where *e* is the number of top-level entries.
  static func ownershipProblem(in output: String, backfill: Bool = false) -> String? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: output) else { return nil }
    let shown = names.filter { !$0.hasPrefix(".") }
    func isSnapshot(_ name: String) -> Bool {
      name.hasPrefix(AsOfRange.folderPrefix)
        && AsOf(parsing: String(name.dropFirst(AsOfRange.folderPrefix.count)))
          .map { AsOfRange.folderName(of: $0) == name } == true
    }
    let foreign = shown.filter { backfill ? !isSnapshot($0) : !OutputLayout.topLevel.contains($0) }
    if let first = foreign.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      if backfill && OutputLayout.topLevel.contains(first) {
        return "holds '\(first)': it is the output folder of a run, and a backfill writes only as_of=<date> folders"
      }
      if !backfill && isSnapshot(first) {
        return "holds '\(first)': it is the output folder of a backfill (--as-of FROM..TO), not of one run"
      }
      return "holds '\(TerminalText.escaped(first))', which no Trendline run writes"
    }
    guard !shown.isEmpty, !names.contains(markerName) else { return nil }
    if !backfill, let data = FileManager.default.contents(atPath: output + "/" + OutputLayout.manifest),
      let manifest = try? JSONDecoder().decode(ManifestSchema.self, from: data), manifest.schema.hasPrefix("trendline/")
    {
      return nil
    }
    return "holds '\(shown.sorted()[0])' but no \(markerName)"
      + (backfill ? "" : " or manifest.json of a Trendline run")
  }

  /// Just the `schema` of a manifest, to recognize one an earlier version wrote.
  private struct ManifestSchema: Decodable { var schema: String }

  /// Why `output` cannot be written with users laid out as `layout`, or nil: its manifest, or
  /// for a partitioned night an entry of `users/` that is no partition folder, says it holds a
  /// night of the other layout. Written over, every user's folder and page of the old layout
  /// would be swept as no one's — with no departure counted, as none would be found where the
  /// new layout looks.
  ///
  /// - Complexity: O(*e*) for the *e* entries of `users/`, read only for a partitioned night.
  static func layoutProblem(in output: String, layout: UserLayout) -> String? {
    var found: UserLayout?
    if let data = FileManager.default.contents(atPath: output + "/" + OutputLayout.manifest),
      let manifest = try? JSONDecoder().decode(ManifestLayout.self, from: data)
    {
      found = manifest.layout ?? .flat
    } else if layout == .partitioned,
      let names = try? FileManager.default.contentsOfDirectory(atPath: output + "/" + OutputLayout.users),
      names.contains(where: { $0.utf8.first != ASCII.dot && UserLayout.partition(named: $0) == nil })
    {
      found = .flat
    }
    guard let found, found != layout else { return nil }
    return "holds a \(found.rawValue) night, and the pipeline's layout is \(layout.rawValue): writing over it would "
      + "sweep every user's folder of the other layout"
  }

  /// Just the `layout` of a manifest.
  private struct ManifestLayout: Decodable { var layout: UserLayout? }

  /// Claims `output` for this run: creates it, writes the marker and replaces each of
  /// Trendline's folders that is a link with a real folder (the link itself is removed, never
  /// its target). A backfill's folder (`backfill`) is only created and marked: each of its
  /// snapshot folders is claimed as it is written.
  static func claim(_ output: String, backfill: Bool = false) throws(AtomicFile.WriteError) {
    try AtomicFile.createFolder(output)
    if !FileManager.default.fileExists(atPath: output + "/" + markerName) {
      try AtomicFile.write(Data(), to: output + "/" + markerName)
    }
    guard !backfill else { return }
    for name in OutputLayout.folders {
      try unlinkIfLink(output + "/" + name)
    }
  }

  /// Removes `path` if it is a symbolic link, so that the folder written there next is real.
  /// Its folder is reached without following links (``AtomicFile/reachFolder(_:for:)``): a link
  /// above it fails this as it would a write.
  static func unlinkIfLink(_ path: String) throws(AtomicFile.WriteError) {
    let (folderPath, name) = AtomicFile.split(path)
    guard let folder = try AtomicFile.reachFolder(folderPath, for: path) else { return }
    defer { close(folder) }
    var status = stat()
    guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFLNK else { return }
    guard unlinkat(folder, name, 0) == 0 || errno == ENOENT else { throw .system(errno, path: path) }
  }

  /// Removes every entry of `folder` (a file or a whole folder) whose name is not in `kept`,
  /// hidden entries apart, and `folder` itself if that leaves it empty.
  ///
  /// The folder is listed and emptied through descriptors opened without following links
  /// (``AtomicFile/ListedFolder``): one that is a link is not swept (through it, the sweep
  /// would empty the link's target), and a link above it fails the sweep as it would a write.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries removed or kept.
  static func removeAll(in folder: String, except kept: Set<String>) throws(AtomicFile.WriteError) {
    guard let listed = try AtomicFile.ListedFolder(folder) else { return }
    var left = 0
    for entry in listed.entries {
      let name = entry.name
      if AtomicFile.isAbandoned(name, in: listed.descriptor) {
        unlinkat(listed.descriptor, name, 0)
        continue
      }
      // Hidden entries are another process's temporaries, except a compared chart staged by an
      // earlier run of this user (``CohortStamp``) that this run did not stage again.
      if (name.hasPrefix(".") && !name.hasPrefix(CohortStamp.stagedPrefix)) || kept.contains(name) {
        left += 1
        continue
      }
      try listed.remove(name)
    }
    if left == 0 { listed.removeIfEmpty() }
  }

  /// The run-level sweep of a run over all users (`keepShards` false) or a merge (true): what
  /// is left of cohort and report files not in `written` (paths relative to `output`, such as
  /// `cohort/training-volume.json`), and of users' folders not in `users`.
  ///
  /// A folder in `users/` of a user this run did not run is a departed user's: their export
  /// was deleted or renamed, or the input is not the folder it was. Their folder and report
  /// page are kept unless `removeDeparted`, and returned either way, so the manifest names
  /// them: an input mounted empty by mistake must cost a warning, not every user's charts.
  ///
  /// - Returns: The departed users, in id order.
  /// - Complexity: O(*e*), where *e* is the number of entries in the swept folders.
  static func sweepRun(
    output: String, layout: UserLayout, users: [String], written: [String], keepShards: Bool, removeDeparted: Bool
  ) throws(AtomicFile.WriteError) -> [String] {
    let writtenSet = Set(written)
    let ran = Set(users)
    let (users, cohort, report) = (OutputLayout.users, OutputLayout.cohort, OutputLayout.report)
    let departed = departedUsers(in: output + "/" + users, layout: layout, ran: ran)
    let kept = removeDeparted ? ran : ran.union(departed)
    try removeAll(in: output + "/" + users, keepingUsers: kept, layout: layout)
    let segmentFiles = Set(written.compactMap { name(of: $0, in: OutputLayout.cohortSegments + "/") })
    try removeAll(in: output + "/" + OutputLayout.cohortSegments, except: segmentFiles)
    try removeAll(
      in: output + "/" + cohort,
      except: Set(written.compactMap { name(of: $0, in: cohort + "/") }).union(
        segmentFiles.isEmpty ? [] : [OutputLayout.segments])
    )
    let pages = writtenSet.contains(report + "/" + HTMLReport.indexPageName(1)) ? kept : []
    try removeAll(in: output + "/" + UserLayout.pagesFolder, keepingUsers: pages, layout: layout, suffix: ".html")
    try removeAll(
      in: output + "/" + report, except: Set(written.compactMap { name(of: $0, in: report + "/") }).union([users]))
    try keepOnly(written, under: Tables.folder, in: output)
    if !keepShards { try AtomicFile.remove(output + "/" + OutputLayout.shards) }
    return departed
  }

  /// Removes from `folder` (`users/` or `report/users/`) every user's entry (their id and
  /// `suffix`) but those of `kept`; partitioned, every partition folder that holds none of
  /// them too.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries removed or kept.
  private static func removeAll(
    in folder: String, keepingUsers kept: Set<String>, layout: UserLayout, suffix: String = ""
  ) throws(AtomicFile.WriteError) {
    guard layout == .partitioned else { return try removeAll(in: folder, except: Set(kept.map { $0 + suffix })) }
    var byPartition: [String: Set<String>] = [:]
    for id in kept {
      byPartition[UserLayout.partitionName(UserLayout.partition(of: id)), default: []].insert(id + suffix)
    }
    try removeAll(in: folder, except: Set(byPartition.keys))
    for (partition, names) in byPartition { try removeAll(in: folder + "/" + partition, except: names) }
  }

  /// Removes from `folder` of `output`, at any depth, every entry on no path of `written`
  /// (relative to `output`), and `folder` itself if that leaves nothing.
  ///
  /// - Complexity: O(*w* + *e*) for *w* paths written and *e* entries in the folder.
  static func keepOnly(_ written: [String], under folder: String, in output: String) throws(AtomicFile.WriteError) {
    var kept: [String: Set<String>] = [folder: []]
    for path in written where path.hasPrefix(folder + "/") {
      let parts = path.split(separator: "/").map(String.init)
      for depth in 1..<parts.count {
        kept[parts[0..<depth].joined(separator: "/"), default: []].insert(parts[depth])
      }
    }
    // Deepest first, so a folder emptied by its own sweep is gone before its parent is swept.
    for (parent, names) in kept.sorted(by: { $0.key.count > $1.key.count }) {
      try removeAll(in: output + "/" + parent, except: names)
    }
  }

  /// Why `--remove-departed` must not run as asked: more than half of the users with a folder
  /// in `output` would go at once, which is an input mounted empty or wrongly, not users
  /// leaving (SPEC 11.7). Nil when fewer go, or none.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries in `output/users`.
  static func departureProblem(output: String, layout: UserLayout, users: Set<String>) -> String? {
    let folder = output + "/" + OutputLayout.users
    let departed = departedUsers(in: folder, layout: layout, ran: users)
    let staying = departedUsers(in: folder, layout: layout, ran: []).count - departed.count
    guard !departed.isEmpty, departed.count > staying else { return nil }
    return
      "--remove-departed would remove \(departed.count) of the \(departed.count + staying) users in "
      + "\(TerminalText.escaped(folder)) at once; nothing was read, written or removed. An input that is empty or "
      + "not the folder it was looks like this: check it, or add --confirm-removal to remove them"
  }

  /// The names of the real folders in `folder` (hidden ones apart) that are not in `ran`;
  /// partitioned, in its partition folders.
  private static func departedUsers(in folder: String, layout: UserLayout, ran: Set<String>) -> [String] {
    guard layout == .partitioned else { return departedUsers(in: folder, ran: ran) }
    let partitions = departedUsers(in: folder, ran: []).filter { UserLayout.partition(named: $0) != nil }
    return partitions.flatMap { departedUsers(in: folder + "/" + $0, ran: ran) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The names of the real folders in `folder` (hidden ones apart) that are not in `ran`.
  private static func departedUsers(in folder: String, ran: Set<String>) -> [String] {
    var status = stat()
    guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
    else { return [] }
    return names.filter { name in
      guard !name.hasPrefix("."), !ran.contains(name) else { return false }
      var entry = stat()
      return lstat(folder + "/" + name, &entry) == 0 && entry.st_mode & S_IFMT == S_IFDIR
    }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The file name of `path` when it lies directly in `folder` (`cohort/`).
  private static func name(of path: String, in folder: String) -> String? {
    guard path.hasPrefix(folder) else { return nil }
    let name = path.dropFirst(folder.count)
    return name.contains("/") ? nil : String(name)
  }
  /// `url`'s path with links resolved as far as it exists (an output folder may not yet), the
  /// rest appended, `.` and `..` removed: a path with no link in it, as ``AtomicFile`` needs
  /// the paths it writes (SPEC 11.7).
  ///
  /// `realpath`, not `URL.resolvingSymlinksInPath()`: on macOS that one drops `/private` from
  /// `/private/var/…`, leaving the link `/var` in the path.
  static func resolved(_ url: URL) -> String {
    var existing = url.standardizedFileURL.path
    var rest: [String] = []
    var real = realpath(existing, nil)
    while real == nil && existing != "/" && !existing.isEmpty {
      rest.insert((existing as NSString).lastPathComponent, at: 0)
      existing = (existing as NSString).deletingLastPathComponent
      real = realpath(existing, nil)
    }
    var path = existing
    if let real {
      path = String(cString: real)
      free(real)
    }
    for component in rest { path = (path as NSString).appendingPathComponent(component) }
    // Not `standardizingPath`: on macOS it too drops `/private`.
    return path
  }

  /// ``resolved(_:)`` as a folder's URL: the output folder a run or a merge writes through.
  static func resolvedFolder(_ url: URL) -> URL {
    URL(fileURLWithPath: resolved(url), isDirectory: true)
  }
}
