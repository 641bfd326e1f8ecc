import Foundation
import Testing
import _TrendlineTestSupport

/// `compare.weekStart`: the cohort of users whose weeks start on different days.
///
/// mona's weeks start on Monday, sunny's on Sunday (`users.csv`). mona trained on Sunday
/// 23 November 2025 and Monday 24 November, sunny on Sunday 23 November (all UTC).
/// - By default each user's week joins the row of the Monday week holding its start (SPEC 11.9):
///   mona's weeks of 17 and 24 November are rows 17 and 24 November with one session each;
///   sunny's week of Sunday 23 November is in the Monday week of 17 November and joins that
///   row, never the later one. So row 17: 2 active of 2 users, sessions 1 and 1; row 24:
///   1 active, sessions 1 (mona).
/// - Aligned to Sunday, mona's sessions are bucketed again into Sunday weeks: both fall in the
///   week of 23 November, so there is one row, 23 November: mona 2 sessions, sunny 1; mean 1.5.
///   mona's own chart keeps her Monday weeks.
@Suite struct CohortWeekStartTests {
  typealias Scratch = ContainmentTests.Scratch

  static func strong(_ dates: [String]) -> String {
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
      + dates.map { "\($0) 10:00:00,\"A\",1h,\"Squat (Barbell)\",1,100,5,0,0,,,\n" }.joined()
  }

  func cohort(weekStart: String?) throws -> (rows: [[String: Any]], mona: [String]) {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(["2025-11-23", "2025-11-24"]), to: "in/mona.csv")
    try scratch.write(Self.strong(["2025-11-23"]), to: "in/sunny.csv")
    try scratch.write("user,timeZone,firstWeekday\nmona,UTC,monday\nsunny,UTC,sunday\n", to: "in/users.csv")
    let align = weekStart.map { #", "weekStart": "\#($0)""# } ?? ""
    let pipeline = try scratch.write(
      """
      {
        "version": 1, "name": "weeks",
        "source": {"input": "\(input.path)", "catalog": "\(ContainmentTests.catalog)"},
        "charts": {"volume": [{"bucket": {"range": "1m", "granularity": "week", "measures": ["sessions"]}}]},
        "compare": {"charts": ["volume"], "quantiles": [0.5]\(align)}
      }
      """, to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2025-11-29", "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    func json(_ path: String) throws -> [String: Any] {
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(path))) as! [String: Any]
    }
    let rows = try json("cohort/volume.json")["buckets"] as! [[String: Any]]
    let mona = try (json("users/mona/volume.json")["buckets"] as! [[String: Any]]).map { $0["id"] as! String }
    return (rows, mona)
  }

  func sessions(_ row: [String: Any]) -> [String: Double] {
    ((row["values"] as! [String: Any])["sessions"] as! [String: Any]).mapValues { ($0 as! NSNumber).doubleValue }
  }

  @Test func byDefaultEachWeekJoinsTheMondayWeekHoldingItsStart() throws {
    let (rows, mona) = try cohort(weekStart: nil)
    #expect(rows.map { $0["date"] as! String } == ["2025-11-17", "2025-11-24"])
    #expect(rows.map { $0["active"] as! Int } == [2, 1])
    #expect(sessions(rows[0])["mean"] == 1)
    #expect(sessions(rows[0])["max"] == 1)
    #expect(sessions(rows[1])["max"] == 1)
    #expect(mona == ["2025-11-17", "2025-11-24"])
  }

  @Test func alignedToSundayEveryUsersWeeksAreBucketedAgain() throws {
    let (rows, mona) = try cohort(weekStart: "sunday")
    #expect(rows.map { $0["date"] as! String } == ["2025-11-23"])
    #expect(rows.map { $0["active"] as! Int } == [2])
    #expect(sessions(rows[0])["mean"] == 1.5)
    #expect(sessions(rows[0])["max"] == 2)
    #expect(mona == ["2025-11-17", "2025-11-24"])
  }
}
