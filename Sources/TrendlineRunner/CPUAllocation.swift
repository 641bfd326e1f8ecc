import Foundation

/// The processors this process may actually use: what `--jobs` defaults to.
///
/// A scheduler gives a task a slice of a node, not the node: Slurm and `taskset` pin it to a few
/// CPUs (its affinity), Kubernetes and Docker cap its CPU time (a cgroup quota). Counting every
/// processor of a 64-core node for a 2-CPU slot ran 64 workers in it, each thrashing the
/// others' caches. The smallest of the processors online, the affinity mask and the quota
/// (rounded up: 1.5 CPUs run two workers) is used, and never less than one.
public enum CPUAllocation {
  /// The usable processors of this process, read once.
  public static let usable: Int = {
    var limits = [ProcessInfo.processInfo.activeProcessorCount]
    if let affinity = affinityCount() { limits.append(affinity) }
    if let quota = quotaCPUs() { limits.append(quota) }
    return max(1, limits.min()!)
  }()

  /// The CPUs in this process's affinity mask, from `Cpus_allowed_list` of `/proc/self/status`
  /// (`0-3,8`: five), nil where there is none. (`sched_getaffinity` needs `_GNU_SOURCE`, which
  /// Swift's Glibc module does not define.)
  static func affinityCount(status: String = "/proc/self/status") -> Int? {
    guard let text = try? String(contentsOfFile: status, encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
    else { return nil }
    return cpusInList(String(line.dropFirst("Cpus_allowed_list:".count)))
  }

  /// The CPUs of a list such as `0-3,8`: 5; nil for anything else.
  static func cpusInList(_ list: String) -> Int? {
    var count = 0
    for range in list.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
      let ends = range.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...2).contains(ends.count), let low = Int(ends[0]), let high = Int(ends[ends.count - 1]), low <= high,
        high < 1 << 20
      else { return nil }
      count += high - low + 1
    }
    return count > 0 ? count : nil
  }

  /// The CPU quota of this process's cgroup and its ancestors, rounded up, nil without one:
  /// cgroup v2's `cpu.max` (`200000 100000`, or `max 100000` for none), else v1's
  /// `cpu.cfs_quota_us` over `cpu.cfs_period_us` (a quota of -1 is none).
  static func quotaCPUs(root: String = "/sys/fs/cgroup", selfCgroup: String = "/proc/self/cgroup") -> Int? {
    let memberships = (try? String(contentsOfFile: selfCgroup, encoding: .utf8)) ?? ""
    var found: [Int] = []
    for line in memberships.split(separator: "\n") {
      // `0::/path` (v2) or `N:cpu,cpuacct:/path` (v1).
      let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3 else { continue }
      let controllers = parts[1].split(separator: ",")
      let path = String(parts[2])
      if parts[0] == "0" && parts[1].isEmpty {
        for folder in ancestors(root, path) {
          if let text = try? String(contentsOfFile: folder + "/cpu.max", encoding: .utf8),
            let cpus = cpusFromCPUMax(text)
          {
            found.append(cpus)
          }
        }
      } else if controllers.contains("cpu") {
        for base in [root + "/cpu", root + "/cpu,cpuacct"] {
          for folder in ancestors(base, path) {
            guard let quota = try? String(contentsOfFile: folder + "/cpu.cfs_quota_us", encoding: .utf8),
              let period = try? String(contentsOfFile: folder + "/cpu.cfs_period_us", encoding: .utf8),
              let cpus = cpusFromQuota(quota, period: period)
            else { continue }
            found.append(cpus)
          }
        }
      }
    }
    return found.min()
  }

  /// `root + path` and each of its parents up to `root`.
  static func ancestors(_ root: String, _ path: String) -> [String] {
    var folders = [root]
    var current = root
    for component in path.split(separator: "/") where component != ".." && component != "." {
      current += "/" + component
      folders.append(current)
    }
    return folders
  }

  /// `200000 100000` → 2, `150000 100000` → 2, `50000 100000` → 1; `max 100000` and anything
  /// unreadable → nil.
  static func cpusFromCPUMax(_ text: String) -> Int? {
    let fields = text.split(whereSeparator: \.isWhitespace)
    guard fields.count == 2 else { return nil }
    return cpus(quota: String(fields[0]), period: String(fields[1]))
  }

  /// v1: a quota of `-1` is none.
  static func cpusFromQuota(_ quota: String, period: String) -> Int? {
    cpus(
      quota: quota.trimmingCharacters(in: .whitespacesAndNewlines),
      period: period.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  private static func cpus(quota: String, period: String) -> Int? {
    guard let quota = Int64(quota), let period = Int64(period), quota > 0, period > 0 else { return nil }
    return Int(min((quota + period - 1) / period, 1 << 20))
  }
}
