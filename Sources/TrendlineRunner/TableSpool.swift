import Foundation
import Synchronization
import TrendlineSchema

/// The tables of one output folder (`"tables"` in `output.formats`, `Guides/Tables.md`) while
/// its users run: each user's rows of every chart are appended to one temporary file as the
/// user finishes, in whatever order workers finish, and each table is written at the end by
/// copying its users' rows in id order.
///
/// A table holds every user's chart, so it is never held in memory: the spool is on disk and
/// the final file is written in pieces (``AtomicFile/TemporaryFile``). What the spool keeps in
/// memory is one entry (table, user, offset, length) per user and table.
final class TableSpool: Sendable {
  private struct Entry {
    var table: Int
    var user: Int
    var offset: Int
    var count: Int
  }

  private let file: AtomicFile.TemporaryFile
  private let state = Mutex<(size: Int, entries: [Entry])>((0, []))

  /// A spool in `folder`, under a temporary name a later run removes if this one is killed.
  init(in folder: String) throws(AtomicFile.WriteError) {
    file = try AtomicFile.TemporaryFile(for: folder + "/tables-spool")
  }

  /// Adds user `user`'s rows of table `table` (indices the caller keeps; users by id order).
  func append(table: Int, user: Int, rows: [UInt8]) throws(AtomicFile.WriteError) {
    guard !rows.isEmpty else { return }
    try state.withLock { state throws(AtomicFile.WriteError) in
      try file.append(rows)
      state.entries.append(Entry(table: table, user: user, offset: state.size, count: rows.count))
      state.size += rows.count
    }
  }

  /// Writes table `table`, `header` then every user's rows in user order, to `path`.
  ///
  /// - Complexity: O(*b* + *e* log *e*) for the table's *b* bytes and *e* entries.
  func write(table: Int, header: [UInt8], to path: String) throws(AtomicFile.WriteError) {
    let entries = state.withLock { $0.entries.filter { $0.table == table } }.sorted { $0.user < $1.user }
    // Opened from the spool's folder, as it was written: not looked up by its path again.
    let reader = file.openForReading()
    guard reader >= 0 else { throw AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno))) }
    defer { close(reader) }
    let out = try AtomicFile.TemporaryFile(for: path)
    var buffer = header
    // Copied a megabyte at a time, whatever the table's size.
    let flushAt = 1 << 20
    for entry in entries {
      let start = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: entry.count))
      let read = buffer.withUnsafeMutableBytes { bytes in
        pread(reader, bytes.baseAddress! + start, entry.count, off_t(entry.offset))
      }
      guard read == entry.count else {
        out.discard()
        throw AtomicFile.WriteError(path: path, reason: "the table spool could not be read back")
      }
      if buffer.count >= flushAt {
        try out.append(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try out.append(buffer)
    try out.commit()
  }

  /// Removes the spool file.
  func discard() { file.discard() }
}
