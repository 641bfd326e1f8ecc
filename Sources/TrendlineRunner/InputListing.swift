import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

/// A night's input, frozen: which users and which of their files a night reads, listed once
/// before any shard runs (`trendline list`), so exports that arrive while the night runs wait
/// for the next one.
///
/// Without it, each shard discovers the input when it starts and `trendline shards` when it
/// checks: an export arriving between the two made a finished shard look stale, and exports
/// arriving every 15 seconds kept a night from ever finishing. With it, every task of the
/// night, its retries, the check and the merge see the same users and files. What is *in*
/// a listed file is still read when the shard runs and identified by content (SPEC 11.5): a
/// listed export corrected during the night re-runs its user's shard, an export added does
/// not.
///
/// A listing is a folder, split the way the night is: `I-of-N.txt` holds shard I's users,
/// so a shard reads its slice and never the whole input's entries. Each line is a tab-separated
/// record, in the order discovery found them (users by id, files by name):
///
///     file	anna	anna/strong.csv
///     skipped	junk file.txt	is not a valid user id …
///     hidden	.DS_Store	is hidden; hidden entries are not read
///
/// `_LISTING` names the input folder, the shard count and the totals; it is written last,
/// so a listing without it was cut short and is refused.
public enum InputListing {
  /// The header file, written last.
  public static let headerName = "_LISTING"
  static let version = "trendline listing 1"

  /// What `_LISTING` says.
  public struct Header: Sendable, Equatable {
    /// The input folder, absolute, as the lister saw it (for the operator: tasks may mount it
    /// elsewhere).
    public var input: String
    public var shards: Int
    public var users: Int
    public var files: Int
    public var skipped: Int
    /// Where users are in the input; a listing of one layout is not read by a pipeline of
    /// the other.
    public var layout: UserLayout = .flat
  }

