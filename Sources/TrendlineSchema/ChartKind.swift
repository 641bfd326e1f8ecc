import Foundation

/// A kind of user chart as a unit: the output type of one SPEC 7 schema declares, beside
/// itself, everything the rest of Trendline needs to know about it — its schema id, the name
/// `validate` calls it by, its units, its table's columns and rows — and ``ChartKinds/all``
/// lists it once. The loader, runner, tables and decoder reach a kind only through this
/// protocol, so a new kind is its stage, its output, its renderer, its test, its guide and a
/// line in ``ChartKinds``, and no `switch` anywhere lists the kinds (a `default:` in such a
/// switch once gave a new kind's table the series' header, and no test noticed).
public protocol ChartKind: Sendable, Equatable, Decodable, OutputWritable {
  /// `trendline/radar@1`: the `schema` member of its files, which picks the type that decodes them.
  static var schemaID: String { get }
  /// What `validate` and the pipeline file's errors call the kind: `series`, `radar`, …
  static var kindName: String { get }
  /// The columns of the chart's table (`tables/<chart>.csv`); a series names its `measures`,
  /// with their trends when it is smoothed (`trend`), and the other kinds ignore both.
  static func tableColumns(measures: [Measure], trend: Bool) -> [String]

  /// The chart's name from the pipeline file.
  var chart: String { get }
  /// The user the chart is of.
  var user: String { get }
  /// The units everything drawn from the output shows values in (SPEC 10.8).
  var units: Units { get set }

  /// The same output stating `units`. Stages compute in kilograms and metres and never see a
  /// person's units, so the one place that runs a chart stamps them on what it made; a kind
  /// whose read-outs are written in the units writes them again here.
  func with(units: Units) -> Self

  /// Appends this user's rows of the chart's table, in the columns of
  /// ``tableColumns(measures:trend:)``, one row per mark.
  func appendTableRows(to rows: inout TableRows, trend: Bool)
}

extension ChartKind {
  /// The output with `units` set and nothing else changed: right for a kind whose numbers stay
  /// in kilograms and metres and whose words hold no value.
  ///
  /// - Complexity: O(1).
  public func with(units: Units) -> Self {
    var output = self
    output.units = units
    return output
  }

  /// Whether `other` is an output of this kind equal to this one.
  ///
  /// - Complexity: that of `==`.
  func isEqual(to other: any ChartKind) -> Bool { (other as? Self) == self }
}

/// A kind whose read-outs (labels, latest values) are words in the user's units: stating other
/// units writes them again, so they never say kilograms on a chart drawn in pounds.
public protocol ChartKindWordedInUnits: ChartKind {
  /// The output with everything it derives from its values written out again, in its `units`.
  func withDerivedFields() -> Self
}

extension ChartKindWordedInUnits {
  /// The output stating `units`, its read-outs written again when the units differ from those
  /// they were written in (a metric user's are already right: writing them twice was a second
  /// pass over every such chart).
  ///
  /// - Complexity: O(1) when `units` are the output's; else that of ``withDerivedFields()``.
  public func with(units: Units) -> Self {
    guard units != self.units else { return self }
    var output = self
    output.units = units
    return output.withDerivedFields()
  }
}

/// Every kind of user chart, in the order `validate` lists them and ``ChartOutput`` reads schemas.
public enum ChartKinds {
  public static let all: [any ChartKind.Type] = [
    SeriesOutput.self,
    RadarOutput.self,
    HeatmapOutput.self,
    SparklinesOutput.self,
    RecordsOutput.self,
    StreakOutput.self,
  ]

  /// The kind whose schema id is `schema`, exactly as written.
  ///
  /// - Complexity: O(*k*) for *k* kinds.
  public static func kind(schema: String) -> (any ChartKind.Type)? {
    all.first { $0.schemaID == schema }
  }
}
