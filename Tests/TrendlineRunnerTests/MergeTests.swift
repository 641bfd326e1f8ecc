import Foundation
import Testing
import TrendlinePipeline
import TrendlineSchema
import _TrendlineTestSupport

@testable import TrendlineRunner

/// `trendline merge` refuses partials that do not belong together, were edited, or hold values
/// out of range, and an output folder that would overwrite them; nothing is written then.
@Suite struct MergeTests {
  /// Three users with one Strong export each, run as two shards into `out/`.
  final class Fixture {
    let root: URL
    let pipeline: Pipeline
    var out: URL { root.appendingPathComponent("out") }

    static let strong = """
      Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
      2025-11-03 18:00:00,Push,1h 5m,Bench Press (Barbell),1,62.5,8,0,0,,,

      """

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-merge-\(UUID().uuidString)")
      for user in ["ada", "bob", "cy"] { try Fixture.addUser(user, in: root) }
      let file = root.appendingPathComponent("p.json")
      try Data(
        """
        {"version": 1, "name": "merge", "source": {"input": "in", "catalog": "\(TestPaths.catalogFile.path)"},
         "charts": {"volume": [{"bucket": {"range": "all", "measures": ["sessions"]}}]},
         "compare": {"charts": ["volume"]}}
        """.utf8
      ).write(to: file)
      guard case .success(let pipeline) = PipelineLoader.load(file) else {
        preconditionFailure("the fixture pipeline loads")
      }
      self.pipeline = pipeline
      for index in 0..<2 { try run(shard: index, into: out) }
    }
    deinit { try? FileManager.default.removeItem(at: root) }

    func addUser(_ id: String) throws { try Fixture.addUser(id, in: root) }

    static func addUser(_ id: String, in root: URL) throws {
      let folder = root.appendingPathComponent("in/\(id)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(Fixture.strong.utf8).write(to: folder.appendingPathComponent("strong.csv"))
    }

    func run(shard index: Int, into output: URL) throws {
      _ = try Runner.run(
        pipeline,
        options: RunOptions(
          input: root.appendingPathComponent("in"), output: output, asOf: .endOfDay(year: 2025, month: 11, day: 29),
          asOfText: "2025-11-29", jobs: 1, shard: Shard(index: index, count: 2), now: 1_764_547_200,
          toolVersion: "test"))
    }

    func shard(_ index: Int) -> URL { out.appendingPathComponent("shards/\(index)-of-2") }

    func merge(_ inputs: [URL], into output: URL) throws(Merger.Failure) -> Manifest {
      try Merger.merge(inputs: inputs, output: output, toolVersion: "test")
    }

    /// Rewrites shard `index`'s partial through `change`, then seals it again unless told not to.
    func editPartial(_ index: Int, reseal: Bool = true, _ change: (inout CohortPartial) -> Void) throws {
      let url = shard(index).appendingPathComponent("cohort-partial.json")
      var partial = try JSONDecoder().decode(CohortPartial.self, from: Data(contentsOf: url))
      change(&partial)
      if reseal {
        partial = try partial.sealed(
          manifest: Data(contentsOf: shard(index).appendingPathComponent("manifest.json")))
      }
      try partial.encoded().write(to: url)
    }
  }

  /// Merging into the run's own output folder (which holds shards/) works, and twice in a row
  /// gives the same totals: the merge never feeds on its own output.
  @Test func mergeIntoTheRunFolderIsRepeatable() throws {
    let fixture = try Fixture()
    #expect(try fixture.merge([fixture.out], into: fixture.out).totals.users == 3)
    #expect(try fixture.merge([fixture.out], into: fixture.out).totals.users == 3)
  }

