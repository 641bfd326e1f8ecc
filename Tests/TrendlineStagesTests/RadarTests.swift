import Foundation
import Testing
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// A small catalog: ids 1 … 5, with 5 (Forearms) deliberately left off the axes below.
let smallCatalog = Catalog(
  muscleGroups: [
    .init(id: 1, name: "Upper Back"), .init(id: 2, name: "Traps"), .init(id: 3, name: "Lower Back"),
    .init(id: 4, name: "Chest"), .init(id: 5, name: "Forearms"),
  ],
  exercises: [])

let backAndChest = [
  Radar.Axis(id: "back", label: "Back", muscleGroupIds: [1, 2, 3]),
  Radar.Axis(id: "chest", label: "Chest", muscleGroupIds: [4]),
]

@Suite struct RadarTests {
  @Test func oneSessionOfThreeBackExercisesIsOneBackSession() {
    // Rows (upper back), shrugs (traps) and back extensions (lower back) all sit on the Back
    // axis: one session, so Back counts 1, not 3. Chest is untouched.
    let workout = session(
      "2025-11-10T18:00:00Z",
      [
        trained("Barbell Row", [1], kg: 80, reps: 8), trained("Shrug", [2], kg: 100, reps: 10),
        trained("Back Extension", [3], kg: 0, reps: 15),
      ])
    let output = Radar(period: .month, periods: 1, axes: backAndChest, excluded: [5])
      .apply(
        [workout], calendar: utc, asOf: at("2025-11-20T23:59:59Z"), user: "ada", chart: "balance")
    #expect(output.periods.map(\.counts) == [[1, 0]])
    #expect(output.periods.map(\.sessions) == [1])
    #expect(output.periods.map(\.scale) == [[1, 0]])
    #expect(output.axes == [.init(id: "back", label: "Back"), .init(id: "chest", label: "Chest")])
  }

