import Foundation

/// Summary statistics of one measure over a cohort's users: how many users they cover, mean,
/// min, max and quantiles.
///
/// Written as one flat object, `{"n": …, "mean": …, "min": …, "max": …, "p25": …, "p50": …}`,
/// with a `p<q×100>` key per quantile the pipeline asked for (SPEC 7: numpy's default, linear
/// interpolation between closest ranks).
public struct CohortStats: Decodable, Sendable, Equatable {
  /// The users whose value is known (SPEC 10.3): a user whose sessions state no duration is
  /// not counted in a duration statistic, where a 0 would pull the median down.
  public var n: Int
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

  public init(n: Int, mean: Double, min: Double, max: Double, quantiles: [Quantile]) {
    self.n = n
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
    // Added to the statistics with `cohort-series@2`; a `cohort-radar@1` file written before
    // lacks it, and its output fills it in (every user has a count on every axis).
    n = try container.decodeAdded(Int.self, forKey: Key("n")) ?? -1
    mean = try container.decode(Double.self, forKey: Key("mean"))
    min = try container.decode(Double.self, forKey: Key("min"))
    max = try container.decode(Double.self, forKey: Key("max"))
    quantiles = try container.allKeys.filter { $0.stringValue.hasPrefix("p") }
      .map { Quantile(name: $0.stringValue, value: try container.decode(Double.self, forKey: $0)) }
      .sorted { (Double($0.name.dropFirst()) ?? 0) < (Double($1.name.dropFirst()) ?? 0) }
  }
}

/// The extent of a value axis, `min` … `max` in the JSON's units: a ``YAxis``'s `domain`.
public struct AxisDomain: Decodable, Sendable, Equatable {
  public var min: Double
  public var max: Double
  public init(min: Double, max: Double) {
    self.min = min
    self.max = max
  }
}

