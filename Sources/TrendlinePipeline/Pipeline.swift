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
  }

  public struct Output: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable { case json, svg, html }
    public var formats: [Format]
  }

  /// What a user's options for reading come to, shared by every user of a run.
  public var readOptions: UserReader.Options {
    UserReader.Options(
      format: source.format, layout: source.csv, lookup: ExerciseLookup(catalog: source.catalog),
      warmupSets: source.warmupSets, limits: source.limits)
  }
}

/// One named chart: a stage chain that ends in one output.
public struct Chart: Sendable, Equatable {
  public var name: String
  public var kind: Kind
  /// A series' `bands` element: labelled value levels for the drawn chart (SVG and HTML
  /// only; the JSON output does not change). Always `nil` for other kinds.
  ///
  /// A field beside `kind` rather than a fourth associated value of `.series`, so code that
  /// matches `.series(bucket, fillGaps:, smooth:)` is unaffected by a drawing-only setting.
  public var bands: ValueBands?

  public enum Kind: Sendable, Equatable {
    /// `bucket`, then optionally `fillGaps` and `smooth`, emitted as a series.
    case series(Bucket, fillGaps: FillGaps?, smooth: Smooth?)
    case radar(Radar)
    case heatmap(Heatmap)
    case sparkline(Sparkline)
  }

  public init(name: String, kind: Kind, bands: ValueBands? = nil) {
    self.name = name
    self.kind = kind
    self.bands = bands
  }

  /// The stage names of this chart in order, as `validate` prints them.
  public var stageNames: [String] {
    switch kind {
    case .series(_, let fillGaps, let smooth):
      return ["bucket"] + (fillGaps == nil ? [] : ["fillGaps"]) + (smooth == nil ? [] : ["smooth"])
        + (bands == nil ? [] : ["bands"])
    case .radar: return ["radar"]
    case .heatmap: return ["heatmap"]
    case .sparkline: return ["sparkline"]
    }
  }

  /// Why the chart cannot be run for a user's sessions, or nil (``Bucket/sizeProblem(_:calendar:asOf:)``).
  public func sizeProblem(_ sessions: [Session], calendar: UserCalendar, asOf: Int64) -> String? {
    guard case .series(let bucket, _, _) = kind else { return nil }
    return bucket.sizeProblem(sessions, calendar: calendar, asOf: asOf).map { "chart '\(name)': " + $0 }
  }

  /// Runs the chart's stages over one user's sessions: the one place stages are composed.
  ///
  /// - Parameters:
  ///   - sessions: the user's sessions, sorted by start.
  ///   - asOf: the instant the user's as-of resolves to.
  /// - Complexity: that of the chart's stages, about O(*n* + *p*) for *n* sessions and *p*
  ///   periods.
  public func run(
    _ sessions: [Session], user: String, calendar: UserCalendar, asOf: Int64, catalog: Catalog
  ) -> ChartOutput {
    switch kind {
    case .series(let bucket, let fillGaps, let smooth):
      var series = bucket.apply(sessions, calendar: calendar, asOf: asOf)
      if let fillGaps { series = fillGaps.apply(series) }
      if let smooth { series = smooth.apply(series) }
      return .series(Emit().apply(series, user: user, chart: name, calendar: calendar))
    case .radar(let radar):
      return .radar(radar.apply(sessions, calendar: calendar, asOf: asOf, user: user, chart: name))
    case .heatmap(let heatmap):
      return .heatmap(
        heatmap.apply(sessions, catalog: catalog, calendar: calendar, asOf: asOf, user: user, chart: name))
    case .sparkline(let sparkline):
      return .sparklines(sparkline.apply(sessions, calendar: calendar, asOf: asOf, user: user, chart: name))
    }
  }
}

/// A chart's result, one of the SPEC 7 schemas.
public enum ChartOutput: Sendable, Equatable {
  case series(SeriesOutput)
  case radar(RadarOutput)
  case heatmap(HeatmapOutput)
  case sparklines(SparklinesOutput)

  /// The JSON bytes written to `<chart>.json`.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the output.
  public func encoded(timeZone: TimeZone) throws -> Data {
    switch self {
    case .series(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .radar(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .heatmap(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .sparklines(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    }
  }
}