  @Test func twoPeriodsShareOneMaximum() {
    // October: Back in 4 sessions, Chest in 2 (of them). November: Back 1, Chest 2. The largest
    // count over both months is 4, so October scales to [4/4, 2/4] = [1, 0.5] and November to
    // [1/4, 2/4] = [0.25, 0.5]: November's Back spoke is visibly a quarter of October's,
    // which a per-period scale ([0.5, 1]) would hide. A September session is outside both
    // months; a December one is after as-of.
    let back = trained("Row", [1], kg: 60, reps: 10)
    let chest = trained("Bench Press", [4], kg: 60, reps: 10)
    let sessions = [
      session("2025-09-30T18:00:00Z", [back]),
      session("2025-10-02T18:00:00Z", [back, chest]),
      session("2025-10-09T18:00:00Z", [back, chest]),
      session("2025-10-16T18:00:00Z", [back]), session("2025-10-23T18:00:00Z", [back]),
      session("2025-11-03T18:00:00Z", [back]), session("2025-11-05T18:00:00Z", [chest]),
      session("2025-11-07T18:00:00Z", [chest]),
      session("2025-12-01T18:00:00Z", [back, chest]),
    ]
    let output = Radar(period: .month, periods: 2, axes: backAndChest, excluded: [5])
      .apply(
        sessions, calendar: utc, asOf: at("2025-11-20T23:59:59Z"), user: "ada", chart: "balance")
    #expect(
      output.periods == [
        RadarOutput.Period(
          id: "2025-10-01", start: date("2025-10-01T00:00:00Z"), end: date("2025-11-01T00:00:00Z"), partial: false,
          sessions: 4, counts: [4, 2], scale: [1, 0.5], label: "Oct 2025: Back 4, Chest 2"),
        // As-of is the last second of 20 November: 20 of November's 30 days have passed.
        RadarOutput.Period(
          id: "2025-11-01", start: date("2025-11-01T00:00:00Z"), end: date("2025-12-01T00:00:00Z"), partial: true,
          elapsed: 20.0 / 30, sessions: 3, counts: [1, 2], scale: [0.25, 0.5],
          label: "Nov 2025 (so far): Back 1, Chest 2"),
      ])
    // The outer ring: the largest count over every axis and period.
    #expect(output.largest == 4)
    // Two spokes: up, then down (180° clockwise).
    #expect(output.axisAngles == [0, 180])
    // Rings up to 4 sessions: five labels need 4 steps of at least 1, so 0 … 4; three need 2
    // steps of 2, 0 … 4; four need 3 steps of at least 4/3, and a count's step is whole, so 2,
    // 0 … 6; seven need 6 of at least 2/3, so 1, 0 … 6.
    #expect(output.rings.unit == "sessions")
    #expect(output.rings.ticks[5]?.map(\.value) == [0, 1, 2, 3, 4])
    #expect(output.rings.ticks[3]?.map(\.label) == ["0", "2", "4"])
    #expect(output.rings.ticks[4]?.map(\.label) == ["0", "2", "4", "6"])
    #expect(output.rings.ticks[7]?.map(\.label) == ["0", "1", "2", "3", "4", "5", "6"])
  }

  @Test func sessionsCountsEverySessionAndScaleIsZeroWithoutCounts() {
    // A session that trained only Forearms (excluded) and one with nothing mapped: both are
    // sessions of the week (SPEC 9.10), neither reaches an axis, so the largest count is 0 and
    // every scale is 0 rather than 0/0.
    let sessions = [
      session("2025-11-18T18:00:00Z", [trained("Wrist Curl", [5], kg: 10, reps: 15)]),
      session(
        "2025-11-19T18:00:00Z", [trained("Atlas Stone", [], kg: 100, reps: 3, unmapped: true)]),
    ]
    let output = Radar(period: .week, periods: 1, axes: backAndChest, excluded: [5])
      .apply(
        sessions, calendar: utc, asOf: at("2025-11-20T23:59:59Z"), user: "ada", chart: "balance")
    #expect(output.periods.map(\.sessions) == [2])
    #expect(output.periods.map(\.counts) == [[0, 0]])
    #expect(output.periods.map(\.scale) == [[0, 0]])
    // The week of Monday 17 November.
    #expect(output.periods.first?.start == date("2025-11-17T00:00:00Z"))
  }

  @Test func unmappedExercisesByDistinctSessionsThenName() {
    // Over the two months: Yoke in 1 session, Atlas Stone in 2 and Zercher Carry in 2 (twice in
    // one of them, still one session). Most first, then by name: Atlas Stone, Zercher Carry,
    // Yoke. The August Yoke session is outside the periods and is not counted.
    let atlas = trained("Atlas Stone", [], kg: 100, reps: 3, unmapped: true)
    let zercher = trained("Zercher Carry", [], kg: 80, reps: 1, unmapped: true)
    let yoke = trained("Yoke", [], kg: 200, reps: 1, unmapped: true)
    let sessions = [
      session("2025-08-05T18:00:00Z", [yoke]),
      session("2025-10-05T18:00:00Z", [zercher, atlas, zercher]),
      session("2025-11-05T18:00:00Z", [atlas, yoke, trained("Row", [1], kg: 60, reps: 10)]),
      session("2025-11-06T18:00:00Z", [zercher]),
    ]
    let output = Radar(period: .month, periods: 2, axes: backAndChest, excluded: [5])
      .apply(
        sessions, calendar: utc, asOf: at("2025-11-20T23:59:59Z"), user: "ada", chart: "balance")
    #expect(
      output.unmappedExercises == [
        .init(name: "Atlas Stone", sessions: 2), .init(name: "Zercher Carry", sessions: 2),
        .init(name: "Yoke", sessions: 1),
      ])
  }

  @Test func seedAxesCoverTheSeedDesign() {
    // SPEC 6: Back {9, 12, 13, 24, 26}, Glutes {14, 22}, Shoulders {1, 23, 25}, Chest {2}, one id
    // each for Hamstrings, Quadriceps, Biceps, Triceps: 15 ids on axes, 12 of 27 excluded.
    // The single ids (15, 16, 3, 4) are this test's choice; the point is the partition check.
    let catalog = Catalog(
      muscleGroups: (1...27).map { .init(id: $0, name: "Group \($0)") }, exercises: [])
    let axes = [
      Radar.Axis(id: "back", label: "Back", muscleGroupIds: [9, 12, 13, 24, 26]),
      Radar.Axis(id: "glutes", label: "Glutes", muscleGroupIds: [14, 22]),
      Radar.Axis(id: "hamstrings", label: "Hamstrings", muscleGroupIds: [15]),
      Radar.Axis(id: "quadriceps", label: "Quadriceps", muscleGroupIds: [16]),
      Radar.Axis(id: "biceps", label: "Biceps", muscleGroupIds: [3]),
      Radar.Axis(id: "triceps", label: "Triceps", muscleGroupIds: [4]),
      Radar.Axis(id: "shoulders", label: "Shoulders", muscleGroupIds: [1, 23, 25]),
      Radar.Axis(id: "chest", label: "Chest", muscleGroupIds: [2]),
    ]
    let excluded = [5, 6, 7, 8, 10, 11, 17, 18, 19, 20, 21, 27]
    let radar = Radar(period: .month, periods: 2, axes: axes, excluded: excluded)
    #expect(AxisCoverageValidator(catalog: catalog).validate(radar).isEmpty)
  }
}

