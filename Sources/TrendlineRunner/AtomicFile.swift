import Foundation
import Synchronization
import TrendlineSchema

/// Writes files so that none is ever seen half-written under its final name, and none is
/// written through a link (SPEC 11.7).
///
/// Each file goes to a temporary name in the same folder (same file system, so the rename is
/// atomic), is flushed, and is renamed over the final name. A run killed at any instant
/// leaves the old file or the new one, never a mix, and a leftover temporary file is
/// recognizable by its `.tmp-` prefix.
///
/// Every folder on the way is opened from `/`, one component at a time, with `O_NOFOLLOW`
/// (``reachFolder(_:for:)``), and the file is created, renamed and removed relative to its
/// folder's descriptor (`openat`, `renameat`, `unlinkat`): nothing is looked up by its whole
/// path again. A folder of the output swapped for a link while a run writes (`users/<user>` →
/// another user's home) fails the write, naming the link, where a lookup by path carried the
/// user's files to the link's target. So the paths given must be free of links: a run
/// resolves its output folder once, when it starts (``OutputSweep/resolved(_:)``), and an
/// `--output` that is itself a link to a folder still works.
public enum AtomicFile {
  /// Why a file could not be written: the output folder's path, and what the OS said.
  public struct WriteError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var reason: String
    /// The write met a link in the output, not a full disk or a permission: what to do differs.
    public var isThroughLink = false
    public var description: String { "cannot write '\(path)': \(reason)" }

    /// `path` not written because `link`, a folder on the way to it (or `path` itself), is a
    /// symbolic link.
    static func throughLink(_ link: String, writing path: String) -> WriteError {
      WriteError(
        path: path, reason: "'\(link)' is a link; Trendline does not write through links in its output",
        isThroughLink: true)
    }

