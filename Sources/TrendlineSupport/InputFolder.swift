import Foundation

/// The input folder, through which every export and `users.csv` is listed, stat'ed and opened,
/// so that nothing outside it is ever read.
///
/// Checking a path once and opening it later by name leaves a window: an export swapped for a
/// link to `/etc/passwd` between the check and the `open` would be read and echoed into the
/// user's outputs. Here every path is walked one component at a time from a descriptor of the
/// folder with `openat(…, O_NOFOLLOW)`. A link is read with `readlinkat` and followed only
/// while it stays inside the folder (a relative target may not climb above it, an absolute
/// one must name a path under it), as Linux's `openat2(RESOLVE_BENEATH)` does, but on every
/// system. What is opened is what was checked: there is no second lookup by name.
public struct InputFolder: Sendable, Equatable {
  /// The folder's path with its own links resolved, as the operator's `--input` names it.
  public let root: String

  /// Links followed in one walk before it gives up, as the kernel's `MAXSYMLINKS` (40).
  static let maximumLinks = 40

  public init(resolving folder: URL) {
    root = folder.resolvingSymlinksInPath().standardizedFileURL.path
  }

  /// The full path of `relative`, for messages and URLs only: files are opened by the walk.
  public func path(of relative: String) -> String { root == "/" ? "/" + relative : root + "/" + relative }

  /// Why a path in the folder could not be walked.
  public enum Failure: Error, Equatable, Sendable {
    /// A link leads out of the folder (or is absolute and names another place).
    case outside
    /// A link leads into another top-level entry of the folder — another user's folder or
    /// export — whose name it holds: one user's data must never show as another's (SPEC 11.7).
    /// A hidden entry (`.store`) is no user's, and links may lead there.
    case otherEntry(String)
    /// More than ``maximumLinks`` links, or a link that leads to itself.
    case linkLoop
    /// A link whose target does not exist.
    case danglingLink
    /// The OS refused, in its own words (`No such file or directory`, `Permission denied`).
    case system(reason: String, code: Int32)

    /// What a message says after the entry's name.
    public var reason: String {
      switch self {
      case .outside: return "links outside the input folder; it is not read"
      case .otherEntry(let name):
        return "links into '\(TerminalText.escaped(name))', another user's entry of the input folder; it is not read"
      case .linkLoop: return "is a link that loops (or a chain of more than 40 links); it is not read"
      case .danglingLink: return "is a link to nothing (its target does not exist); it is not read"
      case .system(let reason, _): return "cannot be read (\(reason))"
      }
    }
  }

  /// What an entry is once its links are followed.
  public enum Kind: Sendable, Equatable {
    case file
    case folder
    /// A FIFO, socket or device: opening one could block forever or never end.
    case special
  }

