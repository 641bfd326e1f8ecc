import Foundation
import TrendlineSchema
import TrendlineSupport

/// One user's exports, found in the input folder (SPEC 2).
public struct UserInput: Sendable, Equatable {
  /// The checked user id: `[A-Za-z0-9._-]{1,128}`, never `.` or `..`.
  public var id: String
  /// The user's export files as listed, sorted by name.
  public var files: [URL]
  /// The input folder the files are opened in, so that no link leads out of it; nil for
  /// files the operator names one by one (tests, `parse`).
  public var folder: InputFolder?
  /// With a folder: each file's path inside it (`anna/export.csv`), as listed, which is what
  /// is opened. Kept as listed, never recomputed from the URL, whose path need not start
  /// with the folder's byte for byte (`--input /`, names Foundation normalizes).
  public var relativePaths: [String]

  public init(id: String, files: [URL], folder: InputFolder? = nil, relativePaths: [String] = []) {
    precondition(folder == nil || relativePaths.count == files.count, "a path inside the folder for every file")
    self.id = id
    self.files = files
    self.folder = folder
    self.relativePaths = relativePaths
  }

  /// The bytes of `files[index]`, opened inside ``folder`` when there is one.
  public func bytes(ofFileAt index: Int, maximumBytes: Int) throws(FileBytes.Failure) -> [UInt8] {
    guard let folder else { return try FileBytes.read(files[index].path, maximumBytes: maximumBytes) }
    return try FileBytes.read(relativePaths[index], in: folder, maximumBytes: maximumBytes)
  }

  /// The size of `files[index]` as it would be opened; nil when it cannot be told.
  public func size(ofFileAt index: Int) -> Int? {
    guard let folder else { return FileBytes.size(files[index].path) }
    return FileBytes.size(relativePaths[index], in: folder)
  }

  /// The order to read the files in: the largest first (ties in name order), so that a large
  /// file's bytes are never held beside the sets of the user's others. Read in name order, a
  /// user of a 99 MB and an 85 MB export peaked at 2.02 times the larger; largest first, 1.84.
  ///
  /// - Complexity: O(*f* log *f*) for *f* files, and a system call or a few per file when
  ///   there are two or more.
  public func readingOrder() -> [Int] {
    guard files.count > 1 else { return Array(files.indices) }
    let sizes = files.indices.map { size(ofFileAt: $0) ?? 0 }
    return files.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
  }
}

/// An input entry that is not read: at the top of the input folder (its name is unsafe, it
/// links out, it holds nothing readable) or inside a user's folder (a sub-folder, a dangling
/// link, a name that is not UTF-8). The entry's name is kept escaped, for the message and the
/// manifest only, never to build a path.
public struct InputProblem: Sendable, Equatable, CustomStringConvertible {
  /// The entry's path under the input folder (`anna/old`), escaped.
  public var entry: String
  public var message: String
  /// A hidden entry (its name starts with `.`): not input by definition (SPEC 2), listed in
  /// the manifest so that nothing goes unmentioned, but not a fault.
  public var isHidden: Bool

  public init(entry: String, message: String, isHidden: Bool = false) {
    self.entry = entry
    self.message = message
    self.isHidden = isHidden
  }

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

