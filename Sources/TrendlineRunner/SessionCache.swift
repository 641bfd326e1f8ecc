import CommandArguments
import Foundation
import Synchronization
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineSupport

/// Keeps what reading each user's exports produced between runs (`--cache DIR`), so a nightly
/// run over unchanged exports skips parsing them: one binary file per user,
/// `DIR/<user>.tlcache` (a partitioned pipeline's in `DIR/<partition>/`, as its outputs are:
/// ``UserLayout``).
///
/// An entry holds everything ``UserReader/read(_:settings:options:)`` returns (the sessions with
/// their counted sets, each file's row accounting, the rejected rows, the unmapped exercises and
/// the input files with their sizes and SHA-256), so a run served from the cache writes the
/// same charts, `row-outcomes.csv` and manifest counts as a run that parsed the exports.
///
/// An entry is used only when its key matches: the user, the input files (names, sizes,
/// SHA-256), the user's resolved settings (zone, units, first weekday, date order), the pipeline's source
/// settings (format, `warmupSets`, the `source.csv` layout, `source.limits`, the catalog's content), the tool
/// version, the build of the running binary, the time-zone database and this format's version.
/// Anything else (a bad checksum, another version, a cut-off file, another user's entry) is
/// reported as `rebuilt` and overwritten, never trusted.
///
/// Like git's index, an entry also keeps each file's size, modification time, change time and
/// inode next to its hash. When they are unchanged the stored hash is trusted without reading
/// the file, which is what makes a warm run fast; when they differ the file is hashed again.
/// `verify` (`--cache-verify`) hashes every file on every run instead.
///
/// It deliberately does not cache chart outputs: they depend on the as-of, which changes every
/// night, and computing them from sessions is a small part of a run. Nor does it remove entries
/// of users who left the input folder; an entry is a file a person may delete at any time.
public final class SessionCache: Sendable {
  /// What the cache did for one user, as the manifest records it.
  public enum Status: String, Sendable, Codable {
    /// The entry matched; no export was parsed.
    case hit
    /// No entry, or the exports or settings changed since it was written: parsed, then stored.
    case miss
    /// The file was not a valid entry for this user (bad magic, another format version, a
    /// checksum mismatch, cut off, another user's): ignored, parsed, then overwritten.
    case rebuilt
  }

  /// The outcome of ``lookup(_:settings:)``: the cached read on a hit, and what ``store(_:read:)``
  /// needs to write the entry afterwards.
  public struct Lookup: Sendable {
    public var status: Status
    /// On a hit, what reading the exports produced when the entry was written.
    public var cached: (ingest: UserIngest, inputs: [InputFile])?
    /// Why the entry was not used, for tests and logs; nil on a hit.
    public var reason: String?
    let user: String
    let key: [UInt8]
    /// Each input's stat, taken before any byte of it was read, so a file that changes while
    /// it is read is hashed again next time instead of being trusted.
    let stats: [FileStat?]
    let statTime: Int64
    /// True when the entry must be (re)written: a miss, a rebuild, or a hit whose stats were
    /// refreshed after hashing.
    let needsWrite: Bool
  }

  /// The cache folder.
  public let folder: URL
  /// `folder.path`, worked out once: entry paths are built per user.
  private let folderPath: String
  /// Where each user's entry is: `DIR/<user>.tlcache`, or one level lower, partitioned.
  private let layout: UserLayout
  /// Hash every input on every run instead of trusting unchanged stats.
  public let verify: Bool
  /// The run-wide part of every key (format version, tool, build, source settings, catalog).
  let runKey: String
  /// How recent a file's times may be for its stat to be trusted next run (see `isRacy`).
  let racyWindow: Int64
  /// The pipeline's `source.limits`, which bound every count a decoded entry may hold.
  let limits: ReadLimits
  private let filesHashed = Atomic<Int>(0)

  /// Files read and hashed so far to check entries (a file trusted by its stat is not counted).
  /// Tests use it to prove that a hit read no export.
  public var inputsHashed: Int { filesHashed.load(ordering: .relaxed) }

  /// - Parameters:
  ///   - folder: where the entries live; created when the first entry is written.
  ///   - source: the pipeline's source settings; everything in it that changes what reading
  ///     produces goes into the key.
  ///   - toolVersion: the version the manifest records.
  ///   - verify: hash every input on every run (`--cache-verify`).
  ///   - layout: where each user's entry is, as the pipeline's outputs are.
  public convenience init(
    folder: URL, source: Pipeline.Source, toolVersion: String, verify: Bool = false, layout: UserLayout = .flat
  ) {
    // 2 s: the coarsest timestamp granularity in common use (FAT; ext3 and HFS+ have 1 s).
    self.init(
      folder: folder, source: source, toolVersion: toolVersion, verify: verify,
      racyWindowNanoseconds: 2_000_000_000, layout: layout)
  }

