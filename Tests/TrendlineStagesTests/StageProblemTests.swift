import Testing
import TrendlineSchema
import TrendlineStages

/// Every stage problem's words, pinned where they are written.
@Suite struct StageProblemTests {
  static let table: [(StageProblem, String)] = [
    (
      .measureNotInBucket(stage: "streak", measure: .sessions, bucket: [.sets, .topSetKg]),
      "'streak' names measure 'sessions', which this chart's bucket does not have. Use one of: sets, topSetKg"
    ),
    (.measureListedTwice(.reps), "measure 'reps' is listed twice. List each measure once"),
    (.tooMany(what: "levels", limit: 12, found: 13), "at most 12 levels, found 13"),
    (.levelShape(found: "a number"), "a level is [from, \"label\"], found a number. Write it as e.g. [3, \"Regular\"]"),
    (
      .levelOutOfRange(found: "2e9"),
      "a level starts between -1000000000 and 1000000000, found 2e9. Give the measure's value where the band begins"
    ),
    (
      .levelsMustRise(found: "1", previous: "3"),
      "levels must rise: 1 does not come after 3. List levels from the lowest value up"
    ),
    (
      .filterNeedsACriterion(keys: ["exercises", "setTypes"]),
      "a filter needs at least one of: exercises, setTypes. Add e.g. \"exercises\": [\"Bench Press\"]"
    ),
    (.nameTooLong(limit: 200, found: 201), "a name is at most 200 characters, found 201"),
    (
      .exerciseNotInCatalog("Bench Pres", nearest: "Bench Press"),
      "exercise 'Bench Pres' is not in the catalog. Did you mean 'Bench Press'?"
    ),
    (
      .exerciseNotInCatalog("Zercher", nearest: nil),
      "exercise 'Zercher' is not in the catalog. Use a catalog name or alias, or add the exercise to source.catalog"
    ),
    (.muscleGroupNotInCatalog(99), "muscle group 99 is not in the catalog. Use an id of source.catalog's muscleGroups"),
    (.windowNotWithEwma, "'window' is not used by method 'ewma'. Remove it; ewma is shaped by 'alpha'"),
    (.ewmaNeedsAlpha, "method 'ewma' needs 'alpha'. Add \"alpha\": a number in (0, 1], e.g. 0.3"),
    (.alphaOutOfRange(found: "1.5"), "alpha must be greater than 0 and at most 1, found 1.5"),
    (.alphaOnlyWithEwma, "'alpha' is only used by method 'ewma'. Remove it, or set \"method\": \"ewma\""),
    (
      .atLeastOutOfRange(found: "0"),
      "atLeast must be greater than 0 and at most 1000000000, found 0. "
        + "Give the value a period must reach, e.g. 2 sessions"
    ),
  ]

  @Test(arguments: table)
  func wording(problem: StageProblem, expected: String) {
    #expect(problem.message + (problem.hint.map { ". " + $0 } ?? "") == expected)
  }
}
