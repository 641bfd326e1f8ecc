import Dispatch
import Foundation
import Synchronization
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

/// "ingest + normalize, CORPUS users": discovers the users of a corpus folder (SPEC 2 layout),
/// then reads, hashes and normalizes every user's exports with `UserReader.read`, the same call
/// a run makes, across `jobs` workers.
///
/// It deliberately measures nothing after ingest (no stages, no output), so the figure is the
/// cost of reading exactly and can be set against `cat` of the same bytes.
struct IngestBenchmark {
  var corpus: URL
  var catalog: URL
  var jobs: Int

  struct Totals {
    var users = 0
    var failedUsers = 0
    var files = 0
    var bytes = 0
    var rows = RowCounts()
    var sessions = 0
    var unbalancedFiles = 0

    mutating func add(_ other: Totals) {
      users += other.users
      failedUsers += other.failedUsers
      files += other.files
      bytes += other.bytes
      rows += other.rows
      sessions += other.sessions
      unbalancedFiles += other.unbalancedFiles
    }
  }

  struct Prepared {
    var users: [UserInput]
    var table: UsersFile
    var options: UserReader.Options
  }

  /// Discovery, `users.csv` and the catalog: done once per run, timed with the rest.
  static func prepare(corpus: URL, catalog: URL) throws -> Prepared {
    let (users, problems) = try InputLayout.discover(corpus)
    for problem in problems { FileHandle.standardError.write(Data("note: \(problem)\n".utf8)) }
    let usersURL = corpus.appendingPathComponent(InputLayout.settingsFileName)
    let table: UsersFile
    if let data = FileManager.default.contents(atPath: usersURL.path) {
      table = UsersFile(bytes: [UInt8](data))
    } else {
      table = UsersFile()
    }
    let decoded = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: catalog))
    let options = UserReader.Options(lookup: ExerciseLookup(catalog: decoded))
    return Prepared(users: users, table: table, options: options)
  }

  func run() throws {
    let revision = gitRevision()
    let start = now()
    let prepared = try IngestBenchmark.prepare(corpus: corpus, catalog: catalog)
    let users = prepared.users
    let totals = Mutex(Totals())
    let stderr = DispatchQueue(label: "stderr")  // failures print through one serial queue

    DispatchQueue.concurrentPerform(iterations: jobs) { worker in
      // Workers take users round-robin by index: users are similar in size here, and a fixed
      // split keeps the benchmark free of a shared queue.
      var local = Totals()
      for index in stride(from: worker, to: users.count, by: jobs) {
        let user = users[index]
        local.users += 1
        do {
          let settings = try prepared.table.settings(for: user.id, defaults: UserSettings())
          let (ingest, inputs) = try UserReader.read(user, settings: settings, options: prepared.options)
          local.files += inputs.count
          local.bytes += inputs.reduce(0) { $0 + $1.bytes }
          local.sessions += ingest.sessions.count
          for file in ingest.files {
            local.rows += file.rows
            if !file.rows.balances { local.unbalancedFiles += 1 }
          }
        } catch {
          local.failedUsers += 1
          stderr.async { FileHandle.standardError.write(Data("\(user.id): \(error)\n".utf8)) }
        }
      }
      totals.withLock { $0.add(local) }
    }
    stderr.sync {}
    let wall = now() - start
    let t = totals.withLock { $0 }
    let megabytes = Double(t.bytes) / 1_000_000
    let rss = peakRSSBytes().map { fixed(Double($0) / 1_000_000, 0) + " MB" } ?? "n/a"

    print(
      "ingest+normalize rev=\(revision) jobs=\(jobs) users=\(t.users) files=\(t.files) "
        + "MB=\(fixed(megabytes, 1)) rows=\(t.rows.read) sessions=\(t.sessions) wall_s=\(fixed(wall, 2)) "
        + "MB/s=\(fixed(megabytes / wall, 1)) rows/s=\(fixed(Double(t.rows.read) / wall, 0)) peakRSS=\(rss)")
    printTable(
      ["ingest + normalize, \(t.users) users", "value"],
      [
        ["git revision", revision],
        ["jobs", "\(jobs)"],
        ["users (failed)", "\(t.users) (\(t.failedUsers))"],
        ["files", "\(t.files)"],
        ["bytes", "\(fixed(megabytes, 1)) MB"],
        ["rows read", "\(t.rows.read)"],
        ["  accepted", "\(t.rows.accepted)"],
        ["  rejected", "\(t.rows.rejected)"],
        ["  duplicate", "\(t.rows.duplicate)"],
        ["  ignored", "\(t.rows.ignored)"],
        ["files not balancing", "\(t.unbalancedFiles)"],
        ["sessions", "\(t.sessions)"],
        ["wall", "\(fixed(wall, 2)) s"],
        ["throughput", "\(fixed(megabytes / wall, 1)) MB/s"],
        ["rows/s", fixed(Double(t.rows.read) / wall, 0)],
        ["peak RSS", rss],
      ])
  }
}