  /// With another racy window; tests use 0 to trust files they have just written.
  init(
    folder: URL, source: Pipeline.Source, toolVersion: String, verify: Bool,
    racyWindowNanoseconds: Int64, layout: UserLayout = .flat
  ) {
    self.folder = folder
    self.layout = layout
    // Resolved once: entries are written without following links (``AtomicFile``), and a cache
    // folder given as a link is still used.
    folderPath = OutputSweep.resolved(folder)
    self.verify = verify
    racyWindow = racyWindowNanoseconds
    limits = source.limits
    runKey = SessionCache.runKey(source: source, toolVersion: toolVersion)
  }

  /// The entry file of `user`. User ids are checked by `InputLayout`, so the id is safe as a name.
  public func path(for user: String) -> String {
    folderPath + "/" + layout.folderPrefix(of: user) + user + ".tlcache"
  }

  /// Looks up `user`'s entry and checks it against the user's files and settings.
  ///
  /// On a hit nothing is parsed; a file whose stat changed is read and hashed once, and if its
  /// hash still matches only the stat is refreshed.
  ///
  /// - Complexity: O(*e*) to decode an entry of *e* bytes, plus O(*n*) for each of *n* bytes of
  ///   inputs whose stat changed (all inputs with `verify`).
  public func lookup(_ user: UserInput, settings: UserSettings) -> Lookup {
    // Stat first, before anything reads the files (see `Lookup.stats`).
    let stats = user.files.map { FileStat(path: $0.path) }
    let statTime = FileStat.now()
    let key = self.key(for: settings)
    func result(_ status: Status, _ reason: String) -> Lookup {
      Lookup(
        status: status, cached: nil, reason: reason, user: user.id, key: key, stats: stats,
        statTime: statTime,
        needsWrite: true)
    }

    // An entry is a compact copy of what its exports held, smaller than they are: one larger
    // than the file limit is not one this build wrote, and is rebuilt instead of decoded.
    let bytes: [UInt8]
    do throws(FileBytes.Failure) {
      bytes = try FileBytes.read(path(for: user.id), maximumBytes: limits.maxFileBytes)
    } catch {
      if case .tooLarge(let size) = error {
        return result(.rebuilt, "the entry is \(size) bytes, over the file limit of \(limits.maxFileBytes)")
      }
      return result(.miss, "no entry")
    }
    let head: Entry.Head
    do throws(CacheFault) {
      head = try Entry.Head(decoding: bytes)
    } catch {
      return result(.rebuilt, error.description)
    }
    guard head.user == user.id else {
      return result(.rebuilt, CacheFault.otherUser(head.user).description)
    }
    guard head.key == key else {
      return result(.miss, "the settings, catalog, tool or build changed")
    }
    guard head.inputs.map(\.name) == user.files.map(\.lastPathComponent) else {
      return result(.miss, "the user's files changed")
    }

    var refreshed = false
    for index in user.files.indices {
      let stored = head.inputs[index]
      if !verify, let stat = stats[index], stat == head.stats[index], !head.racy[index] { continue }
      // The stat changed (or cannot be trusted): the content decides. Held to the file limit:
      // a file grown past it (a sparse 500 GB one) is a miss, and the read then fails the user.
      guard let fileBytes = try? user.bytes(ofFileAt: index, maximumBytes: limits.maxFileBytes) else {
        return result(.miss, "\(stored.name) cannot be read")
      }
      filesHashed.add(1, ordering: .relaxed)
      guard fileBytes.count == stored.bytes, ContentHash.of(fileBytes) == stored.contentHash else {
        return result(.miss, "\(stored.name) changed")
      }
      if stats[index] != head.stats[index] || head.racy[index] || isRacy(stats[index], at: statTime) {
        refreshed = true
      }
    }

    let ingest: UserIngest
    do throws(CacheFault) {
      ingest = try Entry.checkedIngest(decoding: bytes, from: head.ingestOffset, limits: limits)
    } catch {
      return result(.rebuilt, error.description)
    }
    return Lookup(
      status: .hit, cached: (ingest, head.inputs), reason: nil, user: user.id, key: key,
      stats: stats,
      statTime: statTime, needsWrite: refreshed)
  }