@Suite struct AxisCoverageValidatorTests {
  @Test(arguments: [
    // (what is wrong, axes, excluded, the exact diagnostics)
    (
      "5 on no axis", backAndChest, [Int](),
      [
        "error: radar: muscle group 5 (Forearms) is on no axis and not excluded at charts.balance[0].radar. Add 5 to "
          + "one axis's muscleGroupIds or to excluded"
      ]
    ),
    (
      "2 on two axes",
      [
        Radar.Axis(id: "back", label: "Back", muscleGroupIds: [1, 2, 3]),
        .init(id: "chest", label: "Chest", muscleGroupIds: [2, 4]),
      ],
      [5],
      [
        "error: radar: muscle group 2 (Traps) is counted more than once, "
          + "on axis 'back' and axis 'chest' at charts.balance[0].radar. Keep 2 on exactly one axis, "
          + "or only in excluded"
      ]
    ),
    (
      "3 on an axis and excluded", backAndChest, [3, 5],
      [
        "error: radar: muscle group 3 (Lower Back) is counted more than once, "
          + "on axis 'back' and excluded at charts.balance[0].radar. Keep 3 on exactly one axis, or only in excluded"
      ]
    ),
    (
      "99 not in the catalog",
      [
        Radar.Axis(id: "back", label: "Back", muscleGroupIds: [1, 2, 3, 99]),
        .init(id: "chest", label: "Chest", muscleGroupIds: [4]),
      ],
      [5],
      [
        "error: radar: muscle group 99 on axis 'back' is not in the catalog at charts.balance[0].radar. Remove 99, "
          + "or add it to the catalog's muscleGroups"
      ]
    ),
    (
      "duplicate and empty axis",
      backAndChest + [.init(id: "chest", label: "Chest again", muscleGroupIds: [])],
      [5],
      [
        "error: radar: axis id 'chest' is used twice at charts.balance[0].radar. Give each axis its own id",
        "error: radar: axis 'chest' lists no muscle groups at charts.balance[0].radar. Give it at least one "
          + "muscle-group id, or remove it",
      ]
    ),
  ])
  func problemsAreNamed(case: String, axes: [Radar.Axis], excluded: [Int], expected: [String]) {
    let radar = Radar(period: .month, periods: 1, axes: axes, excluded: excluded)
    let diagnostics = AxisCoverageValidator(catalog: smallCatalog).validate(
      radar, path: "charts.balance[0].radar")
    #expect(diagnostics.map(\.description) == expected)
  }

  @Test func aNewCatalogGroupFailsLoudly() {
    // The axes partition ids 1 … 5; the catalog gains 6 (Neck). The pipeline must now fail,
    // naming 6, instead of the new group silently missing from every radar.
    var grown = smallCatalog
    grown.muscleGroups.append(.init(id: 6, name: "Neck"))
    let radar = Radar(period: .month, periods: 1, axes: backAndChest, excluded: [5])
    #expect(AxisCoverageValidator(catalog: smallCatalog).problems(radar).isEmpty)
    #expect(
      AxisCoverageValidator(catalog: grown).problems(radar) == [.uncovered(id: 6, name: "Neck")])
  }
}
