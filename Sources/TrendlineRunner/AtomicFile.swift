import Foundation
import Synchronization

/// Writes files so that none is ever seen half-written under its final name.
///
/// Each file goes to a temporary name in the same folder (same file system, so the rename is
/// atomic), is flushed, and is renamed over the final name. A run killed at any instant
/// leaves the old file or the new one, never a mix, and a leftover temporary file is
/// recognizable by its `.tmp-` prefix.
public enum AtomicFile {
  /// Why a file could not be written: the output folder's path, and what the OS said.
  public struct WriteError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "cannot write '\(path)': \(reason)" }
  }

  /// Writes `data` to the file at `path` atomically, creating the folder if needed.
  ///
  /// Paths are strings, not URLs: on Linux, `URL.appendingPathComponent` and `.path` cost about
  /// 6 µs a file, 5 % of a night that reads its sessions from the cache. The folder, the
  /// temporary file and the rename use the POSIX calls directly, so a failure keeps the OS's own
  /// reason ("No space left on device", "Read-only file system", "Not a directory"): Foundation
  /// reports some of these as an unnamed error 512.
  ///
  /// - Complexity: O(*n*), where *n* is the size of `data`.
  public static func write(_ data: Data, to path: String) throws(WriteError) {
    let file = try TemporaryFile(for: path)
    if let failure = data.withUnsafeBytes({ file.appending($0) }) {
      file.discard()
      throw failure
    }
    try file.commit()
  }

  /// Makes `path` a hard link to the file at `source`, atomically as ``write(_:to:)`` replaces a
  /// file: linked under a temporary name, then renamed over `path`. Later writes to either
  /// path replace its name, never the shared content, so the two stay what they were written as.
  ///
  /// - Returns: False when the file system cannot link them (another device, no hard links, the
  ///   source gone): the caller writes the file instead.
  static func link(_ source: String, to path: String) throws(WriteError) -> Bool {
    var result: Int32 = 0
    let temporary = try temporaryName(beside: path) { name in
      result = Foundation.link(source, name)
      return result == 0
    }
    guard result == 0 else { return false }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw WriteError(path: path, reason: reason)
    }
    return true
  }

  /// Overwrites the file at `draft` with `data` and renames it to `path`, for a file written
  /// moments ago by this process under a hidden name that only this process reads (a run's
  /// staged chart, stamped once its cohort is known). Returns false when there is no `draft`.
  ///
  /// Writing a new file and removing the draft would free the draft's blocks, and on a file
  /// system mounted with `discard` every free is a discard request the deleting thread waits
  /// for: behind a backfill's writes, a few milliseconds each, thousands per snapshot. The
  /// draft's blocks are reused instead. `path` appears only at the rename, whole, as with
  /// ``write(_:to:)``; a kill before it leaves the draft half overwritten, so only a writer that
  /// writes its drafts again when it runs again may use this (a merge, whose drafts come from
  /// shards, may not).
  ///
  /// - Complexity: O(*n*), where *n* is the size of `data`.
  static func overwrite(_ draft: String, with data: [UInt8], renamingTo path: String) throws(WriteError) -> Bool {
    // No O_TRUNC: truncating frees the blocks this is here to keep.
    let descriptor = open(draft, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return false }
      throw WriteError(path: draft, reason: String(cString: strerror(errno)))
    }
    var failure: Int32 = 0
    var offset = 0
    data.withUnsafeBytes { buffer in
      while offset < buffer.count {
        let written = pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    // A stamped file is longer than its draft; a shorter one drops the draft's tail.
    if failure == 0 && ftruncate(descriptor, off_t(data.count)) != 0 { failure = errno }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(draft, path) != 0 { failure = errno }
    if failure != 0 { throw WriteError(path: path, reason: String(cString: strerror(failure))) }
    return true
  }

  /// Replaces the last `ending.count` bytes of the file at `draft`, which must be `ending`,
  /// with `tail`, and renames it to `path`: for a file written moments ago by this process
  /// under a hidden name that only this process reads (a run's staged chart, whose stamp goes
  /// before its closing `\n}\n`). Returns false, changing nothing, when there is no `draft`
  /// or it does not end with `ending`.
  ///
  /// Writing a new file and removing the draft would free the draft's blocks, and on a file
  /// system mounted with `discard` every free is a discard request the deleting thread waits
  /// for: behind a backfill's writes, a few milliseconds each, thousands per snapshot. Only the
  /// tail is written, and the draft is never read. `path` appears only at the rename, whole,
  /// as with ``write(_:to:)``; a kill before it leaves the draft with a stamp half written, so
  /// only a writer that writes its drafts again when it runs again may use this (a merge,
  /// whose drafts come from shards, may not).
  ///
  /// - Complexity: O(*t*), where *t* is the size of `tail`.
  static func extend(
    _ draft: String, replacing ending: [UInt8], with tail: [UInt8], renamingTo path: String
  ) throws(WriteError) -> Bool {
    let descriptor = open(draft, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return false }
      throw WriteError(path: draft, reason: String(cString: strerror(errno)))
    }
    let size = lseek(descriptor, 0, SEEK_END)
    var last = [UInt8](repeating: 0, count: ending.count)
    let at = size - off_t(ending.count)
    guard size >= off_t(ending.count), pread(descriptor, &last, ending.count, at) == ending.count, last == ending
    else {
      close(descriptor)
      return false
    }
    var failure: Int32 = 0
    var offset = 0
    tail.withUnsafeBytes { buffer in
      while offset < buffer.count {
        let written = pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, at + off_t(offset))
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    // A tail shorter than the ending drops what is left of it.
    if failure == 0 && tail.count < ending.count && ftruncate(descriptor, at + off_t(tail.count)) != 0 {
      failure = errno
    }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(draft, path) != 0 { failure = errno }
    if failure != 0 { throw WriteError(path: path, reason: String(cString: strerror(failure))) }
    return true
  }

  /// Calls `create` with fresh temporary names in `path`'s folder until it succeeds or fails
  /// for another reason than the name being taken, creating the folder when it is missing;
  /// returns the last name tried, with `errno` set when `create` failed.
  ///
  /// The folder is created only when `create` says it is missing (ENOENT): looking first cost a
  /// `stat` for every file, and a run's files go mostly into folders that exist.
  ///
  /// The name is this process's (pid and host) plus a number it never hands out twice. A name
  /// taken anyway (a dead process's leftover whose pid came back) is skipped.
  private static func temporaryName(beside path: String, create: (String) -> Bool) throws(WriteError) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var temporary: String
    var createdFolder = false
    while true {
      temporary =
        "\(folder)/\(temporaryPrefix)\(processTag)-\(temporaryNumber.add(1, ordering: .relaxed).oldValue)-\(name)"
      if create(temporary) { return temporary }
      if errno == EEXIST { continue }
      guard errno == ENOENT, !createdFolder else { return temporary }
      try createFolder(folder.isEmpty ? "/" : folder)
      createdFolder = true
    }
  }

  /// A file being written under a temporary name beside `path`, for a writer that produces it
  /// in parts (a table of every user): ``append(_:)`` as often as needed, then ``commit()``
  /// renames it over `path`, or ``discard()`` removes it.
  /// One writer at a time: ``TableSpool`` serializes its appends through its lock.
  final class TemporaryFile: @unchecked Sendable {
    let path: String
    let temporary: String
    private var descriptor: Int32

    /// Creates the temporary file, and `path`'s folder if needed.
    init(for path: String) throws(WriteError) {
      var descriptor: Int32 = -1
      let temporary = try temporaryName(beside: path) { name in
        descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        return descriptor >= 0
      }
      guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
      self.path = path
      self.temporary = temporary
      self.descriptor = descriptor
    }

    deinit { if descriptor >= 0 { discard() } }

    /// Writes `buffer` at the end; the error, or nil.
    fileprivate func appending(_ buffer: UnsafeRawBufferPointer) -> WriteError? {
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        offset += written
      }
      return nil
    }

    func append(_ bytes: [UInt8]) throws(WriteError) {
      if let failure = bytes.withUnsafeBytes({ appending($0) }) { throw failure }
    }

    /// Closes the file and renames it to `path`.
    func commit() throws(WriteError) {
      // A full disk may show only at close (NFS and some others write back late).
      var failure: Int32 = 0
      if close(descriptor) != 0 { failure = errno }
      descriptor = -1
      if failure == 0 && rename(temporary, path) != 0 { failure = errno }
      if failure != 0 {
        unlink(temporary)
        throw WriteError(path: path, reason: String(cString: strerror(failure)))
      }
    }

    /// Closes and removes the file.
    func discard() {
      if descriptor >= 0 { close(descriptor) }
      descriptor = -1
      unlink(temporary)
    }
  }

  /// Creates the folder at `path` and its parents, as `mkdir -p` does.
  ///
  /// - Complexity: O(*d*), where *d* is the number of path components.
  static func createFolder(_ path: String) throws(WriteError) {
    var status = stat()
    if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR { return }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty && parent != path { try createFolder(parent) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw WriteError(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// The prefix of every temporary name, followed by the writing process's id and host.
  static let temporaryPrefix = ".tmp-"

  /// `<pid>@<host>`, worked out once: a UUID per file read `/dev/urandom` once per output.
  private static let processTag = "\(ProcessInfo.processInfo.processIdentifier)@\(hostTag)"

  /// The next temporary file's number in this process.
  private static let temporaryNumber = Atomic<Int>(0)

  /// This machine's name as 16 hex digits (FNV-1a 64). A process id means something only on
  /// its own host: shards on other machines write into the same shared folder, and their
  /// temporaries must not be mistaken for a dead local writer's.
  static let hostTag: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    gethostname(&buffer, buffer.count)
    let name = String(cString: buffer)
    let hash = Shard.hash(name)
    let text = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }()

  /// How long a temporary file of another host is taken to be in use. A file is a temporary
  /// for the milliseconds its writer takes to fill and rename it; one six hours old belongs to a
  /// writer that was killed (a pod evicted, a node lost), whose process this host cannot ask
  /// about. Generous, so a clock between hosts that is off by minutes removes nothing alive.
  public static let abandonedAfter: TimeInterval = 6 * 3600

  /// Whether the temporary file `name` at `path` was left by a writer that is gone: one of this
  /// host whose process no longer exists, or one of another host (a shard elsewhere writing
  /// into the same shared folder) older than ``abandonedAfter``. Any other name is no
  /// temporary and is never abandoned.
  static func isAbandoned(_ name: String, at path: String, now: Date = Date()) -> Bool {
    guard name.hasPrefix(temporaryPrefix) else { return false }
    let owner = name.dropFirst(temporaryPrefix.count).prefix { $0 != "-" }  // "<pid>@<host>"
    let parts = owner.split(separator: "@")
    if parts.count == 2, parts[1] == hostTag, let pid = Int32(parts[0]) {
      // kill(pid, 0) fails with ESRCH when no such process exists: the writer is gone.
      return kill(pid, 0) != 0 && errno == ESRCH
    }
    var status = stat()
    guard lstat(path, &status) == 0 else { return false }
    #if os(Linux)
      let modified = status.st_mtim.tv_sec
    #else
      let modified = status.st_mtimespec.tv_sec
    #endif
    return now.timeIntervalSince1970 - Double(modified) > abandonedAfter
  }

  /// Removes the abandoned temporary files (``isAbandoned(_:at:now:)``) of `folder` itself, not
  /// of its sub-folders: what a shard cleans, the folders it writes, so its work follows its
  /// own users and not every user's folder in a shared output tree.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries in `folder`.
  public static func removeStaleTemporaries(in folder: String, now: Date = Date()) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(temporaryPrefix) {
      let path = folder + "/" + name
      if isAbandoned(name, at: path, now: now) { unlink(path) }
    }
  }

  /// Removes the abandoned temporary files under `folder`, at any depth: what a run over all
  /// users and a merge clean.
  ///
  /// - Complexity: O(*f*), where *f* is the number of files under `folder`.
  public static func removeStaleTemporaries(under folder: URL, now: Date = Date()) {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return }
    for case let path as String in enumerator {
      let name = (path as NSString).lastPathComponent
      let full = folder.appendingPathComponent(path).path
      if isAbandoned(name, at: full, now: now) { unlink(full) }
    }
  }

  /// Removes the file or folder at `path` if it exists (a stale output from an earlier run).
  public static func remove(_ path: String) throws(WriteError) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw WriteError(path: path, reason: describe(error))
    }
  }

  private static func describe(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return nsError.localizedDescription
  }
}
