import Foundation
import Testing
import _TrendlineTestSupport

/// Nights an operator can leave alone (Guides/Nights.md): a night reads the input as it was
/// listed, is published by one rename only when it finished, keeps a record and metrics, and
/// logs JSON lines a collector can file by night, shard and job.
@Suite struct NightsTests {
  typealias Scratch = RunCommandTests.Scratch

  /// Runs trendline and expects `status`; returns the result.
  @discardableResult
  func expectRun(_ arguments: [String], status: Int32 = 0, environment: [String: String] = [:]) throws
    -> CommandResult
  {
    let result = try runTrendline(arguments, environment: environment)
    #expect(result.status == status, "\(arguments.prefix(2)): \(result.stderr)")
    return result
  }

  func link(_ root: URL) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("current").path)
  }

  @Test func exportsArrivingDuringANightWaitForTheNextAndOnlyFinishedNightsArePublished() throws {
    let (scratch, input, pipeline, _) = try ReusedFolderTests.twoPipelines()
    let root = scratch.url.appendingPathComponent("root")
    func night(_ name: String) -> String { root.appendingPathComponent("nights/\(name)").path }
    func listing(_ name: String) -> String { root.appendingPathComponent("listings/\(name)").path }
    let listed = try expectRun(["list", "--input", input.path, "--shards", "2", "--listing", listing("2026-11-29")])
    #expect(listed.stdout == "listed 3 users, 3 files, 0 entries not read, in 2 shards: \(listing("2026-11-29"))\n")
    // A night's listing is never replaced: its shards may have run from it.
    let again = try expectRun(
      ["list", "--input", input.path, "--shards", "2", "--listing", listing("2026-11-29")], status: 2)
    #expect(again.stderr.contains("already exists; a night's listing is never replaced"), "\(again.stderr)")

    // An export arrives while the night runs: a new user, in shard 1 (FNV-1a of "newcomer").
    try FileManager.default.copyItem(
      at: input.appendingPathComponent("sam.csv"), to: input.appendingPathComponent("newcomer.csv"))
    let common = ["--output", night("2026-11-29"), "--as-of", "2026-11-29", "--listing", listing("2026-11-29")]
    for shard in ["0/2", "1/2"] { try expectRun(["run", pipeline.path, "--shard", shard, "--quiet"] + common) }
    let shards = ["shards", pipeline.path, "--shards", "2", "--to-run"] + common
    #expect(try expectRun(shards).stdout == "\n")
    // The input as it is now has the newcomer, whose shard would run again.
    #expect(try expectRun(Array(shards.dropLast(2))).stdout == "1\n")
    let merged = try expectRun(
      ["merge", "--output", night("2026-11-29"), "--listing", listing("2026-11-29"), night("2026-11-29")])
    #expect(merged.stdout == "merged 2 shards: 3 users, 3 ok, 0 failed\n")
    #expect(!FileManager.default.fileExists(atPath: night("2026-11-29") + "/users/newcomer"))
    let first = try expectRun(["publish", root.path, "--night", "2026-11-29", "--keep", "2"])
    #expect(first.stdout == "published 2026-11-29 (3 users, 3 ok, 0 failed)\n")
    #expect(link(root) == "nights/2026-11-29")

    // The next night reads the newcomer; unsharded, from a listing of one shard.
    try expectRun(["list", "--input", input.path, "--shards", "1", "--listing", listing("2026-11-30")])
    try expectRun(
      [
        "run", pipeline.path, "--output", night("2026-11-30"), "--as-of", "2026-11-30", "--quiet", "--listing",
        listing("2026-11-30"),
      ])
    let second = try expectRun(["publish", root.path, "--night", "2026-11-30", "--keep", "2"])
    #expect(second.stdout == "published 2026-11-30 (4 users, 4 ok, 0 failed); it replaces 2026-11-29\n")
    #expect(FileManager.default.fileExists(atPath: night("2026-11-30") + "/users/newcomer"))

    // A night killed part way (no _SUCCESS) is not published: readers keep the last good one.
    try expectRun(["run", pipeline.path, "--output", night("2026-12-01"), "--as-of", "2026-12-01", "--quiet"])
    try FileManager.default.removeItem(atPath: night("2026-12-01") + "/_SUCCESS")
    let killed = try expectRun(["publish", root.path, "--night", "2026-12-01"], status: 2)
    #expect(killed.stderr.contains("has no _SUCCESS: the night did not finish, so it is not published"))
    #expect(link(root) == "nights/2026-11-30")

    // Keeping 2 removes the oldest night with its listing, never the one it replaces.
    try expectRun(["run", pipeline.path, "--output", night("2026-12-02"), "--as-of", "2026-12-02", "--quiet"])
    let fourth = try expectRun(["publish", root.path, "--night", "2026-12-02", "--keep", "2"])
    #expect(
      fourth.stdout == "published 2026-12-02 (4 users, 4 ok, 0 failed); it replaces 2026-11-30; removed 2026-11-29\n")
    #expect(!FileManager.default.fileExists(atPath: night("2026-11-29")))
    #expect(!FileManager.default.fileExists(atPath: listing("2026-11-29")))
    #expect(FileManager.default.fileExists(atPath: night("2026-11-30")))
    // A past night published again is recorded; readers are not taken back in time.
    let past = try expectRun(["publish", root.path, "--night", "2026-11-30"])
    #expect(past.stdout == "recorded 2026-11-30 (4 users); it is older than 2026-12-02, which current still names\n")
    #expect(link(root) == "nights/2026-12-02")

    let record = try String(contentsOf: root.appendingPathComponent("nights.csv"), encoding: .utf8)
    let rows = record.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    #expect(
      rows.map { $0.prefix(6).joined(separator: ",") } == [
        "night,as_of,published_at,users,users_ok,users_failed",
        "2026-11-29,2026-11-29,\(rows[1][2]),3,3,0",
        "2026-11-30,2026-11-30,\(rows[2][2]),4,4,0",
        "2026-12-02,2026-12-02,\(rows[3][2]),4,4,0",
      ])
    let metrics = try String(contentsOf: root.appendingPathComponent("metrics/trendline.prom"), encoding: .utf8)
    for line in [
      "trendline_night_users{status=\"ok\"} 4", "trendline_night_users{status=\"failed\"} 0",
      "trendline_night_info{night=\"2026-12-02\",as_of=\"2026-12-02\"} 1", "# EOF",
    ] {
      #expect(metrics.split(separator: "\n").contains(Substring(line)), "\(metrics)")
    }
  }

  /// A partitioned night (`"layout": "partitioned"`) is the flat night one level lower: the
  /// same bytes for every user's chart and the cohort, each user under the folder of their
  /// partition (`uma` is 812, `sam` 7dc, `mason` e01: FNV-1a 64 mod 4,096), listed and run in
  /// two shards, each of which lists only its own partitions, and merged.
  @Test func aPartitionedNightIsTheFlatNightOneLevelLower() throws {
    let (scratch, input, flatPipeline, _) = try ReusedFolderTests.twoPipelines()
    let partitioned = scratch.url.appendingPathComponent("partitioned")
    for (name, partition) in [("uma.json", "812"), ("sam.csv", "7dc"), ("mason.csv", "e01")] {
      try FileManager.default.createDirectory(
        at: partitioned.appendingPathComponent(partition), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: input.appendingPathComponent(name), to: partitioned.appendingPathComponent(partition + "/" + name))
      // Each user's row of users.csv goes to their partition's.
      let settings = try String(contentsOf: input.appendingPathComponent("users.csv"), encoding: .utf8)
        .split(separator: "\n")
      let user = (name as NSString).deletingPathExtension
      let rows = [settings[0]] + settings.filter { $0.hasPrefix(user + ",") }
      _ = try scratch.write(rows.joined(separator: "\n") + "\n", to: "partitioned/\(partition)/users.csv")
    }
    let flatText = try String(contentsOf: flatPipeline, encoding: .utf8)
    let pipeline = try scratch.write(
      flatText.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \"layout\": \"partitioned\",")
        .replacingOccurrences(of: input.path, with: partitioned.path), to: "partitioned.json")
    let flat = scratch.url.appendingPathComponent("flat")
    let night = scratch.url.appendingPathComponent("night")
    let listing = scratch.url.appendingPathComponent("listing").path
    let asOf = ["--as-of", "2026-11-29", "--quiet"]
    try expectRun(["run", flatPipeline.path, "--output", flat.path] + asOf)

    let uneven = try expectRun(
      ["list", "--input", partitioned.path, "--shards", "3", "--listing", listing, "--layout", "partitioned"],
      status: 2)
    #expect(uneven.stderr.contains("split into a shard count that divides 4096"), "\(uneven.stderr)")
    let flatListing = scratch.url.appendingPathComponent("flat-listing").path
    // Listed flat, a partitioned input is three entries not read, with why, and no user.
    let listedFlat = try expectRun(["list", "--input", partitioned.path, "--shards", "2", "--listing", flatListing])
    #expect(listedFlat.stdout.hasPrefix("listed 0 users, 0 files, 3 entries not read"), "\(listedFlat.stdout)")
    try FileManager.default.removeItem(atPath: flatListing)
    try expectRun(["list", "--input", input.path, "--shards", "2", "--listing", flatListing])
    let mismatch = try expectRun(
      ["run", pipeline.path, "--output", night.path, "--shard", "0/2", "--listing", flatListing] + asOf, status: 2)
    #expect(mismatch.stderr.contains("lists a flat input, and the pipeline's layout is partitioned"))

    // The driver's form: the layout from the pipeline file, the input given.
    try expectRun([
      "list", "--pipeline", pipeline.path, "--input", partitioned.path, "--shards", "2", "--listing", listing,
    ])
    for shard in ["0/2", "1/2"] {
      try expectRun(["run", pipeline.path, "--output", night.path, "--shard", shard, "--listing", listing] + asOf)
    }
    try expectRun(["merge", "--output", night.path, "--listing", listing, night.path])

    let flatTree = try RunCommandTests.tree(flat)
    var nightTree = try RunCommandTests.tree(night).filter { !$0.key.hasPrefix("/shards/") }
    #expect(nightTree.keys.contains("/users/812/uma/volume.json"))
    #expect(nightTree.keys.contains("/report/users/e01/mason.html"))
    // The pages link one level further up, and the index one level further down.
    let page = String(decoding: nightTree["/report/users/7dc/sam.html"] ?? Data(), as: UTF8.self)
    #expect(page.contains("<a href=\"../../index.html\">← All users</a>"))
    let index = String(decoding: nightTree["/report/index.html"] ?? Data(), as: UTF8.self)
    #expect(index.contains("href=\"users/7dc/sam.html\""))
    for (key, partition) in [("uma", "812"), ("sam", "7dc"), ("mason", "e01")] {
      for prefix in ["/users/", "/report/users/"] {
        for path in nightTree.keys where path.hasPrefix(prefix + partition + "/" + key) {
          let flatPath = prefix + String(path.dropFirst(prefix.count + 4))
          nightTree[flatPath] = nightTree.removeValue(forKey: path)
        }
      }
    }
    nightTree = nightTree.filter { !$0.key.hasPrefix("/report/") }
    #expect(nightTree == flatTree.filter { !$0.key.hasPrefix("/report/") })
    #expect(try RunCommandTests.manifest(night)["layout"] as? String == "partitioned")

    // A shard count that does not divide 4,096 would split partitions: refused before reading.
    let third = try expectRun(["run", pipeline.path, "--output", night.path, "--shard", "0/3"] + asOf, status: 2)
    #expect(third.stderr.contains("divides 4096"), "\(third.stderr)")
    // A night of one layout is never written over by the other: its sweep would empty it.
    let over = try expectRun(["run", flatPipeline.path, "--output", night.path] + asOf, status: 2)
    #expect(over.stderr.contains("holds a partitioned night, and the pipeline's layout is flat"), "\(over.stderr)")
    let under = try expectRun(["run", pipeline.path, "--output", flat.path] + asOf, status: 2)
    #expect(under.stderr.contains("holds a flat night, and the pipeline's layout is partitioned"), "\(under.stderr)")
    // Nor is a partitioned input read flat: each partition would be one user of many exports.
    let flatOverPartitions = scratch.url.appendingPathComponent("flat-over-partitions.json")
    try Data(flatText.replacingOccurrences(of: input.path, with: partitioned.path).utf8).write(to: flatOverPartitions)
    let misread = try expectRun(
      ["run", flatOverPartitions.path, "--output", scratch.url.appendingPathComponent("misread").path] + asOf,
      status: 1)
    #expect(
      misread.stderr.contains("holds users.csv, as a partition does: the input is partitioned"), "\(misread.stderr)")
    #expect(
      (try RunCommandTests.manifest(scratch.url.appendingPathComponent("misread"))["users"] as? [Any])?.isEmpty == true)

    // Settings at the top of a partitioned input would be read by no one: refused.
    _ = try scratch.write("user,timeZone\nsam,Asia/Tokyo\n", to: "partitioned/users.csv")
    let top = try expectRun(["run", pipeline.path, "--output", night.path] + asOf, status: 2)
    #expect(top.stderr.contains("a partitioned input's settings are in each partition's folder"), "\(top.stderr)")

    // A user who left is found in their partition: kept and named, then removed when asked,
    // with the partition folder they leave empty.
    try FileManager.default.removeItem(at: partitioned.appendingPathComponent("users.csv"))
    try FileManager.default.removeItem(at: partitioned.appendingPathComponent("e01"))
    try expectRun(["run", pipeline.path, "--output", night.path] + asOf)
    let departed = try RunCommandTests.manifest(night)["departed"] as? [String: Any]
    #expect(departed?["users"] as? [String] == ["mason"])
    #expect(FileManager.default.fileExists(atPath: night.path + "/users/e01/mason/volume.json"))
    try expectRun(["run", pipeline.path, "--output", night.path, "--remove-departed"] + asOf)
    #expect(!FileManager.default.fileExists(atPath: night.path + "/users/e01"))
    #expect(!FileManager.default.fileExists(atPath: night.path + "/report/users/e01"))
    #expect(FileManager.default.fileExists(atPath: night.path + "/report/users/7dc/sam.html"))
  }

  /// A file at the top of the input without an extension is a user (`README` is user
  /// `README`), in a listing as in discovery.
  @Test func aTopLevelFileWithoutAnExtensionIsReadFromAListing() throws {
    let (scratch, input, pipeline, _) = try ReusedFolderTests.twoPipelines()
    try FileManager.default.copyItem(
      at: input.appendingPathComponent("sam.csv"), to: input.appendingPathComponent("README"))
    let listing = scratch.url.appendingPathComponent("listing").path
    let out = scratch.url.appendingPathComponent("out").path
    try expectRun(["list", "--input", input.path, "--shards", "1", "--listing", listing])
    try expectRun(["run", pipeline.path, "--output", out, "--listing", listing, "--as-of", "2026-11-29", "--quiet"])
    #expect(FileManager.default.fileExists(atPath: out + "/users/README/volume.json"))
  }

  /// Every user failed (the input vanished under its listing) is a night lost too.
  @Test func aNightWhoseUsersAllFailedIsNotPublished() throws {
    let (scratch, input, pipeline, _) = try ReusedFolderTests.twoPipelines()
    let root = scratch.url.appendingPathComponent("root")
    func night(_ name: String) -> String { root.appendingPathComponent("nights/\(name)").path }
    try expectRun(["run", pipeline.path, "--output", night("2026-11-29"), "--as-of", "2026-11-29", "--quiet"])
    try expectRun(["publish", root.path, "--night", "2026-11-29"])
    let listing = scratch.url.appendingPathComponent("listing").path
    try expectRun(["list", "--input", input.path, "--shards", "1", "--listing", listing])
    for name in ["sam.csv", "mason.csv", "uma.json"] {
      try FileManager.default.removeItem(at: input.appendingPathComponent(name))
    }
    try expectRun(
      [
        "run", pipeline.path, "--output", night("2026-11-30"), "--as-of", "2026-11-30", "--quiet", "--listing", listing,
      ],
      status: 1)
    let refused = try expectRun(["publish", root.path, "--night", "2026-11-30"], status: 2)
    #expect(
      refused.stderr.contains("night 2026-11-30 has 0 users ok, fewer than half of the 3 of night 2026-11-29"),
      "\(refused.stderr)")
    #expect(link(root) == "nights/2026-11-29")
  }

  /// The record of nights survives a round trip through a spreadsheet that saved it with
  /// Windows line ends, and one that cannot be read is refused, not overwritten.
  @Test func theRecordOfNightsIsKeptWhateverItsLineEnds() throws {
    let (scratch, _, pipeline, _) = try ReusedFolderTests.twoPipelines()
    let root = scratch.url.appendingPathComponent("root")
    let record = root.appendingPathComponent("nights.csv")
    for name in ["2026-11-29", "2026-11-30"] {
      try expectRun(
        [
          "run", pipeline.path, "--output", root.appendingPathComponent("nights/\(name)").path, "--as-of", name,
          "--quiet",
        ])
    }
    try expectRun(["publish", root.path, "--night", "2026-11-29"])
    let text = try String(contentsOf: record, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: record)
    try expectRun(["publish", root.path, "--night", "2026-11-30"])
    let rows = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map { $0.prefix(10) }
    #expect(rows == ["night,as_o", "2026-11-29", "2026-11-30"])
    try Data([0xFF, 0xFE, 0x00]).write(to: record)
    let refused = try expectRun(["publish", root.path, "--night", "2026-11-30"], status: 2)
    #expect(refused.stderr.contains("nights.csv' cannot be read as UTF-8 text"), "\(refused.stderr)")
    #expect(try Data(contentsOf: record) == Data([0xFF, 0xFE, 0x00]))
    let metrics = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("metrics").path)
    #expect(metrics == ["trendline.prom"])
  }

  @Test func aNightThatLostMostOfItsUsersIsNotPublishedUnlessConfirmed() throws {
    let (scratch, input, pipeline, _) = try ReusedFolderTests.twoPipelines()
    let root = scratch.url.appendingPathComponent("root")
    func run(_ night: String) throws {
      try expectRun(
        [
          "run", pipeline.path, "--output", root.appendingPathComponent("nights/\(night)").path, "--as-of", night,
          "--quiet",
        ])
    }
    try run("2026-11-29")
    try expectRun(["publish", root.path, "--night", "2026-11-29"])
    for name in ["sam.csv", "mason.csv"] { try FileManager.default.removeItem(at: input.appendingPathComponent(name)) }
    try run("2026-11-30")
    let refused = try expectRun(["publish", root.path, "--night", "2026-11-30"], status: 2)
    #expect(
      refused.stderr.contains(
        "night 2026-11-30 has 1 users ok, fewer than half of the 3 of night 2026-11-29, which stays published"),
      "\(refused.stderr)")
    #expect(link(root) == "nights/2026-11-29")
    try expectRun(["publish", root.path, "--night", "2026-11-30", "--confirm-removal"])
    #expect(link(root) == "nights/2026-11-30")
  }

  @Test func aListingEditedToReachOutsideItsUsersIsRefusedWithItsLine() throws {
    let (scratch, input, pipeline, _) = try ReusedFolderTests.twoPipelines()
    let listing = scratch.url.appendingPathComponent("listing")
    try expectRun(["list", "--input", input.path, "--shards", "1", "--listing", listing.path])
    let slice = listing.appendingPathComponent("0-of-1.txt")
    let original = try String(contentsOf: slice, encoding: .utf8)
    #expect(original == "file\tmason\tmason.csv\nfile\tsam\tsam.csv\nfile\tuma\tuma.json\n")
    for (line, why) in [
      ("file\tsam\t../secret.csv", "names '../secret.csv', which is not a file of user 'sam'"),
      ("file\tsam\tmason.csv", "names 'mason.csv', which is not a file of user 'sam'"),
      ("file\tsam\tsam/../../x", "names 'sam/../../x', which is not a file of user 'sam'"),
      // The Kelvin sign is not K, whatever `String`'s `==` says.
      ("file\tKate\t\u{212A}ate.csv", "names '\u{212A}ate.csv', which is not a file of user 'Kate'"),
      ("file\tusers\tusers.csv", "names 'users.csv', which is not a file of user 'users'"),
      ("file\t.secret\t.secret/x.csv", "names the user '.secret', who is not one of this slice's"),
      ("file\tsam\tsam/.hidden", "names 'sam/.hidden', which is not a file of user 'sam'"),
      ("file\t..\t../x", "names the user '..', who is not one of this slice's"),
      ("file\tsam", "is not three tab-separated fields"),
    ] {
      try Data((original + line + "\n").utf8).write(to: slice)
      let result = try expectRun(
        [
          "run", pipeline.path, "--output", scratch.url.appendingPathComponent("out").path, "--listing", listing.path,
          "--as-of", "2026-11-29",
        ], status: 2)
      #expect(
        result.stderr == "\(slice.path):4:1: error: \(why); list the input again with 'trendline list'\n",
        "\(line)")
    }
    // Split into one shard, read as the slice of another count: refused before anything is read.
    try Data(original.utf8).write(to: slice)
    let other = try expectRun(
      [
        "run", pipeline.path, "--output", scratch.url.appendingPathComponent("out").path, "--listing", listing.path,
        "--shard", "0/2", "--as-of", "2026-11-29",
      ], status: 2)
    #expect(other.stderr.contains("is split into 1 shards, not 2"), "\(other.stderr)")
  }

  @Test func jsonLogLinesCarryTimeLevelAsOfShardAndJob() throws {
    let (scratch, input, pipeline, _) = try ReusedFolderTests.twoPipelines()
    try Data("Date,Exercise\nnot a date,x\n".utf8).write(to: input.appendingPathComponent("zz.csv"))
    let out = scratch.url.appendingPathComponent("out").path
    let environment = ["SLURM_ARRAY_JOB_ID": "4107", "SLURM_ARRAY_TASK_ID": "1", "SLURM_JOB_ID": "4109"]
    func lines(_ text: String) throws -> [[String: Any]] {
      try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
      }
    }
    let run = try expectRun(
      ["run", pipeline.path, "--output", out, "--shard", "1/2", "--as-of", "2026-11-29", "--log", "json"], status: 1,
      environment: environment)
    let logged = try lines(run.stderr)
    #expect(logged.map { $0["event"] as? String } == ["start", "user", "user", "finish"], "\(run.stderr)")
    for line in logged {
      #expect(line["asOf"] as? String == "2026-11-29")
      #expect(line["shard"] as? String == "1-of-2")
      #expect(line["job"] as? String == "4107_1")
      #expect(line["command"] as? String == "run")
      #expect((line["ts"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }
    let failed = try #require(logged.first { $0["status"] as? String == "failed" })
    #expect(failed["level"] as? String == "error")
    #expect(failed["user"] as? String == "zz")
    #expect(logged.last?["level"] as? String == "warning")

    // An input entry not read is a line of its own, whose keys are each written once.
    try Data("x".utf8).write(to: input.appendingPathComponent("bad name.csv"))
    let whole = try expectRun(
      ["run", pipeline.path, "--output", out + "2", "--as-of", "2026-11-29", "--log", "json"], status: 1)
    let entry = try #require(whole.stderr.split(separator: "\n").first { $0.contains(#""event":"entry""#) })
    #expect(entry.components(separatedBy: #""asOf""#).count == 2, "\(entry)")
    #expect(try lines(String(entry)).first?["entry"] as? String == "bad name.csv")

    // A run that cannot start says so as a line too, never as a plain `error:` line.
    let missing = try expectRun(
      ["run", pipeline.path, "--input", "/nonexistent", "--output", out, "--as-of", "2026-11-29", "--log", "json"],
      status: 2, environment: environment)
    let fatal = try lines(missing.stderr)
    #expect(fatal.count == 1 && fatal[0]["level"] as? String == "error" && fatal[0]["event"] as? String == "failed")
    #expect(fatal[0]["job"] as? String == "4107_1")
  }
}
