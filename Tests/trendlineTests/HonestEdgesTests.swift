import Foundation
import Testing
import _TrendlineTestSupport

/// The SampleData report on 1 December, as a reader sees it (SPEC 10.3, 10.6, 10.7, 10.8): no
/// dip at the right edge, no "0 min" for exports without durations, pound users in pounds, the
/// resolved date everywhere, and the index counting what the user's page counts.
@Suite struct HonestEdgesTests {
  static func json(_ url: URL) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
  }

  static func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

  /// The README's pipeline on SampleData as of `asOf`, into a fresh folder of `scratch`.
  static func overview(asOf: String, in scratch: RunCommandTests.Scratch) throws -> URL {
    let out = scratch.url.appendingPathComponent("out")
    let run = try runTrendline([
      "run", TestPaths.pipelines.appendingPathComponent("overview.json").path, "--as-of", asOf, "--output", out.path,
      "--quiet",
    ])
    try #require(run.status == 0, "\(run.stderr)")
    return out
  }

  @Test func sampleDataOnTheFirstOfDecember() throws {
    let scratch = try RunCommandTests.Scratch()
    let out = try Self.overview(asOf: "2026-12-01", in: scratch)

    // lena (Europe/Berlin, which her export states under a blank users.csv cell, SPEC 11.9;
    // Monday weeks): the week of 30 Nov is two days old. Its 0 sessions are no input
    // of the trend, which stays at 3 276.25 kg (the mean of the complete weeks around it), not
    // the 2 184 kg a 0 pulled it to.
    let lena = try Self.json(out.appendingPathComponent("users/lena/training-volume.json"))
    #expect(lena["schema"] as? String == "trendline/series@2")
    #expect(lena["timeZone"] as? String == "Europe/Berlin")
    let buckets = try #require(lena["buckets"] as? [[String: Any]])
    let last = try #require(buckets.last)
    #expect(last["id"] as? String == "2026-11-30")
    #expect(last["partial"] as? Bool == true)
    #expect(last["elapsed"] as? Double == 2.0 / 7)
    #expect((last["trend"] as? [String: Double])?["volumeKg"] == 3276.25)
    #expect(lena["asOfBucket"] as? Int == buckets.count - 1)

    // giulia's exports state no duration: null throughout, no average, and her chart says so.
    let giulia = try Self.json(out.appendingPathComponent("users/giulia/training-volume.json"))
    let giuliaBuckets = try #require(giulia["buckets"] as? [[String: Any]])
    #expect(giuliaBuckets.allSatisfy { ($0["values"] as? [String: Any])?["durationSeconds"] is NSNull })
    #expect((giulia["average"] as? [String: Any])?["durationSeconds"] is NSNull)
    let giuliaSVG = try Self.text(out.appendingPathComponent("users/giulia/training-volume.svg"))
    #expect(giuliaSVG.contains("No duration recorded in these exports"))
    let giuliaPage = try Self.text(out.appendingPathComponent("report/users/giulia.html"))
    #expect(!giuliaPage.contains(">0 min<"))

    // The cohort's duration covers the 11 users whose exports state one (not giulia, marta,
    // owen, sam, sofia, tom or tyler, idle in the window or not); its last two rows are weeks in
    // progress: the Monday users' week of 30 Nov, and the row of 23 Nov, which the Sunday users'
    // week of Sunday 29 Nov joins (the Monday week holding its start, SPEC 11.9).
    let cohort = try Self.json(out.appendingPathComponent("cohort/training-volume.json"))
    #expect(cohort["asOf"] as? String == "2026-12-01")
    let rows = try #require(cohort["buckets"] as? [[String: Any]])
    #expect(rows.suffix(2).map { $0["date"] as? String } == ["2026-11-23", "2026-11-30"])
    #expect(rows.suffix(2).allSatisfy { $0["partial"] as? Bool == true })
    #expect(rows.dropLast(2).allSatisfy { $0["partial"] as? Bool == false })
    let duration = try #require(
      (rows[rows.count - 2]["values"] as? [String: Any])?["durationSeconds"] as? [String: Any])
    #expect(duration["n"] as? Int == 11)
    #expect(rows[rows.count - 2]["n"] as? Int == 18)

    // A compared chart carries the cohort's shared axis too, stamped in once the cohort is known.
    #expect(
      (lena["cohortYAxis"] as? [String: Any]).map { NSDictionary(dictionary: $0) }
        == (cohort["yAxis"] as? [String: Any]).map { NSDictionary(dictionary: $0) })

    // ethan reads pounds.
    let ethan = try Self.json(out.appendingPathComponent("users/ethan/training-volume.json"))
    #expect((ethan["units"] as? [String: String])?["weight"] == "lb")
    #expect(
      (ethan["yAxis"] as? [String: Any]).flatMap { ($0["volumeKg"] as? [String: Any])?["unit"] } as? String == "lb")
    #expect(try Self.text(out.appendingPathComponent("users/ethan/training-volume.svg")).contains(">Volume (lb)<"))

    // The resolved date everywhere, never the word.
    #expect(try Self.json(out.appendingPathComponent("manifest.json"))["asOf"] as? String == "2026-12-01")
    let index = try Self.text(out.appendingPathComponent("report/index.html"))
    #expect(index.contains("2026-12-01") || index.contains("1 Dec 2026"))
    #expect(!index.contains("today"))
  }

  /// With sessions after as-of (lena has 11 after 1 October), the index counts those up to it,
  /// as her page does (76, not the 87 the manifest read): her last session is as-of's day, and
  /// her last 4 weeks hold 6 sessions, 1 fewer than the 4 before.
  @Test func theIndexCountsSessionsUpToAsOf() throws {
    let scratch = try RunCommandTests.Scratch()
    let out = try Self.overview(asOf: "2026-10-01", in: scratch)
    let manifest = try Self.json(out.appendingPathComponent("manifest.json"))
    let lena = try #require((manifest["users"] as? [[String: Any]])?.first { $0["user"] as? String == "lena" })
    #expect(lena["sessions"] as? Int == 87)
    #expect(lena["afterAsOf"] as? Int == 11)
    let index = try Self.text(out.appendingPathComponent("report/index.html"))
    let glance = try #require(lena["glance"] as? [String: Any])
    #expect(glance["lastSession"] as? String == "2026-10-01")
    #expect(glance["sessions"] as? Int == 6)
    #expect(glance["previousSessions"] as? Int == 7)
    #expect(
      index.contains(
        #"lena</a></th><td data-sort="0">1 Oct 2026<br><span class="meta">today</span></td>"#
          + #"<td data-sort="42">42 weeks</td><td data-sort="6">6</td><td data-sort="-1" class="down">"#))
    let page = try Self.text(out.appendingPathComponent("report/users/lena.html"))
    #expect(page.contains("76 sessions up to as-of"))
  }

  /// A compared series waits under a staged name until its cohort is known: after a shard, only
  /// the staged file; after the merge, the final one with the cohort's axis and no staged file.
  @Test func aShardsComparedChartWaitsForTheMerge() throws {
    let scratch = try RunCommandTests.Scratch()
    let out = scratch.url.appendingPathComponent("out")
    let pipeline = TestPaths.pipelines.appendingPathComponent("overview.json").path
    for shard in ["0/2", "1/2"] {
      let run = try runTrendline(["run", pipeline, "--as-of", "2026-12-01", "--output", out.path, "--shard", shard])
      try #require(run.status == 0, "\(run.stderr)")
    }
    let lena = out.appendingPathComponent("users/lena")
    let final = lena.appendingPathComponent("training-volume.json").path
    let staged = lena.appendingPathComponent(".staged-training-volume.json").path
    #expect(!FileManager.default.fileExists(atPath: final))
    #expect(FileManager.default.fileExists(atPath: staged))
    // Charts the pipeline does not compare are final at once.
    #expect(FileManager.default.fileExists(atPath: lena.appendingPathComponent("muscle-heatmap.json").path))
    let merged = try runTrendline(["merge", "--output", out.path, out.path])
    try #require(merged.status == 0, "\(merged.stderr)")
    #expect(!FileManager.default.fileExists(atPath: staged))
    #expect(try Self.json(URL(fileURLWithPath: final))["cohortYAxis"] != nil)
  }
}