/// Cross-user comparison of one series chart (`trendline/cohort-series@2`, SPEC 7 and 10).
///
/// Version 2: a statistic says how many users it covers (`n`), a measure no user of a row has
/// a known value for is `null` (version 1 wrote zeros), and rows give instants and a bar.
///
/// Buckets are aligned by local start date across users in different time zones: a week that
/// starts on Monday 24 November in Oslo and one that starts on Monday 24 November in New York
/// are the same row. Weekly buckets of users whose week starts on another day join the row of
/// the Monday week that holds their start (a Sunday-first week of 23 November joins the row of
/// Monday 17 November, never a later one: SPEC 11.9), so a cohort of mixed week starts still
/// has one row per week and no row after as-of.
public struct CohortSeriesOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/cohort-series@2"

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
  /// The x-axis domain of the rows' instants, padded by half a period at each end like a
  /// user's chart; nil without rows.
  public var domain: Extent?
  /// Rows in date order.
  public var buckets: [Bucket]
  /// One shared value axis per measure (``YAxis``, in kilograms and kilometres: a cohort mixes
  /// users of both units): every user's chart of this chart drawn on it compares honestly.
  public var yAxis: [Measure: YAxis]
  /// The top users by the rank measure over the window; nil when the pipeline ranks by a
  /// measure this chart does not have.
  public var ranking: Ranking?

  public struct Bucket: Decodable, Sendable, Equatable {
    /// The local start date, `YYYY-MM-DD`; also the row's stable id.
    public var date: String
    /// The row's period as instants for a time axis: the local dates of its start and of the
    /// next period's start, each at 00:00 UTC. Users in many zones share a row, so these are
    /// calendar dates placed on a time line, not moments: format them in UTC.
    public var start: Date
    public var end: Date
    /// Where to draw the row's bar: start ± 0.35 × the period's length, as a user's chart has.
    public var bar: Extent
    /// True for the row of the period holding as-of, still in progress for some user (SPEC 10.6).
    public var partial: Bool
    /// Users with this bucket.
    public var n: Int
    /// Users with at least one session in the period: the period's active users.
    public var active: Int
    /// `active` over the cohort's `users`, 0…1: the share of every compared user, not of `n`
    /// (without `fillGaps` a user has no bucket for a period without sessions).
    public var activeShare: Double
    /// Per measure, the statistics of the users whose value is known; a measure no user of the
    /// row has a value for is absent (`null` in the JSON).
    public var values: [Measure: CohortStats]

    public init(
      date: String, start: Date, end: Date, bar: Extent, partial: Bool, n: Int, active: Int, activeShare: Double,
      values: [Measure: CohortStats]
    ) {
      self.date = date
      self.start = start
      self.end = end
      self.bar = bar
      self.partial = partial
      self.n = n
      self.active = active
      self.activeShare = activeShare
      self.values = values
    }

    /// The row of local day `day`, its date, instants and bar worked out from it: the day and
    /// the next period's first day at 00:00 UTC, the bar 0.35 × the length, in whole seconds
    /// with halves up, like a user's bar.
    ///
    /// - Complexity: O(1).
    public init(
      day: LocalDay, granularity: Granularity, partial: Bool, n: Int, active: Int, activeShare: Double,
      values: [Measure: CohortStats]
    ) {
      let next: Int64
      switch granularity {
      case .day: next = day.number + 1
      case .week: next = day.number + 7
      case .month:
        let civil = day.civil
        next = LocalDay(year: civil.year + civil.month / 12, month: civil.month % 12 + 1, day: 1).number
      }
      let (start, end) = (day.number * 86_400, next * 86_400)
      self.init(
        date: day.text, start: Date(epochSeconds: start), end: Date(epochSeconds: end),
        bar: Extent.bar(start: start, end: end), partial: partial, n: n, active: active, activeShare: activeShare,
        values: values)
    }

    enum CodingKeys: String, CodingKey {
      case date, start, end, bar, partial, n, active, activeShare, values
    }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      date = try c.decode(String.self, forKey: .date)
      start = try c.decode(Date.self, forKey: .start)
      end = try c.decode(Date.self, forKey: .end)
      bar = try c.decode(Extent.self, forKey: .bar)
      partial = try c.decode(Bool.self, forKey: .partial)
      n = try c.decode(Int.self, forKey: .n)
      active = try c.decode(Int.self, forKey: .active)
      activeShare = try c.decode(Double.self, forKey: .activeShare)
      values = try c.decode([Measure: CohortStats?].self, forKey: .values).compactMapValues { $0 }
      // Version 2 states how many users each statistic covers; a file without is not one.
      if values.values.contains(where: { $0.n < 0 }) {
        throw DecodingError.keyNotFound(
          CohortStats.Key("n"), .init(codingPath: c.codingPath, debugDescription: "a statistic without 'n'"))
      }
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
    domain: Extent? = nil, buckets: [Bucket], yAxis: [Measure: YAxis], ranking: Ranking?
  ) {
    self.chart = chart
    self.asOf = asOf
    self.range = range
    self.granularity = granularity
    self.measures = measures
    self.users = users
    self.domain = domain
    self.buckets = buckets
    self.yAxis = yAxis
    self.ranking = ranking
  }

  enum CodingKeys: String, CodingKey {
    case schema, chart, asOf, range, granularity, measures, users, domain, buckets, yAxis, ranking
  }

  /// Decodes version 2, the schema checked first so an older file is refused saying so.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schema = try decodeSchema(c, key: .schema, expected: Self.schemaID)
    chart = try c.decode(String.self, forKey: .chart)
    asOf = try c.decode(String.self, forKey: .asOf)
    range = try c.decode(BucketRange.self, forKey: .range)
    granularity = try c.decode(Granularity.self, forKey: .granularity)
    measures = try c.decode([Measure].self, forKey: .measures)
    users = try c.decode(Int.self, forKey: .users)
    domain = try c.decodeIfPresent(Extent.self, forKey: .domain)
    buckets = try c.decode([Bucket].self, forKey: .buckets)
    yAxis = try c.decode([Measure: YAxis].self, forKey: .yAxis)
    ranking = try c.decodeIfPresent(Ranking.self, forKey: .ranking)
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
  /// True when the period is still in progress for some user (it holds as-of, SPEC 10.6):
  /// its counts are so far, not the period's.
  public var partial: Bool
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

  public init(chart: String, asOf: String, period: Granularity, partial: Bool, users: Int, axes: [Axis]) {
    self.chart = chart
    self.asOf = asOf
    self.period = period
    self.partial = partial
    self.users = users
    self.axes = axes
  }

  enum CodingKeys: String, CodingKey { case schema, chart, asOf, period, partial, users, axes }

  /// Decodes a cohort radar; `partial` and the counts' `n`, added to `trendline/cohort-radar@1`
  /// later, may be absent: the period was then the one holding as-of, so partial, and every
  /// counted user had a count on every axis.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schema = try decodeSchema(c, key: .schema, expected: Self.schemaID)
    chart = try c.decode(String.self, forKey: .chart)
    asOf = try c.decode(String.self, forKey: .asOf)
    period = try c.decode(Granularity.self, forKey: .period)
    partial = try c.decodeAdded(Bool.self, forKey: .partial) ?? true
    users = try c.decode(Int.self, forKey: .users)
    axes = try c.decode([Axis].self, forKey: .axes)
    for index in axes.indices where axes[index].counts.n < 0 { axes[index].counts.n = users }
  }
}

