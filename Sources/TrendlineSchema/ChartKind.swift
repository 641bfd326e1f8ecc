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
  /// A small output of the kind, declared beside its type: what an app's previews draw without a
  /// file, and what the tests that check every kind (decoding, tables, drawing) take, so a new
  /// kind needs no line in them.
  static var example: Self { get }
  /// Its role in a cohort: the schema of the file users' outputs of the kind reduce to when the
  /// pipeline compares them (`trendline/cohort-series@2`), or nil for a kind no cohort reads,
  /// which `validate` refuses to compare.
  static var cohortSchemaID: String? { get }

  /// `schema, user, chart, timeZone, units, asOf`: what every user output starts with, declared,
  /// decoded and written once, and read through the properties below.
  var header: UserChartHeader { get set }

  /// The same output stating `units`. Stages compute in kilograms and metres and never see a
  /// person's units, so the one place that runs a chart stamps them on what it made; a kind
  /// whose read-outs are written in the units writes them again here.
  func with(units: Units) -> Self

  /// Appends this user's rows of the chart's table, in the columns of
  /// ``tableColumns(measures:trend:)``, one row per mark.
  func appendTableRows(to rows: inout TableRows, trend: Bool)
}

extension ChartKind {
  public static var cohortSchemaID: String? { nil }

  // Read-only but for `units`, which stating other units sets: the others are changed, when
  // they must be, through `header`.

  /// The output's schema id, as its file states it.
  public var schema: String { header.schema }
  /// The user the chart is of.
  public var user: String { header.user }
  /// The chart's name from the pipeline file.
  public var chart: String { header.chart }
  /// The zone identifier every instant of the output was computed in (`Europe/Oslo`).
  public var timeZone: String { header.timeZone }

  /// The units everything drawn from the output shows values in; the numbers stay in kilograms,
  /// metres and seconds (SPEC 10.8).
  public var units: Units {
    get { header.units }
    set { header.units = newValue }
  }

  /// The last instant the chart counts.
  public var asOf: Date { header.asOf }

  /// The output with `units` set and nothing else changed: right for a kind whose words hold no
  /// value (radar, heat map), or whose words the stage that makes it writes in the units it is
  /// given (a series, by `Emit`). A series decoded from a file and stated in other units keeps
  /// the read-outs it was written with.
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

/// Every kind of user chart, in the order ``ChartOutput`` reads schemas and `validate --stages`
/// lists the stages that make them. A new kind's one registry line: its stage and its renderer
/// are reached from here, through conformances declared beside them.
public enum ChartKinds {
  public static let all: [any ChartKind.Type] = [
    SeriesOutput.self,
    StreakOutput.self,
    RadarOutput.self,
    HeatmapOutput.self,
    SparklinesOutput.self,
    RecordsOutput.self,
  ]

  /// The kind whose schema id is `schema`, exactly as written.
  ///
  /// - Complexity: O(*k*) for *k* kinds.
  public static func kind(schema: String) -> (any ChartKind.Type)? {
    all.first { $0.schemaID == schema }
  }
}

/// `schema, user, chart, timeZone, units, asOf`: the head of every user output (SPEC 7, 10.8).
public struct UserChartHeader: Sendable, Equatable {
  public var schema: String
  public var user: String
  public var chart: String
  public var timeZone: String
  public var units: Units
  public var asOf: Date

  public init(schema: String, user: String, chart: String, timeZone: String, units: Units, asOf: Date) {
    self.schema = schema
    self.user = user
    self.chart = chart
    self.timeZone = timeZone
    self.units = units
    self.asOf = asOf
  }

  private enum CodingKeys: String, CodingKey { case schema, user, chart, timeZone, units, asOf }

  /// Decodes the head of an output of schema `expected`, checking the schema first
  /// (``decodeSchema(_:key:expected:)``), so a radar file decoded as a series fails naming both.
  /// `units` is ``Units/metric`` when absent, as in every file written before outputs stated
  /// their units (they were all drawn in kilograms and kilometres).
  ///
  /// - Complexity: O(1).
  init(from decoder: any Decoder, schema expected: String) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schema = try decodeSchema(c, key: .schema, expected: expected)
    user = try c.decode(String.self, forKey: .user)
    chart = try c.decode(String.self, forKey: .chart)
    timeZone = try c.decode(String.self, forKey: .timeZone)
    units = try c.decodeIfPresent(Units.self, forKey: .units) ?? .metric
    asOf = try c.decode(Date.self, forKey: .asOf)
  }
}
