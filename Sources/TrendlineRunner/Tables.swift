import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages

/// `"tables"` in `output.formats`: every chart of every user as one CSV file, the cohorts and
/// the manifest as tables too, in `tables/` of the output folder (`Guides/Tables.md`):
///
/// - `tables/<chart>.csv`: every user's rows of the chart (``ChartOutput/tableRows(trend:)``);
/// - `tables/cohort/<chart>.csv` and, with `compare.groupBy`, `tables/cohort/segments/<chart>.csv`;
/// - `tables/manifest/users.csv` and `tables/manifest/files.csv`: the manifest's users and
///   input files, a row each.
///
/// A shard writes its users' tables in `shards/<I>-of-<N>/tables/`; `merge` merges them by
/// user id (each shard's are in id order and no user is in two shards), so a sharded run
/// writes the very bytes of one run.
enum Tables {
  static let folder = OutputLayout.tables

  /// The table of each chart of `pipeline`, by the chart's index.
  static func headers(_ pipeline: Pipeline) -> [[UInt8]] {
    pipeline.charts.map { chart in
      TableRows.header(chart.outputKind.tableColumns(measures: chart.measures, trend: chart.hasTrend))
    }
  }

  /// The paths, relative to the output folder, of the user tables: `tables/<chart>.csv`.
  static func chartPaths(_ pipeline: Pipeline) -> [String] {
    pipeline.charts.map { folder + "/" + $0.name + ".csv" }
  }

  static let usersPath = OutputLayout.manifestTables + "/users.csv"
  static let filesPath = OutputLayout.manifestTables + "/files.csv"

  /// `tables/manifest/users.csv`: a user a row, in id order, as the manifest records them.
  static func users(_ records: [Manifest.UserRecord]) -> [UInt8] {
    var bytes = TableRows.header(
      [
        "user", "status", "message", "files", "sessions", "afterAsOf", "unmappedExercises", "cache",
      ] + rowColumns)
    var rows = TableRows()
    for record in records {
      rows.text(record.user)
      rows.text(record.status.rawValue)
      if let message = record.message { rows.text(message) } else { rows.number(nil) }
      rows.number(record.files.count)
      rows.number(record.sessions)
      rows.number(record.afterAsOf)
      rows.number(record.unmappedExercises)
      if let cache = record.cache { rows.text(cache) } else { rows.number(nil) }
      counts(record.rows, into: &rows)
      rows.endRow()
    }
    bytes += rows.bytes
    return bytes
  }

  /// `tables/manifest/files.csv`: an input file a row, by user and then as the manifest lists
  /// the user's files.
  static func files(_ records: [Manifest.UserRecord]) -> [UInt8] {
    var bytes = TableRows.header(["user", "file", "format", "bytes", "contentHash"] + rowColumns)
    var rows = TableRows()
    for record in records {
      for file in record.files {
        rows.text(record.user)
        rows.text(file.name)
        if let format = file.format { rows.text(format) } else { rows.number(nil) }
        rows.number(file.bytes)
        rows.text(file.contentHash)
        counts(file.rows, into: &rows)
        rows.endRow()
      }
    }
    bytes += rows.bytes
    return bytes
  }

  private static let rowColumns = [
    "rowsRead", "rowsAccepted", "rowsRejected", "rowsDuplicate", "rowsRepaired", "rowsIgnored", "rowsValueDropped",
  ]

  private static func counts(_ counts: RowCounts, into rows: inout TableRows) {
    for value in [
      counts.read, counts.accepted, counts.rejected, counts.duplicate, counts.repaired, counts.ignored,
      counts.valueDropped,
    ] {
      rows.number(value)
    }
  }

  /// Writes the cohort tables of `reduced` and `segments` under `output`; returns their paths,
  /// relative to it.
  static func writeCohort(
    _ reduced: [CohortChart], segments: [CohortSegmentsOutput], quantiles: [Double], to output: URL
  ) throws(AtomicFile.WriteError) -> [String] {
    var written: [String] = []
    for chart in reduced {
      let path = OutputLayout.cohortTables + "/" + chart.name + ".csv"
      try AtomicFile.write(Data(chart.table(quantiles: quantiles)), to: output.path + "/" + path)
      written.append(path)
    }
    for segmented in segments {
      guard let first = segmented.segments.first else { continue }
      let path = OutputLayout.cohortSegmentTables + "/" + segmented.chart + ".csv"
      let table = first.cohort.table(quantiles: quantiles, segments: segmented.segments.map { ($0.value, $0.cohort) })
      try AtomicFile.write(Data(table), to: output.path + "/" + path)
      written.append(path)
    }
    return written
  }

