import Foundation

/// Reads a whole input file into one byte array with POSIX calls: `open`, `fstat`, `read`.
///
/// Every export, cache entry and settings table goes through here. The type and size are
/// checked on the open descriptor, so what is checked is what is read (no window for a swap
/// between a `stat` and an `open`), and the bytes land in their final array in one copy:
/// `FileManager.contents(atPath:)` and then `[UInt8](data)` copied every file twice and
/// faulted in twice its pages, a few percent of a whole run.
public enum FileBytes {
  /// Why a file was not read.
  public enum Failure: Error, Equatable, Sendable {
    /// A FIFO, socket, device or folder: reading one could block forever or never end.
    case notRegularFile
    /// Larger than the caller's limit; `size` is what `fstat` said, in bytes.
    case tooLarge(size: Int)
    /// The OS refused: `reason` is its own words (`No such file or directory`, `Permission denied`).
    case unreadable(reason: String, code: Int32)
    /// A file in the input folder that cannot be reached inside it (a link out, a loop, a
    /// dangling link).
    case outsideInput(InputFolder.Failure)

    /// What a message says after the file's name, for every failure but ``tooLarge(size:)``,
    /// whose message names the caller's limit. Each says what happened in the user's terms:
    /// "check its permissions" only when permissions are the cause.
    public var reason: String {
      switch self {
      case .notRegularFile: return "is not a regular file (a folder, pipe, socket or device); it is not read"
      case .tooLarge(let size): return "is \(size) bytes, over the size limit"
      case .unreadable(_, let code) where code == ENOENT:
        return "no longer exists (it was removed or renamed after the input folder was listed); run again"
      case .unreadable(let reason, let code) where code == EACCES || code == EPERM:
        return "the file cannot be read (\(reason)); check its permissions"
      case .unreadable(let reason, let code) where code == EISDIR:
        return "is a folder, not a file (\(reason))"
      case .unreadable(let reason, _): return "the file cannot be read (\(reason))"
      case .outsideInput(let failure): return failure.reason
      }
    }
  }

  /// The bytes of the file at `path` (links followed), at most `maximumBytes` of them.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the file.
  public static func read(_ path: String, maximumBytes: Int = .max) throws(Failure) -> [UInt8] {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer that never
    // comes. A regular file ignores the flag.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw unreadable(errno) }
    return try read(descriptor: descriptor, maximumBytes: maximumBytes)
  }

  /// The bytes of `relative` in the input folder, opened inside it (``InputFolder``): a link
  /// out of the folder, even one put in place after the folder was listed, is never followed.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the file.
  public static func read(_ relative: String, in folder: InputFolder, maximumBytes: Int = .max) throws(Failure)
    -> [UInt8]
  {
    switch folder.open(relative) {
    case .success(let descriptor): return try read(descriptor: descriptor, maximumBytes: maximumBytes)
    case .failure(.system(let reason, let code)): throw .unreadable(reason: reason, code: code)
    case .failure(let failure): throw .outsideInput(failure)
    }
  }

  /// The size in bytes of the regular file at `path` (links followed); nil when it cannot be
  /// told. For ordering reads only: a file that changes before it is read changes the order,
  /// and nothing else.
  ///
  /// - Complexity: O(1) system calls.
  public static func size(_ path: String) -> Int? {
    size(descriptor: open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC))
  }

  /// ``size(_:)`` of `relative` in the input folder, opened inside it as ``read(_:in:maximumBytes:)``
  /// opens it.
  ///
  /// - Complexity: O(*c*) system calls, where *c* is the number of components walked.
  public static func size(_ relative: String, in folder: InputFolder) -> Int? {
    guard case .success(let descriptor) = folder.open(relative) else { return nil }
    return size(descriptor: descriptor)
  }

  /// The size of the regular file open on `descriptor` (nil for any other, or -1), which it closes.
  private static func size(descriptor: Int32) -> Int? {
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return try? regularFileSize(descriptor)
  }

  /// The size of the file open on `descriptor`, checked on the descriptor to be a regular one.
  private static func regularFileSize(_ descriptor: Int32) throws(Failure) -> Int {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw unreadable(errno) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
    return Int(status.st_size)
  }

  /// Reads the open `descriptor` to its end and closes it.
  private static func read(descriptor: Int32, maximumBytes: Int) throws(Failure) -> [UInt8] {
    defer { close(descriptor) }
    let size = try regularFileSize(descriptor)
    guard size <= maximumBytes else { throw .tooLarge(size: size) }
    var failure: Int32 = 0
    // Exactly the size fstat gave: a file that grows while it is read is read as it was.
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      while count < size {
        let got = Foundation.read(descriptor, buffer.baseAddress! + count, size - count)
        if got < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if got == 0 { return }  // The file shrank while it was read.
        count += got
      }
    }
    if failure != 0 { throw unreadable(failure) }
    return bytes
  }

  private static func unreadable(_ code: Int32) -> Failure {
    .unreadable(reason: String(cString: strerror(code)), code: code)
  }
}
