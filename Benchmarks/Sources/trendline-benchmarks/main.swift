import Foundation

// trendline-benchmarks: release-only measurements of Trendline; never part of CI.
let usage = """
  usage: trendline-benchmarks ingest CORPUS [--catalog FILE] [--jobs N]
         trendline-benchmarks phases CORPUS [--catalog FILE]
         trendline-benchmarks json [--mb N] [--runs N] [--seed N] [--native-mb N]

  ingest   read + hash + normalize every user of CORPUS (SPEC 2 layout) across N workers
           (default: active processor count)
  phases   the same work, single-threaded, timed per step (read, hash, parse, merge)
  json     JSONReader vs JSONSerialization on a generated native-export-like document
           (default 50 MB, 5 runs, seed 1), then the native JSON export reader on
           1, 2, 4, … up to --native-mb MB (default 8; 0 skips it)
  """

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n\(usage)\n".utf8))
  exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.popFirst() else { fail("name a benchmark") }
do {
  let parsed = try Arguments(arguments, flagNames: [])
  let defaultCatalog = "../shared/peers/catalog.json"
  switch command {
  case "ingest", "phases":
    guard parsed.positional.count == 1 else { fail("\(command) needs one CORPUS folder") }
    let corpus = URL(fileURLWithPath: parsed.positional[0])
    let catalog = URL(fileURLWithPath: parsed.options["catalog"] ?? defaultCatalog)
    if command == "ingest" {
      let jobs = try parsed.int("jobs", default: ProcessInfo.processInfo.activeProcessorCount)
      try IngestBenchmark(corpus: corpus, catalog: catalog, jobs: jobs).run()
    } else {
      try IngestPhasesBenchmark(corpus: corpus, catalog: catalog).run()
    }
  case "json":
    try JSONBenchmark(
      megabytes: parsed.int("mb", default: 50), runs: parsed.int("runs", default: 5),
      seed: UInt64(parsed.int("seed", default: 1)),
      nativeMegabytes: parsed.options["native-mb"] == "0" ? 0 : parsed.int("native-mb", default: 8)
    ).run()
  default:
    fail("unknown benchmark '\(command)'")
  }
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