/// "ingest phases, CORPUS users, 1 thread": the same work as `IngestBenchmark` split into its
/// steps — read the file, hash it (`ContentHash`), parse it (`ExportReader.read`), merge and normalize
/// (`Normalize.merge`) — each timed on its own, single-threaded, to show where the time goes. The
/// CSV reader alone (`CSVReader.next` over every record, no field decoded) is timed on the same
/// bytes as a part of parsing, not a step of its own.
struct IngestPhasesBenchmark {
  var corpus: URL
  var catalog: URL

  func run() throws {
    let revision = gitRevision()
    let prepared = try IngestBenchmark.prepare(corpus: corpus, catalog: catalog)
    var readSeconds = 0.0
    var hashSeconds = 0.0
    var parseSeconds = 0.0
    var scanSeconds = 0.0
    var mergeSeconds = 0.0
    var bytes = 0
    var rows = 0
    var digestSink = 0  // keeps the hashes observable so no step is optimized away
    for user in prepared.users {
      guard let settings = try? prepared.table.settings(for: user.id, defaults: UserSettings()) else { continue }
      var files: [FileIngest] = []
      for url in user.files {
        var t0 = now()
        guard let data = FileManager.default.contents(atPath: url.path) else { continue }
        let fileBytes = [UInt8](data)
        var t1 = now()
        readSeconds += t1 - t0
        t0 = t1
        digestSink &+= ContentHash.of(fileBytes).utf8.count
        t1 = now()
        hashSeconds += t1 - t0
        t0 = t1
        digestSink &+= Self.scan(fileBytes)
        t1 = now()
        scanSeconds += t1 - t0
        t0 = t1
        guard
          let file = try? ExportReader.read(
            file: url.lastPathComponent, bytes: fileBytes, settings: settings.read)
        else { continue }
        t1 = now()
        parseSeconds += t1 - t0
        bytes += fileBytes.count
        rows += file.rows.read
        files.append(file)
      }
      let t0 = now()
      let merged = Normalize.merge(files, lookup: prepared.options.lookup, warmupSets: .exclude)
      mergeSeconds += now() - t0
      digestSink &+= merged.sessions.count
    }
    let megabytes = Double(bytes) / 1_000_000
    let total = readSeconds + hashSeconds + parseSeconds + mergeSeconds  // the scan is a part of parsing
    func row(_ name: String, _ seconds: Double) -> [String] {
      [
        name, fixed(seconds, 2), fixed(100 * seconds / total, 1), fixed(megabytes / seconds, 1),
        fixed(Double(rows) / seconds, 0),
      ]
    }
    print("ingest phases rev=\(revision) jobs=1 MB=\(fixed(megabytes, 1)) rows=\(rows) (check \(digestSink))")
    printTable(
      ["phase, 1 thread", "seconds", "%", "MB/s", "rows/s"],
      [
        row("read file (Data → [UInt8])", readSeconds),
        row("content hash (manifest)", hashSeconds),
        row("parse + per-row normalize", parseSeconds),
        row("  of which: CSV records alone (CSVReader)", scanSeconds),
        row("merge (Normalize.merge)", mergeSeconds),
        row("total", total),
      ])
  }

  /// Every record of `bytes` found and its fields bounded, nothing decoded: the reader's own
  /// cost. Returns the number of fields, so the work is observable.
  static func scan(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      let reader = CSVReader(borrowing: buffer)
      var fields = 0
      while true {
        switch reader.next() {
        case .end: return fields
        case .record: fields &+= reader.fieldCount
        case .blankLine, .malformed: continue
        }
      }
    }
  }
}
