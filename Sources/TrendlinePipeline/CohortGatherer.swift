import Foundation
import TrendlineSchema
import TrendlineStages

/// The cohort values of a run (or of several shards), chart by chart, and the cohort outputs
/// they reduce to: the one path from users' charts to `cohort/<chart>.json` and the cohort
/// report, used by `run` and by `merge` alike, so a sharded run cannot come out different from
/// a single one, and the report draws exactly what the JSON says.
///
/// It composes, as the rest of this module does: which charts a cohort gathers follows from
/// their stages (a chain ending in a series, or a radar).
public struct CohortGatherer: Sendable {
  public let compare: Compare
  /// Every user's parts; the parts are mutated in place, never copied per user.
  public private(set) var all = Parts()
  public var series: [String: Compare.SeriesPart] { all.series }
  public var radar: [String: Compare.RadarPart] { all.radar }
  /// `compare.groupBy`: the `users.csv` column whose values are the segments; nil without.
  public let groupBy: String?
  /// Per segment value (``unknownSegment`` for users without one), the same parts as above.
  public private(set) var segments: [String: Parts] = [:]
  /// Every chart's part before any user: what a segment's first user is added to.
  private var empty = Parts()

  /// One set of users' parts, chart by chart.
  public struct Parts: Decodable, Sendable, Equatable {
    public var series: [String: Compare.SeriesPart] = [:]
    public var radar: [String: Compare.RadarPart] = [:]
    public init(series: [String: Compare.SeriesPart] = [:], radar: [String: Compare.RadarPart] = [:]) {
      self.series = series
      self.radar = radar
    }
  }

  /// The key of the users with no value in the `groupBy` column. A value is never empty
  /// (cells are trimmed, and a blank one is this), so it cannot clash with one.
  public static let unknownSegment = ""

