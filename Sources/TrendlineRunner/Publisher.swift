import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// Publishes a finished night: readers follow one link, `current`, which moves to the new
/// night in one rename, so they always see the last complete night and never a night being
/// written, a failed one, or none at all (see Guides/Nights.md).
///
/// A nightly root holds:
///
///     nights/<night>/      each night's output folder, as `trendline run` and `merge` write it
///     listings/<night>/    its listing (`trendline list`)
///     logs/<night>/        its drivers' and tasks' logs
///     current -> nights/<night>
///     nights.csv           one row per night published, for a dashboard
///     metrics/trendline.prom  the last published night, for a textfile collector
///
/// Publishing checks the night (`_SUCCESS`, its manifest), refuses one that lost more than
/// half of the published night's users (an empty or wrongly mounted input), switches the
/// link, writes the record and the metrics, then keeps the newest `keep` nights and removes
/// the others with their listings and logs: never the night published, nor the one before it.
/// Nights are ordered by name (a date first): a past night run again is recorded, but
/// `current` stays on the newer night.
public enum Publisher {
  public static let currentName = "current"
  public static let recordName = "nights.csv"
  public static let metricsPath = "metrics/trendline.prom"
  /// The folders of a root that hold one entry per night, pruned together.
  public static let nightFolders = ["nights", "listings", "logs"]

