import Testing
import TrendlineSchema
import TrendlineStages

@Suite struct FillGapsTests {
  /// 1m by week up to Saturday 28 June 2025 (UTC, Monday weeks): the window starts Wednesday
  /// 28 May, so the weeks of 26 May, 2, 9, 16 and 23 June, the last one a day short of done
  /// (partial). Two sessions in each week except 9 and 16 June: a two-week hole.
  let sessions = [
    session("2025-05-27T09:00:00Z"), session("2025-05-29T09:00:00Z"),
    session("2025-06-03T09:00:00Z"), session("2025-06-05T09:00:00Z"),
    session("2025-06-24T09:00:00Z"), session("2025-06-26T09:00:00Z"),
  ]
  let bucket = Bucket(range: .oneMonth, granularity: .week, measures: [.sessions])

  @Test func twoWeekHoleBecomesTwoZeroBuckets() {
    let raw = bucket.apply(sessions, calendar: utc, asOf: at("2025-06-28T23:59:59Z"))
    // Without filling, the hole is invisible: three adjacent bars.
    #expect(
      raw.buckets.map(\.start) == [
        at("2025-05-26T00:00:00Z"), at("2025-06-02T00:00:00Z"), at("2025-06-23T00:00:00Z"),
      ])
    let filled = FillGaps(with: .zero).apply(raw)
    #expect(
      rows(filled) == [
        Row("2025-05-26T00:00:00Z", "2025-06-02T00:00:00Z", sessions: 2),
        Row("2025-06-02T00:00:00Z", "2025-06-09T00:00:00Z", sessions: 2),
        Row("2025-06-09T00:00:00Z", "2025-06-16T00:00:00Z", sessions: 0),
        Row("2025-06-16T00:00:00Z", "2025-06-23T00:00:00Z", sessions: 0),
        Row("2025-06-23T00:00:00Z", "2025-06-30T00:00:00Z", partial: true, sessions: 2),
      ])
  }

  @Test func centeredMeanDipsThroughTheHole() {
    let raw = bucket.apply(sessions, calendar: utc, asOf: at("2025-06-28T23:59:59Z"))
    // Unfilled, [2, 2, 2] smooths to a flat 2 (the last, partial, from the two before it): the
    // trend lies about the two empty weeks.
    let lying = Smooth(method: .centeredMean, window: 5).apply(raw)
    #expect(lying.buckets.map { $0.trend?[.sessions] } == [2, 2, 2])
    // Filled, [2, 2, 0, 0, 2] with radius 2, the last week (as-of's) no input (SPEC 10.6):
    //   i0: (2+2+0)/3 = 4/3, i1: (2+2+0+0)/4 = 1, i2: (2+2+0+0)/4 = 1,
    //   i3: (2+0+0)/3 = 2/3, i4: (0+0)/2 = 0 — the line dips through the hole, and the week in
    //   progress gets the value of the complete weeks around it.
    let honest = Smooth(method: .centeredMean, window: 5).apply(FillGaps().apply(raw))
    #expect(honest.buckets.map { $0.trend?[.sessions] } == [4.0 / 3.0, 1, 1, 2.0 / 3.0, 0])
    // Smoothing leaves the values alone.
    #expect(honest.buckets.map { $0.values[.sessions] } == [2, 2, 0, 0, 2])
  }

  @Test func fillingAFullSeriesChangesNothing() {
    // Every week already has a bucket: filling is the identity.
    let full = bucket.apply(
      sessions.filter { $0.start < at("2025-06-09T00:00:00Z") } + [
        session("2025-06-10T09:00:00Z"), session("2025-06-17T09:00:00Z"),
        session("2025-06-24T09:00:00Z"),
      ], calendar: utc, asOf: at("2025-06-28T23:59:59Z"))
    #expect(FillGaps().apply(full) == full)
  }
}
