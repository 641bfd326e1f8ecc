import Testing
import TrendlineRunner
import TrendlineSchema

/// FNV-1a 64 of the id's UTF-8 bytes; the expected values are the published test vectors
/// (`""` and `"a"`) and values worked out with an independent Python implementation.
@Test(arguments: [
  ("", UInt64(14_695_981_039_346_656_037)),
  ("a", 12_638_187_200_555_641_996),
  ("u00001", 990_400_634_064_375_219),
  ("ingrid", 12_583_301_366_175_436_422),
])
func stableHashOfAUserID(id: String, hash: UInt64) {
  #expect(UserLayout.hash(id) == hash)
}

/// 12,583,301,366,175,436,422 mod 4,096 = 3,718 = 0xe86: `ingrid` lives in `e86/` of a
/// partitioned input and in `users/e86/ingrid/` of its output.
@Test func aUsersPartitionIsTheHashModulo4096InThreeHexDigits() {
  #expect(UserLayout.partition(of: "ingrid") == 3718)
  #expect(UserLayout.partitionName(3718) == "e86")
  #expect(UserLayout.partitionName(0) == "000")
  #expect(UserLayout.partitioned.userFolder("ingrid") == "users/e86/ingrid")
  #expect(UserLayout.partitioned.userPage("ingrid") == "report/users/e86/ingrid.html")
  #expect(UserLayout.flat.userFolder("ingrid") == "users/ingrid")
  #expect(UserLayout.flat.userPage("ingrid") == "report/users/ingrid.html")
}

/// One spelling per partition: lower-case hex, three digits.
@Test(arguments: [
  ("0a3", 163 as Int?), ("fff", 4095), ("000", 0), ("0A3", nil), ("a3", nil), ("1000", nil), ("0g0", nil),
])
func aPartitionFolderHasOneName(name: String, partition: Int?) {
  #expect(UserLayout.partition(named: name) == partition)
}

/// With a count that divides 4,096, a shard's users are exactly the users of its partitions,
/// so a shard lists only those folders; any other count is refused for a partitioned input.
@Test func aShardOfACountDividing4096OwnsWholePartitions() {
  for count in [1, 2, 16, 64, 4096] {
    for number in 1...500 {
      let id = "u" + String(number)
      let shard = Shard(index: Shard.index(of: id, count: count), count: count)
      #expect(shard.contains(partition: UserLayout.partition(of: id)))
    }
    #expect(Shard.partitionProblem(count: count) == nil)
  }
  #expect(Shard.partitionProblem(count: 3)?.contains("divides 4096") == true)
  #expect(Shard.partitionProblem(count: 8192) != nil)
}

/// 12,583,301,366,175,436,422 mod 7 = 1: `ingrid` is in shard 1 of 7 on every machine.
@Test func userBelongsToExactlyOneShard() {
  #expect((0..<7).filter { Shard(index: $0, count: 7).contains("ingrid") } == [1])
}

@Test func shardIndexFromSchedulers() throws {
  #expect(try Shard.indexFromEnvironment(["JOB_COMPLETION_INDEX": "3"])! == (3, "JOB_COMPLETION_INDEX"))
  // A retry of task 2 alone (`sbatch --array=2`): Slurm sets the minimum to 2 and the count to
  // 1; the shard is still 2.
  #expect(
    try Shard.indexFromEnvironment([
      "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_COUNT": "1",
    ])! == (2, "SLURM_ARRAY_TASK_ID"))
  #expect(try Shard.indexFromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "0"])! == (0, "AWS_BATCH_JOB_ARRAY_INDEX"))
  #expect(try Shard.indexFromEnvironment([:]) == nil)
  #expect(Shard(parsing: "2/7") == Shard(index: 2, count: 7))
  #expect(Shard(parsing: "7/7") == nil)
  #expect(Shard(parsing: "x") == nil)
}