  /// The users in `folder`, sorted by id, and every entry that is not read, with its reason.
  ///
  /// Every entry, at the top and inside each user's folder, is listed and stat'ed through
  /// ``InputFolder``, so a link is followed only while it stays inside the input folder and
  /// the same walk opens the file later: a link put in place after discovery is not followed
  /// either.
  ///
  /// With `layout` `partitioned`, the top holds partition folders (``UserLayout``) and only
  /// those `partitions` accepts are walked: a shard lists its own partitions, not the input.
  /// A user in a partition that is not its own is not read (it would be found by no shard, or
  /// by two); each partition's `users.csv` holds settings, not a user.
  ///
  /// - Throws: ``ExportError`` when the folder itself cannot be listed.
  /// - Complexity: O(*e* log *e*), where *e* is the number of entries walked.
  public static func discover(
    _ folder: URL, layout: UserLayout = .flat, partitions: ((Int) -> Bool)? = nil
  ) throws(ExportError) -> (users: [UserInput], problems: [InputProblem]) {
    let input = InputFolder(resolving: folder)
    guard case .success(.folder) = input.kind(of: "") else {
      throw ExportError(
        file: folder.path, message: "the input folder does not exist; check source.input or --input")
    }
    let names: [String]
    var problems: [InputProblem] = []
    switch entries(in: "", of: input, problems: &problems) {
    case .success(let listed): names = listed
    case .failure(let failure):
      throw ExportError(file: folder.path, message: "the input folder cannot be listed (\(failure.reason))")
    }
    var found = Found(input: input)
    switch layout {
    case .flat:
      // A partitioned input read flat would make a user of each partition, of all its users'
      // exports: a partition folder with its settings table is not read. Skipped, not thrown:
      // a user who names their folder `0a3` and uploads a `users.csv` fails alone, never the
      // night; a whole partitioned input so read is a night of no users, which publish refuses.
      var kept: [String] = []
      for name in names {
        if UserLayout.partition(named: name) != nil,
          case .success(.file) = input.kind(of: name + "/" + settingsFileName)
        {
          problems.append(
            InputProblem(
              entry: name,
              message: "holds \(settingsFileName), as a partition does: the input is partitioned, so it is not read. "
                + "Give the pipeline \"layout\": \"partitioned\", or rename it if it is a user"))
        } else {
          kept.append(name)
        }
      }
      found.users(named: kept, in: nil, problems: &problems)
    case .partitioned:
      for name in names where name != settingsFileName {
        guard let partition = UserLayout.partition(named: name) else {
          problems.append(
            InputProblem(
              entry: escaped(name),
              message: "is not a partition folder (000 to fff); in a partitioned input every user is in the "
                + "folder of their partition, so it is not read"))
          continue
        }
        guard partitions?(partition) ?? true else { continue }
        guard case .success(.folder) = input.kind(of: name) else {
          problems.append(InputProblem(entry: name, message: "is not a folder; a partition is a folder of users"))
          continue
        }
        switch entries(in: name, of: input, problems: &problems) {
        case .success(let listed):
          found.users(named: listed.filter { $0 != settingsFileName }, in: partition, problems: &problems)
        case .failure(let failure):
          problems.append(InputProblem(entry: name, message: "the folder \(failure.reason)"))
        }
      }
    }
    problems.sort { $0.entry.utf8.lexicographicallyPrecedes($1.entry.utf8) }
    if layout == .partitioned { found.list.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) } }
    return (found.list, problems)
  }

  /// The users discovery has found so far, and the entry each id was found as, so that one
  /// user found twice (`anna/` and `anna.csv`) is read once.
  private struct Found {
    let input: InputFolder
    var list: [UserInput] = []
    var seen: [String: String] = [:]

    init(input: InputFolder) { self.input = input }

    /// Adds the users named `names` at the top of the input, or in the folder of `partition`.
    mutating func users(named names: [String], in partition: Int?, problems: inout [InputProblem]) {
      let prefix = partition.map { UserLayout.partitionName($0) + "/" } ?? ""
      for name in names where name != InputLayout.settingsFileName {
        let entry = prefix + name
        let kind: InputFolder.Kind
        switch input.kind(of: entry) {
        case .success(let found): kind = found
        case .failure(let failure):
          problems.append(InputProblem(entry: InputLayout.escaped(entry), message: failure.reason))
          continue
        }
        let id = kind == .folder ? name : (name as NSString).deletingPathExtension
        guard InputLayout.isValidUserID(id) else {
          problems.append(
            InputProblem(
              entry: escaped(entry),
              message: "is not a valid user id (1–128 of A–Z a–z 0–9 . _ -, not . or ..); rename it"))
          continue
        }
        if let partition, UserLayout.partition(of: id) != partition {
          problems.append(
            InputProblem(
              entry: escaped(entry),
              message: "is user '\(id)', whose partition is \(UserLayout.partitionName(UserLayout.partition(of: id))); "
                + "move it there to read it"))
          continue
        }
        if let other = seen[id] {
          problems.append(
            InputProblem(
              entry: escaped(entry),
              message: "is the same user as '\(InputLayout.escaped(other))'; merge them into one folder"))
          continue
        }
        seen[id] = entry
        // URLs built with their kind known: `appendingPathComponent(_:)` alone stats the path to
        // find out whether it is a folder, a system call per file on top of the walk's.
        if kind != .folder {
          list.append(
            UserInput(
              id: id, files: [URL(fileURLWithPath: input.path(of: entry), isDirectory: false)], folder: input,
              relativePaths: [entry]))
          continue
        }
        let listed: [String]
        switch InputLayout.entries(in: entry, of: input, problems: &problems) {
        case .success(let found): listed = found
        case .failure(let failure):
          problems.append(InputProblem(entry: InputLayout.escaped(entry), message: "the folder \(failure.reason)"))
          continue
        }
        var files: [URL] = []
        var relativePaths: [String] = []
        for file in listed {
          let path = entry + "/" + file
          switch input.kind(of: path) {
          case .success(.folder):
            problems.append(
              InputProblem(
                entry: escaped(path),
                message: "is a folder; exports are read only directly in a user's folder, so it is not read"))
          case .success:
            files.append(URL(fileURLWithPath: input.path(of: path), isDirectory: false))
            relativePaths.append(path)
          case .failure(let failure):
            problems.append(InputProblem(entry: InputLayout.escaped(path), message: failure.reason))
          }
        }
        if files.isEmpty {
          problems.append(InputProblem(entry: InputLayout.escaped(entry), message: "holds no export files"))
          continue
        }
        list.append(UserInput(id: id, files: files, folder: input, relativePaths: relativePaths))
      }
    }
  }

  /// The names in `relative`, sorted by their bytes, without the ones that are not read for
  /// their name alone: hidden names (listed as hidden), names that are not UTF-8 and names
  /// with characters a terminal acts on (a newline in a name would forge lines of messages).
  fileprivate static func entries(
    in relative: String, of input: InputFolder, problems: inout [InputProblem]
  ) -> Result<[String], InputFolder.Failure> {
    let raw: [[UInt8]]
    switch input.names(in: relative) {
    case .success(let names): raw = names.sorted { $0.lexicographicallyPrecedes($1) }
    case .failure(let failure): return .failure(failure)
    }
    let prefix = relative.isEmpty ? "" : relative + "/"
    var names: [String] = []
    for bytes in raw {
      guard let name = String(validating: bytes, as: UTF8.self) else {
        problems.append(
          InputProblem(
            entry: prefix + TerminalText.escaped(bytes: bytes),
            message: "has a name that is not valid UTF-8; rename it to read it"))
        continue
      }
      // By the first byte: `String.hasPrefix` compares characters, and `.` followed by a
      // combining mark is one character that is not `.`, yet a hidden name.
      if name.utf8.first == ASCII.dot {
        problems.append(
          InputProblem(entry: prefix + escaped(name), message: "is hidden; hidden entries are not read", isHidden: true)
        )
        continue
      }
      if name.unicodeScalars.contains(where: TerminalText.isUnsafe) {
        problems.append(
          InputProblem(
            entry: prefix + escaped(name),
            message: "has control characters in its name; rename it to read it"))
        continue
      }
      names.append(name)
    }
    return .success(names)
  }

  /// A name made safe to print (``TerminalText/escaped(_:)``).
  public static func escaped(_ name: String) -> String { TerminalText.escaped(name) }
}
