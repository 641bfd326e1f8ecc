import Foundation
import Testing
import _TrendlineTestSupport

/// SPEC 10.8 end to end: each user's outputs state their units, the JSON stays in kilograms and
/// metres, and the SVG a person reads is in their units.
@Suite struct UnitsRunTests {
  static func json(_ url: URL) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
  }

  static func text(_ url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  /// ann: `users.csv` says lb, her native export says its weights are kg (100 kg × 10 reps =
  /// 1000 kg of volume = 2204.62 lb, shown "2 205 lb"). ben: a Hevy `weight_lbs` export and no
  /// row, so lb. cat: kilograms, unchanged. dan: a Hevy `distance_miles` export, 2 mi =
  /// 3218.688 m, shown "2 mi".
  @Test func eachUserReadsTheirOwnUnits() throws {
    let scratch = try RunCommandTests.Scratch()
    _ = try scratch.write("user,timeZone,weightUnit\nann,UTC,lb\ncat,UTC,kg\n", to: "in/users.csv")
    _ = try scratch.write(
      """
      {"weightUnit": "kg", "sessions": [{"id": "a", "start": "2026-11-20T18:00:00Z", "name": "Legs",
       "sets": [{"exercise": "Squat (Barbell)", "weight": 100, "reps": 10}]}]}
      """, to: "in/ann.json")
    _ = try scratch.write(
      """
      title,start_time,end_time,exercise_title,set_index,set_type,weight_lbs,reps
      Legs,"20 Nov 2026, 08:40","20 Nov 2026, 09:40",Squat (Barbell),0,normal,225,5
      """, to: "in/ben.csv")
    _ = try scratch.write(
      """
      {"weightUnit": "kg", "sessions": [{"id": "c", "start": "2026-11-20T18:00:00Z", "name": "Legs",
       "sets": [{"exercise": "Squat (Barbell)", "weight": 100, "reps": 10}]}]}
      """, to: "in/cat.json")
    _ = try scratch.write(
      """
      title,start_time,end_time,exercise_title,set_index,set_type,weight_kg,reps,distance_miles,duration_seconds
      Run,"20 Nov 2026, 08:40","20 Nov 2026, 09:40",Running,0,normal,,,2,1200
      """, to: "in/dan.csv")
    let pipeline = try scratch.write(
      """
      {"version": 1, "name": "units", "source": {"input": "in", "catalog": "\(RunCommandTests.catalog)"},
       "charts": {
         "volume": [{"bucket": {"range": "1m", "granularity": "month", "measures": ["volumeKg", "distanceM"]}}],
         "lifts": [{"records": {}}]},
       "output": {"formats": ["json", "svg"]}}
      """, to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let run = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29", "--quiet"])
    #expect(run.status == 0, "\(run.stderr)")
    func user(_ id: String, _ file: String) -> URL { out.appendingPathComponent("users/\(id)/\(file)") }
    let thin = "\u{2009}"

    let ann = try Self.json(user("ann", "volume.json"))
    #expect(ann["units"] as? [String: String] == ["weight": "lb", "distance": "km"])
    let annValues = ((ann["buckets"] as? [[String: Any]])?.last?["values"]) as? [String: Double]
    #expect(annValues?["volumeKg"] == 1000, "the JSON stays in kilograms")
    let annSVG = try Self.text(user("ann", "volume.svg"))
    #expect(annSVG.contains("Nov 2026 (so far): volume 2\(thin)205 lb · distance 0 km"))
    #expect(annSVG.contains(">Volume (lb)</text>"))
    #expect(try Self.text(user("ann", "lifts.svg")).contains(">220.5 lb · 20 Nov 2026</text>"))
    #expect(
      try Self.json(user("ann", "lifts.json"))["units"] as? [String: String] == ["weight": "lb", "distance": "km"])

    #expect(
      try Self.json(user("ben", "volume.json"))["units"] as? [String: String] == ["weight": "lb", "distance": "km"])
    // 225 lb × 5 = 1125 lb.
    #expect(try Self.text(user("ben", "volume.svg")).contains("volume 1\(thin)125 lb"))

    #expect(
      try Self.json(user("cat", "volume.json"))["units"] as? [String: String] == ["weight": "kg", "distance": "km"])
    let catSVG = try Self.text(user("cat", "volume.svg"))
    #expect(catSVG.contains("Nov 2026 (so far): volume 1\(thin)000 kg · distance 0 km"))
    #expect(!catSVG.contains(" lb"))

    #expect(
      try Self.json(user("dan", "volume.json"))["units"] as? [String: String] == ["weight": "kg", "distance": "mi"])
    let danSVG = try Self.text(user("dan", "volume.svg"))
    #expect(danSVG.contains(">Distance (mi)</text>"))
    #expect(danSVG.contains("distance 2 mi"))
  }

  /// SampleData's pound users — ethan, mason, tom and tyler by `users.csv`, uma by her native
  /// export's `"weightUnit": "lb"` — read pounds in every output and every SVG; the others
  /// kilograms.
  @Test func sampleDataPoundUsersSeePounds() throws {
    let scratch = try RunCommandTests.Scratch()
    let out = scratch.url.appendingPathComponent("out")
    let pipeline = TestPaths.pipelines.appendingPathComponent("overview.json").path
    let run = try runTrendline(["run", pipeline, "--output", out.path, "--as-of", "2026-11-29", "--quiet"])
    #expect(run.status == 0, "\(run.stderr)")
    let pounds = ["ethan": "mi", "mason": "mi", "tom": "mi", "tyler": "mi", "uma": "km"]
    for (id, distance) in pounds {
      let folder = out.appendingPathComponent("users/\(id)")
      for chart in ["training-volume", "muscle-balance", "exercise-trends", "muscle-heatmap"] {
        let units = try Self.json(folder.appendingPathComponent("\(chart).json"))["units"] as? [String: String]
        #expect(units == ["weight": "lb", "distance": distance], "\(id)/\(chart)")
      }
      let volume = try Self.text(folder.appendingPathComponent("training-volume.svg"))
      #expect(volume.contains(">Volume (lb)</text>"), "\(id)")
      // tom's exports end in June: his window is idle and says so, with no average to draw.
      #expect(volume.contains(id == "tom" ? "No sessions in the 3 months up to" : " lb</text>"), "\(id)")
      #expect(!volume.contains("kg"), "\(id)")
      let trends = try Self.text(folder.appendingPathComponent("exercise-trends.svg"))
      // tom's exports end in June: no line in the window, and nothing in kilograms either.
      #expect(trends.contains(id == "tom" ? "No sessions in the 91 days up to" : " lb</text>"), "\(id)")
      #expect(!trends.contains(" kg"), "\(id)")
      let page = try Self.text(out.appendingPathComponent("report/users/\(id).html"))
      #expect(page.contains("weights in lb, distances in \(distance)"), "\(id)")
    }
    let ingrid = try Self.text(out.appendingPathComponent("users/ingrid/training-volume.svg"))
    #expect(ingrid.contains(">Volume (kg)</text>") && !ingrid.contains(" lb"))
    #expect(
      try Self.json(out.appendingPathComponent("users/ingrid/training-volume.json"))["units"] as? [String: String]
        == ["weight": "kg", "distance": "km"])
  }
}
