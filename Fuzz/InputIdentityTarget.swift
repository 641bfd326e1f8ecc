// libFuzzer entry for the content identity behind `trendline shards` and `merge` (SPEC 11.5):
// forged or stale state is redone, never served. Once, a two-user input is written and run as
// one shard, and its exports' bytes are kept. Each input then changes that world: its first
// byte chooses what to change — ada's export (bytes overwritten in place, so the size stays),
// the shard's recorded input identity or a user's recorded identity (forged, the partial
// resealed so the checksum passes), or nothing — and the rest is the new bytes. Whatever it
// did, the shard may be judged complete, and merged, only while both exports hold the bytes
// the shard read: a harness-kept truth, not the code's own hashes.
import Foundation
import TrendlinePipeline
import TrendlineRunner

private let strong = """
  Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
  2025-11-03 18:00:00,Push,1h 5m,Bench Press (Barbell),1,62.5,8,0,0,,,
  2025-11-05 18:00:00,Pull,50m,Deadlift (Barbell),1,140,5,0,0,,,

  """

private struct World {
  let root: URL
  let pipeline: Pipeline
  let exports: [URL]
  let original: [[UInt8]]
  var out: URL { root.appendingPathComponent("out") }
  var shard: URL { out.appendingPathComponent("shards/0-of-1") }
}

private let world: World = {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-fuzz-identity-\(getpid())")
  try? FileManager.default.removeItem(at: root)
  var exports: [URL] = []
  for user in ["ada", "bob"] {
    let folder = root.appendingPathComponent("in/\(user)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    exports.append(folder.appendingPathComponent("strong.csv"))
    try! Data(strong.utf8).write(to: exports.last!)
  }
  let file = root.appendingPathComponent("p.json")
  try! Data(
    """
    {"version": 1, "name": "fuzz", "source": {"input": "in"},
     "charts": {"volume": [{"bucket": {"range": "all", "measures": ["sessions"]}}]},
     "compare": {"charts": ["volume"]}}
    """.utf8
  ).write(to: file)
  guard case .success(let pipeline) = PipelineLoader.load(file) else { preconditionFailure("the pipeline loads") }
  let world = World(
    root: root, pipeline: pipeline, exports: exports, original: exports.map { [UInt8](try! Data(contentsOf: $0)) })
  run(world)
  return world
}()

private func run(_ world: World) {
  _ = try! Runner.run(
    world.pipeline,
    options: RunOptions(
      input: world.root.appendingPathComponent("in"), output: world.out,
      asOf: .endOfDay(year: 2025, month: 11, day: 29), asOfText: "2025-11-29", jobs: 1,
      shard: Shard(index: 0, count: 1), now: 1_764_547_200, toolVersion: "fuzz"))
}

// The world is made before the first input: made inside one, its files would count as that
// input's leaks.
@_cdecl("LLVMFuzzerInitialize")
public func initializeInputIdentity(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  _ = world
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputIdentity(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let choice = bytes.first else { return 0 }
  let payload = Array(bytes.dropFirst())
  let partialURL = world.shard.appendingPathComponent("cohort-partial.json")
  let manifestURL = world.shard.appendingPathComponent("manifest.json")
  let savedPartial = try! Data(contentsOf: partialURL)
  let savedManifest = try! Data(contentsOf: manifestURL)
  switch choice % 4 {
  case 0:
    // In place: the size, and so every name-and-size fingerprint, stays the same.
    var export = world.original[0]
    for (offset, byte) in payload.prefix(export.count).enumerated() { export[offset] = byte }
    try! Data(export).write(to: world.exports[0])
  case 1:
    var partial = try! JSONDecoder().decode(CohortPartial.self, from: savedPartial)
    partial.input.identity = String(decoding: payload, as: UTF8.self)
    try! partial.sealed(manifest: savedManifest).encoded().write(to: partialURL)
  case 2:
    // A user's recorded identity forged in the manifest, and the partial sealed over it.
    let text = String(decoding: savedManifest, as: UTF8.self)
    let forged = text.replacingOccurrences(
      of: #""inputIdentity" : ""#, with: #""inputIdentity" : ""# + String(decoding: payload, as: UTF8.self))
    let partial = try! JSONDecoder().decode(CohortPartial.self, from: savedPartial)
    try! Data(forged.utf8).write(to: manifestURL)
    try! partial.sealed(manifest: Data(forged.utf8)).encoded().write(to: partialURL)
  default: break
  }
  let unchanged = zip(world.exports, world.original).allSatisfy { (try? Data(contentsOf: $0)) == Data($1) }
  let recorded = try! JSONDecoder().decode(CohortPartial.self, from: savedPartial).input.identity
  let forged = choice % 4 == 1 && String(decoding: payload, as: UTF8.self) != recorded
  let states = try! ShardStatus.check(
    .init(
      pipeline: world.pipeline, input: nil, output: world.out, asOfText: "2025-11-29", count: 1, toolVersion: "fuzz",
      jobs: 1))
  if case .complete = states[0] {
    precondition(unchanged, "a shard was judged complete over exports it did not read")
    precondition(!forged, "a shard was judged complete on a forged identity")
  }
  do {
    _ = try Merger.merge(inputs: [world.out], output: world.out, toolVersion: "fuzz")
    precondition(unchanged && !forged, "a merge published a shard over exports it did not read, or forged")
  } catch {
    precondition(!error.description.isEmpty, "a refused merge without a message")
  }
  // The world as it was, for the next input.
  for (url, bytes) in zip(world.exports, world.original) { try! Data(bytes).write(to: url) }
  try! savedPartial.write(to: partialURL)
  try! savedManifest.write(to: manifestURL)
  return 0
}