  /// The kind of `relative` (a path under the folder, `/`-separated), links followed inside it.
  ///
  /// - Complexity: O(*c*) system calls, where *c* is the number of components walked.
  public func kind(of relative: String) -> Result<Kind, Failure> {
    walk(relative) { directory, name in
      var status = stat()
      guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return .failed(errno) }
      switch status.st_mode & S_IFMT {
      case S_IFLNK: return .link
      case S_IFDIR: return .done(.folder)
      case S_IFREG: return .done(.file)
      default: return .done(.special)
      }
    }
  }

  /// An open descriptor of `relative`, read-only and non-blocking (so a FIFO opens without
  /// waiting for a writer); the caller closes it. `folder` opens a folder for listing.
  ///
  /// - Complexity: O(*c*) system calls, where *c* is the number of components walked.
  public func open(_ relative: String, folder: Bool = false) -> Result<Int32, Failure> {
    let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (folder ? O_DIRECTORY : O_NONBLOCK)
    return walk(relative) { directory, name in
      let descriptor = openat(directory, name, flags)
      if descriptor >= 0 { return .done(descriptor) }
      let code = errno
      // ELOOP is how O_NOFOLLOW says "this is a link"; some systems say EMLINK or EFTYPE.
      if code == ELOOP || code == EMLINK || Self.isLink(directory, name) { return .link }
      return .failed(code)
    }
  }

  /// The names in the folder `relative` (`""` for the input folder itself) as raw bytes, so a
  /// name that is not UTF-8 can still be reported; `.` and `..` left out, unsorted.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries.
  public func names(in relative: String) -> Result<[[UInt8]], Failure> {
    let descriptor: Int32
    switch open(relative, folder: true) {
    case .success(let opened): descriptor = opened
    case .failure(let failure): return .failure(failure)
    }
    guard let stream = fdopendir(descriptor) else {
      let code = errno
      close(descriptor)
      return .failure(.system(reason: String(cString: strerror(code)), code: code))
    }
    defer { closedir(stream) }
    var names: [[UInt8]] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
      if name == [ASCII.dot] || name == [ASCII.dot, ASCII.dot] { continue }
      names.append(name)
    }
    return .success(names)
  }

  private enum Step<Value> {
    case done(Value)
    /// The last component is a link: read it and go on from its target.
    case link
    case failed(Int32)
  }

  /// The components of a path, split on the byte `/`, each NUL-terminated for the system
  /// calls. Bytes, never `Character`s: a `/` that forms one grapheme with its neighbour (after
  /// U+0600, before a combining accent) is still a separator to the kernel, and a component
  /// holding one would let the kernel follow links and `..` that the walk never saw. Nil when
  /// a component holds a NUL, which no name can.
  private static func components(_ path: some Collection<UInt8>) -> [[CChar]]? {
    var out: [[CChar]] = []
    for part in path.split(separator: ASCII.slash, omittingEmptySubsequences: true) {
      if part.contains(0) { return nil }
      out.append(part.map { CChar(bitPattern: $0) } + [0])
    }
    return out
  }

  private static let dot: [CChar] = [CChar(bitPattern: ASCII.dot), 0]
  private static let dotDot: [CChar] = [CChar(bitPattern: ASCII.dot), CChar(bitPattern: ASCII.dot), 0]

  /// Walks `relative` from the folder's descriptor, each folder opened with `O_NOFOLLOW`
  /// relative to the one before, and calls `last` on the final component. A link anywhere is
  /// read and its target walked in its place, beneath the folder or not at all.
  private func walk<Value>(_ relative: String, last: (Int32, [CChar]) -> Step<Value>)
    -> Result<Value, Failure>
  {
    guard let parts = Self.components(relative.utf8) else { return .failure(Self.system(EINVAL)) }
    let top = Foundation.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard top >= 0 else { return .failure(Self.system(errno)) }
    // The folders walked so far, from the input folder down; `..` pops one, never the first.
    var folders: [Int32] = [top]
    defer { for folder in folders { close(folder) } }
    // Their names below the input folder: where a link leads, by top-level entry.
    var names: [[CChar]] = []
    var pending = Array(parts.reversed())
    var links = 0
    // The folder's own path as bytes, to place an absolute link target (empty for `/`).
    let rootBytes = root == "/" ? [] : Array(root.utf8)
    while let name = pending.popLast() {
      if name == Self.dot { continue }
      if name == Self.dotDot {
        guard folders.count > 1 else { return .failure(.outside) }
        close(folders.removeLast())
        names.removeLast()
        continue
      }
      // Where the walk is now, by the input folder's top-level entry, must be where it began:
      // a link within one user's folder is theirs to make, one into another user's is not.
      // A hidden entry is no user's: a shared place links may lead to.
      if let first = parts.first, first != Self.dot, let entry = names.first ?? Optional(name), entry != first,
        entry.first != CChar(bitPattern: ASCII.dot)
      {
        return .failure(
          .otherEntry(String(decoding: entry.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
      }
      let step: Step<Value>
      if pending.isEmpty {
        step = last(folders.last!, name)
      } else {
        let next = openat(folders.last!, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        if next >= 0 {
          folders.append(next)
          names.append(name)
          continue
        }
        let code = errno
        step = code == ELOOP || code == EMLINK || Self.isLink(folders.last!, name) ? .link : .failed(code)
      }
      switch step {
      case .done(let value): return .success(value)
      case .failed(let code):
        return .failure(code == ENOENT && links > 0 ? .danglingLink : Self.system(code))
      case .link:
        links += 1
        guard links <= Self.maximumLinks,
          let target = Self.readLink(folders.last!, name)
        else {
          return .failure(links > Self.maximumLinks ? .linkLoop : .danglingLink)
        }
        var rest = target[...]
        if target.first == ASCII.slash {
          // An absolute target counts only when it names a place under the folder's own path.
          guard target.starts(with: rootBytes),
            target.count == rootBytes.count || target[rootBytes.count] == ASCII.slash
          else { return .failure(.outside) }
          rest = target[rootBytes.count...]
          while folders.count > 1 { close(folders.removeLast()) }
          names.removeAll()
        }
        guard let more = Self.components(rest) else { return .failure(.danglingLink) }
        pending += more.reversed()
      }
    }
    // An empty path (or one of only `.`): the folder itself.
    switch last(folders[0], Self.dot) {
    case .done(let value): return .success(value)
    case .failed(let code): return .failure(Self.system(code))
    case .link: return .failure(.outside)
    }
  }

  private static func isLink(_ directory: Int32, _ name: [CChar]) -> Bool {
    var status = stat()
    return fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
  }

  /// The target of the link `name` as raw bytes (a target need not be UTF-8).
  private static func readLink(_ directory: Int32, _ name: [CChar]) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer { pointer in
      pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
        readlinkat(directory, name, $0, pointer.count - 1)
      }
    }
    guard count > 0 else { return nil }
    return Array(buffer[..<count])
  }

  static func system(_ code: Int32) -> Failure {
    .system(reason: String(cString: strerror(code)), code: code)
  }
}
