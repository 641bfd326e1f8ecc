import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// A loaded and checked pipeline file (SPEC 6): where the exports are, how to read them, and
/// the charts to compute for every user.
///
/// Only a ``PipelineLoader`` makes one, after every check has passed, so a `Pipeline` is
/// always runnable: paths are resolved against the pipeline file, the catalog is loaded, and
/// every radar covers the catalog.
public struct Pipeline: Sendable, Equatable {
  public var version: Int
  public var name: String
  /// The pipeline file, and the SHA-256 of its bytes for the manifest.
  public var file: URL
  public var contentHash: String
  public var source: Source
  /// Charts in the order the file lists them.
  public var charts: [Chart]
  public var compare: Compare?
  public var output: Output
  /// `asOf`: the date (or instant) a pipeline over a fixed set of exports is read as of, as
  /// `--as-of` gives it, which wins over it; nil (the usual) for today. A pipeline of sample or
  /// archived data states the day its data ends, so that a run on any later day does not open
  /// on empty periods.
  public var asOf: String?
  /// `layout`: where users are in the input and the output folders, `flat` (SPEC 2 and 7)
  /// or `partitioned` below a hash prefix, for inputs of millions of users (``UserLayout``).
  public var layout = UserLayout.flat

  public struct Source: Sendable, Equatable {
    public var input: URL
    /// `source.catalog`, the pipeline's own catalog file; nil when the pipeline uses the
    /// built-in one (``Catalog/builtIn``).
    public var catalogFile: URL?
    public var catalog: Catalog
    public var format: ExportReader.FormatChoice
    /// `source.defaults`: what a user gets where neither the file nor `users.csv` says.
    public var defaults: UserSettings
    public var warmupSets: WarmupPolicy
    /// `source.csv`, required with `format: csv`.
    public var csv: MappedCSVLayout?
    /// `source.users`: a settings table to read instead of `users.csv` in the input folder;
    /// `nil` means that one, if present. Like `input`, it is read by the runner, not the loader.
    public var users: URL?
    /// `source.limits`: the bounds on what one input file may cost (size, field, columns,
    /// JSON depth).
    public var limits: ReadLimits = ReadLimits()
  }

  /// `compare` (SPEC 6): which charts to compare across users, and how.
  public struct Compare: Sendable, Equatable {
    public var charts: [String]
    public var quantiles: [Double]
    public var rankMeasure: Measure?
    public var rankTop: Int
    /// `compare.weekStart`: weekly cohorts re-bucket every user's weeks to start on this day.
    /// Nil (the default): each user's week joins the row of the Monday week holding its start.
    public var weekStart: Weekday? = nil
    /// `compare.groupBy`: a column of `users.csv` whose values split the cohort into segments.
    public var groupBy: String? = nil
  }

  public struct Output: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable { case json, svg, html, tables }
    public var formats: [Format]
  }

  /// What a user's options for reading come to, shared by every user of a run.
  public var readOptions: UserReader.Options {
    UserReader.Options(
      format: source.format, layout: source.csv, lookup: ExerciseLookup(catalog: source.catalog),
      warmupSets: source.warmupSets, limits: source.limits)
  }
}

/// One named chart: a chain of stages that ends in one output, checked by the kinds each stage
/// declares (``StageUnit/reads`` and ``StageUnit/produces``) when the pipeline was loaded.
///
/// The stages are kept as the file lists them, so `validate` prints the chain as written and
/// ``run(_:in:)`` is the one place stages are composed.
public struct Chart: Sendable, Equatable {
  public var name: String
  /// In file order: any `filter`s, then either `bucket` and the series stages or one stage
  /// that makes a chart from sessions.
  public var stages: [any StageUnit]

  public init(name: String, stages: [any StageUnit]) {
    self.name = name
    self.stages = stages
  }

  public static func == (left: Chart, right: Chart) -> Bool {
    left.name == right.name && left.stages.count == right.stages.count
      && zip(left.stages, right.stages).allSatisfy { $0.isEqual(to: $1) }
  }

