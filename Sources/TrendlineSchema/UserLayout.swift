/// Where a user's files are, in the input folder and in the output folder: the one place every
/// path of a user is spelled.
///
/// `flat` is SPEC 2 and 7's layout: one entry per user at the top of the input, and
/// `users/<user>/` and `report/users/<user>.html` in the output. A folder of ten million entries
/// is one no file system lists or opens fast, so a pipeline may choose `partitioned`, where
/// every user lives one level lower, in the folder named by their *partition*: the 64-bit FNV-1a
/// hash of the id's UTF-8 bytes modulo 4,096, as three lowercase hex digits (`0a3`). Ten million
/// users make about 2,400 entries a folder; the hash is a shard's, so a shard of a count that
/// divides 4,096 reads only its own partitions (``Shard``).
///
///     input                          output
///     0a3/anna/strong.csv            users/0a3/anna/<chart>.json
///     0a3/ben.csv                    report/users/0a3/anna.html
///     0a3/users.csv                  (report/index.html, cohort/, manifest.json as flat)
public enum UserLayout: String, Sendable, Equatable, CaseIterable, Codable {
  case flat
  case partitioned

  /// The number of partitions: every partition is a folder, `000` to `fff`.
  public static let partitionCount = 4096

  /// 64-bit FNV-1a of the UTF-8 bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
  /// Written out rather than taken from Swift's `hashValue`, which is seeded per process: every
  /// shard, on every machine, on every run, must agree on where a user lives.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  public static func hash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// The partition of user `id`, `0..<4096`.
  public static func partition(of id: String) -> Int { Int(hash(id) % UInt64(partitionCount)) }

  /// A partition's folder name: three lowercase hex digits.
  public static func partitionName(_ partition: Int) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(
      decoding: [digits[partition >> 8 & 15], digits[partition >> 4 & 15], digits[partition & 15]], as: UTF8.self)
  }

  /// The partition a folder name names (`0a3` → 163); nil for any other name, upper-case hex
  /// included, so one partition has one spelling.
  public static func partition(named name: some StringProtocol) -> Int? {
    let bytes = Array(name.utf8)
    guard bytes.count == 3 else { return nil }
    var value = 0
    for byte in bytes {
      switch byte {
      case 0x30...0x39: value = value << 4 | Int(byte - 0x30)
      case 0x61...0x66: value = value << 4 | Int(byte - 0x61 + 10)
      default: return nil
      }
    }
    return value
  }

  /// What is put before a user's entry name in the input and in `users/` and `report/users/`:
  /// `""` flat, `0a3/` partitioned.
  public func folderPrefix(of id: String) -> String {
    self == .flat ? "" : Self.partitionName(Self.partition(of: id)) + "/"
  }

  /// `users`: the output's folder of users' folders.
  public static let usersFolder = "users"
  /// `report/users`: the output's folder of users' pages, `users` below the report.
  public static let pagesFolder = "report/" + usersFolder

  /// `users/<user>` or `users/<partition>/<user>`, relative to the output folder.
  public func userFolder(_ id: String) -> String { Self.usersFolder + "/" + folderPrefix(of: id) + id }

  /// `report/users/` or `report/users/<partition>/`, relative to the output folder: where the
  /// page of `id` is, under its final name or a staged one.
  public func pageFolder(of id: String) -> String { Self.pagesFolder + "/" + folderPrefix(of: id) }

  /// `report/users/<user>.html` or `report/users/<partition>/<user>.html`, relative to the
  /// output folder.
  public func userPage(_ id: String) -> String { pageFolder(of: id) + id + ".html" }

  /// The partition folders below the output that hold the folder and the page of `id`
  /// (`users/0a3`, `report/users/0a3`); none in a flat layout.
  public func partitionFolders(of id: String) -> [String] {
    guard self == .partitioned else { return [] }
    let partition = Self.partitionName(Self.partition(of: id))
    return [Self.usersFolder + "/" + partition, Self.pagesFolder + "/" + partition]
  }

  /// From a user's page to the output folder: `../../` or `../../../`.
  public var pageToOutput: String { self == .flat ? "../../" : "../../../" }

  /// From a user's page to the report's first index page.
  public var pageToIndex: String { self == .flat ? "../index.html" : "../../index.html" }
}
