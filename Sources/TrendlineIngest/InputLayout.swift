import Foundation
import TrendlineSchema
import TrendlineSupport

/// One user's exports, found in the input folder (SPEC 2).
public struct UserInput: Sendable, Equatable {
  /// The checked user id: `[A-Za-z0-9._-]{1,128}`, never `.` or `..`.
  public var id: String
  /// The user's export files, sorted by name.
  public var files: [URL]

  public init(id: String, files: [URL]) {
    self.id = id
    self.files = files
  }
}

/// An input entry that is not a user: its name is unsafe or it holds nothing readable. The
/// entry's name is kept only for the message (escaped), never used to build a path.
public struct InputProblem: Sendable, Equatable, CustomStringConvertible {
  public var entry: String
  public var message: String

  public var description: String { "\(entry): \(message)" }
}

/// Finds the users in an input folder: every non-hidden entry is one user, a folder of
/// exports or a single export file `<user>.<ext>`; `users.csv` holds settings, not a user.
public enum InputLayout {
  public static let settingsFileName = "users.csv"

  /// Whether `id` is a safe user id: 1–128 of `A–Z a–z 0–9 . _ -`, and not `.` or `..`.
  /// Only such ids ever become part of an output path.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `id`.
  public static func isValidUserID(_ id: String) -> Bool {
    let bytes = Array(id.utf8)
    guard (1...128).contains(bytes.count), id != ".", id != ".." else { return false }
    return bytes.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == ASCII.dot || byte == 0x5F || byte == ASCII.minus
    }
  }

  /// The users in `folder`, sorted by id, and the entries that are not users.
  ///
  /// Symbolic links are followed only when they stay inside the input folder, so a link
  /// cannot make Trendline read (and echo into rejects) a file it was not given.
  ///
  /// - Throws: ``ExportError`` when the folder itself cannot be listed.
  /// - Complexity: O(*e* log *e*), where *e* is the number of entries.
  public static func discover(_ folder: URL) throws(ExportError) -> (users: [UserInput], problems: [InputProblem]) {
    let fileManager = FileManager.default
    let root = folder.resolvingSymlinksInPath().standardizedFileURL
    var isDirectory: ObjCBool = false
    guard fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw ExportError(
        file: folder.path, message: "the input folder does not exist; check source.input or --input")
    }
    let names: [String]
    do {
      names = try fileManager.contentsOfDirectory(atPath: root.path)
    } catch {
      throw ExportError(file: folder.path, message: "the input folder cannot be listed: \(error.localizedDescription)")
    }

    var users: [UserInput] = []
    var problems: [InputProblem] = []
    var seen: [String: String] = [:]
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      if name.hasPrefix(".") || name == settingsFileName { continue }
      // URLs built with their kind known: `appendingPathComponent(_:)` alone stats the path to
      // find out whether it is a folder, a system call per file on top of `entryKind`'s.
      let entryPath = root.path + "/" + name
      guard let kind = entryKind(entryPath, root: root) else {
        problems.append(
          InputProblem(entry: escaped(name), message: "links outside the input folder; it is not read"))
        continue
      }
      let id = kind == .directory ? name : (name as NSString).deletingPathExtension
      guard isValidUserID(id) else {
        problems.append(
          InputProblem(
            entry: escaped(name),
            message: "is not a valid user id (1–128 of A–Z a–z 0–9 . _ -, not . or ..); rename it"))
        continue
      }
      if let other = seen[id] {
        problems.append(
          InputProblem(entry: escaped(name), message: "is the same user as '\(escaped(other))'; merge them into one folder"))
        continue
      }
      seen[id] = name
      if kind == .file {
        users.append(UserInput(id: id, files: [URL(fileURLWithPath: entryPath, isDirectory: false)]))
        continue
      }
      let files = ((try? fileManager.contentsOfDirectory(atPath: entryPath)) ?? [])
        .filter { !$0.hasPrefix(".") }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        .filter { entryKind(entryPath + "/" + $0, root: root) == .file }
        .map { URL(fileURLWithPath: entryPath + "/" + $0, isDirectory: false) }
      if files.isEmpty {
        problems.append(InputProblem(entry: escaped(name), message: "holds no export files"))
        continue
      }
      users.append(UserInput(id: id, files: files))
    }
    return (users, problems)
  }

  private enum Kind { case file, directory }

  /// A folder, or anything else that exists (a file; a pipe or device fails later, when it is
  /// read), inside `root` after following links; nil when it is missing or a link leads out.
  ///
  /// One `lstat` per entry: only a link is resolved, because an entry listed in `root` or in a
  /// user's folder is inside `root` by construction. Resolving every path walked each of its
  /// components with a system call, serially, before any user started.
  private static func entryKind(_ path: String, root: URL) -> Kind? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    if status.st_mode & S_IFMT != S_IFLNK { return status.st_mode & S_IFMT == S_IFDIR ? .directory : .file }
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    guard resolved.hasPrefix(root.path + "/") else { return nil }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else { return nil }
    return isDirectory.boolValue ? .directory : .file
  }

  /// A name made safe to print: control characters and non-ASCII shown as escapes.
  public static func escaped(_ name: String) -> String {
    var out = ""
    for scalar in name.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
