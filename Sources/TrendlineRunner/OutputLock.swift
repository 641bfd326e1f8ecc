import Foundation

/// Keeps two processes from writing one output folder at once.
///
/// Two runs started into one folder (a cron job overlapping a manual run, a shard retried while
/// its first attempt still ran) each removed and rewrote the other's files: the folder then
/// held one run's manifest over the other's charts, and one of them trapped reading a staged
/// chart the other had just replaced. So a process that writes an output folder locks its
/// marker file (``OutputSweep/markerName``) for as long as it writes: a run over all users and
/// `merge` lock the whole file, shard *I* of a sharded run only byte *I*, so the shards of one
/// night write side by side while a second attempt at the same shard, a run over all users or
/// a merge waits for none of them and is refused instead.
///
/// The locks are the kernel's record locks on an open file description (`F_OFD_SETLK` on
/// Linux, `F_SETLK` elsewhere): released when the process ends however it ends, so a killed
/// run never leaves a stale lock behind, and honoured over NFS by its lock manager. A file
/// system that keeps no locks (an NFS mount with `nolock`) is written without one.
final class OutputLock: Sendable {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// What holds the folder, in words for the operator.
  struct Held: Error, CustomStringConvertible {
    var folder: String
    var shard: Shard?
    var description: String {
      let what = shard.map { "shard \($0) or the whole of" } ?? ""
      return
        "another trendline process (a run, a shard or a merge) is writing \(what) '\(folder)' now; "
        .replacingOccurrences(of: "  ", with: " ") + "wait for it to finish, or give another output folder"
    }
  }

  /// Locks `folder`'s marker (which ``OutputSweep/claim(_:partitioned:)`` wrote) for a run over
  /// all users or a merge (`shard` nil), or for one shard.
  ///
  /// - Throws: ``Held`` when another process holds a lock that overlaps this one.
  static func acquire(_ folder: String, shard: Shard?) throws(Held) -> OutputLock? {
    // A marker replaced between the open and the lock (two first runs into a new folder, each
    // writing it) would leave each process holding a lock on a file the other never sees.
    for _ in 0..<3 {
      guard let lock = try lockOnce(folder, shard: shard) else { return nil }
      var held = stat()
      var named = stat()
      if fstat(lock.descriptor, &held) == 0, lstat(folder + "/" + OutputSweep.markerName, &named) == 0,
        held.st_ino == named.st_ino, held.st_dev == named.st_dev
      {
        return lock
      }
      lock.release()
    }
    return nil
  }

  private static func lockOnce(_ folder: String, shard: Shard?) throws(Held) -> OutputLock? {
    let descriptor = open(folder + "/" + OutputSweep.markerName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
    // No marker to lock (a read-only or vanished folder): the writes that follow say why.
    guard descriptor >= 0 else { return nil }
    var region = flock()
    region.l_type = Int16(F_WRLCK)
    region.l_whence = Int16(SEEK_SET)
    region.l_start = off_t(shard.map { 1 + $0.index } ?? 0)
    region.l_len = shard == nil ? 0 : 1  // 0: to the end of any file, the whole of it
    #if os(Linux)
      let command: Int32 = 37  // F_OFD_SETLK, which Glibc's module does not export
    #else
      let command = F_SETLK
    #endif
    guard fcntl(descriptor, command, &region) == 0 else {
      let code = errno
      close(descriptor)
      if code == EAGAIN || code == EACCES { throw Held(folder: folder, shard: shard) }
      return nil
    }
    return OutputLock(descriptor: descriptor)
  }

  /// Releases the lock (a process's end releases it too).
  func release() { close(descriptor) }
}
