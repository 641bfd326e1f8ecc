import Foundation

/// Summary statistics of one measure over a cohort's users: mean, min, max and quantiles.
///
/// Written as one flat object, `{"mean": …, "min": …, "max": …, "p25": …, "p50": …}`, with a
/// `p<q×100>` key per quantile the pipeline asked for (SPEC 7: numpy's default, linear
/// interpolation between closest ranks).
public struct CohortStats: Decodable, Sendable, Equatable {
  public var mean: Double
  public var min: Double
  public var max: Double
  /// Quantile name (`p25`, `p50`, `p90`, `p12.5`) → value, in the pipeline's order.
  public var quantiles: [Quantile]

  public struct Quantile: Sendable, Equatable {
    public var name: String
    public var value: Double
    public init(name: String, value: Double) {
      self.name = name
      self.value = value
    }
  }

  public init(mean: Double, min: Double, max: Double, quantiles: [Quantile]) {
    self.mean = mean
    self.min = min
    self.max = max
    self.quantiles = quantiles
  }

  /// The value of quantile `name` (`"p50"`), if it was computed.
  public func quantile(_ name: String) -> Double? { quantiles.first { $0.name == name }?.value }

  /// The key a quantile is written under: `0.25` → `p25`, `0.125` → `p12.5`.
  public static func quantileName(_ q: Double) -> String {
    let percent = q * 100
    if percent == percent.rounded() { return "p\(Int(percent))" }
    return "p\(percent)"
  }

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    mean = try container.decode(Double.self, forKey: Key("mean"))
    min = try container.decode(Double.self, forKey: Key("min"))
    max = try container.decode(Double.self, forKey: Key("max"))
    quantiles = try container.allKeys.filter { $0.stringValue.hasPrefix("p") }
      .map { Quantile(name: $0.stringValue, value: try container.decode(Double.self, forKey: $0)) }
      .sorted { (Double($0.name.dropFirst()) ?? 0) < (Double($1.name.dropFirst()) ?? 0) }
  }
}

/// A value axis shared by every user's chart of one measure, so charts drawn side by side
/// compare honestly: from 0 to a "nice" rounded maximum (1, 2, 2.5 or 5 × 10ⁿ) at or above the
/// largest value any user has.
public struct AxisDomain: Decodable, Sendable, Equatable {
  public var min: Double
  public var max: Double
  public init(min: Double, max: Double) {
    self.min = min
    self.max = max
  }
}

/// Cross-user comparison of one series chart (`trendline/cohort-series@1`, SPEC 7).
///
/// Buckets are aligned by local start date across users in different time zones: a week that
/// starts on Monday 24 November in Oslo and one that starts on Monday 24 November in New York
/// are the same row. Weekly buckets of users whose week starts on another day are aligned to
/// the Monday nearest their start (a Sunday-first week of 23 November joins the row of
/// Monday 24 November), so a cohort of mixed week starts still has one row per week.
public struct CohortSeriesOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/cohort-series@1"

  public var schema: String = CohortSeriesOutput.schemaID
  public var chart: String
  /// The run's as-of as given (a date or an instant), or the date a run without one resolved
  /// today to: each user's own as-of instant differs by zone.
  public var asOf: String
  public var range: BucketRange
  public var granularity: Granularity
  public var measures: [Measure]
  /// Users whose chart was counted.
  public var users: Int
  /// Rows in date order.
  public var buckets: [Bucket]
  /// One shared value axis per measure.
  public var yDomain: [Measure: AxisDomain]
  /// The top users by the rank measure over the window; nil when the pipeline ranks by a
  /// measure this chart does not have.
  public var ranking: Ranking?

  public struct Bucket: Decodable, Sendable, Equatable {
    /// The local start date, `YYYY-MM-DD`.
    public var date: String
    /// Users with this bucket.
    public var n: Int
    public var values: [Measure: CohortStats]

    public init(date: String, n: Int, values: [Measure: CohortStats]) {
      self.date = date
      self.n = n
      self.values = values
    }
  }

  public struct Ranking: Decodable, Sendable, Equatable {
    /// `Encodable` as well, unlike the rest of the output: the cohort partial file holds entries.
    public struct Entry: Codable, Sendable, Equatable {
      public var user: String
      public var value: Double
      public init(user: String, value: Double) {
        self.user = user
        self.value = value
      }
    }
    public var measure: Measure
    public var top: Int
    public var users: [Entry]
    public init(measure: Measure, top: Int, users: [Entry]) {
      self.measure = measure
      self.top = top
      self.users = users
    }
  }

  public init(
    chart: String, asOf: String, range: BucketRange, granularity: Granularity, measures: [Measure], users: Int,
    buckets: [Bucket], yDomain: [Measure: AxisDomain], ranking: Ranking?
  ) {
    self.chart = chart
    self.asOf = asOf
    self.range = range
    self.granularity = granularity
    self.measures = measures
    self.users = users
    self.buckets = buckets
    self.yDomain = yDomain
    self.ranking = ranking
  }
}

