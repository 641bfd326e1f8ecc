import TrendlineSchema

/// Which part of the users one process of a sharded run takes (SPEC 8).
///
/// A user belongs to shard `fnv1a64(id) mod count`, the hash that also names their partition
/// (``UserLayout/hash(_:)``): with a count that divides 4,096, a shard's users are exactly those
/// of the partitions `p` with `p mod count` equal to its index.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  /// The shard counts a run may be split into. 10,000 processes is beyond any cluster a nightly
  /// run is given, and the bound keeps what merge allocates per shard (a slot for each index)
  /// and sums over shards (totals) small: `--shard 0/1000000000` once made merge ask for 4.4 GB.
  /// Checked wherever a count enters: `--shard`, `--shards`, `SLURM_ARRAY_TASK_COUNT` and
  /// every decoded partial and manifest.
  public static let counts: ClosedRange<Int> = 1...10_000

  /// Why a shard count or index cannot be used, in the words of where it came from; nil when
  /// it can.
  public static func problem(index: Int, count: Int) -> String? {
    guard counts.contains(count) else {
      return "shard count \(count) is outside \(counts.lowerBound)...\(counts.upperBound)"
    }
    guard (0..<count).contains(index) else { return "shard index \(index) is outside 0..<\(count)" }
    return nil
  }

  public init(index: Int, count: Int) {
    precondition(Shard.problem(index: index, count: count) == nil, "a shard is checked before it is made")
    self.index = index
    self.count = count
  }

  /// Whether `userID` belongs to this shard.
  public func contains(_ userID: String) -> Bool {
    Shard.index(of: userID, count: count) == index
  }

  /// Why a partitioned input cannot be split into `count` shards, or nil: the count must
  /// divide 4,096, so that each partition is one shard's and a shard lists only its own.
  public static func partitionProblem(count: Int) -> String? {
    UserLayout.partitionCount % count == 0
      ? nil
      : "a partitioned input is split into a shard count that divides \(UserLayout.partitionCount) (a power of "
        + "two up to \(UserLayout.partitionCount)), not \(count)"
  }

  /// Whether the users of partition `partition` are this shard's: all of them are, or none,
  /// for a count that divides 4,096 (``partitionProblem(count:)``).
  public func contains(partition: Int) -> Bool {
    precondition(Shard.partitionProblem(count: count) == nil, "a partitioned shard count is checked first")
    return partition % count == index
  }

  /// The index of the shard of `count` that `userID` belongs to: the one rule every split of
  /// the users (a run, a listing, a check) follows.
  public static func index(of userID: String, count: Int) -> Int {
    Int(UserLayout.hash(userID) % UInt64(count))
  }

  /// `3-of-7`, as shard folders are named.
  public var description: String { "\(index)-of-\(count)" }

  /// Reads `I/N`, with N in ``counts`` and I in `0..<N`; nil for anything else.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
      Shard.problem(index: index, count: count) == nil
    else { return nil }
    self.init(index: index, count: count)
  }

  /// A scheduler's variable that is set but holds no usable number.
  public struct EnvironmentError: Error, Equatable, Sendable, CustomStringConvertible {
    public var variable: String
    public var value: String
    public var description: String { "\(variable) is '\(value)', not a shard index" }
  }

  /// The shard index a scheduler gives an array task, from its environment: Kubernetes
  /// Indexed Jobs (`JOB_COMPLETION_INDEX`), Slurm arrays (`SLURM_ARRAY_TASK_ID`, the task's own
  /// id: submit `--array=0-15` for 16 shards) and AWS Batch array jobs
  /// (`AWS_BATCH_JOB_ARRAY_INDEX`). Nil when none is set.
  ///
  /// Slurm's id is taken as it is, never counted from `SLURM_ARRAY_TASK_MIN`: a retry of one
  /// task (`sbatch --array=5`) has a minimum of 5, and counting from it ran shard 0 again and
  /// exited 0, while shard 5 stayed missing. An id outside the shard count is refused.
  ///
  /// - Throws: ``EnvironmentError`` when the first variable set is not a whole number in
  ///   `0..<10000`: a misspelt job template must stop the run, not have it claim that no index
  ///   is set, nor run all users as if unsharded.
  public static func indexFromEnvironment(_ environment: [String: String]) throws(EnvironmentError)
    -> (index: Int, source: String)?
  {
    func number(_ variable: String) throws(EnvironmentError) -> Int? {
      guard let text = environment[variable] else { return nil }
      guard let value = Int(text), (0..<counts.upperBound).contains(value) else {
        throw EnvironmentError(variable: variable, value: text)
      }
      return value
    }
    if let index = try number("JOB_COMPLETION_INDEX") { return (index, "JOB_COMPLETION_INDEX") }
    if let id = try number("SLURM_ARRAY_TASK_ID") { return (id, "SLURM_ARRAY_TASK_ID") }
    if let index = try number("AWS_BATCH_JOB_ARRAY_INDEX") { return (index, "AWS_BATCH_JOB_ARRAY_INDEX") }
    return nil
  }
}
