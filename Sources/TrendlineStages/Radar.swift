import Foundation
import TrendlineSchema
import TrendlineSupport

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
      // By index, then by name: an unmapped name has one entry (it has no muscle groups).
      for index in Set(session.sets.lazy.map(\.exercise).filter { session.exercises[Int($0)].isUnmapped }) {
        unmapped[session.exercises[Int(index)].name, default: 0] += 1
      }
    }
    let largest = counts.joined().max() ?? 0
    let dates = RFC3339.Formatter(timeZone: calendar.timeZone)
    let outputPeriods = (0..<periods.count).map { index in
      let (start, end) = (periods.start(index), periods.end(index))
      let partial = periods.isPartial(index, asOf: asOf)
      return RadarOutput.Period(
        id: dates.localDate(start),
        start: Date(epochSeconds: start), end: Date(epochSeconds: end), partial: partial,
        elapsed: partial ? Extent.elapsed(start: start, end: end, asOf: asOf) : 1,
        sessions: sessionCounts[index], counts: counts[index],
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

extension Radar: SessionChartStage {
  public static let key = "radar"
  public static let summary =
    "Distinct sessions per fixed axis of muscle groups for the latest periods; axes must cover the catalog (SPEC 5)."
  public static let reads: [StageData] = [.sessions]
  public static let produces = StageData.chart
  static let parameterKeys = ["period", "periods", "axes", "excluded"]
  static let axisKeys = ["id", "label", "muscleGroupIds"]

  /// `{"period", "periods", "axes": [{"id", "label", "muscleGroupIds"}], "excluded"}`, then the
  /// coverage check against the catalog: every catalog id on exactly one axis or excluded.
  ///
  /// - Complexity: O(*a* × *g* + *c*) for *a* axes of *g* ids and a catalog of *c* groups.
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Radar? {
    let reader = context.reader
    guard
      let members = reader.object(value, at: path, keys: parameterKeys, required: ["period", "periods", "axes"])
    else {
      return nil
    }
    let period: Granularity? = members["period"].flatMap {
      reader.choice($0, at: path.appending("period"), what: "period")
    }
    let periods = members["periods"].flatMap {
      reader.integer($0, at: path.appending("periods"), in: 1...Periods.maxShown, what: "periods")
    }
    var axes: [Axis] = []
    var axesValid = false
    if let value = members["axes"], let elements = reader.array(value, at: path.appending("axes"), nonEmpty: true) {
      axesValid = true
      for (index, element) in elements.enumerated() {
        let axisPath = path.appending("axes").appending(index)
        guard let axis = reader.object(element, at: axisPath, keys: axisKeys, required: axisKeys) else {
          axesValid = false
          continue
        }
        let id = axis["id"].flatMap { reader.string($0, at: axisPath.appending("id"), nonEmpty: true) }
        let label = axis["label"].flatMap { reader.string($0, at: axisPath.appending("label"), nonEmpty: true) }
        let groupIds = axis["muscleGroupIds"].flatMap {
          reader.muscleGroupIds($0, at: axisPath.appending("muscleGroupIds"))
        }
        if let id, let label, let groupIds {
          axes.append(Axis(id: id, label: label, muscleGroupIds: groupIds))
        } else {
          axesValid = false
        }
      }
    }
    var excluded: [Int]? = []
    if let value = members["excluded"] {
      excluded = reader.muscleGroupIds(value, at: path.appending("excluded"))
    }
    guard let period, let periods, axesValid, let excluded else { return nil }
    let radar = Radar(period: period, periods: periods, axes: axes, excluded: excluded)
    guard let catalog = context.catalog else { return radar }  // The catalog's own problem is reported.
    let location = reader.location(of: path)
    let problems = AxisCoverageValidator(catalog: catalog).validate(radar, path: path.description)
    for var problem in problems {
      problem.location = location
      reader.report(problem, sortedAt: path)
    }
    return problems.isEmpty ? radar : nil
  }

  public var settings: [String] {
    var lines = ["period \(period.rawValue), periods \(periods), \(axes.count) axes"]
    for axis in axes {
      lines.append("\(axis.id) '\(axis.label)': \(axis.muscleGroupIds.map(String.init).joined(separator: ", "))")
    }
    lines.append("excluded: \(excluded.isEmpty ? "none" : excluded.map(String.init).joined(separator: ", "))")
    return lines
  }

  /// ``apply(_:calendar:asOf:user:chart:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:calendar:asOf:user:chart:)``.
  public func apply(_ sessions: [Session], in context: ChartContext) -> ChartOutput {
    ChartOutput(
      apply(sessions, calendar: context.calendar, asOf: context.asOf, user: context.user, chart: context.chart))
  }
}

/// What makes a radar: the stage registry reaches this stage through its kind (``StagedChartKind``).
extension RadarOutput: StagedChartKind {
  public static var stage: any StageUnit.Type { Radar.self }
}
