import Foundation
import TrendlineIngest
import TrendlineSupport

/// "json parse, native-export-like document of ~N MB": `JSONReader.parse` and
/// `JSONReader.parseDocument` (values plus positions, what the native JSON reader uses) against
/// Foundation's `JSONSerialization.jsonObject`, on one document generated in memory.
///
/// The document has the shape of a native export (SPEC 2): sessions of sets with names,
/// RFC 3339 starts, integers, decimals and a few escaped and non-ASCII strings, so the mix of
/// tokens is the one the reader meets in real use.
struct JSONBenchmark {
  var megabytes: Int
  var runs: Int
  var seed: UInt64
  /// The largest document the native JSON export reader is timed on (doubling from 1 MB).
  var nativeMegabytes: Int

  static let exercises = [
    "Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)",
    "Lat Pulldown (Cable)", "Kniebeuge mit Langhantel", "Développé couché", "Pull Up",
    "Bulgarian Split Squat", "Face Pull (Cable)", "Curl \\\"21s\\\" (EZ Bar)",
  ]
  static let names = ["Push", "Pull", "Legs", "Upper A", "Lower B", "Full body \\u00e9", "Morning"]
  static let types = ["normal", "normal", "normal", "normal", "warmup", "dropset", "failure"]

  static func document(megabytes: Int, seed: UInt64) -> (bytes: [UInt8], sessions: Int, sets: Int) {
    var random = SplitMix64(seed: seed)  // the same arguments give the same bytes
    let target = megabytes * 1_000_000
    var out: [UInt8] = []
    out.reserveCapacity(target + 4096)
    out += Array("{\"weightUnit\": \"kg\", \"timeZone\": \"Europe/Oslo\", \"sessions\": [\n".utf8)
    var sessions = 0
    var sets = 0
    var day = 0
    while out.count < target {
      if sessions > 0 { out += Array(",\n".utf8) }
      day += 1 + random.below(3)
      let year = 2020 + day / 365
      let month = 1 + (day % 365) / 31
      let dayOfMonth = 1 + (day % 365) % 28
      let hour = 6 + random.below(14)
      let start = String(
        format: "%04d-%02d-%02dT%02d:%02d:00+01:00", year, min(month, 12), dayOfMonth, hour, random.below(60))
      var session =
        "  {\"id\": \"s\(sessions)\", \"start\": \"\(start)\", \"durationSeconds\": \(1800 + random.below(5400)), "
        + "\"name\": \"\(names[random.below(names.count)])\", \"sets\": ["
      let count = 12 + random.below(16)
      for index in 0..<count {
        let weight = Double(random.below(3000)) / 10 + (random.below(10) == 0 ? 0.25 : 0)
        session +=
          (index == 0 ? "\n" : ",\n")
          + "    {\"exercise\": \"\(exercises[random.below(exercises.count)])\", \"weight\": \(weight), "
          + "\"reps\": \(1 + random.below(15)), \"type\": \"\(types[random.below(types.count)])\", \"index\": \(index)"
          + (random.below(20) == 0 ? ", \"rpe\": 8.5e0, \"note\": null, \"pr\": true}" : "}")
      }
      session += "\n  ]}"
      out += Array(session.utf8)
      sessions += 1
      sets += count
    }
    out += Array("\n]}\n".utf8)
    return (out, sessions, sets)
  }

  func run() throws {
    let revision = gitRevision()
    let (bytes, sessions, sets) = JSONBenchmark.document(megabytes: megabytes, seed: seed)
    let data = Data(bytes)
    let size = Double(bytes.count) / 1_000_000
    print(
      "json parse rev=\(revision) document=\(fixed(size, 1)) MB sessions=\(sessions) sets=\(sets) runs=\(runs) (best and median)"
    )

    func measure(_ name: String, _ body: () throws -> Int) rethrows -> [String] {
      var times: [Double] = []
      var check = 0
      for _ in 0..<runs {
        let start = now()
        check = try body()
        times.append(now() - start)
      }
      times.sort()
      let best = times[0]
      let median = times[times.count / 2]
      return [name, fixed(best, 3), fixed(median, 3), fixed(size / best, 1), fixed(size / median, 1), "\(check)"]
    }

    var rows: [[String]] = []
    rows.append(
      try measure("JSONReader().parse") {
        let value = try JSONReader().parse(bytes)
        return value["sessions"]?.arrayValue?.count ?? -1
      })
    rows.append(
      try measure("JSONReader().parseDocument") {
        let document = try JSONReader().parseDocument(bytes)
        return document.value["sessions"]?.arrayValue?.count ?? -1
      })
    rows.append(
      try measure("JSONSerialization.jsonObject") {
        let object = try JSONSerialization.jsonObject(with: data)
        return ((object as? [String: Any])?["sessions"] as? [Any])?.count ?? -1
      })
    printTable(["parser", "best s", "median s", "best MB/s", "median MB/s", "sessions or rows"], rows)
    // The native JSON export reader (syntax, then one row per set) on smaller documents of the
    // same shape, once each: its cost grows faster than the size, so the sizes double to show
    // the curve instead of running it on the full document.
    if nativeMegabytes > 0 {
      // Then the same documents with every weight negative, so every set is a reject whose line
      // is looked up: MB/s must stay flat as the size doubles (the lookup walks down from the
      // set's session, never from the root past every earlier sibling).
      for allRejects in [false, true] {
        var scaling: [[String]] = []
        var size = 1
        while size <= nativeMegabytes {
          let (generated, _, sets) = JSONBenchmark.document(megabytes: size, seed: seed)
          let bytes =
            allRejects
            ? Array(String(decoding: generated, as: UTF8.self).replacingOccurrences(of: "\"weight\": ", with: "\"weight\": -1").utf8)
            : generated
          let start = now()
          let file = try ExportReader.read(
            file: "bench.json", bytes: bytes, format: .fixed(.nativeJSON), settings: ReadSettings())
          let seconds = now() - start
          precondition(file.rows.read == sets, "the native reader must read every generated set")
          let mb = Double(bytes.count) / 1_000_000
          scaling.append([
            fixed(mb, 1), "\(sets)", "\(file.rows.rejected)", fixed(seconds, 3), fixed(mb / seconds, 1),
            fixed(Double(sets) / seconds, 0),
          ])
          size *= 2
        }
        let title = allRejects ? "native-json, all rejects MB" : "ExportReader native-json MB"
        printTable([title, "sets", "rejected", "seconds", "MB/s", "rows/s"], scaling)
      }
    }
    let rss = peakRSSBytes().map { fixed(Double($0) / 1_000_000, 0) + " MB" } ?? "n/a"
    print("peak RSS (whole process, all parsers) \(rss)")
  }
}