  /// Merges the users' tables of the shard folders `shards` (each `tables/<chart>.csv` and the
  /// manifest's two) into `tables/` of `output`; returns their paths, relative to `output`.
  ///
  /// - Throws: ``Merger/Failure`` when a shard has no tables or not the same ones as another.
  static func merge(shards: [URL], into output: URL) throws(Merger.Failure) -> [String] {
    var names: [String]?
    for shard in shards {
      let found = files(under: shard.path + "/" + folder)
      guard !found.isEmpty else {
        throw .unreadable(shard.path + "/" + folder, "no tables; run this shard again with the same pipeline")
      }
      if let names, names != found {
        throw .unreadable(
          shard.path + "/" + folder, "holds other tables than \(shards[0].path)/\(folder); run the shards again")
      }
      names = found
    }
    let paths = (names ?? []).map { folder + "/" + $0 }
    for path in paths { try merge(shards.map { $0.path + "/" + path }, to: output.path + "/" + path) }
    return paths
  }

  /// The files under `root`, at any depth, by path relative to it, sorted; hidden ones (a killed
  /// writer's temporaries) apart.
  private static func files(under root: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
    var found: [String] = []
    for case let path as String in enumerator {
      var status = stat()
      guard !(path as NSString).lastPathComponent.hasPrefix("."), lstat(root + "/" + path, &status) == 0,
        status.st_mode & S_IFMT == S_IFREG
      else { continue }
      found.append(path)
    }
    return found.sorted()
  }

  /// Merges the tables at `inputs` (each a header and rows in user id order, no user in two of
  /// them) into one at `path`: the header once, then every user's rows in id order.
  ///
  /// - Throws: ``Merger/Failure`` when an input cannot be read or the inputs' headers differ.
  /// - Complexity: O(*b* × *k*) for *b* bytes and *k* inputs, in buffers of a megabyte each.
  static func merge(_ inputs: [String], to path: String) throws(Merger.Failure) {
    var readers: [LineReader] = []
    for input in inputs {
      guard let reader = LineReader(path: input) else { throw .unreadable(input, String(cString: strerror(errno))) }
      readers.append(reader)
    }
    let headers = readers.map { $0.next() }
    guard let header = headers.first ?? nil, headers.allSatisfy({ $0 == header }) else {
      throw .unreadable(
        inputs.first ?? path, "its header differs from another shard's table of the same chart; run the shards again")
    }
    let out: AtomicFile.TemporaryFile
    do throws(AtomicFile.WriteError) {
      out = try AtomicFile.TemporaryFile(for: path)
      var buffer = header
      var current = readers.map { $0.next() }
      while true {
        // The reader whose next row is the smallest user's: all that user's rows follow it.
        var smallest: Int?
        for index in current.indices {
          guard let line = current[index] else { continue }
          if let best = smallest, let bestLine = current[best] {
            if Self.user(of: line).lexicographicallyPrecedes(Self.user(of: bestLine)) { smallest = index }
          } else {
            smallest = index
          }
        }
        guard let index = smallest, let first = current[index] else { break }
        let user = Self.user(of: first)
        var line: [UInt8]? = first
        while let row = line, Self.user(of: row).elementsEqual(user) {
          buffer += row
          line = readers[index].next()
        }
        current[index] = line
        if buffer.count >= 1 << 20 {
          try out.append(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try out.append(buffer)
      try out.commit()
    } catch {
      throw .output(error.description)
    }
  }

  /// A row's user: the bytes before its first comma (a user id is never quoted).
  private static func user(of line: [UInt8]) -> ArraySlice<UInt8> {
    line[..<(line.firstIndex(of: UInt8(ascii: ",")) ?? line.endIndex)]
  }
}

/// Reads a file a line at a time (each line with its `\n`), a megabyte at a time.
private final class LineReader {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false

  init?(path: String) {
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
  }

  deinit { close(descriptor) }

  /// The next line, or nil at the end; a last line without `\n` is returned as it is.
  func next() -> [UInt8]? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let line = Array(buffer[start...newline])
        start = newline + 1
        return line
      }
      if ended {
        guard start < buffer.count else { return nil }
        let line = Array(buffer[start...])
        start = buffer.count
        return line
      }
      buffer.removeFirst(start)
      start = 0
      let chunk = 1 << 20
      let old = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: chunk))
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, chunk) }
      buffer.removeLast(chunk - max(0, count))
      if count <= 0 { ended = true }
    }
  }
}