  /// An output that is a shard folder, inside one, or the shards/ folder itself is refused
  /// before anything is written; the shard's manifest is untouched.
  @Test(arguments: ["out/shards/0-of-2", "out/shards/0-of-2/merged", "out/shards", "out/shards/merged", "."])
  func mergeIntoAPartialFolderIsRefused(output: String) throws {
    let fixture = try Fixture()
    let manifest = try Data(contentsOf: fixture.shard(0).appendingPathComponent("manifest.json"))
    let target = fixture.root.appendingPathComponent(output)
    let partial =
      output == "out/shards/0-of-2" || output.hasPrefix("out/shards/0-of-2/")
      ? fixture.shard(0).path
      : output == "." ? fixture.shard(0).path : fixture.out.appendingPathComponent("shards").path
    #expect(throws: Merger.Failure.outputOverlapsPartial(output: target.path, partial: partial)) {
      try fixture.merge([fixture.out], into: target)
    }
    #expect(try Data(contentsOf: fixture.shard(0).appendingPathComponent("manifest.json")) == manifest)
    #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("cohort").path))
    #expect(
      Merger.Failure.outputOverlapsPartial(output: "/o", partial: "/o/shards/0-of-2").description
        == "the output folder '/o' overlaps the shard folder '/o/shards/0-of-2': "
        + "merging there would overwrite the shards' own files; give --output a folder outside every shard folder "
        + "(the run's output folder, which holds shards/, is fine)"
    )
  }

  /// A link to a shard folder is seen through.
  @Test func outputLinkedToAPartialFolderIsRefused() throws {
    let fixture = try Fixture()
    let link = fixture.root.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fixture.shard(1))
    #expect(throws: Merger.Failure.outputOverlapsPartial(output: link.path, partial: fixture.shard(1).path)) {
      try fixture.merge([fixture.shard(0), fixture.shard(1)], into: link)
    }
  }

  /// A user who arrived after shard 0 ran (dan hashes to shard 0, as bob does; ada and cy to
  /// shard 1) makes shard 0 stale, even merged beside a shard 1 run after dan arrived: the
  /// night would leave dan out under `_SUCCESS` (SPEC 11.5).
  @Test func aShardRunBeforeOneOfItsUsersArrivedIsStale() throws {
    let fixture = try Fixture()
    try fixture.addUser("dan")
    let other = fixture.root.appendingPathComponent("other")
    try fixture.run(shard: 1, into: other)
    let odd = other.appendingPathComponent("shards/1-of-2")
    let failure = Merger.Failure.staleShard("0-of-2", "user 'dan' is in the input and was not run")
    #expect(throws: failure) {
      try fixture.merge([fixture.shard(0), odd], into: fixture.root.appendingPathComponent("m"))
    }
    #expect(
      failure.description
        == "shard 0-of-2 ran before its input changed: user 'dan' is in the input and was not run; run the shard "
        + "again ('trendline shards --to-run' lists every such shard), then merge")
    // A user arriving in shard 1 leaves shard 0 complete: only the shard of the user re-runs.
    try fixture.run(shard: 0, into: fixture.out)
    try fixture.addUser("eve")
    #expect(throws: Merger.Failure.staleShard("1-of-2", "user 'eve' is in the input and was not run")) {
      try fixture.merge([fixture.out], into: fixture.out)
    }
    try fixture.run(shard: 1, into: fixture.out)
    #expect(try fixture.merge([fixture.out], into: fixture.out).totals.users == 5)
  }

  /// One weight corrected in ada's export, the file's size unchanged (62.5 to 65.0): her shard
  /// (1) is stale and the merge names her, writing nothing; re-running that shard alone makes
  /// the night whole.
  @Test func aCorrectedExportOfTheSameSizeMakesItsShardStale() throws {
    let fixture = try Fixture()
    let export = fixture.root.appendingPathComponent("in/ada/strong.csv")
    let before = try Data(contentsOf: export)
    try Data(Fixture.strong.replacingOccurrences(of: "62.5", with: "65.0").utf8).write(to: export)
    #expect(try Data(contentsOf: export).count == before.count)
    #expect(throws: Merger.Failure.staleShard("1-of-2", "user 'ada''s exports or users.csv row changed since")) {
      try fixture.merge([fixture.out], into: fixture.out)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.out.appendingPathComponent("_SUCCESS").path))
    try fixture.run(shard: 1, into: fixture.out)
    #expect(try fixture.merge([fixture.out], into: fixture.out).totals.usersFailed == 0)
  }

  /// A users.csv row edited since the shards ran (bob's zone) makes bob's shard (0) stale and
  /// leaves shard 1 complete; a row for a user not in the input changes nothing.
  @Test func anEditedSettingsRowMakesOnlyItsUsersShardStale() throws {
    let fixture = try Fixture()
    let settings = fixture.root.appendingPathComponent("in/users.csv")
    try Data("user,timeZone\nbob,Europe/Oslo\n".utf8).write(to: settings)
    try fixture.run(shard: 0, into: fixture.out)
    try fixture.run(shard: 1, into: fixture.out)
    try Data("user,timeZone\nbob,Europe/Oslo\nzed,Asia/Tokyo\n".utf8).write(to: settings)
    #expect(try fixture.merge([fixture.out], into: fixture.out).totals.users == 3)
    try Data("user,timeZone\nbob,America/Chicago\nzed,Asia/Tokyo\n".utf8).write(to: settings)
    #expect(throws: Merger.Failure.staleShard("0-of-2", "user 'bob''s exports or users.csv row changed since")) {
      try fixture.merge([fixture.out], into: fixture.out)
    }
  }

  /// Shards run over two input folders of the same names and sizes, ada's weight differing in
  /// the copy, are refused (ada is shard 1's, and merge reads the folder of the first shard); the
  /// same content reached by another path merges, and a shard run with `--strict` beside one
  /// run without it is refused, since it decides who fails.
  @Test func shardsOverTwoInputsOrTwoStrictnessesAreRefused() throws {
    let fixture = try Fixture()
    let copy = fixture.root.appendingPathComponent("copy")
    try FileManager.default.copyItem(at: fixture.root.appendingPathComponent("in"), to: copy)
    func runShardOne(input: URL, strict: Bool = false) throws {
      _ = try Runner.run(
        fixture.pipeline,
        options: RunOptions(
          input: input, output: fixture.out, asOf: .endOfDay(year: 2025, month: 11, day: 29),
          asOfText: "2025-11-29", jobs: 1, shard: Shard(index: 1, count: 2), strict: strict, now: 1_764_547_200,
          toolVersion: "test"))
    }
    try runShardOne(input: copy)
    #expect(try fixture.merge([fixture.out], into: fixture.out).totals.users == 3)
    let export = copy.appendingPathComponent("ada/strong.csv")
    try Data(Fixture.strong.replacingOccurrences(of: "62.5", with: "65.0").utf8).write(to: export)
    try runShardOne(input: copy)
    #expect(throws: Merger.Failure.staleShard("1-of-2", "user 'ada''s exports or users.csv row changed since")) {
      try fixture.merge([fixture.out], into: fixture.out)
    }
    try runShardOne(input: fixture.root.appendingPathComponent("in"), strict: true)
    #expect(throws: (any Error).self) { try fixture.merge([fixture.out], into: fixture.out) }
    do {
      _ = try fixture.merge([fixture.out], into: fixture.out)
    } catch {
      #expect(
        error.description.hasPrefix(
          "partials were run by different builds, or with different source settings, catalogs or --strict: "),
        "\(error)")
    }
  }

  /// Merge reads the input the shards recorded; moved elsewhere, it is refused unless `--input`
  /// names where it is now.
  @Test func anInputMovedSinceIsNamedWithInput() throws {
    let fixture = try Fixture()
    let input = fixture.root.appendingPathComponent("in")
    let moved = fixture.root.appendingPathComponent("moved")
    try FileManager.default.moveItem(at: input, to: moved)
    #expect(throws: (any Error).self) { try fixture.merge([fixture.out], into: fixture.out) }
    do {
      _ = try fixture.merge([fixture.out], into: fixture.out)
    } catch {
      #expect(error.description.hasPrefix("cannot check that the input '\(input.path)' is what the shards read: "))
    }
    let merged = try Merger.merge(inputs: [fixture.out], output: fixture.out, toolVersion: "test", input: moved)
    #expect(merged.totals.users == 3)
  }

  /// Of three shards, the one that differs is named, whatever order the folders come in.
  @Test func theOddShardIsNamed() throws {
    let fixture = try Fixture()
    let third = fixture.root.appendingPathComponent("third")
    try fixture.run(shard: 1, into: third)
    try fixture.editPartial(0) { $0.resolvedAsOf = "2025-11-28" }
    let failure = Merger.Failure.differentAsOf(
      "\(fixture.shard(1).path): 2025-11-29", "\(fixture.shard(0).path): 2025-11-29 (2025-11-28)")
    #expect(throws: failure) {
      try fixture.merge(
        [fixture.shard(0), fixture.shard(1), third.appendingPathComponent("shards/1-of-2")],
        into: fixture.root.appendingPathComponent("m"))
    }
  }

  /// Without `--as-of`, a run resolves today once, to the date in the pipeline's zone (UTC
  /// here), and writes that date, never the word "today", in its manifest, partials and cohort
  /// files (SPEC 10.7). Two shards started either side of midnight have different dates and
  /// are not merged.
  @Test func todayIsResolvedOnceAndShardsOfTwoDaysAreRefused() throws {
    let fixture = try Fixture()
    let out = fixture.root.appendingPathComponent("today")
    func run(shard index: Int, now: Int64) throws {
      _ = try Runner.run(
        fixture.pipeline,
        options: RunOptions(
          input: fixture.root.appendingPathComponent("in"), output: out, jobs: 1, shard: Shard(index: index, count: 2),
          now: now, toolVersion: "test"))
    }
    try run(shard: 0, now: 1_764_633_599)  // 2025-12-01T23:59:59Z
    try run(shard: 1, now: 1_764_633_600)  // 2025-12-02T00:00:00Z
    let first = out.appendingPathComponent("shards/0-of-2")
    let second = out.appendingPathComponent("shards/1-of-2")
    let manifest = try JSONDecoder().decode(
      Manifest.self, from: Data(contentsOf: first.appendingPathComponent("manifest.json")))
    #expect(manifest.asOf == "2025-12-01")
    let partial = try JSONDecoder().decode(
      CohortPartial.self, from: Data(contentsOf: second.appendingPathComponent("cohort-partial.json")))
    #expect(partial.asOf == "2025-12-02")
    #expect(partial.resolvedAsOf == "2025-12-02")
    #expect(throws: Merger.Failure.differentAsOf("\(first.path): 2025-12-01", "\(second.path): 2025-12-02")) {
      try fixture.merge([out], into: fixture.root.appendingPathComponent("m"))
    }
    // The same day in both: merged, and the cohort file states the date.
    try run(shard: 1, now: 1_764_590_000)  // 2025-12-01T11:53:20Z
    _ = try fixture.merge([out], into: out)
    let cohort = try String(contentsOf: out.appendingPathComponent("cohort/volume.json"), encoding: .utf8)
    #expect(cohort.contains("\"asOf\": \"2025-12-01\""))
    #expect(!cohort.contains("today"))
  }

  /// A resealed partial whose rows would trap or lie is refused, naming the row: a count that
  /// would overflow when shards are added, a negative one, a monthly row that starts on no first
  /// of a month. And a manifest whose user counts more sessions after as-of than it has.
  @Test(arguments: [
    ("2025-01-01", Int.max, "counts 9223372036854775807 users in row 2025-01-01 of"),
    ("2025-01-01", -7, "counts -7 users in row 2025-01-01 of"),
    ("2025-01-06", 1, "has a row '2025-01-06' that is not the YYYY-MM-DD start of a month"),
  ])
  func forgedRowsAreRefused(row: String, count: Int, message: String) throws {
    let fixture = try Fixture()
    try fixture.editPartial(1) { $0.series["volume"]!.counts[LocalDay(text: row)!] = count }
    do {
      _ = try fixture.merge([fixture.out], into: fixture.out)
      Issue.record("a forged row was merged")
    } catch {
      #expect(error.description.contains(message), "\(error.description)")
    }
  }

  /// A shard's partial decodes to what it encodes back to, byte for byte: its rows read as days
  /// write back as the text they were read from, so the checksum a merge recomputes is the one
  /// the shard wrote.
  @Test func aPartialReadsBackAsItsOwnBytes() throws {
    let fixture = try Fixture()
    for index in 0..<2 {
      let bytes = try Data(contentsOf: fixture.shard(index).appendingPathComponent("cohort-partial.json"))
      let partial = try JSONDecoder().decode(CohortPartial.self, from: bytes)
      #expect(try partial.encoded() == bytes)
      #expect(partial.series.values.contains { !$0.counts.isEmpty && !$0.partial.isEmpty })
    }
  }

  /// A row is read as a day: text that is no `YYYY-MM-DD` date (30 February, a row key with an
  /// escape in it) is refused while the partial is decoded, before any checksum or sum (as a day
  /// it would not write back as the text the checksum was taken of), naming its chart and row as
  /// the rows that are dates but start no period are named.
  @Test(arguments: [("2025-02-30", "2025-02-30"), ("2025-11-24\u{1B}[2J", #"2025-11-24\u{1b}[2J"#)])
  func rowsThatAreNoDateAreRefused(row: String, shown: String) throws {
    let fixture = try Fixture()
    let url = fixture.shard(1).appendingPathComponent("cohort-partial.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    let first = try #require(text.range(of: #""counts":{""#))
    let key = text.index(first.upperBound, offsetBy: 10)
    var forged = text
    forged.replaceSubrange(first.upperBound..<key, with: row.unicodeScalars.map { $0.escapedInJSON }.joined())
    try forged.write(to: url, atomically: true, encoding: .utf8)
    do {
      _ = try fixture.merge([fixture.out], into: fixture.out)
      Issue.record("a row that is no date was merged")
    } catch {
      #expect(
        error.description.contains(
          "chart 'volume' has a row '\(shown)' that is not a YYYY-MM-DD date; re-run the shard"),
        "\(error.description)")
      #expect(!error.description.contains("\u{1B}"))
    }
  }

  /// Segments in a resealed partial are checked as the cohort is: a segment with other charts
  /// than the cohort's (its reduction is indexed beside the cohort's), one of a value no
  /// users.csv cell may hold, and segments without their column are refused.
  @Test func forgedSegmentsAreRefused() throws {
    let cases: [(edit: (inout CohortPartial) -> Void, message: String)] = [
      (
        {
          $0.groupBy = "plan"
          $0.segments = ["A": .init()]
        }, "segment 'A' has other charts than the cohort"
      ),
      (
        {
          $0.groupBy = "plan"
          $0.segments = ["a\u{1B}": .init(series: $0.series, radar: $0.radar)]
        },
        "is not a value users.csv may hold"
      ),
      ({ $0.segments = [:] }, "segments and groupBy come together"),
    ]
    for (edit, message) in cases {
      let fixture = try Fixture()
      try fixture.editPartial(1, edit)
      do {
        _ = try fixture.merge([fixture.out], into: fixture.out)
        Issue.record("forged segments were merged")
      } catch {
        #expect(error.description.contains(message), "\(error.description)")
      }
    }
  }

  /// A resealed manifest whose user has more sessions after as-of than sessions (the index
  /// shows their difference) is refused.
  @Test func forgedSessionCountsAreRefused() throws {
    let fixture = try Fixture()
    let url = fixture.shard(1).appendingPathComponent("manifest.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    try #require(text.contains(#""afterAsOf" : 0"#))
    try text.replacingOccurrences(of: #""afterAsOf" : 0"#, with: #""afterAsOf" : -9223372036854775808"#)
      .write(to: url, atomically: true, encoding: .utf8)
    try fixture.editPartial(1) { _ in }
    do {
      _ = try fixture.merge([fixture.out], into: fixture.out)
      Issue.record("a forged manifest was merged")
    } catch {
      #expect(error.description.contains("sessions, -9223372036854775808 after as-of"), "\(error.description)")
    }
  }

  /// A partial or manifest changed after its shard wrote it is refused by name.
  @Test func editedPartialIsRefused() throws {
    let fixture = try Fixture()
    try fixture.editPartial(1, reseal: false) { $0.series["volume"]!.users += 10 }
    let path = fixture.shard(1).path + "/cohort-partial.json"
    let failure = Merger.Failure.editedPartial(path)
    #expect(throws: failure) { try fixture.merge([fixture.out], into: fixture.out) }
    #expect(
      failure.description
        == "'\(path)' does not match its checksum: it was edited or damaged after its shard wrote it; re-run the shard")
  }

  /// Every member of a manifest, the flat row counters of its totals, users and files among
  /// them, is read back: decoding and writing again gives the very bytes that were read, the
  /// merged manifest's shard totals included.
  @Test func aManifestReadsBackToItsOwnBytes() throws {
    let fixture = try Fixture()
    _ = try fixture.merge([fixture.out], into: fixture.out)
    for url in [fixture.shard(0), fixture.out].map({ $0.appendingPathComponent("manifest.json") }) {
      let bytes = try Data(contentsOf: url)
      let manifest = try JSONDecoder().decode(Manifest.self, from: bytes)
      #expect(manifest.totals.rows.read > 0)
      #expect(try manifest.encoded() == bytes, "\(url.path)")
    }
  }

  @Test func editedManifestIsRefused() throws {
    let fixture = try Fixture()
    let url = fixture.shard(0).appendingPathComponent("manifest.json")
    var manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
    manifest.totals.users += 10
    try manifest.encoded().write(to: url)
    let failure = Merger.Failure.editedManifest(url.path)
    #expect(throws: failure) { try fixture.merge([fixture.out], into: fixture.out) }
    #expect(
      failure.description
        == "'\(url.path)' is not the manifest its shard wrote beside cohort-partial.json: it was edited or replaced; "
        + "re-run the shard"
    )
  }

  /// A partial of the previous schema is named as such.
  @Test func partialOfAnotherSchemaIsRefused() throws {
    let fixture = try Fixture()
    try fixture.editPartial(0, reseal: false) { $0.schema = "trendline/cohort-partial@1" }
    let failure = Merger.Failure.unsupportedSchema(
      fixture.shard(0).path + "/cohort-partial.json", found: "trendline/cohort-partial@1")
    #expect(throws: failure) { try fixture.merge([fixture.out], into: fixture.out) }
    #expect(
      failure.description
        == "'\(fixture.shard(0).path)/cohort-partial.json' is a trendline/cohort-partial@1 file, "
        + "this trendline merges trendline/cohort-partial@5; re-run the shard with this trendline"
    )
  }

  /// Shard counts and indexes out of range, sealed with a valid checksum, are refused where
  /// they are decoded, before merge allocates or indexes by them.
  @Test(arguments: [
    (-1, 0, "shard count -1 is outside 1...10000"),
    (0, 0, "shard count 0 is outside 1...10000"),
    (1_000_000_000, 0, "shard count 1000000000 is outside 1...10000"),
    (2, 5, "shard index 5 is outside 0..<2"),
    (2, -1, "shard index -1 is outside 0..<2"),
  ])
  func shardOutOfRangeIsRefused(count: Int, index: Int, what: String) throws {
    let fixture = try Fixture()
    try fixture.editPartial(0) { $0.shard = .init(index: index, count: count) }
    let path = fixture.shard(0).path + "/cohort-partial.json"
    let failure = Merger.Failure.outOfRange(path, what)
    #expect(throws: failure) { try fixture.merge([fixture.out], into: fixture.out) }
    #expect(failure.description == "'\(path)': \(what); re-run the shard")
  }

  /// Values the reduction indexes by: a quantile above 1, a negative ranking size, a radar
  /// without its counts, a user count that would overflow the sum.
  @Test(arguments: [
    ("quantile", "quantile 1.5 is outside 0...1"),
    ("rankTop", "rank top -1 is outside 0...1000"),
    ("users", "chart 'volume' counts 9223372036854775807 users"),
  ])
  func cohortValuesOutOfRangeAreRefused(field: String, what: String) throws {
    let fixture = try Fixture()
    try fixture.editPartial(1) { partial in
      switch field {
      case "quantile": partial.compare.quantiles = [0.5, 1.5]
      case "rankTop": partial.compare.rankTop = -1
      default: partial.series["volume"]!.users = .max
      }
    }
    #expect(throws: Merger.Failure.outOfRange(fixture.shard(1).path + "/cohort-partial.json", what)) {
      try fixture.merge([fixture.out], into: fixture.out)
    }
  }

  /// A chart name in a forged partial becomes a file name: `../../x` or a Windows device name
  /// is refused before anything is written, so nothing lands outside the output folder.
  @Test(arguments: [
    ("../../../../pwned", "chart name '../../../../pwned' is not a plain file name"),
    ("CON", "chart name 'CON' is a device name on Windows (CON), so its files could not be copied there"),
  ])
  func chartNamesOfAPartialAreChecked(name: String, what: String) throws {
    let fixture = try Fixture()
    try fixture.editPartial(1) { partial in
      partial.series[name] = partial.series.removeValue(forKey: "volume")
    }
    #expect(throws: Merger.Failure.outOfRange(fixture.shard(1).path + "/cohort-partial.json", what)) {
      try fixture.merge([fixture.out], into: fixture.out)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.out.appendingPathComponent("cohort").path))
  }

  /// Values each finite whose sum is not (two users at 1.7e308) are refused before anything
  /// is written, as the shards' fault rather than an unwritable folder.
  @Test func valuesThatOverflowTheirSumAreRefused() throws {
    let fixture = try Fixture()
    try fixture.editPartial(1) { partial in
      for date in partial.series["volume"]!.buckets.keys {
        partial.series["volume"]!.buckets[date]![.sessions] = [1.7e308, 1.7e308]
      }
    }
    let failure = Merger.Failure.outOfRange(
      "cohort",
      "the merged values cannot be written as JSON (inf at buckets[0].values.sessions.mean cannot be written as JSON)")
    #expect(throws: failure) { try fixture.merge([fixture.out], into: fixture.out) }
    #expect(!FileManager.default.fileExists(atPath: fixture.out.appendingPathComponent("cohort").path))
  }
}