  /// Empty parts for every compared chart, so a chart no user reached still gets a file
  /// (an empty cohort), not a silent gap.
  public init(pipeline: Pipeline) {
    let settings = pipeline.compare
    groupBy = settings?.groupBy
    compare = Compare(
      quantiles: settings?.quantiles ?? [], rankMeasure: settings?.rankMeasure, rankTop: settings?.rankTop ?? 0,
      weekStart: settings?.weekStart)
    // By name, once: a search of every chart per compared chart was quadratic in the charts.
    let charts = Dictionary(pipeline.charts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for name in settings?.charts ?? [] {
      guard let chart = charts[name] else { continue }
      if chart.isSeries, let bucket = chart.bucket {
        all.series[name] = .init(
          range: bucket.range, granularity: bucket.resolvedGranularity, measures: bucket.measures)
      } else if let definition = chart.stages.last as? Radar {
        all.radar[name] = .init(
          period: definition.period, axes: definition.axes.map { .init(id: $0.id, label: $0.label) })
      } else {
        // The loader compares only kinds with a cohort role; one that states a role no part
        // gathers would pass `validate` and write no cohort file.
        preconditionFailure("chart '\(name)' is compared, and no cohort part gathers a \(chart.outputName)")
      }
    }
    empty = all
  }

  /// An empty gatherer for merging partials, which carry their charts with them.
  public init(compare: Compare, groupBy: String? = nil) {
    self.compare = compare
    self.groupBy = groupBy
  }

  /// Whether chart `name` is compared, so its output must be kept after the user's files are written.
  public func compares(_ name: String) -> Bool { series[name] != nil || radar[name] != nil }

  /// Adds one user's output of chart `chart`.
  ///
  /// - Complexity: that of ``Compare/add(_:to:)``.
  public mutating func add(_ output: ChartOutput, chart: String, segment: String? = nil) {
    Self.add(output, chart: chart, compare: compare, to: &all)
    guard groupBy != nil else { return }
    let key = segment.flatMap { $0.isEmpty ? nil : $0 } ?? Self.unknownSegment
    Self.add(output, chart: chart, compare: compare, to: &segments[key, default: empty])
  }

  /// Static, with the parts passed in: a method of `self` given `&all` read a copy of `self`
  /// for the call, so every list of values gathered so far was shared and copied once per
  /// user, quadratic in the users.
  private static func add(_ output: ChartOutput, chart: String, compare: Compare, to parts: inout Parts) {
    if let value = output.content as? SeriesOutput, parts.series[chart] != nil {
      compare.add(value, into: &parts.series[chart]!)
    } else if let value = output.content as? RadarOutput, parts.radar[chart] != nil {
      compare.add(value, into: &parts.radar[chart]!)
    }
  }

  /// Adds what another gatherer (a shard's partial) collected.
  ///
  /// - Complexity: that of ``Compare/merge(_:_:)`` per chart.
  public mutating func merge(
    series: [String: Compare.SeriesPart], radar: [String: Compare.RadarPart], segments: [String: Parts] = [:]
  ) {
    merge(Parts(series: series, radar: radar), into: &all)
    for (key, parts) in segments { merge(parts, into: &self.segments[key, default: Parts()]) }
  }

  private func merge(_ other: Parts, into parts: inout Parts) {
    for (name, part) in other.series {
      parts.series[name] = parts.series[name].map { compare.merge($0, part) } ?? part
    }
    for (name, part) in other.radar {
      parts.radar[name] = parts.radar[name].map { compare.merge($0, part) } ?? part
    }
  }

  /// One set of users' cohort outputs, and what their series' users are ranked in.
  public struct Reduction: Sendable {
    /// Series first, then radars, each by name: the order the cohort files and the report's
    /// charts are written in.
    public var charts: [CohortChart]
    /// Per series chart, its values sorted once: the statistics of ``charts`` were read from
    /// them, and each user's ranks are looked up in them.
    public var ranks: [String: CohortRanks]
  }

  /// The cohort of every user.
  ///
  /// - Complexity: that of ``Compare/reduce(_:chart:asOf:)`` per chart.
  public func reduce(asOf: String) -> Reduction {
    reduce(Parts(series: series, radar: radar), asOf: asOf)
  }

  private func reduce(_ parts: Parts, asOf: String) -> Reduction {
    var reduction = Reduction(charts: [], ranks: [:])
    for name in parts.series.keys.sorted() {
      let (cohort, ranks) = compare.reduce(parts.series[name]!, chart: name, asOf: asOf)
      reduction.charts.append(.series(cohort))
      reduction.ranks[name] = ranks
    }
    reduction.charts += parts.radar.keys.sorted().map {
      .radar(compare.reduce(parts.radar[$0]!, chart: $0, asOf: asOf))
    }
    return reduction
  }

  /// Each segment's cohort (``CohortGatherer/Reduction``) with `groupBy`, and their outputs:
  /// per compared chart, its segments side by side.
  public struct SegmentsReduction: Sendable {
    public var outputs: [CohortSegmentsOutput]
    /// Per segment value (``unknownSegment`` for the users with none), its series' ranks.
    public var ranks: [String: [String: CohortRanks]]
  }

  /// Each compared chart's cohort per segment, beside `whole`, the cohort of all users
  /// (``reduce(asOf:)``, reduced once by the caller and given here, not reduced again); empty
  /// without `groupBy`. The segments of a series share one y axis per measure (the largest of
  /// any segment) and one time domain, so side by side they are drawn on one scale.
  ///
  /// - Complexity: that of ``reduce(asOf:)`` per segment.
  public func reduceSegments(of whole: [CohortChart], asOf: String) -> SegmentsReduction {
    guard let groupBy else { return SegmentsReduction(outputs: [], ranks: [:]) }
    // Values in byte order, the unknown segment last.
    let keys =
      segments.keys.filter { $0 != Self.unknownSegment }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      + (segments[Self.unknownSegment] == nil ? [] : [Self.unknownSegment])
    let reduced = keys.map { reduce(segments[$0]!, asOf: asOf) }
    // Each segment's charts are `whole`'s, in its order: a `whole` reduced from other parts
    // would set one chart's segments beside another.
    precondition(
      reduced.allSatisfy { $0.charts.map(\.name) == whole.map(\.name) }, "segments beside another cohort's charts")
    let outputs = whole.enumerated().map { index, whole in
      var cohorts = reduced.map { segment in segment.charts[index] }
      if case .series = whole { cohorts = Self.onOneScale(cohorts) }
      return CohortSegmentsOutput(
        chart: whole.name, asOf: asOf, groupBy: groupBy,
        segments: zip(keys, cohorts).map { .init(value: $0 == Self.unknownSegment ? nil : $0, cohort: $1) })
    }
    return SegmentsReduction(
      outputs: outputs, ranks: Dictionary(uniqueKeysWithValues: zip(keys, reduced.map(\.ranks))))
  }

  /// Series cohorts with one y axis per measure and one domain, those of their values (from 0
  /// for a total, fitted around all of them for a best) and widest extent.
  static func onOneScale(_ cohorts: [CohortChart]) -> [CohortChart] {
    let series = cohorts.compactMap { chart -> CohortSeriesOutput? in
      if case .series(let output) = chart { return output }
      return nil
    }
    guard let first = series.first else { return cohorts }
    var yAxis: [Measure: YAxis] = [:]
    for measure in first.measures {
      let largest = series.flatMap { $0.buckets.compactMap { $0.values[measure]?.max } }.max() ?? 0
      let lowest = series.flatMap { $0.buckets.compactMap { $0.values[measure]?.min } }.min() ?? 0
      yAxis[measure] = YAxis(measure: measure, drawing: lowest, largest, units: .metric)
    }
    let domains = series.compactMap(\.domain)
    let domain =
      domains.isEmpty
      ? nil : Extent(start: domains.map(\.start).min()!, end: domains.map(\.end).max()!)
    return series.map { output in
      var shared = output
      shared.yAxis = yAxis
      shared.domain = domain
      return .series(shared)
    }
  }
}
