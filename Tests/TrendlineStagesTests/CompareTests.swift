import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

/// A weekly series with one bucket per (start, sessions, volume) triple.
private func series(_ user: String, zone: String, _ buckets: [(String, Double, Double)]) -> SeriesOutput {
  let extent = Extent(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 0))
  return SeriesOutput(
    user: user, chart: "volume", timeZone: zone, asOf: date("2025-11-29T23:59:59Z"), range: .threeMonths,
    granularity: .week, measures: [.sessions, .volumeKg], domain: extent,
    buckets: buckets.map { start, sessions, volume in
      .init(
        id: String(start.prefix(10)), start: date(start), end: date(start), partial: false,
        sessions: Int(sessions), values: [.sessions: sessions, .volumeKg: volume], bar: extent)
    },
    average: [:])
}

/// Values 10, 1, 4, 2, 3 sorted are [1, 2, 3, 4, 10]; with h = (n − 1) × q = 4q:
/// p25 → h = 1 → 2; p50 → h = 2 → 3; p75 → h = 3 → 4; p90 → h = 3.6 → 4 + 0.6 × (10 − 4) = 7.6.
/// Mean 20 / 5 = 4. In binary floating point 7.6 comes out as 7.6000000000000005, exactly as
/// `numpy.quantile([1, 2, 3, 4, 10], 0.9)` prints it.
@Test func quantilesAndMeanOnAHandWorkedExample() {
  let compare = Compare()
  let stats = compare.stats([10, 1, 4, 2, 3].sorted())!
  #expect(stats.n == 5)
  #expect(stats.mean == 4)
  #expect(stats.min == 1)
  #expect(stats.max == 10)
  #expect(stats.quantiles.map(\.name) == ["p25", "p50", "p75", "p90"])
  #expect(stats.quantiles.map(\.value) == [2, 3, 4, 7.6000000000000005])
  // Two values [1, 3]: p25 → h = 0.25 → 1.5; p90 → h = 0.9 → 2.8.
  #expect(Compare.quantile([1, 3], 0.25) == 1.5)
  #expect(Compare.quantile([1, 3], 0.9) == 2.8)
}

/// A user in Oslo and one in New York whose weeks start on Monday 24 November land in one
/// row, although their weeks start six hours apart; a Sunday-first user's week of
/// 23 November joins the row of the Monday week holding its start, 17 November, never the
/// later one (SPEC 11.9).
@Test func usersInDifferentZonesShareALocalDateBucket() {
  let compare = Compare(rankMeasure: .volumeKg, rankTop: 2)
  var part = compare.add(series("oslo", zone: "Europe/Oslo", [("2025-11-24T00:00:00+01:00", 2, 100)]), to: nil)
  part = compare.add(series("ny", zone: "America/New_York", [("2025-11-24T00:00:00-05:00", 4, 300)]), to: part)
  part = compare.add(series("sunday", zone: "America/New_York", [("2025-11-23T00:00:00-05:00", 3, 200)]), to: part)
  let cohort = compare.reduce(part, chart: "volume", asOf: "2025-11-29").cohort
  #expect(cohort.users == 3)
  #expect(cohort.buckets.map(\.date) == ["2025-11-17", "2025-11-24"])
  #expect(cohort.buckets.map(\.n) == [1, 2])
  #expect(cohort.buckets[0].values[.sessions]?.mean == 3)  // the Sunday user alone
  #expect(cohort.buckets[1].values[.sessions]?.mean == 3)  // (2 + 4) / 2
  #expect(cohort.buckets[1].values[.volumeKg]?.quantile("p50") == 200)  // (100 + 300) / 2
  // The largest volume is 300: five labels need a step of at least 300 / 4 = 75, so 80 and an
  // axis to 320; three labels 150 (0, 150, 300). Sessions reach 4: a step of 1, an axis to 4.
  #expect(cohort.yAxis[.volumeKg]?.domain == AxisDomain(min: 0, max: 320))
  #expect(cohort.yAxis[.volumeKg]?.ticks[3]?.map(\.value) == [0, 150, 300])
  #expect(cohort.yAxis[.sessions]?.domain == AxisDomain(min: 0, max: 4))
  #expect(cohort.ranking?.users.map(\.user) == ["ny", "sunday"])
}

/// Active users, the weekly-active figure: a user is active in a row when they had a session
/// in it. Three users over two weeks with gaps filled (every user has both rows, n = 3):
/// ana trained both weeks, ben only the second, cy neither (the zeros `fillGaps` puts back).
/// Week 17 Nov: ana → 1 of 3 users; week 24 Nov: ana and ben → 2 of 3. Split over two parts
/// (shards), the rows are the same.
@Test func activeUsersPerRowAndTheirShareOfTheCohort() {
  let compare = Compare()
  let weeks = ("2025-11-17T00:00:00Z", "2025-11-24T00:00:00Z")
  let ana = series("ana", zone: "UTC", [(weeks.0, 2, 100), (weeks.1, 1, 50)])
  let ben = series("ben", zone: "UTC", [(weeks.0, 0, 0), (weeks.1, 3, 90)])
  let cy = series("cy", zone: "UTC", [(weeks.0, 0, 0), (weeks.1, 0, 0)])
  let whole = compare.reduce(
    compare.add(cy, to: compare.add(ben, to: compare.add(ana, to: nil))), chart: "volume", asOf: "2025-11-29"
  ).cohort
  #expect(whole.buckets.map(\.n) == [3, 3])
  #expect(whole.buckets.map(\.active) == [1, 2])
  let shares: [Double] = [1.0 / 3, 2.0 / 3]
  #expect(whole.buckets.map(\.activeShare) == shares)
  let split = compare.reduce(
    compare.merge(compare.add(ana, to: nil), compare.add(cy, to: compare.add(ben, to: nil))), chart: "volume",
    asOf: "2025-11-29"
  ).cohort
  #expect(split == whole)
}