  /// The chart's bucket stage, when it is a series or built on one.
  public var bucket: Bucket? { stage(Bucket.self) }
  /// The chart's radar, when it is one.
  public var radar: Radar? { stage(Radar.self) }
  /// A series' bands, which its output states for what is drawn from it.
  public var bands: ValueBands? { stage(ValueBands.self) }

  /// Whether the chart's output is a `trendline/series@2`: its chain ends in a series, which
  /// the implicit emit writes.
  public var isSeries: Bool {
    guard let last = stages.last else { return false }
    return type(of: last).produces != .chart
  }

  /// The kind of the chart's output: the last stage's, or a series when the implicit emit writes it.
  public var outputKind: any ChartKind.Type {
    stages.last.flatMap { StageRegistry.kind(madeBy: type(of: $0)) } ?? SeriesOutput.self
  }

  /// What the output is called in `validate`: `series`, `radar`, …
  public var outputName: String { outputKind.kindName }

  /// The measures the chart counts, those of its bucket stage; none for a chart built on sessions.
  public var measures: [Measure] { bucket?.measures ?? [] }

  /// Whether a series chart's output carries trends: a stage of its chain draws one.
  public var hasTrend: Bool { stages.contains { type(of: $0).produces == .trend } }

  /// The stage keys of this chart in order, as `validate` prints them.
  public var stageNames: [String] { stages.map { type(of: $0).key } }

  private func stage<Unit: StageUnit>(_ unit: Unit.Type) -> Unit? {
    for stage in stages { if let match = stage as? Unit { return match } }
    return nil
  }

  /// Why the chart cannot be run for a user's sessions, or nil (``BucketingStage/sizeProblem(_:in:)``).
  ///
  /// - Complexity: O(1) for the stages Trendline has.
  public func sizeProblem(_ sessions: [Session], in context: ChartContext) -> String? {
    for case let stage as any BucketingStage in stages {
      if let problem = stage.sizeProblem(sessions, in: context) { return "chart '\(name)': " + problem }
    }
    return nil
  }

  /// Runs the chart's stages over one user's sessions: the one place stages are composed.
  ///
  /// Sessions flow through the session stages, into the bucketing stage, through the series
  /// stages, and out through the implicit emit; a stage that makes a chart of its own ends the
  /// chain. The loader checked the chain, so every stage finds the data it reads.
  ///
  /// - Parameters:
  ///   - sessions: the user's sessions, sorted by start.
  /// - Complexity: that of the chart's stages, about O(*n* + *p*) for *n* sessions and *p*
  ///   periods.
  public func run(_ sessions: [Session], in context: ChartContext) -> ChartOutput {
    // Every output states the user's units; the values stay in kilograms and metres.
    composed(sessions, in: context).with(units: context.units)
  }

  private func composed(_ sessions: [Session], in context: ChartContext) -> ChartOutput {
    var sessions = sessions
    var series: BucketedSeries?
    for stage in stages {
      switch stage {
      case let stage as any SessionStage:
        sessions = stage.apply(sessions, in: context)
      case let stage as any BucketingStage:
        series = stage.apply(sessions, in: context)
      case let stage as any SeriesStage:
        series = stage.apply(checked(series, before: stage))
      case let stage as any SessionChartStage:
        return stage.apply(sessions, in: context)
      case let stage as any SeriesChartStage:
        return stage.apply(checked(series, before: stage), in: context)
      default:
        preconditionFailure("stage '\(type(of: stage).key)' adopts none of the apply protocols")
      }
    }
    return ChartOutput(
      Emit().apply(
        checked(series, before: nil), user: context.user, chart: name, calendar: context.calendar,
        units: context.units, bands: bands))
  }

  private func checked(_ series: BucketedSeries?, before stage: (any StageUnit)?) -> BucketedSeries {
    guard let series else {
      preconditionFailure(
        "chart '\(name)' was loaded with no bucket before \(stage.map { "'\(type(of: $0).key)'" } ?? "its end")")
    }
    return series
  }
}
