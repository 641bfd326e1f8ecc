import Foundation
import Testing
import _TrendlineTestSupport

/// `compare.groupBy`: the cohort per segment of users, the values of a `users.csv` column.
///
/// Five users trained in the week of 23 November 2025 (UTC, Monday weeks): ana 2 sessions and
/// ben 4 (plan A), cy 1 (plan B), dee 3 (plan cell blank) and eve 5 (not in users.csv). So:
/// - plan A: 2 users, sessions mean (2 + 4) / 2 = 3, 2 active;
/// - plan B: 1 user, mean 1;
/// - unknown (dee and eve, listed last, `value` null): 2 users, mean (3 + 5) / 2 = 4;
/// - every user: 5, mean 15 / 5 = 3.
/// The segments share the y axis of their largest value, 5 sessions, as every user's cohort has:
/// five labels need a step of at least 5 / 4 = 1.25, so 2, and an axis to 8.
@Suite struct CohortSegmentsTests {
  typealias Scratch = ContainmentTests.Scratch

  static func strong(sessions: Int) -> String {
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
      + (0..<sessions).map { "2025-11-2\($0 + 4) 10:00:00,\"A\",1h,\"Squat (Barbell)\",1,100,5,0,0,,,\n" }.joined()
  }

  static func input(_ scratch: Scratch, usersCSV: String?) throws -> URL {
    for (user, sessions) in [("ana", 2), ("ben", 4), ("cy", 1), ("dee", 3), ("eve", 5)] {
      try scratch.write(strong(sessions: sessions), to: "in/\(user).csv")
    }
    if let usersCSV { try scratch.write(usersCSV, to: "in/users.csv") }
    return scratch.url.appendingPathComponent("in")
  }

  static func pipeline(_ scratch: Scratch, input: URL, groupBy: String = "plan") throws -> URL {
    try scratch.write(
      """
      {
        "version": 1, "name": "segments",
        "source": {"input": "\(input.path)", "catalog": "\(ContainmentTests.catalog)"},
        "charts": {"volume": [{"bucket": {"range": "1m", "granularity": "week", "measures": ["sessions"]}}]},
        "compare": {"charts": ["volume"], "quantiles": [0.5], "groupBy": "\(groupBy)"},
        "output": {"formats": ["json", "html"]}
      }
      """, to: "p.json")
  }

  static let usersCSV = "user,timeZone,plan\nana,UTC,A\nben,UTC,A\ncy,UTC,B\ndee,UTC,\neve_not_here,UTC,A\n"

  func json(_ url: URL) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
  }

  @Test func eachSegmentHasTheCohortsStatisticsOnOneScale() throws {
    let scratch = try Scratch()
    let input = try Self.input(scratch, usersCSV: Self.usersCSV)
    let pipeline = try Self.pipeline(scratch, input: input)
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29", "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")

    let file = try json(out.appendingPathComponent("cohort/segments/volume.json"))
    #expect(file["schema"] as? String == "trendline/cohort-segments@1")
    #expect(file["groupBy"] as? String == "plan")
    let segments = file["segments"] as! [[String: Any]]
    #expect(segments.map { $0["value"] as? String } == ["A", "B", nil])
    let cohorts = segments.map { $0["cohort"] as! [String: Any] }
    #expect(cohorts.map { $0["users"] as! Int } == [2, 1, 2])
    func lastRow(_ cohort: [String: Any]) -> [String: Any] { (cohort["buckets"] as! [[String: Any]]).last! }
    func mean(_ cohort: [String: Any]) -> Double {
      let values = lastRow(cohort)["values"] as! [String: Any]
      return ((values["sessions"] as! [String: Any])["mean"] as! NSNumber).doubleValue
    }
    #expect(cohorts.map(mean) == [3, 1, 4])
    #expect(cohorts.map { lastRow($0)["active"] as! Int } == [2, 1, 2])

    let whole = try json(out.appendingPathComponent("cohort/volume.json"))
    #expect(whole["users"] as! Int == 5)
    #expect(mean(whole) == 3)
    let axis = { (cohort: [String: Any]) in
      ((cohort["yAxis"] as! [String: Any])["sessions"] as! [String: Any])["domain"] as! [String: Double]
    }
    #expect(axis(whole) == ["min": 0, "max": 8])
    #expect(cohorts.map(axis) == Array(repeating: ["min": 0, "max": 8], count: 3))

    let report = try String(contentsOf: out.appendingPathComponent("report/index.html"), encoding: .utf8)
    #expect(report.contains("<h2>volume by plan</h2>"))
    #expect(report.contains("<figcaption>unknown · 2 users</figcaption>"))

    // Split over two shards and merged: the same bytes.
    let sharded = scratch.url.appendingPathComponent("sharded")
    for shard in ["0/2", "1/2"] {
      let run = try runTrendline(
        ["run", pipeline.path, "--output", sharded.path, "--shard", shard, "--as-of", "2025-11-29", "--quiet"])
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(try runTrendline(["merge", "--output", sharded.path, sharded.path]).status == 0)
    #expect(
      try Data(contentsOf: sharded.appendingPathComponent("cohort/segments/volume.json"))
        == Data(contentsOf: out.appendingPathComponent("cohort/segments/volume.json")))
  }

  /// The column is checked where users.csv is read, before any user runs: missing, absent
  /// with its file, too long a value, too many values.
  @Test(arguments: [
    (
      "user,timeZone\nana,UTC\n" as String?,
      "users.csv:1:1: error: the header has no 'plan' column, which compare.groupBy names; add it"
    ),
    (nil, "compare.groupBy names a column of users.csv, and the input has none"),
    (
      "user,plan\nana,\(String(repeating: "x", count: 65))\n",
      "users.csv:2:1: error: the segment 'xxxxxxxx"
    ),
    (
      "user,plan\n" + (0..<101).map { "u\($0),p\($0)\n" }.joined(),
      "the 'plan' column holds more values than the 100 segments compare.groupBy allows"
    ),
  ])
  func aColumnThatCannotBeSegmentsStopsTheRun(usersCSV: String?, message: String) throws {
    let scratch = try Scratch()
    let input = try Self.input(scratch, usersCSV: usersCSV)
    let pipeline = try Self.pipeline(scratch, input: input)
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29"])
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users").path))
  }

  @Test func theColumnNameIsCheckedWithThePipeline() throws {
    let scratch = try Scratch()
    let input = try Self.input(scratch, usersCSV: Self.usersCSV)
    let pipeline = try Self.pipeline(scratch, input: input, groupBy: "user")
    let result = try runTrendline(["validate", pipeline.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("groupBy names a column of users.csv, 1 to 64 bytes of text other than 'user'"))
  }
}
