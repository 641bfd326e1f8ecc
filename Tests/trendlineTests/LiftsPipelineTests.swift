import Foundation
import Testing
import _TrendlineTestSupport

/// `Pipelines/lifts.json` end to end on SampleData: filters, per-exercise measures, records and
/// a streak, with values checked against the user's export by hand.
@Suite struct LiftsPipelineTests {
  func json(_ url: URL) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  @Test func giuliaOnTheTwentyNinthOfNovember() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-lifts-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let result = try runTrendline([
      "run", TestPaths.pipelines.appendingPathComponent("lifts.json").path, "--as-of", "2026-11-29", "--output",
      output.path, "--quiet",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let user = output.appendingPathComponent("users/giulia")
    // Weekly sessions from 19 Oct: 4, 3, 3, 3, 3, and 0 in the week of 23 Nov, which as-of's
    // Sunday finishes (SPEC 11.9): a complete week that missed the target ends the streak.
    let streak = try json(user.appendingPathComponent("twice-a-week.json"))
    #expect(streak["schema"] as? String == "trendline/streak@1")
    #expect((streak["current"] as? [String: Any])?["length"] as? Int == 0)
    #expect(streak["met"] as? Int == 10)
    #expect(streak["complete"] as? Int == 27)
    // Bench press: her heaviest set is 50 kg × 8 on 23 October.
    let records = try json(user.appendingPathComponent("big-three-records.json"))
    let exercises = try #require(records["exercises"] as? [[String: Any]])
    #expect(
      exercises.map { $0["exercise"] as? String } == ["Bench Press (Barbell)", "Deadlift (Barbell)", "Squat (Barbell)"])
    let top = try #require(exercises[0]["topSetKg"] as? [String: Any])
    #expect(top["value"] as? Double == 50)
    #expect(top["at"] as? String == "2026-10-23T17:40:00+02:00")
    // A month with no bench press has no e1RM: null, never 0 (SPEC 10.3).
    let bench = try json(user.appendingPathComponent("bench-e1rm.json"))
    let buckets = try #require(bench["buckets"] as? [[String: Any]])
    let august = try #require(buckets.first { ($0["start"] as? String)?.hasPrefix("2026-08-01") == true })
    let augustValues = try #require(august["values"] as? [String: Any])
    #expect(augustValues.keys.sorted() == ["e1rmKg", "topSetKg"])
    #expect(augustValues.values.allSatisfy { $0 is NSNull })
    let november = try #require(buckets.last?["values"] as? [String: Double])
    #expect(november == ["e1rmKg": 58.5, "topSetKg": 45])
    #expect(FileManager.default.fileExists(atPath: user.appendingPathComponent("twice-a-week.svg").path))
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("cohort/bench-e1rm.json").path))
  }
}