/// Cross-user comparison of one radar chart (`trendline/cohort-radar@1`, SPEC 7): per axis,
/// the distribution over users of the latest period's counts (the period holding as-of).
public struct CohortRadarOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/cohort-radar@1"

  public var schema: String = CohortRadarOutput.schemaID
  public var chart: String
  public var asOf: String
  public var period: Granularity
  public var users: Int
  /// In spoke order, like the users' radars.
  public var axes: [Axis]

  public struct Axis: Decodable, Sendable, Equatable {
    public var id: String
    public var label: String
    public var counts: CohortStats
    public init(id: String, label: String, counts: CohortStats) {
      self.id = id
      self.label = label
      self.counts = counts
    }
  }

  public init(chart: String, asOf: String, period: Granularity, users: Int, axes: [Axis]) {
    self.chart = chart
    self.asOf = asOf
    self.period = period
    self.users = users
    self.axes = axes
  }
}

extension CohortStats: OutputWritable {
  /// Writes `mean, min, max`, then a key per quantile in the pipeline's order.
  ///
  /// - Complexity: O(*q*), where *q* is the number of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    try writer.member("mean", mean)
    try writer.member("min", min)
    try writer.member("max", max)
    for quantile in quantiles {
      writer.key(escaping: quantile.name)
      try writer.number(quantile.value)
    }
    writer.endObject()
  }
}

extension AxisDomain: OutputWritable {
  /// Writes `min, max`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    try writer.member("min", min)
    try writer.member("max", max)
    writer.endObject()
  }
}

extension CohortSeriesOutput: OutputWritable {
  /// Writes `schema, chart, asOf, range, granularity, measures, users, buckets, yDomain,
  /// ranking`; `ranking` is left out, not `null`, when there is none.
  ///
  /// - Complexity: O(*b* × *m* × *q*), where *b* is the number of buckets, *m* of measures
  ///   and *q* of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("schema", schema)
    writer.member("chart", chart)
    writer.member("asOf", asOf)
    writer.member("range", range.rawValue)
    writer.member("granularity", granularity.rawValue)
    writer.key("measures")
    writer.array(measures) { $0.string($1.rawValue) }
    writer.member("users", users)
    writer.key("buckets")
    try writer.array(buckets)
    writer.key("yDomain")
    try writer.object(yDomain) { try $1.write(to: &$0) }
    if let ranking {
      writer.key("ranking")
      try ranking.write(to: &writer)
    }
    writer.endObject()
  }
}

extension CohortSeriesOutput.Bucket: OutputWritable {
  /// Writes `date, n, values`.
  ///
  /// - Complexity: O(*m* × *q*), where *m* is the number of measures and *q* of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("date", date)
    writer.member("n", n)
    writer.key("values")
    try writer.object(values) { try $1.write(to: &$0) }
    writer.endObject()
  }
}

extension CohortSeriesOutput.Ranking: OutputWritable {
  /// Writes `measure, top, users`.
  ///
  /// - Complexity: O(*u*), where *u* is the number of users ranked.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("measure", measure.rawValue)
    writer.member("top", top)
    writer.key("users")
    try writer.array(users)
    writer.endObject()
  }
}

extension CohortSeriesOutput.Ranking.Entry: OutputWritable {
  /// Writes `user, value`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("user", user)
    try writer.member("value", value)
    writer.endObject()
  }
}

extension CohortRadarOutput: OutputWritable {
  /// Writes `schema, chart, asOf, period, users, axes`.
  ///
  /// - Complexity: O(*a* × *q*), where *a* is the number of axes and *q* of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("schema", schema)
    writer.member("chart", chart)
    writer.member("asOf", asOf)
    writer.member("period", period.rawValue)
    writer.member("users", users)
    writer.key("axes")
    try writer.array(axes)
    writer.endObject()
  }
}

extension CohortRadarOutput.Axis: OutputWritable {
  /// Writes `id, label, counts`.
  ///
  /// - Complexity: O(*q*), where *q* is the number of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("label", label)
    writer.key("counts")
    try counts.write(to: &writer)
    writer.endObject()
  }
}