/// The shard count's range is checked where `--shard` is read, and a scheduler's index that
/// is not a number says so.
@Test(arguments: ["0/0", "0/-1", "-1/2", "0/1000000000", "0/10001", "2/2", "x/2", "1"])
func shardOutsideItsRangeDoesNotParse(text: String) {
  #expect(Shard(parsing: text) == nil)
}

@Test func largestShardCountParses() {
  #expect(Shard(parsing: "9999/10000") == Shard(index: 9999, count: 10_000))
}

@Test(arguments: [
  (["JOB_COMPLETION_INDEX": "x"], "JOB_COMPLETION_INDEX is 'x', not a shard index"),
  (["JOB_COMPLETION_INDEX": "-1"], "JOB_COMPLETION_INDEX is '-1', not a shard index"),
  (["SLURM_ARRAY_TASK_ID": "99999999999999999999"], "SLURM_ARRAY_TASK_ID is '99999999999999999999', not a shard index"),
  (["AWS_BATCH_JOB_ARRAY_INDEX": "1e3"], "AWS_BATCH_JOB_ARRAY_INDEX is '1e3', not a shard index"),
])
func schedulerIndexThatIsNoNumberSaysSo(environment: [String: String], message: String) {
  #expect(throws: Shard.EnvironmentError.self) { try Shard.indexFromEnvironment(environment) }
  do {
    _ = try Shard.indexFromEnvironment(environment)
  } catch {
    #expect(error.description == message)
  }
}

extension Unicode.Scalar {
  /// The scalar as JSON text writes it inside a string: a control character as `\u00XX`.
  fileprivate var escapedInJSON: String {
    value < 0x20 ? String(format: "\\u%04X", value) : String(self)
  }
}
