import Foundation

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

  /// Writes `data` to `url` atomically, creating the folder if needed.
  ///
  /// - Complexity: O(*n*), where *n* is the size of `data`.
  public static func write(_ data: Data, to url: URL) throws(WriteError) {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)-\(url.lastPathComponent)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // `.atomic` writes a temporary file and renames it too; writing our own temporary and
      // renaming it explicitly keeps the temporary name recognizable and the behaviour the
      // same on every platform.
      try data.write(to: temporary)
      if rename(temporary.path, url.path) != 0 {
        let code = errno
        try? FileManager.default.removeItem(at: temporary)
        throw WriteError(path: url.path, reason: String(cString: strerror(code)))
      }
    } catch let error as WriteError {
      throw error
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(path: url.path, reason: describe(error))
    }
  }

  /// Removes `url` if it exists (a stale output from an earlier run).
  public static func remove(_ url: URL) throws(WriteError) {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      throw WriteError(path: url.path, reason: describe(error))
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
