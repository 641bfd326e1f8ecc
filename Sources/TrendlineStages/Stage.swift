import TrendlineSchema
import TrendlineSupport

/// What flows from one stage of a chart to the next: the kinds a stage declares it reads and
/// produces, by which the loader checks any chain.
///
/// A chain starts with a user's `sessions`. It ends in a finished `chart`, or in a series
/// (`buckets`, `trend` or `banded`) that the implicit emit turns into `trendline/series@2`.
public enum StageData: String, Sendable, CaseIterable {
  /// A user's sessions, sorted by start.
  case sessions
  /// Counted calendar periods, with no trend yet.
  case buckets
  /// Counted periods with a trend line through them.
  case trend
  /// A series with value bands to draw; nothing computes after it.
  case banded
  /// A finished output; nothing follows it.
  case chart

  /// How a diagnostic names the data: "'smooth' reads buckets, but the chart holds sessions here".
  public var phrase: String {
    switch self {
    case .sessions: return "sessions"
    case .buckets: return "buckets"
    case .trend: return "buckets with a trend"
    case .banded: return "a series with bands"
    case .chart: return "a finished chart"
    }
  }

  /// Whether a chain may end holding this: a series is emitted, a chart is written, sessions
  /// alone are not a chart.
  public var endsAChart: Bool { self != .sessions }
}

/// A stage as a unit: its key in the pipeline file, its parameters and their checks, what it
/// reads and produces, and the one line `validate` shows. One file per stage declares all of it,
/// so adding a stage is its file, its test, its guide and a line in the registry.
///
/// What a stage computes is declared by the one of the apply protocols it adopts
/// (``SessionStage``, ``BucketingStage``, ``SeriesStage``, ``SessionChartStage``,
/// ``SeriesChartStage``), which must agree with ``reads`` and ``produces``; the registry's test
/// checks that they do.
public protocol StageUnit: Sendable, Equatable {
  /// The stage's key in a chart's array, `{"smooth": {…}}`; also its name in diagnostics.
  static var key: String { get }
  /// One line on what it does, for `validate --stages` and the pipeline guide.
  static var summary: String { get }
  /// The kinds of data it accepts.
  static var reads: [StageData] { get }
  static var produces: StageData { get }
  /// Whether a chart may hold it more than once (filters narrow further); most may not.
  static var repeatable: Bool { get }
  /// Reads and checks the stage's parameters, the value under its key, recording each problem
  /// with `context.reader`; `nil` when any was wrong.
  static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Self?
  /// The effective parameters, defaults filled in, as `validate` prints them: the first line
  /// follows `key: `, further lines are details under it.
  var settings: [String] { get }
}

extension StageUnit {
  public static var repeatable: Bool { false }

  /// Whether `other` is the same stage with the same parameters.
  ///
  /// - Complexity: that of `==`.
  public func isEqual(to other: any StageUnit) -> Bool { (other as? Self) == self }
}

/// What a stage's parameters are checked against, besides themselves.
public struct StageReadContext {
  public var reader: ParameterReader
  /// The pipeline's catalog; `nil` when it could not be loaded (that problem is reported
  /// once, at `source.catalog`).
  public var catalog: Catalog?
  /// The measures of the bucket stage earlier in the chain, when there was a valid one: a
  /// stage that names a measure the chart does not count would silently never show it.
  public var measures: [Measure]?

  public init(reader: ParameterReader, catalog: Catalog?, measures: [Measure]?) {
    self.reader = reader
    self.catalog = catalog
    self.measures = measures
  }
}

/// Who and when a chart is computed for.
public struct ChartContext: Sendable {
  public var user: String
  public var chart: String
  public var calendar: UserCalendar
  /// The instant the user's as-of resolves to.
  public var asOf: Int64
  public var catalog: Catalog
  /// The units the user reads (SPEC 10.8). Stages compute in kilograms and metres whatever
  /// these are; `Chart.run` states them on the output, for what is drawn from it.
  public var units: Units

  public init(
    user: String, chart: String, calendar: UserCalendar, asOf: Int64, catalog: Catalog, units: Units = .metric
  ) {
    self.user = user
    self.chart = chart
    self.calendar = calendar
    self.asOf = asOf
    self.catalog = catalog
    self.units = units
  }
}

/// Sessions → sessions: narrows what later stages see.
public protocol SessionStage: StageUnit {
  func apply(_ sessions: [Session], in context: ChartContext) -> [Session]
}

/// Sessions → buckets: counts sessions into calendar periods.
public protocol BucketingStage: StageUnit {
  func apply(_ sessions: [Session], in context: ChartContext) -> BucketedSeries
  /// Why the stage cannot run for these sessions (the output would be unreasonably large), or nil.
  func sizeProblem(_ sessions: [Session], in context: ChartContext) -> String?
}

/// Buckets → buckets: reshapes or annotates a series.
public protocol SeriesStage: StageUnit {
  func apply(_ series: BucketedSeries) -> BucketedSeries
}

/// Sessions → a chart of its own schema, whose kind names the stage (``StagedChartKind``).
public protocol SessionChartStage: StageUnit {
  func apply(_ sessions: [Session], in context: ChartContext) -> ChartOutput
}

/// Buckets → a chart of its own schema, whose kind names the stage (``StagedChartKind``).
public protocol SeriesChartStage: StageUnit {
  func apply(_ series: BucketedSeries, in context: ChartContext) -> ChartOutput
}

/// A chart kind made by a stage of its own. The conformance is declared in the stage's file, and
/// the stage registry takes the stage of every kind in ``ChartKinds/all`` that has one, so a new
/// kind is one line in that list, not a second in the registry: a kind whose stage was not
/// registered would be decoded and drawn, and no pipeline file could make it. A series has no
/// such stage: the implicit emit writes it.
public protocol StagedChartKind: ChartKind {
  /// The stage that makes outputs of this kind; it adopts ``SessionChartStage`` or ``SeriesChartStage``.
  static var stage: any StageUnit.Type { get }
}
