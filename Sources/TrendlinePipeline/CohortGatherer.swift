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
  public private(set) var series: [String: Compare.SeriesPart] = [:]
  public private(set) var radar: [String: Compare.RadarPart] = [:]

  /// Empty parts for every compared chart, so a chart no user reached still gets a file
  /// (an empty cohort), not a silent gap.
  public init(pipeline: Pipeline) {
    let settings = pipeline.compare
    compare = Compare(
      quantiles: settings?.quantiles ?? [], rankMeasure: settings?.rankMeasure, rankTop: settings?.rankTop ?? 0,
      weekStart: settings?.weekStart)
    for name in settings?.charts ?? [] {
      guard let chart = pipeline.charts.first(where: { $0.name == name }) else { continue }
      if chart.isSeries, let bucket = chart.bucket {
        series[name] = .init(range: bucket.range, granularity: bucket.resolvedGranularity, measures: bucket.measures)
      } else if let definition = chart.stages.last as? Radar {
        radar[name] = .init(period: definition.period, axes: definition.axes.map { .init(id: $0.id, label: $0.label) })
      }
    }
  }

  /// An empty gatherer for merging partials, which carry their charts with them.
  public init(compare: Compare) {
    self.compare = compare
  }

  /// Whether chart `name` is compared, so its output must be kept after the user's files are written.
  public func compares(_ name: String) -> Bool { series[name] != nil || radar[name] != nil }

  /// Adds one user's output of chart `chart`.
  ///
  /// - Complexity: that of ``Compare/add(_:to:)``.
  public mutating func add(_ output: ChartOutput, chart: String) {
    switch output {
    case .series(let value) where series[chart] != nil:
      series[chart] = compare.add(value, to: series[chart])
    case .radar(let value) where radar[chart] != nil:
      radar[chart] = compare.add(value, period: radar[chart]!.period, to: radar[chart])
    default:
      break
    }
  }

  /// Adds what another gatherer (a shard's partial) collected.
  ///
  /// - Complexity: that of ``Compare/merge(_:_:)`` per chart.
  public mutating func merge(series: [String: Compare.SeriesPart], radar: [String: Compare.RadarPart]) {
    for (name, part) in series {
      self.series[name] = self.series[name].map { compare.merge($0, part) } ?? part
    }
    for (name, part) in radar {
      self.radar[name] = self.radar[name].map { compare.merge($0, part) } ?? part
    }
  }

  /// The cohort outputs: series first, then radars, each by name, the order the cohort files
  /// and the report's charts are written in.
  ///
  /// - Complexity: that of ``Compare/reduce(_:chart:asOf:)`` per chart.
  public func reduce(asOf: String) -> [CohortChart] {
    series.keys.sorted().map { .series(compare.reduce(series[$0]!, chart: $0, asOf: asOf)) }
      + radar.keys.sorted().map { .radar(compare.reduce(radar[$0]!, chart: $0, asOf: asOf)) }
  }
}