  /// Why a listing cannot be written or read: the file (and line), and what to do.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    /// The listing could not be written (a full disk, a read-only folder), as against a
    /// listing or input that cannot be used.
    public var isWrite = false
    public var description: String {
      guard let line else { return "\(TerminalText.escaped(file)): " + Diagnostic(.error, message).description }
      return Diagnostic(.error, at: SourceLocation(file: file, line: line, column: 1), message).description
    }
  }

  /// The name of shard `shard`'s slice.
  static func sliceName(_ shard: Shard) -> String { "\(shard).txt" }

  /// Lists `input` into the new folder `listing`, split into `shards`; returns the header.
  ///
  /// The slices are written into a hidden folder beside `listing` and renamed to it at the
  /// end: a listing killed part way is never found under its name.
  ///
  /// - Throws: ``Failure`` when `listing` exists (a night's listing is never replaced: its
  ///   shards may have run from it), the input cannot be listed, or a file cannot be written.
  /// - Complexity: O(*e* log *e*) for *e* entries of the input.
  public static func write(
    input: URL, shards: Int, to listing: URL, layout: UserLayout = .flat
  ) throws(Failure) -> Header {
    precondition(Shard.counts.contains(shards), "a shard count is checked where it enters")
    let target = listing.standardizedFileURL.path
    guard !FileManager.default.fileExists(atPath: target) else {
      throw Failure(
        file: target,
        message: "already exists; a night's listing is never replaced, as its shards may have "
          + "run from it. Run the night from it, or remove it to list the input again")
    }
    if layout == .partitioned, let problem = Shard.partitionProblem(count: shards) {
      throw Failure(file: input.path, message: problem + "; list it with --shards 16, 64 or another such count")
    }
    func discovered(_ partitions: ((Int) -> Bool)?) throws(Failure) -> (users: [UserInput], problems: [InputProblem]) {
      do throws(ExportError) {
        return try InputLayout.discover(input, layout: layout, partitions: partitions)
      } catch {
        throw Failure(file: error.file, message: error.message)
      }
    }
    var slices = [String](repeating: "", count: shards)
    var users = 0
    var files = 0
    var skipped = 0
    func add(_ found: (users: [UserInput], problems: [InputProblem]), only index: Int?) {
      for user in found.users {
        let slice = Shard.index(of: user.id, count: shards)
        for path in user.relativePaths { slices[slice] += "file\t\(user.id)\t\(path)\n" }
        files += user.relativePaths.count
      }
      users += found.users.count
      for problem in found.problems {
        let slice = InputIdentity.shardIndex(of: problem, count: shards, layout: layout)
        guard index == nil || index == slice else { continue }
        slices[slice] += "\(problem.isHidden ? "hidden" : "skipped")\t\(problem.entry)\t\(problem.message)\n"
        skipped += 1
      }
    }
    let draft = (target as NSString).deletingLastPathComponent + "/.\(listing.lastPathComponent).tmp-\(getpid())"
    try? FileManager.default.removeItem(atPath: draft)
    func written(_ text: String, _ name: String) throws(Failure) {
      do throws(AtomicFile.WriteError) {
        try AtomicFile.write(Data(text.utf8), to: draft + "/" + name)
      } catch {
        throw Failure(file: target, message: error.description, isWrite: true)
      }
    }
    switch layout {
    case .flat:
      add(try discovered(nil), only: nil)
      for index in 0..<shards { try written(slices[index], sliceName(Shard(index: index, count: shards))) }
    case .partitioned:
      // A slice at a time, from its own partitions: the lister holds one slice, never the input.
      for index in 0..<shards {
        let shard = Shard(index: index, count: shards)
        add(try discovered { shard.contains(partition: $0) }, only: index)
        try written(slices[index], sliceName(shard))
        slices[index] = ""
      }
    }
    let header = Header(
      input: input.standardizedFileURL.path, shards: shards, users: users, files: files, skipped: skipped,
      layout: layout)
    try written(
      "\(version)\ninput\t\(header.input)\nshards\t\(shards)\nusers\t\(users)\nfiles\t\(files)\n"
        + "skipped\t\(skipped)\n" + (layout == .flat ? "" : "layout\t\(layout.rawValue)\n"), headerName)
    guard rename(draft, target) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: draft)
      throw Failure(file: target, message: "cannot be written (\(reason))", isWrite: true)
    }
    return header
  }

  /// The header of the listing at `listing`.
  ///
  /// - Throws: ``Failure`` when it is missing (never listed, or cut short) or not a listing.
  public static func header(of listing: URL) throws(Failure) -> Header {
    let path = listing.standardizedFileURL.path + "/" + headerName
    let lines = try text(of: path, maximumBytes: 1 << 16).split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(version) else {
      throw Failure(file: path, line: 1, message: "is not a listing \(version) wrote; list the input again")
    }
    var values: [String: String] = [:]
    for line in lines.dropFirst() where !line.isEmpty {
      let parts = line.split(separator: "\t", maxSplits: 1)
      if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    guard let input = values["input"], let shards = values["shards"].flatMap({ Int($0) }),
      Shard.counts.contains(shards), let users = values["users"].flatMap({ Int($0) }),
      let files = values["files"].flatMap({ Int($0) }), let skipped = values["skipped"].flatMap({ Int($0) })
    else {
      throw Failure(file: path, message: "is damaged (a value is missing or out of range); list the input again")
    }
    guard let layout = UserLayout(rawValue: values["layout"] ?? "flat") else {
      throw Failure(file: path, message: "names a layout this build does not know; list the input again")
    }
    return Header(input: input, shards: shards, users: users, files: files, skipped: skipped, layout: layout)
  }

  /// The users and skipped entries of `shard` (every shard's without one) in the listing at
  /// `listing` of the input folder `input` (where it is mounted now), as
  /// ``InputLayout/discover(_:)`` returns them.
  ///
  /// Every line is checked as if a stranger wrote it: a listing is a file anyone with the
  /// folder can edit, so a user id must be valid and belong to the slice, and a path must be
  /// the user's own file (`anna.csv`, or one name inside `anna/`), opened later inside the
  /// input folder as discovery's files are.
  ///
  /// - Throws: ``Failure`` naming the file and line of the first wrong line, or when the
  ///   listing is split into another count.
  /// - Complexity: O(*l*) for the slice's *l* lines.
  public static func read(_ listing: URL, input: URL, shard: Shard?, layout: UserLayout) throws(Failure) -> (
    users: [UserInput], problems: [InputProblem]
  ) {
    // The input folder is not compared with the one listed: a driver and its tasks may see
    // one volume at two mount points. The paths listed are relative and checked below.
    let header = try header(of: listing)
    guard header.layout == layout else {
      throw Failure(
        file: listing.path + "/" + headerName,
        message: "lists a \(header.layout.rawValue) input, and the pipeline's layout is \(layout.rawValue); "
          + "list the input again with --layout \(layout.rawValue)")
    }
    if let shard, shard.count != header.shards {
      throw Failure(
        file: listing.path + "/" + headerName,
        message: "is split into \(header.shards) shards, not \(shard.count); run the night with --shards "
          + "\(header.shards), or list it again")
    }
    let folder = InputFolder(resolving: input)
    let indices = shard.map { [$0.index] } ?? Array(0..<header.shards)
    var users: [UserInput] = []
    var problems: [InputProblem] = []
    var seen = Set<String>()
    for index in indices {
      let slice = Shard(index: index, count: header.shards)
      let path = listing.standardizedFileURL.path + "/" + sliceName(slice)
      // A slice's size follows its users' files: a megabyte holds about 20,000 of them.
      let text = try text(of: path, maximumBytes: 1 << 32)
      var number = 0
      for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        number += 1
        func wrong(_ why: String) -> Failure {
          Failure(file: path, line: number, message: "\(why); list the input again with 'trendline list'")
        }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3 else { throw wrong("is not three tab-separated fields") }
        switch fields[0] {
        case "file":
          let (id, relative) = (fields[1], fields[2])
          // Discovery never makes a user of a hidden name: an id starting with `.` is no user.
          guard InputLayout.isValidUserID(id), id.utf8.first != ASCII.dot, slice.contains(id) else {
            throw wrong("names the user '\(TerminalText.escaped(id))', who is not one of this slice's")
          }
          guard isOwnFile(relative, of: id, layout: layout) else {
            throw wrong("names '\(TerminalText.escaped(relative))', which is not a file of user '\(id)'")
          }
          let url = URL(fileURLWithPath: folder.path(of: relative), isDirectory: false)
          if users.last?.id == id {
            users[users.count - 1].files.append(url)
            users[users.count - 1].relativePaths.append(relative)
          } else {
            guard seen.insert(id).inserted else { throw wrong("lists user '\(id)' a second time, apart") }
            users.append(UserInput(id: id, files: [url], folder: folder, relativePaths: [relative]))
          }
        case "skipped", "hidden":
          guard !line.unicodeScalars.contains(where: { $0 != "\t" && TerminalText.isUnsafe($0) }) else {
            throw wrong("has control characters")
          }
          let problem = InputProblem(entry: fields[1], message: fields[2], isHidden: fields[0] == "hidden")
          guard InputIdentity.shardIndex(of: problem, count: slice.count, layout: layout) == slice.index else {
            throw wrong("names the entry '\(TerminalText.escaped(fields[1]))', which is not this slice's")
          }
          problems.append(problem)
        default:
          throw wrong("starts with '\(TerminalText.escaped(fields[0]))', not file, skipped or hidden")
        }
      }
    }
    if indices.count > 1 {
      users.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
      problems.sort { $0.entry.utf8.lexicographicallyPrecedes($1.entry.utf8) }
    }
    return (users, problems)
  }

  /// Whether `relative` is a file discovery would give user `id`: `id/<name>` (a name not
  /// hidden), or at the top `<id>` or `<id>.<ext>`, never the settings file; partitioned, the
  /// same inside the folder of the user's partition (`0a3/anna/<name>`). Compared by UTF-8
  /// bytes: `String`'s `==` takes the Kelvin sign for `K`, and `Kate.csv` so spelled is not
  /// user `Kate`'s file.
  static func isOwnFile(_ relative: String, of id: String, layout: UserLayout) -> Bool {
    func same(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool { a.utf8.elementsEqual(b.utf8) }
    guard !relative.unicodeScalars.contains(where: TerminalText.isUnsafe) else { return false }
    let prefix = layout.folderPrefix(of: id)
    guard relative.utf8.starts(with: prefix.utf8) else { return false }
    let inside = relative.utf8.dropFirst(prefix.utf8.count)
    let parts = Substring(inside).split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 2 {
      return same(parts[0], id) && !same(parts[0], InputLayout.settingsFileName) && !parts[1].isEmpty
        && parts[1].utf8.first != ASCII.dot
    }
    return parts.count == 1 && !same(parts[0], InputLayout.settingsFileName)
      && same((String(parts[0]) as NSString).deletingPathExtension, id)
  }

  private static func text(of path: String, maximumBytes: Int) throws(Failure) -> String {
    let bytes: [UInt8]
    do throws(FileBytes.Failure) {
      bytes = try FileBytes.read(path, maximumBytes: maximumBytes)
    } catch {
      throw Failure(
        file: path, message: "cannot be read (\(error)); list the input with 'trendline list' before the night runs")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw Failure(file: path, message: "is not UTF-8; list the input again")
    }
    return text
  }
}