/// A one-user cohort: every statistic is that user's value.
@Test func oneUserCohort() {
  let compare = Compare()
  let part = compare.add(series("solo", zone: "UTC", [("2025-11-24T00:00:00Z", 3, 120)]), to: nil)
  let stats = compare.reduce(part, chart: "volume", asOf: "2025-11-29").cohort.buckets[0].values[.volumeKg]!
  #expect(
    stats
      == CohortStats(
        n: 1, mean: 120, min: 120, max: 120,
        quantiles: [
          .init(name: "p25", value: 120), .init(name: "p50", value: 120), .init(name: "p75", value: 120),
          .init(name: "p90", value: 120),
        ]))
}

/// An empty cohort (no user succeeded): no rows, the smallest axis, no statistics.
@Test func emptyCohort() {
  let compare = Compare(rankMeasure: .volumeKg)
  let empty = Compare.SeriesPart(range: .threeMonths, granularity: .week, measures: [.volumeKg])
  let cohort = compare.reduce(empty, chart: "volume", asOf: "2025-11-29").cohort
  #expect(cohort.users == 0)
  #expect(cohort.buckets == [])
  // Nothing to reach: the smallest axis, one kilogram a label.
  #expect(cohort.yAxis[.volumeKg]?.domain == AxisDomain(min: 0, max: 4))
  #expect(cohort.ranking?.users == [])
  // Statistics of no value are unknown, not 0 (SPEC 10.3).
  #expect(compare.stats([]) == nil)
}

/// Split the same users into two parts in either order: merging gives the same cohort.
@Test func mergingPartsDoesNotDependOnOrder() {
  let compare = Compare(rankMeasure: .sessions, rankTop: 1)
  let a = compare.add(series("a", zone: "UTC", [("2025-11-24T00:00:00Z", 0.1, 1)]), to: nil)
  let b = compare.add(series("b", zone: "UTC", [("2025-11-24T00:00:00Z", 0.2, 2)]), to: nil)
  let c = compare.add(series("c", zone: "UTC", [("2025-11-24T00:00:00Z", 0.7, 3)]), to: nil)
  let one = compare.reduce(compare.merge(compare.merge(a, b), c), chart: "v", asOf: "x").cohort
  let other = compare.reduce(compare.merge(c, compare.merge(b, a)), chart: "v", asOf: "x").cohort
  #expect(one == other)
  #expect(one.ranking?.users.map(\.user) == ["c"])
}

/// A top-three ranking of two users who lifted and one who did not lists two: "idle" with
/// 0 kg is no top user, though only two users did more.
@Test func theRankingListsNoOneWhoDidNothing() {
  let compare = Compare(rankMeasure: .volumeKg, rankTop: 3)
  var part = compare.add(series("idle", zone: "UTC", [("2025-11-24T00:00:00Z", 0, 0)]), to: nil)
  part = compare.add(series("ana", zone: "UTC", [("2025-11-24T00:00:00Z", 1, 500)]), to: part)
  part = compare.add(series("ben", zone: "UTC", [("2025-11-24T00:00:00Z", 2, 800)]), to: part)
  let cohort = compare.reduce(part, chart: "volume", asOf: "2025-11-29").cohort
  #expect(cohort.users == 3)
  #expect(cohort.ranking?.users.map(\.user) == ["ben", "ana"])
  #expect(cohort.ranking?.users.map(\.value) == [800, 500])
}

/// A best's shared axis is fitted around every user's values, a total's runs from 0 (SPEC
/// 11.8): e1RMs of 100 and 112.5 kg over two weeks give 95 … 115 (the rule worked out in
/// `YAxisTests.aBestIsFittedAroundItsValues`); sessions of 2 and 3, 0 … 4.
@Test func aBestsCohortAxisIsFittedAroundEveryUsersValues() {
  let compare = Compare()
  func best(_ user: String, _ e1rm: Double, sessions: Double) -> SeriesOutput {
    var output = series(user, zone: "UTC", [("2025-11-24T00:00:00Z", sessions, 0)])
    output.measures = [.sessions, .e1rmKg]
    output.buckets[0].values = [.sessions: sessions, .e1rmKg: e1rm]
    return output
  }
  let cohort = compare.reduce(
    compare.add(best("ben", 112.5, sessions: 3), to: compare.add(best("ana", 100, sessions: 2), to: nil)),
    chart: "bench", asOf: "2025-11-29"
  ).cohort
  #expect(cohort.yAxis[.e1rmKg]?.domain == AxisDomain(min: 95, max: 115))
  #expect(cohort.yAxis[.sessions]?.domain == AxisDomain(min: 0, max: 4))
}
