import Foundation
import TrendlineSchema

/// Distinct sessions per fixed axis for the most recent calendar periods (SPEC 5 and 9.10).
///
/// An axis counts *sessions*, not sets or exercises: one session of rows, shrugs and back
/// extensions is one Back session, so a long workout does not outweigh a week of short ones. It
/// does not check that the axes cover the catalog; ``AxisCoverageValidator`` does that when the
/// pipeline is loaded, before any input is read.
public struct Radar: Sendable, Equatable {
  /// A spoke and the muscle groups it counts. Axes are matched by id, not by name: the catalog's
  /// names are English and renaming one must not silently empty an axis.
  public struct Axis: Sendable, Equatable {
    public var id: String
    public var label: String
    public var muscleGroupIds: [Int]

    public init(id: String, label: String, muscleGroupIds: [Int]) {
      self.id = id
      self.label = label
      self.muscleGroupIds = muscleGroupIds
    }
  }

  public var period: Granularity
  /// How many periods, the last containing as-of.
  public var periods: Int
  /// In spoke order: spoke 0 at the top, then clockwise.
  public var axes: [Axis]
  /// Catalog ids deliberately on no axis.
  public var excluded: [Int]

  public init(period: Granularity, periods: Int, axes: [Axis], excluded: [Int] = []) {
    precondition(periods >= 1, "a radar shows at least one period, not \(periods)")
    self.period = period
    self.periods = periods
    self.axes = axes
    self.excluded = excluded
  }

  /// The radar of `sessions` (sorted by start) for `user`'s chart `chart` as of `asOf`.
  ///
  /// `scale` divides by the largest count over every axis and period of this output, so two
  /// months' polygons share one maximum; it is 0 everywhere when nothing was counted.
  /// `unmappedExercises` lists, over these periods, each exercise whose sets had no muscle
  /// groups, with its number of distinct sessions, most first, then by name: the sessions the
  /// axes could not see.
  ///
  /// - Complexity: O(*p* + *n* × (log *p* + *s*)), where *p* is `periods`, *n* the number of
  ///   sessions and *s* the number of sets per session. No calendar call: ``Periods`` needs a
  ///   few time-zone look-ups.
  public func apply(
    _ sessions: [Session], calendar: UserCalendar, asOf: Int64, user: String, chart: String
  ) -> RadarOutput {
    let periods = Periods(period, last: self.periods, through: asOf, calendar: calendar)
    // Which axes an id counts towards. Validation allows one, but an unvalidated radar with an
    // id on two axes still counts it on both rather than picking one silently.
    var axesOfGroup: [Int: [Int]] = [:]
    for (index, axis) in axes.enumerated() {
      for id in Set(axis.muscleGroupIds) { axesOfGroup[id, default: []].append(index) }
    }
    var counts = [[Int]](repeating: [Int](repeating: 0, count: axes.count), count: periods.count)
    var sessionCounts = [Int](repeating: 0, count: periods.count)
    var unmapped: [String: Int] = [:]
    var hit = [Bool](repeating: false, count: axes.count)
    for session in sessions where session.start <= asOf {
      guard let index = periods.index(containing: session.start) else { continue }
      sessionCounts[index] += 1
      for axis in hit.indices { hit[axis] = false }
      for id in session.muscleGroupIds {
        for axis in axesOfGroup[id] ?? [] { hit[axis] = true }
      }
      for axis in hit.indices where hit[axis] { counts[index][axis] += 1 }
      for name in Set(session.sets.lazy.filter(\.isUnmapped).map(\.exercise)) {
        unmapped[name, default: 0] += 1
      }
    }
    let largest = counts.joined().max() ?? 0
    let outputPeriods = (0..<periods.count).map { index in
      RadarOutput.Period(
        start: Date(epochSeconds: periods.start(index)),
        end: Date(epochSeconds: periods.end(index)),
        partial: index == periods.count - 1, sessions: sessionCounts[index], counts: counts[index],
        scale: counts[index].map { largest == 0 ? 0 : Double($0) / Double(largest) })
    }
    let unmappedExercises = unmapped.map {
      RadarOutput.UnmappedExercise(name: $0.key, sessions: $0.value)
    }
    .sorted { ($0.sessions, $1.name) > ($1.sessions, $0.name) }
    return RadarOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName,
      asOf: Date(epochSeconds: asOf),
      axes: axes.map { RadarOutput.Axis(id: $0.id, label: $0.label) }, periods: outputPeriods,
      unmappedExercises: unmappedExercises)
  }
}