extension CohortStats: OutputWritable {
  /// Writes `n, mean, min, max`, then a key per quantile in the pipeline's order.
  ///
  /// - Complexity: O(*q*), where *q* is the number of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("n", n)
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
  /// Writes `schema, chart, asOf, range, granularity, measures, users, domain, buckets, yAxis,
  /// xAxis, ranking` (`xAxis` from the rows' dates, ``XAxis``, in UTC, where their dates are
  /// placed); `ranking` is left out, not `null`, when there is none.
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
    writer.key("domain")
    if let domain { domain.write(to: &writer) } else { writer.null() }
    writer.key("buckets")
    try writer.array(buckets) { try $1.write(to: &$0, measures: measures) }
    writer.key("yAxis")
    try writer.object(yAxis) { try $1.write(to: &$0) }
    writer.key("xAxis")
    XAxis(starts: buckets.map(\.start), granularity: granularity, zone: TimeZone(identifier: "UTC")!).write(
      to: &writer)
    if let ranking {
      writer.key("ranking")
      try ranking.write(to: &writer)
    }
    writer.endObject()
  }
}

extension CohortSeriesOutput.Bucket {
  /// Writes `date, start, end, bar, partial, n, active, activeShare, values`, with a member in `values` for each of
  /// `measures`, `null` where no user's value is known.
  ///
  /// - Complexity: O(*m* × *q*), where *m* is the number of measures and *q* of quantiles.
  func write(to writer: inout OutputWriter, measures: [Measure]) throws {
    writer.beginObject()
    writer.member("date", date)
    writer.member("start", start)
    writer.member("end", end)
    writer.key("bar")
    bar.write(to: &writer)
    writer.member("partial", partial)
    writer.member("n", n)
    writer.member("active", active)
    try writer.member("activeShare", activeShare)
    writer.key("values")
    writer.beginObject()
    for measure in Measure.inKeyOrder where measures.contains(measure) {
      writer.key(escaping: measure.rawValue)
      if let stats = values[measure] { try stats.write(to: &writer) } else { writer.null() }
    }
    writer.endObject()
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
  /// Writes `schema, chart, asOf, period, partial, users, axes`, then the drawing's
  /// `axisAngles, rings`, worked out from the axes when written.
  ///
  /// - Complexity: O(*a* × *q*), where *a* is the number of axes and *q* of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("schema", schema)
    writer.member("chart", chart)
    writer.member("asOf", asOf)
    writer.member("period", period.rawValue)
    writer.member("partial", partial)
    writer.member("users", users)
    writer.key("axes")
    try writer.array(axes)
    writer.key("axisAngles")
    try writer.array(axisAngles) { try $0.number($1) }
    writer.key("rings")
    try rings.write(to: &writer)
    writer.endObject()
  }
}

extension CohortRadarOutput {
  /// Each axis's angle, degrees clockwise from straight up, in axis order: a user's radar's
  /// `axisAngles`, so the two are drawn alike.
  public var axisAngles: [Double] { (0..<axes.count).map { 360 * Double($0) / Double(axes.count) } }

  /// The largest number the radar draws: an axis's 75th percentile, or its median (its mean
  /// without one), whichever is larger. The SVG's rings reach it, and so do `rings`.
  public var largestDrawn: Double {
    axes.map { max($0.counts.quantile("p75") ?? 0, $0.counts.quantile("p50") ?? $0.counts.mean) }.max() ?? 0
  }

  /// The grid's rings for 3, 4, 5 and 7 labels: a sessions axis from 0 over ``largestDrawn``
  /// (``YAxis``), as a user's radar's `rings`.
  public var rings: YAxis { YAxis(measure: .sessions, largest: largestDrawn, units: .metric) }
}

extension CohortRadarOutput.Axis {
  /// What the axis says to a screen reader, from its counts: "Back: median 2 sessions, middle
  /// half 0.3–4, mean 2.9, 18 users" (the middle half only with both quartiles).
  public var readOut: String {
    let median = counts.quantile("p50") ?? counts.mean
    var parts = ["\(label): median " + ShownNumber.display(median) + (median == 1 ? " session" : " sessions")]
    if let low = counts.quantile("p25"), let high = counts.quantile("p75") {
      parts.append("middle half " + ShownNumber.display(low) + "–" + ShownNumber.display(high))
    }
    parts.append("mean " + ShownNumber.display(counts.mean))
    parts.append(counts.n == 1 ? "1 user" : "\(counts.n) users")
    return parts.joined(separator: ", ")
  }
}

extension CohortRadarOutput.Axis: OutputWritable {
  /// Writes `id, label, counts, readOut`.
  ///
  /// - Complexity: O(*q*), where *q* is the number of quantiles.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("label", label)
    writer.key("counts")
    try counts.write(to: &writer)
    writer.member("readOut", readOut)
    writer.endObject()
  }
}
