import Testing
import TrendlineRunner

/// FNV-1a 64 of the id's UTF-8 bytes; the expected values are the published test vectors
/// (`""` and `"a"`) and values worked out with an independent Python implementation.
@Test(arguments: [
  ("", UInt64(14_695_981_039_346_656_037)),
  ("a", 12_638_187_200_555_641_996),
  ("u00001", 990_400_634_064_375_219),
  ("ingrid", 12_583_301_366_175_436_422),
])
func stableHashOfAUserID(id: String, hash: UInt64) {
  #expect(Shard.hash(id) == hash)
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
