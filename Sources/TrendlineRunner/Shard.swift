/// Which part of the users one process of a sharded run takes (SPEC 8).
///
/// A user belongs to shard `fnv1a64(id) mod count`, where `fnv1a64` is the 64-bit FNV-1a hash
/// of the id's UTF-8 bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3). It is
/// written out here rather than taken from Swift's `hashValue`, which is seeded per process:
/// every shard, on every machine, on every run, must agree on where a user lives.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) {
    precondition(count >= 1 && (0..<count).contains(index), "a shard index is in 0..<count")
    self.index = index
    self.count = count
  }

  /// Whether `userID` belongs to this shard.
  public func contains(_ userID: String) -> Bool {
    Int(Shard.hash(userID) % UInt64(count)) == index
  }

  /// 64-bit FNV-1a of the UTF-8 bytes.
  ///
  /// - Complexity: O(*n*), where *n* is the length of the id.
  public static func hash(_ userID: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in userID.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// `3-of-7`, as shard folders are named.
  public var description: String { "\(index)-of-\(count)" }

  /// Reads `I/N`.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (0..<count).contains(index)
    else { return nil }
    self.init(index: index, count: count)
  }

  /// The shard index a scheduler gives an array task, from its environment: Kubernetes
  /// Indexed Jobs (`JOB_COMPLETION_INDEX`), Slurm arrays (`SLURM_ARRAY_TASK_ID`, counted from
  /// `SLURM_ARRAY_TASK_MIN` when set, so `--array=1-7` works too) and AWS Batch array jobs
  /// (`AWS_BATCH_JOB_ARRAY_INDEX`). Nil when none is set.
  public static func indexFromEnvironment(_ environment: [String: String]) -> (index: Int, source: String)? {
    if let text = environment["JOB_COMPLETION_INDEX"], let index = Int(text) {
      return (index, "JOB_COMPLETION_INDEX")
    }
    if let text = environment["SLURM_ARRAY_TASK_ID"], let id = Int(text) {
      let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0
      return (id - minimum, "SLURM_ARRAY_TASK_ID")
    }
    if let text = environment["AWS_BATCH_JOB_ARRAY_INDEX"], let index = Int(text) {
      return (index, "AWS_BATCH_JOB_ARRAY_INDEX")
    }
    return nil
  }
}
