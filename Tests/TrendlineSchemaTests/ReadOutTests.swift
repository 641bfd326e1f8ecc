import Foundation
import Testing
import TrendlineSchema

/// The read-outs and drawing fields of the charts other than the series, worked out by hand:
/// what an app gives a screen reader and draws with, in the user's units.
@Suite struct ReadOutTests {
  @Test func recordsSayEachRecordInTheUsersUnits() throws {
    let bench = OutputFixtures.records.exercises[0]
    #expect(
      bench.records.map(\.label) == [
        "Bench Press: top set 102.5 kg on 3 Nov 2026, up from 100 kg",
        // 350 ÷ 3 = 116.67 kg, read to a tenth.
        "Bench Press: e1RM 116.7 kg on 3 Nov 2026, up from 110 kg",
        "Bench Press: 8 reps at 80 kg on 3 Nov 2026, up from 6",
      ])
    #expect(bench.label == "Bench Press: top set 102.5 kg on 3 Nov 2026 · e1RM 116.7 kg on 3 Nov 2026 · 3 records")
    #expect(OutputFixtures.records.exercises[1].label == "Plank: top set – · e1RM – · 0 records")
    // In pounds: 102.5 kg ÷ 0.45359237 = 225.97 lb, 100 kg = 220.46 lb, 80 kg = 176.37 lb.
    guard
      let pounds = ChartOutput(OutputFixtures.records).with(units: Units(weight: .lb, distance: .mi)).content
        as? RecordsOutput
    else { return #expect(Bool(false)) }
    #expect(pounds.exercises[0].records[0].label == "Bench Press: top set 226 lb on 3 Nov 2026, up from 220.5 lb")
    #expect(pounds.exercises[0].records[2].label == "Bench Press: 8 reps at 176.4 lb on 3 Nov 2026, up from 6")
  }

  @Test func aStreakSaysItsNumbersAndEachPeriod() {
    let streak = OutputFixtures.streak
    // 1 of 3 complete weeks met: 33 %.
    #expect(
      streak.label == "Weeks with at least 2 sessions: current 0 weeks · longest 1 · 33 % of 3 complete weeks met")
    #expect(
      streak.periods.map(\.label) == [
        "2 Nov 2026: 2, met", "9 Nov 2026: 1, missed", "16 Nov 2026: no value, missed",
        // The week under way is not missed yet.
        "23 Nov 2026: 0 so far",
      ])
  }

  @Test func radarAndHeatmapAreDerivedForAnOlderFile() throws {
    // A radar file written before `axisAngles`, `rings` and `label`: decoded, they are worked
    // out as a run writes them. Three spokes are 120° apart.
    let json = """
      {"schema": "trendline/radar@1", "user": "ada", "chart": "r", "timeZone": "UTC",
       "asOf": "2025-11-20T23:59:59Z", "axes": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"},
       {"id": "c", "label": "C"}], "periods": [{"start": "2025-11-01T00:00:00Z", "end": "2025-12-01T00:00:00Z",
       "partial": true, "sessions": 3, "counts": [3, 1, 0], "scale": [1, 0.3333333333333333, 0]}],
       "unmappedExercises": []}
      """
    let radar = try OutputWriter.makeDecoder().decode(RadarOutput.self, from: Data(json.utf8))
    #expect(radar.axisAngles == [0, 120, 240])
    #expect(radar.periods[0].label == "Nov 2025 (so far): A 3, B 1, C 0")
    // Up to 3 sessions: five labels need 4 steps of at least 0.75, so 1, 0 … 4.
    #expect(radar.rings.ticks[5]?.map(\.label) == ["0", "1", "2", "3", "4"])

    let heatmap = """
      {"schema": "trendline/heatmap@1", "user": "ada", "chart": "body", "timeZone": "UTC",
       "asOf": "2025-11-20T23:59:59Z", "periods": [
       {"start": "2025-11-10T00:00:00Z", "end": "2025-11-17T00:00:00Z", "partial": false,
        "groups": [{"id": 1, "name": "Chest", "sessions": 2, "intensity": 1}]},
       {"start": "2025-11-17T00:00:00Z", "end": "2025-11-24T00:00:00Z", "partial": true,
        "groups": [{"id": 1, "name": "Chest", "sessions": 0, "intensity": 0}]}]}
      """
    let decoded = try OutputWriter.makeDecoder().decode(HeatmapOutput.self, from: Data(heatmap.utf8))
    // The week under way has no session yet: the figure shows the week before.
    #expect(decoded.shownPeriod == 0)
    #expect(decoded.largest == 2)
    #expect(
      decoded.periods.map(\.label) == ["Week of 10 Nov 2025: Chest 2", "Week of 17 Nov 2025 (so far): nothing trained"])
  }
}

/// A cohort radar's drawing fields: two spokes, at 0° and 180°; Back's 75th percentile of 4
/// sessions is the largest drawn, so five rings run 0 … 4; each spoke says its median, middle
/// half, mean and users, and a cohort without quartiles says its median alone.
@Suite struct CohortRadarDrawingTests {
  @Test func anglesRingsAndWhatEachSpokeSays() {
    func stats(_ n: Int, mean: Double, _ quartiles: (Double, Double, Double)?) -> CohortStats {
      CohortStats(
        n: n, mean: mean, min: 0, max: 9,
        quantiles: quartiles.map {
          [.init(name: "p25", value: $0.0), .init(name: "p50", value: $0.1), .init(name: "p75", value: $0.2)]
        }
          ?? [])
    }
    let radar = CohortRadarOutput(
      chart: "muscle-balance", asOf: "2026-11-29", period: .month, partial: true, users: 18,
      axes: [
        .init(id: "back", label: "Back", counts: stats(18, mean: 2.9, (0.25, 2, 4))),
        .init(id: "chest", label: "Chest", counts: stats(1, mean: 1, nil)),
      ])
    #expect(radar.axisAngles == [0, 180])
    #expect(radar.largestDrawn == 4)
    #expect(radar.rings.ticks[5]?.map(\.value) == [0, 1, 2, 3, 4])
    #expect(radar.axes[0].readOut == "Back: median 2 sessions, middle half 0.3–4, mean 2.9, 18 users")
    #expect(radar.axes[1].readOut == "Chest: median 1 session, mean 1, 1 user")
  }
}
