import Foundation
import Testing
import TrendlineStages
import _TrendlineTestSupport

/// A user's place in the cohort: per bucket, their percentile rank among every user, and among
/// their segment, stamped into their compared chart and drawn on their page.
///
/// The five users of ``CohortSegmentsTests`` in their one week: ana 2 sessions, ben 4 (plan A),
/// cy 1 (plan B), dee 3 (blank), eve 5 (not in users.csv). The rank of v among n values is
/// 100 × (#below + ½ #equal) ÷ n, so among all five [1, 2, 3, 4, 5]: cy 10, ana 30, dee 50,
/// ben 70, eve 90. In plan A [2, 4]: ana 25, ben 75; cy is plan B's only user: 50; the unknown
/// segment [3, 5]: dee 25, eve 75.
@Suite struct CohortRankTests {
  typealias Scratch = ContainmentTests.Scratch

  @Test func theRankIsTheMiddleOfTheRanksAValueShares() {
    #expect(CohortRanks.percentileRank(7, in: [7]) == 50)
    #expect(CohortRanks.percentileRank(1, in: [1, 2, 3, 4]) == 12.5)
    #expect(CohortRanks.percentileRank(4, in: [1, 2, 3, 4]) == 87.5)
    // Ties share a rank: two of four at 2, one below.
    #expect(CohortRanks.percentileRank(2, in: [1, 2, 2, 3]) == 50)
    // A value not in the row (a Sunday week ranked in a Monday-aligned cohort) is placed too.
    #expect(CohortRanks.percentileRank(2.5, in: [1, 2, 2, 3]) == 75)
    #expect(CohortRanks.percentileRank(0, in: [1, 2]) == 0)
    #expect(CohortRanks.percentileRank(1, in: []) == nil)
  }

  static func run(_ scratch: Scratch) throws -> URL {
    let input = try CohortSegmentsTests.input(scratch, usersCSV: CohortSegmentsTests.usersCSV)
    let pipeline = try CohortSegmentsTests.pipeline(scratch, input: input)
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29", "--quiet"])
    try #require(result.status == 0, "\(result.stderr)")
    return out
  }

  @Test func eachUsersChartSaysTheirRankInTheCohortAndTheirSegment() throws {
    let scratch = try Scratch()
    let out = try Self.run(scratch)
    var ranks: [String: Double] = [:]
    var segments: [String: (value: String?, rank: Double)] = [:]
    for user in ["ana", "ben", "cy", "dee", "eve"] {
      let data = try Data(contentsOf: out.appendingPathComponent("users/\(user)/volume.json"))
      let chart = try JSONSerialization.jsonObject(with: data) as! [String: Any]
      ranks[user] = ((chart["cohortRank"] as! [String: Any])["sessions"] as! [NSNumber]).last!.doubleValue
      let segment = chart["segmentRank"] as! [String: Any]
      #expect(segment["groupBy"] as? String == "plan")
      segments[user] = (
        segment["value"] as? String,
        ((segment["rank"] as! [String: Any])["sessions"] as! [NSNumber]).last!.doubleValue
      )
      // The ranks and the cohort rows are the last members, after the cohort's axis, in the order
      // the encoder writes; the rows last.
      let text = String(decoding: data, as: UTF8.self)
      #expect(text.hasSuffix("\n  ]\n}\n"))
      #expect(text.range(of: "\"cohortYAxis\"")!.lowerBound < text.range(of: "\"cohortRank\"")!.lowerBound)
      #expect(text.range(of: "\"segmentRank\"")!.lowerBound < text.range(of: "\"cohortRows\"")!.lowerBound)
      // Monday weeks: each bucket joins the row of its own id.
      let buckets = (chart["buckets"] as! [[String: Any]]).map { $0["id"] as! String }
      #expect(chart["cohortRows"] as? [String] == buckets)
    }
    #expect(ranks == ["cy": 10, "ana": 30, "dee": 50, "ben": 70, "eve": 90])
    #expect(segments["ana"]! == ("A", 25))
    #expect(segments["ben"]! == ("A", 75))
    #expect(segments["cy"]! == ("B", 50))
    #expect(segments["dee"]! == (nil, 25))
    #expect(segments["eve"]! == (nil, 75))
  }

  @Test func theUsersPageDrawsTheirLineOverTheCohortsBand() throws {
    let scratch = try Scratch()
    let out = try Self.run(scratch)
    let page = try String(contentsOf: out.appendingPathComponent("report/users/ana.html"), encoding: .utf8)
    #expect(page.contains("<section class=\"chart place\" id=\"place-volume\"><h2>Volume among 5 users</h2>"))
    #expect(page.contains("the orange line ana"))
    #expect(page.contains(": percentile rank 30</figcaption>"))
    // Placed once, between the two comments that let a merge place it again.
    #expect(page.components(separatedBy: "<!--cohort:volume-->").count == 2)
    #expect(page.components(separatedBy: "id=\"place-volume\"").count == 2)
    // No staged page is left once placed.
    let pages = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("report/users").path)
    #expect(pages.sorted() == ["ana.html", "ben.html", "cy.html", "dee.html", "eve.html"])
  }

  @Test func aShardedRunRanksAndDrawsTheSame() throws {
    let scratch = try Scratch()
    let whole = try Self.run(scratch)
    let input = scratch.url.appendingPathComponent("in")
    let pipeline = scratch.url.appendingPathComponent("p.json")
    let sharded = scratch.url.appendingPathComponent("sharded")
    for index in 0..<2 {
      let shard = try runTrendline([
        "run", pipeline.path, "--input", input.path, "--output", sharded.path, "--as-of", "2025-11-29",
        "--shard", "\(index)/2",
      ])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    #expect(try runTrendline(["merge", "--output", sharded.path, sharded.path]).status == 0)
    for folder in ["users", "report"] {
      #expect(try ShardingTests.files(sharded, under: folder) == ShardingTests.files(whole, under: folder), "\(folder)")
    }
    // Merging again places the same figures, not a second copy.
    #expect(try runTrendline(["merge", "--output", sharded.path, sharded.path]).status == 0)
    #expect(try ShardingTests.files(sharded, under: "report") == ShardingTests.files(whole, under: "report"))
  }
}
