import Foundation
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages

/// The cohort values of a run (or of several shards), chart by chart, and the cohort files
/// they reduce to. The one path from users' charts to `cohort/<chart>.json`, used by `run` and
/// by `merge` alike, so a sharded run cannot come out different from a single one.
struct CohortGatherer: Sendable {
  let compare: Compare
  var series: [String: Compare.SeriesPart] = [:]
  var radar: [String: Compare.RadarPart] = [:]

  /// Empty parts for every compared chart, so a chart no user reached still gets a file
  /// (an empty cohort), not a silent gap.
  init(pipeline: Pipeline) {
    let settings = pipeline.compare
    compare = Compare(
      quantiles: settings?.quantiles ?? [], rankMeasure: settings?.rankMeasure, rankTop: settings?.rankTop ?? 0)
    for name in settings?.charts ?? [] {
      guard let chart = pipeline.charts.first(where: { $0.name == name }) else { continue }
      switch chart.kind {
      case .series(let bucket, _, _):
        series[name] = .init(range: bucket.range, granularity: bucket.resolvedGranularity, measures: bucket.measures)
      case .radar(let definition):
        radar[name] = .init(period: definition.period, axes: definition.axes.map { .init(id: $0.id, label: $0.label) })
      case .heatmap, .sparkline:
        continue
      }
    }
  }

  /// An empty gatherer for merging partials, which carry their charts with them.
  init(compare: Compare) {
    self.compare = compare
  }

  /// Whether chart `name` is compared, so its output must be kept after the user's files are written.
  func compares(_ name: String) -> Bool { series[name] != nil || radar[name] != nil }

  mutating func add(_ output: ChartOutput, chart: String) {
    switch output {
    case .series(let value) where series[chart] != nil:
      series[chart] = compare.add(value, to: series[chart])
    case .radar(let value) where radar[chart] != nil:
      radar[chart] = compare.add(value, period: radar[chart]!.period, to: radar[chart])
    default:
      break
    }
  }

  mutating func merge(_ partial: CohortPartial) {
    for (name, part) in partial.series {
      series[name] = series[name].map { compare.merge($0, part) } ?? part
    }
    for (name, part) in partial.radar {
      radar[name] = radar[name].map { compare.merge($0, part) } ?? part
    }
  }

  /// The cohort files, name → bytes, in a stable order.
  func outputs(asOf: String) throws -> [(name: String, data: Data)] {
    var files: [(String, Data)] = []
    for name in series.keys.sorted() {
      files.append((name, try OutputWriter.encode(compare.reduce(series[name]!, chart: name, asOf: asOf), timeZone: .gmt)))
    }
    for name in radar.keys.sorted() {
      files.append((name, try OutputWriter.encode(compare.reduce(radar[name]!, chart: name, asOf: asOf), timeZone: .gmt)))
    }
    return files
  }
}