  /// Writes the entry for a lookup that was not a clean hit: the read the exports gave, keyed
  /// as ``lookup(_:settings:)`` found them.
  ///
  /// - Throws: ``AtomicFile/WriteError`` when the cache folder cannot be written; like any
  ///   other output, that stops the run.
  /// - Complexity: O(*s*), where *s* is the number of sets.
  public func store(_ lookup: Lookup, read: (ingest: UserIngest, inputs: [InputFile]))
    throws(AtomicFile.WriteError)
  {
    // A file list that changed between the lookup and the read would pair stats with the wrong
    // files; such an entry is not written at all, and the next run reads the exports again.
    guard lookup.needsWrite, read.inputs.count == lookup.stats.count else { return }
    let entry = Entry(
      user: lookup.user, key: lookup.key, inputs: read.inputs,
      stats: lookup.stats.map { $0 ?? FileStat() },
      racy: lookup.stats.map { isRacy($0, at: lookup.statTime) }, ingest: read.ingest)
    try AtomicFile.write(Data(entry.encoded()), to: path(for: lookup.user))
  }

  /// Decodes a whole entry (header, checksum, head and ingest) and checks it as ``lookup(_:settings:)``
  /// does, whoever it belongs to: the entry point of the `session-cache` fuzz target.
  ///
  /// - Complexity: O(*e*), where *e* is the entry's size.
  public static func _decodeEntry(_ bytes: [UInt8], limits: ReadLimits) throws(CacheFault) -> UserIngest {
    let head = try Entry.Head(decoding: bytes)
    return try Entry.checkedIngest(decoding: bytes, from: head.ingestOffset, limits: limits)
  }

  /// `bytes` with the header's length and checksum made to match the payload, so a fuzzer's
  /// mutations reach the decoder instead of stopping at the checksum. Not for real entries.
  public static func _resealed(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count >= Entry.headerSize else { return bytes }
    var header = CacheWriter()
    header.fixed64(UInt64(bytes.count - Entry.headerSize))
    header.fixed64(Entry.checksum(bytes))
    var out = bytes
    out.replaceSubrange(16..<32, with: header.bytes)
    return out
  }

  /// Whether a file changed too recently for its stat to prove anything next time: a write in
  /// the same clock tick as the stat leaves size and times unchanged on a file system with
  /// coarse timestamps (git's "racily clean" entries). Such a file is hashed again next run.
  private func isRacy(_ stat: FileStat?, at statTime: Int64) -> Bool {
    guard let stat else { return true }
    return max(stat.modified, stat.changed) > statTime - racyWindow
  }

  /// The key of one user's entry: the run-wide key and the user's resolved settings, hashed.
  func key(for settings: UserSettings) -> [UInt8] {
    let text =
      runKey
      + "timeZone \(settings.read.timeZone.identifier)\nweightUnit \(settings.read.weightUnit.rawValue)\n"
      + "distanceUnit \(settings.read.distanceUnit.rawValue)\nfirstWeekday \(settings.firstWeekday.rawValue)\n"
      + "dateOrder \(settings.read.dateOrder?.rawValue ?? "inferred")\n"
      // A blank zone cell lets the exports' zone read the files that state none (SPEC 11.9).
      + (settings.listedTimeZone == nil ? "zone from exports\n" : "")
    return Hex.bytes(SHA256.hex(Array(text.utf8)))
  }

  /// Everything shared by the run's users that changes what reading an export produces.
  static func runKey(source: Pipeline.Source, toolVersion: String) -> String {
    let format: String
    switch source.format {
    case .auto: format = "auto"
    case .fixed(let given): format = given.rawValue
    }
    return """
      trendline session cache
      format \(Entry.formatVersion)
      tool \(toolVersion)
      build \(buildIdentity)
      tzdata \(TimeZone.timeZoneDataVersion)
      source.format \(format)
      source.normalize.warmupSets \(source.warmupSets.rawValue)
      source.csv \(digest(source.csv))
      source.limits \(source.limits.maxFileBytes) \(source.limits.maxFieldBytes) \(source.limits.maxColumns) \
      \(source.limits.maxJSONDepth)
      catalog \(digest(source.catalog))

      """
  }