    /// `path` not written because the OS said `code`, in its own words.
    static func system(_ code: Int32, path: String) -> WriteError {
      WriteError(path: path, reason: String(cString: strerror(code)))
    }
  }

  /// Writes `data` to the file at `path` atomically, creating the folder if needed.
  ///
  /// Paths are strings, not URLs: on Linux, `URL.appendingPathComponent` and `.path` cost about
  /// 6 µs a file, 5 % of a night that reads its sessions from the cache. The folder, the
  /// temporary file and the rename use the POSIX calls directly, so a failure keeps the OS's own
  /// reason ("No space left on device", "Read-only file system", "Not a directory"): Foundation
  /// reports some of these as an unnamed error 512.
  ///
  /// - Throws: ``WriteError``, also when a folder on the way is a link
  ///   (``WriteError/throughLink(_:writing:)``): nothing is then written anywhere.
  /// - Complexity: O(*n* + *d*), where *n* is the size of `data` and *d* the number of folders
  ///   in `path`.
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
  ///   source gone or behind a link): the caller writes the file instead.
  static func link(_ source: String, to path: String) throws(WriteError) -> Bool {
    let (sourceFolder, sourceName) = split(source)
    guard let from = try? reachFolder(sourceFolder, for: source) else { return false }
    defer { close(from) }
    let (folderPath, name) = split(path)
    let folder = try makeFolder(folderPath, for: path)
    defer { close(folder) }
    while true {
      let temporary = temporaryName(for: name)
      // Flags 0: a source that is a link is linked itself, never followed.
      if linkat(from, sourceName, folder, temporary, 0) == 0 {
        guard renameat(folder, temporary, folder, name) == 0 else {
          let code = errno
          unlinkat(folder, temporary, 0)
          throw .system(code, path: path)
        }
        return true
      }
      if errno != EEXIST { return false }
    }
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
  /// shards, may not). A draft that is a link is not written through.
  ///
  /// - Complexity: O(*n*), where *n* is the size of `data`.
  static func overwrite(_ draft: String, with data: [UInt8], renamingTo path: String) throws(WriteError) -> Bool {
    // No O_TRUNC: truncating frees the blocks this is here to keep.
    guard let opened = try openDraft(draft, flags: O_WRONLY) else { return false }
    defer { close(opened.folder) }
    let descriptor = opened.descriptor
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
    if failure != 0 { throw .system(failure, path: path) }
    try rename(opened.name, in: opened.folder, at: opened.folderPath, to: path)
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
  /// whose drafts come from shards, may not). A draft that is a link is not written through.
  ///
  /// - Complexity: O(*t*), where *t* is the size of `tail`.
  static func extend(
    _ draft: String, replacing ending: [UInt8], with tail: [UInt8], renamingTo path: String
  ) throws(WriteError) -> Bool {
    guard let opened = try openDraft(draft, flags: O_RDWR) else { return false }
    defer { close(opened.folder) }
    let descriptor = opened.descriptor
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
    if failure != 0 { throw .system(failure, path: path) }
    try rename(opened.name, in: opened.folder, at: opened.folderPath, to: path)
    return true
  }

  /// The draft at `draft` opened with `flags` (the caller closes `descriptor` and `folder`),
  /// reached without following links; nil when there is none.
  private static func openDraft(_ draft: String, flags: Int32) throws(WriteError)
    -> (folder: Int32, folderPath: String, name: String, descriptor: Int32)?
  {
    let (folderPath, name) = split(draft)
    guard let folder = try reachFolder(folderPath, for: draft) else { return nil }
    let descriptor = openat(folder, name, flags | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      let code = errno
      defer { close(folder) }
      if code == ENOENT { return nil }
      if isLink(code, name, in: folder) { throw .throughLink(draft, writing: draft) }
      throw .system(code, path: draft)
    }
    return (folder, folderPath, name, descriptor)
  }

  /// Renames the entry `name` of `folder` (whose path is `folderPath`) to `path`.
  private static func rename(_ name: String, in folder: Int32, at folderPath: String, to path: String)
    throws(WriteError)
  {
    let (targetPath, target) = split(path)
    if targetPath == folderPath {
      guard renameat(folder, name, folder, target) == 0 else { throw .system(errno, path: path) }
      return
    }
    let targetFolder = try makeFolder(targetPath, for: path)
    defer { close(targetFolder) }
    guard renameat(folder, name, targetFolder, target) == 0 else { throw .system(errno, path: path) }
  }

  /// A fresh temporary name for a file to be renamed to `name`, in its folder.
  ///
  /// The name is this process's (pid and host) plus a number it never hands out twice. A name
  /// taken anyway (a dead process's leftover whose pid came back) is skipped by the caller,
  /// which creates the file with `O_EXCL` and asks again on `EEXIST`.
  private static func temporaryName(for name: String) -> String {
    "\(temporaryPrefix)\(processTag)-\(temporaryNumber.add(1, ordering: .relaxed).oldValue)-\(name)"
  }

  /// A file being written under a temporary name beside `path`, for a writer that produces it
  /// in parts (a table of every user): ``append(_:)`` as often as needed, then ``commit()``
  /// renames it over `path`, or ``discard()`` removes it. Its folder stays open until then,
  /// so the rename goes to the folder the file was created in, whatever its path leads to by
  /// then.
  /// One writer at a time: ``TableSpool`` serializes its appends through its lock.
  final class TemporaryFile: @unchecked Sendable {
    let path: String
    private let name: String
    private let temporaryName: String
    private var folder: Int32
    private var descriptor: Int32

    /// Creates the temporary file, and `path`'s folder if needed.
    init(for path: String) throws(WriteError) {
      let (folderPath, name) = split(path)
      let folder = try makeFolder(folderPath, for: path)
      var temporaryName: String
      var descriptor: Int32
      repeat {
        temporaryName = AtomicFile.temporaryName(for: name)
        descriptor = openat(folder, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      } while descriptor < 0 && errno == EEXIST
      guard descriptor >= 0 else {
        let code = errno
        close(folder)
        throw .system(code, path: path)
      }
      self.path = path
      self.name = name
      self.temporaryName = temporaryName
      self.folder = folder
      self.descriptor = descriptor
    }

    deinit { if descriptor >= 0 || folder >= 0 { discard() } }

    /// Writes `buffer` at the end; the error, or nil.
    fileprivate func appending(_ buffer: UnsafeRawBufferPointer) -> WriteError? {
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return .system(errno, path: path)
        }
        offset += written
      }
      return nil
    }

    func append(_ bytes: [UInt8]) throws(WriteError) {
      if let failure = bytes.withUnsafeBytes({ appending($0) }) { throw failure }
    }

    /// The file opened again, read-only, from its folder (the caller closes it); -1 with
    /// `errno` set when it cannot be.
    func openForReading() -> Int32 {
      openat(folder, temporaryName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }

    /// Closes the file and renames it to `path`.
    func commit() throws(WriteError) {
      // A full disk may show only at close (NFS and some others write back late).
      var failure: Int32 = 0
      if close(descriptor) != 0 { failure = errno }
      descriptor = -1
      if failure == 0 && renameat(folder, temporaryName, folder, name) != 0 { failure = errno }
      if failure != 0 { unlinkat(folder, temporaryName, 0) }
      close(folder)
      folder = -1
      if failure != 0 { throw .system(failure, path: path) }
    }

    /// Closes and removes the file.
    func discard() {
      if descriptor >= 0 { close(descriptor) }
      descriptor = -1
      guard folder >= 0 else { return }
      unlinkat(folder, temporaryName, 0)
      close(folder)
      folder = -1
    }
  }

  /// Creates the folder at `path` and its parents, as `mkdir -p` does, without following a
  /// link on the way: a link there fails it, as a write would.
  ///
  /// - Complexity: O(*d*), where *d* is the number of path components.
  static func createFolder(_ path: String) throws(WriteError) {
    close(try makeFolder(path, for: path))
  }

  /// Removes the file or folder at `path` if it exists (a stale output from an earlier run).
  ///
  /// Its folder is reached without following links, and a folder is emptied one entry at a
  /// time from descriptors opened with `O_NOFOLLOW`: a link there is removed itself, and
  /// nothing it leads to is.
  public static func remove(_ path: String) throws(WriteError) {
    let (folderPath, name) = split(path)
    guard let folder = try reachFolder(folderPath, for: path) else { return }
    defer { close(folder) }
    try removeEntry(name, in: folder, path: path)
  }

  /// Removes the entry `name` of `folder` (at `path`): a file or link, or a folder and all it
  /// holds.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries removed.
  static func removeEntry(_ name: String, in folder: Int32, path: String) throws(WriteError) {
    if unlinkat(folder, name, 0) == 0 { return }
    let code = errno
    if code == ENOENT { return }
    // A folder: Linux says EISDIR, macOS and the BSDs EPERM.
    guard code == EISDIR || code == EPERM else { throw .system(code, path: path) }
    guard let opened = try listing(name, in: folder, path: path) else {
      if code == EPERM { throw .system(code, path: path) }
      return
    }
    defer { close(opened.descriptor) }
    for entry in opened.entries { try removeEntry(entry.name, in: opened.descriptor, path: path + "/" + entry.name) }
    guard unlinkat(folder, name, AT_REMOVEDIR) == 0 || errno == ENOENT else { throw .system(errno, path: path) }
  }

  // MARK: Folders reached without following links

  /// How a folder on the way is opened: only to reach into it. Linux's `O_PATH` needs no read
  /// permission, as a lookup by path needs none (an output under a `--x` home still works),
  /// and does no more than the lookup did. (Glibc's module does not export `O_PATH`; its value
  /// is `010000000` on every architecture Swift runs on.)
  #if os(Linux)
    private static let reachFlags = 0o10000000 | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
  #else
    private static let reachFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
  #endif

  /// `/`, opened once: every absolute walk starts here.
  private static let rootFolder = open("/", reachFlags)

  /// `path` split at its last `/` into its folder and its name (`/` and `.` for a name alone).
  static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.utf8.index(after: slash)...]))
  }

  /// A descriptor of the folder at `path` (the caller closes it), or nil when it or a folder
  /// on the way does not exist. `target` is what the caller means to write, for messages.
  ///
  /// - Throws: ``WriteError/throughLink(_:writing:)`` when a component is a link.
  /// - Complexity: O(*d*) system calls, where *d* is the number of path components.
  static func reachFolder(_ path: String, for target: String) throws(WriteError) -> Int32? {
    try walk(path, creating: false, for: target)
  }

  /// A descriptor of the folder at `path` (the caller closes it), creating it and the folders
  /// on the way as needed.
  ///
  /// Folders are created only when opening one says it is missing: looking first cost a
  /// `stat` for every file, and a run's files go mostly into folders that exist.
  ///
  /// - Throws: ``WriteError/throughLink(_:writing:)`` when a component is a link.
  /// - Complexity: O(*d*) system calls, where *d* is the number of path components.
  static func makeFolder(_ path: String, for target: String) throws(WriteError) -> Int32 {
    guard let folder = try walk(path, creating: true, for: target) else {
      throw .system(ENOENT, path: target)
    }
    return folder
  }

  /// Opens `path` from `/` (or the working folder, for a relative path) one component at a
  /// time, each with `O_NOFOLLOW` relative to the one before, so no link on the way is
  /// followed, whenever it was put there. The components are split on the byte `/`, as the
  /// kernel splits them.
  private static func walk(_ path: String, creating: Bool, for target: String) throws(WriteError) -> Int32? {
    let slash = UInt8(ascii: "/")
    let absolute = path.utf8.first == slash
    var current = absolute ? rootFolder : AT_FDCWD
    var owned = false
    for component in path.utf8.split(separator: slash) {
      let name = String(decoding: component, as: UTF8.self)
      if name == "." { continue }
      var next = openat(current, name, reachFlags)
      if next < 0 && errno == ENOENT && creating {
        if mkdirat(current, name, 0o755) == 0 || errno == EEXIST { next = openat(current, name, reachFlags) }
      }
      guard next >= 0 else {
        let code = errno
        defer { if owned { close(current) } }
        if isLink(code, name, in: current) {
          throw .throughLink(String(path[..<component.endIndex]), writing: target)
        }
        // Missing, or a file where a folder would be: nothing there to reach.
        if !creating && (code == ENOENT || code == ENOTDIR) { return nil }
        throw .system(code, path: target)
      }
      if owned { close(current) }
      current = next
      owned = true
    }
    if owned { return current }
    let folder = open(absolute ? "/" : ".", reachFlags)
    guard folder >= 0 else { throw .system(errno, path: target) }
    return folder
  }

  /// Whether opening `name` in `folder` with `O_NOFOLLOW` failed with `code` because it is a
  /// link: ELOOP for a file, ENOTDIR for a folder on Linux, EMLINK on FreeBSD; asked again with
  /// `fstatat` when unsure.
  static func isLink(_ code: Int32, _ name: String, in folder: Int32) -> Bool {
    if code == ELOOP || code == EMLINK { return true }
    guard code == ENOTDIR else { return false }
    var status = stat()
    return fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
  }

  /// An entry of a folder as listed: its name and `d_type` (`DT_UNKNOWN` where the file
  /// system does not say).
  struct Entry {
    var name: String
    var type: UInt8
  }

  /// The entries of the folder `name` of `folder`, opened with `O_NOFOLLOW`, and a descriptor
  /// of it (the caller closes it); nil when it is missing, a file or a link.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries.
  static func listing(_ name: String, in folder: Int32, path: String) throws(WriteError)
    -> (descriptor: Int32, entries: [Entry])?
  {
    let descriptor = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR || isLink(code, name, in: folder) { return nil }
      throw .system(code, path: path)
    }
    // The stream owns the descriptor it reads; the caller's stays open for calls relative to it.
    let listed = dup(descriptor)
    guard listed >= 0, let stream = fdopendir(listed) else {
      let code = errno
      if listed >= 0 { close(listed) }
      close(descriptor)
      throw .system(code, path: path)
    }
    defer { closedir(stream) }
    var entries: [Entry] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      entries.append(Entry(name: name, type: entry.pointee.d_type))
    }
    return (descriptor, entries)
  }

  /// A real folder opened for a sweep: its entries, listed once, and descriptors of it and of
  /// its parent, each reached without following links, so that what the sweep removes is
  /// removed from this folder and nowhere else.
  final class ListedFolder {
    let path: String
    let entries: [Entry]
    /// The folder's descriptor, for calls relative to it (`unlinkat`, `fstatat`).
    let descriptor: Int32
    private let parent: Int32
    private let name: String

    /// The folder at `path`; nil when it does not exist or is itself a link (through one, a
    /// sweep would empty the link's target).
    ///
    /// - Throws: ``WriteError/throughLink(_:writing:)`` when a folder above it is a link.
    init?(_ path: String) throws(WriteError) {
      let (parentPath, name) = split(path)
      guard let parent = try reachFolder(parentPath, for: path) else { return nil }
      let opened: (descriptor: Int32, entries: [Entry])?
      do {
        opened = try listing(name, in: parent, path: path)
      } catch {
        close(parent)
        throw error
      }
      guard let opened else {
        close(parent)
        return nil
      }
      self.path = path
      self.parent = parent
      self.name = name
      descriptor = opened.descriptor
      entries = opened.entries
    }

    deinit {
      close(descriptor)
      close(parent)
    }

    /// Removes the entry `name`, whatever it is (``removeEntry(_:in:path:)``).
    func remove(_ name: String) throws(WriteError) {
      try removeEntry(name, in: descriptor, path: path + "/" + name)
    }

    /// Removes the folder itself if it is empty.
    func removeIfEmpty() { unlinkat(parent, name, AT_REMOVEDIR) }
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
    // Up to the first NUL, never past the buffer: a name that fills it has none.
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let hash = UserLayout.hash(name)
    let text = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }()

  /// How long a temporary file of another host is taken to be in use. A file is a temporary
  /// for the milliseconds its writer takes to fill and rename it; one six hours old belongs to a
  /// writer that was killed (a pod evicted, a node lost), whose process this host cannot ask
  /// about. Generous, so a clock between hosts that is off by minutes removes nothing alive.
  public static let abandonedAfter: TimeInterval = 6 * 3600

  /// Whether the temporary file `name` in `folder` was left by a writer that is gone: one of
  /// this host whose process no longer exists, or one of another host (a shard elsewhere
  /// writing into the same shared folder) older than ``abandonedAfter``. Any other name is no
  /// temporary and is never abandoned.
  static func isAbandoned(_ name: String, in folder: Int32, now: Date = Date()) -> Bool {
    guard name.hasPrefix(temporaryPrefix) else { return false }
    let owner = name.dropFirst(temporaryPrefix.count).prefix { $0 != "-" }  // "<pid>@<host>"
    let parts = owner.split(separator: "@")
    if parts.count == 2, parts[1] == hostTag, let pid = Int32(parts[0]) {
      // kill(pid, 0) fails with ESRCH when no such process exists: the writer is gone.
      return kill(pid, 0) != 0 && errno == ESRCH
    }
    var status = stat()
    guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
    #if os(Linux)
      let modified = status.st_mtim.tv_sec
    #else
      let modified = status.st_mtimespec.tv_sec
    #endif
    return now.timeIntervalSince1970 - Double(modified) > abandonedAfter
  }

  /// Removes the abandoned temporary files (``isAbandoned(_:in:now:)``) of `folder` itself, not
  /// of its sub-folders: what a shard cleans, the folders it writes, so its work follows its
  /// own users and not every user's folder in a shared output tree. A folder that is a link,
  /// or under one, is left alone.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries in `folder`.
  public static func removeStaleTemporaries(in folder: String, now: Date = Date()) {
    guard let listed = try? ListedFolder(folder) else { return }
    for entry in listed.entries where isAbandoned(entry.name, in: listed.descriptor, now: now) {
      unlinkat(listed.descriptor, entry.name, 0)
    }
  }

  /// Removes the abandoned temporary files under `folder`, at any depth: what a run over all
  /// users and a merge clean. Sub-folders are opened with `O_NOFOLLOW`, so a link in the tree
  /// is not descended; `folder`'s own links are resolved once, here (a cache folder given as a
  /// link is cleaned too).
  ///
  /// - Complexity: O(*f*), where *f* is the number of files under `folder`.
  public static func removeStaleTemporaries(under folder: URL, now: Date = Date()) {
    guard let listed = try? ListedFolder(OutputSweep.resolved(folder)) else { return }
    removeStaleTemporaries(in: listed.descriptor, entries: listed.entries, now: now)
  }

  private static func removeStaleTemporaries(in folder: Int32, entries: [Entry], now: Date) {
    for entry in entries {
      if isAbandoned(entry.name, in: folder, now: now) {
        unlinkat(folder, entry.name, 0)
        continue
      }
      // The listing's type saves a stat per file; a file system that gives none is asked by
      // opening the entry as a folder.
      guard entry.type == UInt8(DT_DIR) || entry.type == UInt8(DT_UNKNOWN),
        let opened = try? listing(entry.name, in: folder, path: entry.name)
      else { continue }
      removeStaleTemporaries(in: opened.descriptor, entries: opened.entries, now: now)
      close(opened.descriptor)
    }
  }
}
