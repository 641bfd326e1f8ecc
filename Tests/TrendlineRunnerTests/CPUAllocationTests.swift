import Foundation
import Testing

@testable import TrendlineRunner

/// `--jobs` defaults to the processors a process may use: its affinity and its cgroup's quota,
/// as Slurm, `taskset` and Kubernetes set them, read from literal files.
@Suite struct CPUAllocationTests {
  @Test(arguments: [("0-3,8", 5), ("0", 1), ("2-2", 1), ("0-63", 64), ("", nil), ("3-1", nil), ("a", nil)])
  func affinityLists(list: String, cpus: Int?) {
    #expect(CPUAllocation.cpusInList(list) == cpus)
  }

  @Test(arguments: [
    ("max 100000", nil), ("200000 100000", 2), ("150000 100000", 2), ("50000 100000", 1), ("0 100000", nil),
    ("junk", nil),
  ])
  func cgroupV2Quotas(text: String, cpus: Int?) {
    #expect(CPUAllocation.cpusFromCPUMax(text + "\n") == cpus)
  }

  @Test func cgroupV1QuotaOfMinusOneIsNone() {
    #expect(CPUAllocation.cpusFromQuota("-1\n", period: "100000\n") == nil)
    #expect(CPUAllocation.cpusFromQuota("300000\n", period: "100000\n") == 3)
  }

  /// A pod's cgroup (v2) capped at 1.5 CPUs inside a parent capped at 4: two workers.
  @Test func theTightestQuotaOfTheCgroupAndItsParentsCounts() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let pod = root.appendingPathComponent("kubepods/pod1")
    try FileManager.default.createDirectory(at: pod, withIntermediateDirectories: true)
    try "400000 100000\n".write(to: root.appendingPathComponent("kubepods/cpu.max"), atomically: true, encoding: .utf8)
    try "150000 100000\n".write(to: pod.appendingPathComponent("cpu.max"), atomically: true, encoding: .utf8)
    let membership = root.appendingPathComponent("self-cgroup")
    try "0::/kubepods/pod1\n".write(to: membership, atomically: true, encoding: .utf8)
    #expect(CPUAllocation.quotaCPUs(root: root.path, selfCgroup: membership.path) == 2)
    // v1, the quota of the cpu controller's folder.
    let v1 = root.appendingPathComponent("cpu/job7")
    try FileManager.default.createDirectory(at: v1, withIntermediateDirectories: true)
    try "100000\n".write(to: v1.appendingPathComponent("cpu.cfs_quota_us"), atomically: true, encoding: .utf8)
    try "100000\n".write(to: v1.appendingPathComponent("cpu.cfs_period_us"), atomically: true, encoding: .utf8)
    try "3:cpu,cpuacct:/job7\n".write(to: membership, atomically: true, encoding: .utf8)
    #expect(CPUAllocation.quotaCPUs(root: root.path, selfCgroup: membership.path) == 1)
  }
}