  /// SHA-256 (hex) of `layout` as compact JSON, keys sorted, or `none`. The bytes are the
  /// ones keys have always hashed (`/` written `\/`), so an upgrade does not turn every
  /// entry into a miss.
  static func digest(_ layout: MappedCSVLayout?) -> String {
    guard let layout else { return "none" }
    var writer = OutputWriter(layout: keyLayout)
    writer.beginObject()
    writer.key("columns")
    let columns = layout.columns
    writer.beginObject()
    let optional: [(StaticString, String?)] = [
      ("distance", columns.distance), ("duration", columns.duration), ("end", columns.end),
      ("exercise", columns.exercise), ("reps", columns.reps), ("seconds", columns.seconds),
      ("session", columns.session), ("setIndex", columns.setIndex), ("setType", columns.setType),
      ("start", columns.start), ("weight", columns.weight),
    ]
    for case (let name, let value?) in optional { writer.member(name, value) }
    writer.endObject()
    let settings: [(StaticString, String?)] = [
      ("dateFormat", layout.dateFormat), ("decimalSeparator", layout.decimalSeparator),
      ("delimiter", layout.delimiter), ("distanceUnit", layout.distanceUnit?.rawValue),
      ("weightUnit", layout.weightUnit?.rawValue),
    ]
    for case (let name, let value?) in settings { writer.member(name, value) }
    writer.endObject()
    return SHA256.hex(writer.bytes)
  }

  /// SHA-256 (hex) of `catalog` as compact JSON, keys sorted, as ``digest(_:)-(MappedCSVLayout?)`` writes it.
  static func digest(_ catalog: Catalog) -> String {
    var writer = OutputWriter(layout: keyLayout)
    writer.beginObject()
    writer.key("exercises")
    writer.array(catalog.exercises) { writer, exercise in
      writer.beginObject()
      writer.key("aliases")
      writer.array(exercise.aliases) { $0.string($1) }
      writer.key("muscleGroupIds")
      writer.array(exercise.muscleGroupIds) { $0.number($1) }
      writer.member("name", exercise.name)
      writer.endObject()
    }
    writer.key("muscleGroups")
    writer.array(catalog.muscleGroups) { writer, group in
      writer.beginObject()
      writer.member("id", group.id)
      writer.member("name", group.name)
      writer.endObject()
    }
    writer.endObject()
    return SHA256.hex(writer.bytes)
  }

  private static let keyLayout = OutputWriter.Layout(spacing: .compact, escapesSlashes: true)

  /// The running binary's content hash: a rebuilt `trendline` may read exports differently
  /// while keeping its version number, so its entries and shards must not be trusted, while a
  /// copy of the same binary (a driver's install beside the tasks') is the same build. Its
  /// size and modification time made every shard stale for a copied binary, and on macOS
  /// (no `/proc`) missed a rebuild. Read once a process, about 10 ms for 30 MB.
  ///
  /// A binary that cannot be found (no `/proc`, and `argv[0]` a name not on `PATH`) is a build
  /// of its own, unlike any other process's: a shared "unknown" would let one unidentified
  /// build serve another's cache entries and shards. Its cache entries are rebuilt, and its
  /// shards are merged with no other process's.
  static let buildIdentity: String = {
    guard let path = executablePath(), let bytes = try? FileBytes.read(path, maximumBytes: 4 << 30) else {
      return "unidentified-" + UUID().uuidString
    }
    return ContentHash.of(bytes)
  }()

  /// Where the running binary is: `/proc/self/exe` where there is a /proc; else `argv[0]` as the
  /// shell ran it (a path, relative to the working directory a run never changes, or a name
  /// found on `PATH`). Foundation's `Bundle.main` looks in /proc on Linux and traps without it:
  /// every `trendline run` in a container with no /proc died with SIGILL.
  static func executablePath() -> String? {
    if FileManager.default.fileExists(atPath: "/proc/self/exe") { return "/proc/self/exe" }
    guard trendline_argument_count() > 0, let first = trendline_argument_vector()?[0] else { return nil }
    let name = String(cString: first)
    if name.contains("/") { return name }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = folder + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}

/// The part of `stat(2)` that tells whether a file may have changed: size, modification and
/// change times in nanoseconds, inode. The change time cannot be set back by a program, so a
/// tool that rewrites a file and restores its modification time is still noticed.
struct FileStat: Equatable, Sendable {
  var size: Int64 = 0
  var modified: Int64 = 0
  var changed: Int64 = 0
  var inode: UInt64 = 0

  init() {}

  init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
    self.size = size
    self.modified = modified
    self.changed = changed
    self.inode = inode
  }

  /// The stat of `path` (links followed, as `InputLayout` follows them); nil when it fails.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    size = Int64(info.st_size)
    modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    inode = UInt64(info.st_ino)
  }

  /// The wall clock in nanoseconds since 1970, the scale file times use.
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