  /// Why a night was not published: what to do is in the message. `isWrite` tells a full or
  /// read-only disk (exit 74) from a night that must not be published (exit 2).
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var isWrite = false
    public var description: String { message }
  }

  /// What publishing did.
  public struct Published: Sendable, Equatable {
    public var night: String
    /// The night `current` named before, if any.
    public var previous: String?
    /// Whether `current` now names the night: not when it is older than the one published (a
    /// past night run again), which is recorded but does not take readers back in time.
    public var isCurrent: Bool
    /// The nights removed by `keep`, oldest first.
    public var pruned: [String]
    public var manifest: Manifest
  }

  /// Whether `name` can name a night: 1–64 of `A–Z a–z 0–9 . _ -`, starting with a letter or
  /// digit (a date, `2026-12-06`, or a date and a run, `2026-12-06.b`). A night's name becomes a
  /// path and the first cell of a `nights.csv` row, where a leading `-` or `=` would be a formula.
  public static func isValidNight(_ name: String) -> Bool {
    guard let first = name.utf8.first, (1...64).contains(name.utf8.count), isAlphanumeric(first) else {
      return false
    }
    return name.utf8.allSatisfy { isAlphanumeric($0) || $0 == ASCII.dot || $0 == 0x5F || $0 == ASCII.minus }
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  /// The night `current` names in `root`, or nil when there is none.
  public static func current(in root: URL) -> String? {
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: root.path + "/" + currentName)
    else { return nil }
    let parts = target.split(separator: "/")
    guard parts.count == 2, parts[0] == "nights", isValidNight(String(parts[1])) else { return nil }
    return String(parts[1])
  }

  /// Publishes the night `night` of the nightly root `root` and keeps the newest `keep` nights
  /// (all of them when nil).
  ///
  /// - Throws: ``Failure`` when the night is not finished or damaged, lost more than half the
  ///   published night's users without `confirmRemoval`, or a file cannot be written.
  /// - Complexity: O(*f*) for the *f* files of the night (their bytes are counted), plus the
  ///   nights removed.
  public static func publish(
    root: URL, night: String, keep: Int?, confirmRemoval: Bool = false, now: Date = Date()
  ) throws(Failure) -> Published {
    precondition(keep.map { $0 >= 1 } ?? true, "keep is checked where it enters")
    guard isValidNight(night) else {
      throw Failure(message: "'\(TerminalText.escaped(night))' is not a night's name (1–64 of A–Z a–z 0–9 . _ -)")
    }
    // Resolved once: the files below are written through no link, and a root given as a link
    // (`/srv/nightly -> /data/out`) must fail none of them after `current` moved.
    let root = root.resolvingSymlinksInPath()
    let folder = root.path + "/nights/" + night
    var status = stat()
    guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw Failure(message: "'\(folder)' is not a folder: the night never ran there")
    }
    guard FileManager.default.fileExists(atPath: folder + "/" + OutputLayout.success) else {
      throw Failure(
        message: "'\(folder)' has no _SUCCESS: the night did not finish, so it is not published; "
          + "'\(currentName)' still names the last night that did")
    }
    let manifest = try self.manifest(at: folder + "/" + OutputLayout.manifest)
    // One publisher at a time: two would read the same previous night, and the older night
    // could end up current, or one's row of nights.csv be lost.
    let lock = open(root.path + "/.publish.lock", O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard lock >= 0 else {
      throw Failure(
        message: "cannot open '\(root.path)/.publish.lock' (\(String(cString: strerror(errno)))): is ROOT a "
          + "writable folder?", isWrite: true)
    }
    defer { close(lock) }
    guard flock(lock, LOCK_EX) == 0 else {
      throw Failure(message: "cannot lock '\(root.path)/.publish.lock' (\(String(cString: strerror(errno))))")
    }
    let previous = current(in: root)
    let isCurrent = previous.map { !night.utf8.lexicographicallyPrecedes($0.utf8) } ?? true
    // Users who succeeded, not users: a night whose input vanished under its listing has every
    // user, each failed. Compared without a product, which a forged count could overflow.
    if isCurrent, let previous, previous != night, !confirmRemoval {
      let published: Manifest
      do throws(Failure) {
        published = try self.manifest(at: root.path + "/nights/" + previous + "/" + OutputLayout.manifest)
      } catch {
        throw Failure(
          message: "night \(previous), which \(currentName) names, cannot be read to compare its users with night "
            + "\(night)'s (\(error.message)); publish with --confirm-removal once night \(night) is checked")
      }
      let (now, before) = (manifest.totals.usersOK, published.totals.usersOK)
      if now < before - before / 2 {
        throw Failure(
          message: "night \(night) has \(now) users ok, fewer than half of the \(before) of night \(previous), "
            + "which stays published: an empty or wrongly mounted input? Publish it with --confirm-removal if the "
            + "users really left")
      }
    }
    let written = bytesWritten(in: folder)
    // The record and the metrics are made before `current` moves, so a night is never current
    // without them; they are written after it, and a failure then says that it moved.
    let row = try record(manifest, night: night, written: written, now: now, in: root.path)
    let figures = metrics(
      manifest, night: night, asOf: try times(of: manifest, in: folder).asOf,
      shards: shardManifests(of: manifest, in: folder), written: written, now: now)
    if isCurrent { try switchCurrent(in: root.path, to: night) }
    do throws(Failure) {
      try write(row, to: root.path + "/" + recordName)
      if isCurrent { try writeMetrics(figures, in: root.path) }
    } catch {
      guard isCurrent else { throw error }
      throw Failure(
        message: "\(currentName) names night \(night) now, but its record and metrics were not written: "
          + "\(error.message)", isWrite: true)
    }
    let pruned = keep.map { prune(root.path, keep: $0, keeping: [night, previous].compactMap { $0 }) } ?? []
    return Published(night: night, previous: previous, isCurrent: isCurrent, pruned: pruned, manifest: manifest)
  }

  static func manifest(at path: String) throws(Failure) -> Manifest {
    do {
      let bytes = try FileBytes.read(path, maximumBytes: 1 << 32)
      return try JSONDecoder().decode(Manifest.self, from: Data(bytes))
    } catch {
      throw Failure(message: "'\(path)' cannot be read as a manifest (\(error)); run the night again")
    }
  }

  /// Points `root/current` at `nights/<night>`: a new link under a temporary name, renamed over
  /// the old one, so a reader finds the old night or the new, never no link.
  static func switchCurrent(in root: String, to night: String) throws(Failure) {
    let link = root + "/" + currentName
    var status = stat()
    if lstat(link, &status) == 0, status.st_mode & S_IFMT != S_IFLNK {
      throw Failure(
        message: "'\(link)' is not a link; it is where readers find the published night. Move it away")
    }
    // Unique, not the process id, which two containers sharing the root may both have.
    let draft = root + "/.\(currentName).tmp-\(UUID().uuidString)"
    unlink(draft)
    guard symlink("nights/" + night, draft) == 0, rename(draft, link) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(draft)
      throw Failure(message: "cannot point '\(link)' at nights/\(night) (\(reason))", isWrite: true)
    }
  }

  /// The manifests of the shards a merged night was made from, for their times.
  static func shardManifests(of manifest: Manifest, in folder: String) -> [Manifest] {
    (manifest.shards ?? []).compactMap { try? self.manifest(at: folder + "/" + $0.manifest) }
  }

  /// The bytes and files under `folder`, links not followed.
  static func bytesWritten(in folder: String) -> (bytes: Int, files: Int) {
    var bytes = 0
    var files = 0
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return (0, 0) }
    while let name = walker.nextObject() as? String {
      var status = stat()
      guard lstat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      bytes += Int(status.st_size)
      files += 1
    }
    return (bytes, files)
  }

  /// The seconds from `startedAt` to `finishedAt` of the manifests, earliest to latest.
  static func span(_ manifests: [Manifest]) -> Int64? {
    let starts = manifests.compactMap { RFC3339.parse($0.startedAt) }
    let ends = manifests.compactMap { RFC3339.parse($0.finishedAt) }
    guard let start = starts.min(), let end = ends.max() else { return nil }
    return end - start
  }

  /// The night in the OpenMetrics text format, as a textfile collector reads it.
  static func metrics(
    _ manifest: Manifest, night: String, asOf: String, shards: [Manifest], written: (bytes: Int, files: Int),
    now: Date
  ) -> String {
    var text = ""
    func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
      text += "# TYPE \(name) \(type)\n# HELP \(name) \(help)\n"
      for sample in samples { text += "\(name)\(sample.labels) \(sample.value)\n" }
    }
    let totals = manifest.totals
    family(
      "trendline_night_users", "gauge", "Users of the last published night, by status.",
      [("{status=\"ok\"}", "\(totals.usersOK)"), ("{status=\"failed\"}", "\(totals.usersFailed)")])
    let rows = totals.rows
    family(
      "trendline_night_rows", "gauge", "Rows read in the last published night, by outcome.",
      [
        ("accepted", rows.accepted), ("rejected", rows.rejected), ("duplicate", rows.duplicate),
        ("ignored", rows.ignored), ("repaired", rows.repaired),
      ].map { ("{outcome=\"\($0.0)\"}", "\($0.1)") })
    family(
      "trendline_night_entries_skipped", "gauge", "Input entries not read that are faults (not hidden files).",
      [("", "\(manifest.faultyEntries.count)")])
    var steps: [(String, Int64?)] = []
    if shards.isEmpty {
      steps.append(("run", span([manifest])))
    } else {
      steps.append(("shards", span(shards)))
      steps.append(("merge", span([manifest])))
      steps.append(("night", span(shards + [manifest])))
    }
    family(
      "trendline_night_duration_seconds", "gauge",
      "Wall time of the last published night by step: the shards (first start to last end), the merge, and both.",
      steps.compactMap { step in step.1.map { ("{step=\"\(step.0)\"}", "\($0)") } })
    family(
      "trendline_night_written_bytes", "gauge", "Bytes of the files the last published night wrote.",
      [("", "\(written.bytes)")])
    family(
      "trendline_night_written_files", "gauge", "Files the last published night wrote.", [("", "\(written.files)")])
    family(
      "trendline_night_published_timestamp_seconds", "gauge", "When the last night was published.",
      [("", "\(Int64(now.timeIntervalSince1970))")])
    // A date as-of is an instant per user's zone, so it is a label, not a timestamp. Both
    // values are checked (a night's name; an as-of parsed and written again): no quote, no
    // backslash, no line end to escape.
    // A gauge of 1 named _info, the form both the Prometheus text format the textfile
    // collector parses and OpenMetrics read (the former has no info type).
    family(
      "trendline_night_info", "gauge", "The last published night and its as-of.",
      [("{night=\"\(night)\",as_of=\"\(asOf)\"}", "1")])
    return text + "# EOF\n"
  }

  static let recordHeader = String(
    decoding: TableRows.header([
      "night", "as_of", "published_at", "users", "users_ok", "users_failed", "rows_read", "rows_accepted",
      "rows_rejected", "rows_duplicate", "rows_ignored", "rows_repaired", "sessions", "entries_skipped", "started_at",
      "finished_at", "written_bytes", "written_files",
    ]), as: UTF8.self)

  /// `nights.csv` with the night's row added, replacing the row of an earlier publishing of the
  /// same night, rows in night order. Every cell is a number, a night's name, an as-of or a
  /// time Trendline formats itself (the manifest's are parsed and written again), none of which
  /// starts with a formula character or holds a comma; the new row is written by ``TableRows``,
  /// the one CSV writer, all the same.
  ///
  /// - Throws: ``Failure`` when the file exists but cannot be read as UTF-8: it is a record of
  ///   every night, never overwritten with one row.
  static func record(
    _ manifest: Manifest, night: String, written: (bytes: Int, files: Int), now: Date, in root: String
  ) throws(Failure) -> String {
    let path = root + "/" + recordName
    var rows: [String: String] = [:]
    if FileManager.default.fileExists(atPath: path) {
      guard let bytes = try? FileBytes.read(path, maximumBytes: 1 << 30),
        let text = String(validating: bytes, as: UTF8.self)
      else {
        throw Failure(message: "'\(path)' cannot be read as UTF-8 text; move it away to start a new record")
      }
      // Lines split at the byte: `String` takes "\r\n" for one character, and a file saved
      // with Windows line ends was one line.
      for line in text.utf8.split(separator: ASCII.newline).dropFirst() {
        let row = String(decoding: line.last == ASCII.carriageReturn ? line.dropLast() : line, as: UTF8.self)
        let name = String(row.prefix { $0 != "," })
        if isValidNight(name) { rows[name] = row }
      }
    }
    let checked = try times(of: manifest, in: root + "/nights/" + night)
    let totals = manifest.totals
    // Written by the one CSV writer, though no cell here needs quoting or defusing: a cell that
    // one day does gets it.
    var row = TableRows()
    for text in [night, checked.asOf, Runner.timestamp(now)] { row.text(text) }
    for count in [
      totals.users, totals.usersOK, totals.usersFailed, totals.rows.read, totals.rows.accepted, totals.rows.rejected,
      totals.rows.duplicate, totals.rows.ignored, totals.rows.repaired, totals.sessions, manifest.faultyEntries.count,
    ] {
      row.number(count)
    }
    row.text(Runner.timestamp(Date(timeIntervalSince1970: Double(checked.started))))
    row.text(Runner.timestamp(Date(timeIntervalSince1970: Double(checked.finished))))
    row.number(written.bytes)
    row.number(written.files)
    rows[night] = String(decoding: row.bytes, as: UTF8.self)  // without its line end, as the rows read are
    let sorted = rows.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    return recordHeader + sorted.map { rows[$0]! + "\n" }.joined()
  }

  /// The night's as-of as Trendline writes it, and when its first run started and its merge
  /// finished, from the manifests' text parsed: a manifest is a file anyone with the folder can
  /// edit, and its text goes into a CSV cell and a metric's label.
  static func times(of manifest: Manifest, in folder: String) throws(Failure) -> (
    asOf: String, started: Int64, finished: Int64
  ) {
    let all = [manifest] + shardManifests(of: manifest, in: folder)
    guard let asOf = AsOf(parsing: manifest.asOf)?.text,
      let started = all.compactMap({ RFC3339.parse($0.startedAt) }).min(),
      let finished = RFC3339.parse(manifest.finishedAt)
    else {
      throw Failure(
        message: "'\(folder)/manifest.json' has an as-of or a time that cannot be read; run the night again")
    }
    return (asOf, started, finished)
  }

  /// Writes the metrics by a draft whose name does not end in `.prom`: a textfile collector
  /// reads every `*.prom` in the folder, and a draft left by a killed publish would double
  /// every series.
  static func writeMetrics(_ text: String, in root: String) throws(Failure) {
    let path = root + "/" + metricsPath
    try write(text, to: path + ".next")
    guard rename(path + ".next", path) == 0 else {
      throw Failure(message: "cannot write '\(path)' (\(String(cString: strerror(errno))))", isWrite: true)
    }
  }

  /// Removes every night but the newest `keep` and those in `keeping`, with their listings and
  /// logs; returns the names removed, oldest first. A night that cannot be removed is left for
  /// the next publishing.
  static func prune(_ root: String, keep: Int, keeping: [String]) -> [String] {
    let nights = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/nights")) ?? [])
      .filter(isValidNight).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let kept = Set(nights.suffix(keep) + keeping)
    var removed: [String] = []
    for night in nights where !kept.contains(night) {
      for folder in nightFolders { try? FileManager.default.removeItem(atPath: root + "/" + folder + "/" + night) }
      removed.append(night)
    }
    return removed
  }

  private static func write(_ text: String, to path: String) throws(Failure) {
    do throws(AtomicFile.WriteError) {
      try AtomicFile.write(Data(text.utf8), to: path)
    } catch {
      throw Failure(message: error.description, isWrite: true)
    }
  }
}
