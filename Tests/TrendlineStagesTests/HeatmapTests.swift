import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct HeatmapTests {
  @Test func distinctSessionsPerGroupInCatalogOrder() {
    // Catalog order is 4, 1, 2 (not by id), and the output keeps it. Weeks (Monday, UTC) of 10
    // and 17 November; as-of Thursday 20 November.
    // Week of 10 Nov: one session trains chest (4) twice and upper back (1) → 4: 1, 1: 1;
    //   another trains upper back → 1: 2.
    // Week of 17 Nov: chest, chest, chest in three sessions → 4: 3; id 9 is not in the catalog
    //   and is not shown.
    // Largest count 3: intensities 1/3, 2/3, 0 and 1, 0, 0.
    let catalog = Catalog(
      muscleGroups: [
        .init(id: 4, name: "Chest"), .init(id: 1, name: "Upper Back"), .init(id: 2, name: "Traps"),
      ],
      exercises: [])
    let bench = trained("Bench Press", [4], kg: 60, reps: 10)
    let sessions = [
      session("2025-11-11T18:00:00Z", [bench, bench, trained("Row", [1], kg: 60, reps: 10)]),
      session("2025-11-13T18:00:00Z", [trained("Row", [1], kg: 60, reps: 10)]),
      session("2025-11-17T18:00:00Z", [bench]), session("2025-11-18T18:00:00Z", [bench]),
      session("2025-11-19T18:00:00Z", [bench, trained("Neck Curl", [9], kg: 5, reps: 20)]),
    ]
    let output = Heatmap(period: .week, periods: 2)
      .apply(
        sessions, catalog: catalog, calendar: utc, asOf: at("2025-11-20T23:59:59Z"), user: "ada",
        chart: "body")
    #expect(
      output.periods == [
        HeatmapOutput.Period(
          id: "2025-11-10", start: date("2025-11-10T00:00:00Z"), end: date("2025-11-17T00:00:00Z"), partial: false,
          groups: [
            .init(id: 4, name: "Chest", sessions: 1, intensity: 1.0 / 3.0),
            .init(id: 1, name: "Upper Back", sessions: 2, intensity: 2.0 / 3.0),
            .init(id: 2, name: "Traps", sessions: 0, intensity: 0),
          ],
          // Trained groups only, most sessions first: Upper Back's 2 before Chest's 1.
          label: "Week of 10 Nov 2025: Upper Back 2, Chest 1"),
        HeatmapOutput.Period(
          id: "2025-11-17", start: date("2025-11-17T00:00:00Z"), end: date("2025-11-24T00:00:00Z"), partial: true,
          groups: [
            .init(id: 4, name: "Chest", sessions: 3, intensity: 1),
            .init(id: 1, name: "Upper Back", sessions: 0, intensity: 0),
            .init(id: 2, name: "Traps", sessions: 0, intensity: 0),
          ], label: "Week of 17 Nov 2025 (so far): Chest 3"),
      ])
    #expect(output.schema == "trendline/heatmap@1")
    // Chest's 3 in the week under way is the largest count, and that week, trained, is shown.
    #expect(output.largest == 3)
    #expect(output.shownPeriod == 1)
  }

  @Test func nothingTrainedIsZeroIntensityNotADivisionByZero() {
    let catalog = Catalog(muscleGroups: [.init(id: 1, name: "Upper Back")], exercises: [])
    let output = Heatmap(period: .month, periods: 1)
      .apply(
        [], catalog: catalog, calendar: oslo, asOf: at("2025-11-20T23:59:59+01:00"), user: "ada",
        chart: "body")
    #expect(
      output.periods.map(\.groups) == [
        [.init(id: 1, name: "Upper Back", sessions: 0, intensity: 0)]
      ])
    #expect(output.periods.first?.start == date("2025-11-01T00:00:00+01:00"))
  }
}
