import Foundation
import TrendlineSchema
import TrendlineSupport

/// Distinct sessions per catalog muscle group for the most recent calendar periods (SPEC 5):
/// the data behind an anatomical heat map, where the body is the axis.
///
/// Unlike `Radar` it needs no axes and so no coverage check: every catalog group is its own
/// cell, listed in catalog order in every period, zeros included.
public struct Heatmap: Sendable, Equatable {
  public var period: Granularity
  /// How many periods, the last containing as-of.
  public var periods: Int

  public init(period: Granularity, periods: Int) {
    precondition(periods >= 1, "a heat map shows at least one period, not \(periods)")
    self.period = period
    self.periods = periods
  }

  /// The heat map of `sessions` (sorted by start) against `catalog`'s muscle groups.
  ///
  /// `intensity` divides by the largest count over every group and period of this output, so
  /// periods side by side share one colour scale; it is 0 everywhere when nothing was counted.
  /// Ids a session trained that the catalog does not list are not shown: there is no body
  /// region to paint them on.
  ///
  /// - Complexity: O(*p* × *c* + *n* × (log *p* + *g*)), where *p* is `periods`, *c* the number
  ///   of catalog groups, *n* the number of sessions and *g* the muscle-group ids per session.
  ///   No calendar call: ``Periods`` needs a few time-zone look-ups.
  public func apply(
    _ sessions: [Session], catalog: Catalog, calendar: UserCalendar, asOf: Int64, user: String,
    chart: String
  ) -> HeatmapOutput {
    let periods = Periods(period, last: self.periods, through: asOf, calendar: calendar)
    var column: [Int: Int] = [:]
    for (index, group) in catalog.muscleGroups.enumerated() where column[group.id] == nil {
      column[group.id] = index
    }
    var counts = [[Int]](
      repeating: [Int](repeating: 0, count: catalog.muscleGroups.count), count: periods.count)
    for session in sessions where session.start <= asOf {
      guard let index = periods.index(containing: session.start) else { continue }
      // `muscleGroupIds` is already a set (the union over the session's sets), so each group
      // counts the session once however many of its exercises trained it.
      for id in session.muscleGroupIds {
        if let group = column[id] { counts[index][group] += 1 }
      }
    }
    let largest = counts.joined().max() ?? 0
    let dates = RFC3339.Formatter(timeZone: calendar.timeZone)
    let outputPeriods = (0..<periods.count).map { index in
      HeatmapOutput.Period(
        id: dates.localDate(periods.start(index)),
        start: Date(epochSeconds: periods.start(index)),
        end: Date(epochSeconds: periods.end(index)),
        partial: periods.isPartial(index, asOf: asOf),
        groups: catalog.muscleGroups.enumerated().map { column, group in
          let count = counts[index][column]
          return HeatmapOutput.Group(
            id: group.id, name: group.name, sessions: count,
            intensity: largest == 0 ? 0 : Double(count) / Double(largest))
        })
    }
    return HeatmapOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName,
      asOf: Date(epochSeconds: asOf),
      periods: outputPeriods)
  }
}

extension Heatmap: SessionChartStage {
  public static let key = "heatmap"
  public static let summary =
    "Distinct sessions and an intensity per catalog muscle group for the latest periods (SPEC 5)."
  public static let reads: [StageData] = [.sessions]
  public static let produces = StageData.chart

  /// `{"period": "week", "periods": 4}`.
  ///
  /// - Complexity: O(1).
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Heatmap? {
    let reader = context.reader
    guard
      let members = reader.object(value, at: path, keys: ["period", "periods"], required: ["period", "periods"])
    else {
      return nil
    }
    let period: Granularity? = members["period"].flatMap {
      reader.choice($0, at: path.appending("period"), what: "period")
    }
    let periods = members["periods"].flatMap {
      reader.integer($0, at: path.appending("periods"), in: 1...Periods.maxShown, what: "periods")
    }
    guard let period, let periods else { return nil }
    return Heatmap(period: period, periods: periods)
  }

  public var settings: [String] { ["period \(period.rawValue), periods \(periods)"] }

  /// ``apply(_:catalog:calendar:asOf:user:chart:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:catalog:calendar:asOf:user:chart:)``.
  public func apply(_ sessions: [Session], in context: ChartContext) -> ChartOutput {
    ChartOutput(
      apply(
        sessions, catalog: context.catalog, calendar: context.calendar, asOf: context.asOf, user: context.user,
        chart: context.chart))
  }
}

/// What makes a heat map: the stage registry reaches this stage through its kind (``StagedChartKind``).
extension HeatmapOutput: StagedChartKind {
  public static var stage: any StageUnit.Type { Heatmap.self }
}
