import Foundation

/// A bucketed time series, ready for Swift Charts (`trendline/series@2`, SPEC sections 7 and 10).
///
/// Every number a chart needs is here already: bucket edges in the user's calendar (a day may be
/// 23 or 25 hours), bar extents, the padded domain, the trend and the averages. An app draws
/// them; it does not recompute them, so every app draws the same chart.
///
/// Unknown is `null` in the JSON, never 0 (SPEC 10.3): a bucket whose sessions have no stated
/// duration, a best no set reached, a trend with no complete bucket in its window. Decoded, an
/// unknown value is absent from its dictionary, so `values[.durationSeconds]` is nil.
/// Version 1 wrote such values as 0 or left them out; this decoder reads version 2 only.
public struct SeriesOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/series@2"

  /// One calendar period.
  public struct Bucket: Decodable, Sendable, Equatable {
    /// The local date the period starts on, `YYYY-MM-DD`: the same bucket has the same id in
    /// every run, so an app animates a new day's data instead of redrawing every bar.
    public var id: String
    /// The period's first instant.
    public var start: Date
    /// The next period's first instant (so a day bucket may be 23 or 25 hours long).
    public var end: Date
    /// True for the period containing as-of, whose data is still coming in. It is no input of
    /// a trend or of `average` (SPEC 10.6).
    public var partial: Bool
    /// How much of the period had passed at as-of, 0…1: (as-of + 1 s − start) / (end − start)
    /// for the partial bucket (as-of is the last second counted), 1 for every other.
    public var elapsed: Double
    /// The user's sessions in the period up to as-of (those the chart's filters kept): 0 for a
    /// period `fillGaps` put back. A user is active in a period with at least one.
    public var sessions: Int
    /// Each measure's value; a measure with an unknown value is absent (`null` in the JSON).
    public var values: MeasureValues
    /// The smoothed values; the key is absent (not `null`) when the chart has no `smooth`
    /// stage, and a measure with no complete bucket in its window is `null`.
    public var trend: MeasureValues?
    /// Where to draw the bar: start ± 0.35 × the bucket's length.
    public var bar: Extent
    /// What a screen reader says for the bar, the report's read-out: `Week of 23 Nov 2026 (so
    /// far): sessions 1 (trend 1.5) · volume 2 302 kg (trend 3 276 kg)`, in the user's units.
    public var label: String

    public init(
      id: String, start: Date, end: Date, partial: Bool, elapsed: Double = 1, sessions: Int = 0,
      values: MeasureValues,
      trend: MeasureValues? = nil, bar: Extent, label: String = ""
    ) {
      self.id = id
      self.start = start
      self.end = end
      self.partial = partial
      self.elapsed = elapsed
      self.sessions = sessions
      self.values = values
      self.trend = trend
      self.bar = bar
      self.label = label
    }

    enum CodingKeys: String, CodingKey {
      case id, start, end, partial, elapsed, sessions, values, trend, bar, label
    }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      id = try c.decode(String.self, forKey: .id)
      start = try c.decode(Date.self, forKey: .start)
      end = try c.decode(Date.self, forKey: .end)
      partial = try c.decode(Bool.self, forKey: .partial)
      elapsed = try c.decode(Double.self, forKey: .elapsed)
      sessions = try c.decode(Int.self, forKey: .sessions)
      values = try c.decode(MeasureValues.self, forKey: .values)
      trend = try c.decodeIfPresent(MeasureValues.self, forKey: .trend)
      bar = try c.decode(Extent.self, forKey: .bar)
      label = try c.decode(String.self, forKey: .label)
    }
  }

  /// `schema, user, chart, timeZone, units, asOf`, as every user output starts (``ChartKind``
  /// gives each its own property).
  public var header: UserChartHeader
  public var range: BucketRange
  public var granularity: Granularity
  public var measures: [Measure]
  /// The x-axis domain; `null` when there are no buckets.
  public var domain: Extent?
  /// The index in `buckets` of the one holding as-of, where "now" is drawn; nil when no bucket
  /// holds it (no session in the period and no `fillGaps`).
  public var asOfBucket: Int?
  /// Per measure, the value axis of this user's chart (``YAxis``): from 0 to a round maximum
  /// at or above every value, trend, average and band drawn, with ticks for 3, 4, 5 and 7
  /// labels. A compared chart's shared axis is the cohort's (`cohort/<chart>.json`, `yAxis`).
  public var yAxis: [Measure: YAxis]
  /// The pipeline's value bands for this chart (`bands` stage), drawn behind the bars; nil
  /// (left out of the JSON) without one.
  public var bands: ValueBands?
  public var buckets: [Bucket]
  /// The mean of each measure over the complete buckets that have it (SPEC 10.6); absent
  /// (`null`) when none has.
  public var average: MeasureValues
  /// Per measure drawn as a line (``Measure/mark``), the indexes in `buckets` of the records:
  /// a bucket whose value beats every earlier one of the user's, before the window too (SPEC
  /// 11.8). The first value the user ever had is no record: there was nothing to beat.
  public var recordBuckets: [Measure: [Int]] = [:]
  /// The time axis's labels for 3, 4, 5 and 7 labels (``XAxis``), in the user's zone: worked
  /// out from the buckets when written (`xAxis`, after `recordBuckets`), so it never disagrees
  /// with them.
  public var xAxis: XAxis {
    XAxis(
      starts: buckets.map(\.start), granularity: granularity,
      zone: TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!)
  }
  /// Each measure's mark (SPEC 11.8): `bar` for a total, `line` for a best (``Measure/mark``).
  public var mark: [Measure: SeriesMark]
  /// When the pipeline compares this chart: the cohort's shared axis of each measure (the
  /// `yAxis` of `cohort/<chart>.json`, in kilograms and kilometres), so this user's chart drawn
  /// on it compares honestly with everyone's. The cohort is known only once every user has run,
  /// so it is stamped into the written file then (``stamping(cohortYAxis:into:)``); absent for a
  /// chart the pipeline does not compare.
  public var cohortYAxis: [Measure: YAxis]?
  /// When the pipeline compares this chart: per measure, this user's percentile rank in each
  /// bucket's cohort row, an array parallel to `buckets` (`null` where the user's value is
  /// unknown): 100 × (the users below + half the users equal) ÷ the users whose value is known,
  /// the user included. Stamped with `cohortYAxis`.
  public var cohortRank: [Measure: [Double?]]?
  /// With `compare.groupBy`: the user's segment and their percentile rank within it, as
  /// `cohortRank` is within every user.
  public var segmentRank: SegmentRank?
  /// When the pipeline compares this chart: the `date` of the row of `cohort/<chart>.json` each
  /// bucket joins, parallel to `buckets` (`null` where the cohort has no such row). A bucket's
  /// own `id` for days and months; for a week that starts on another day than the cohort's rows
  /// the row week holding its start (a Sunday week of 29 Nov 2026 joins the Monday row of
  /// 23 Nov: SPEC 11.9), so an app overlays the user's line on the cohort with no calendar.
  /// Stamped with `cohortRank`.
  public var cohortRows: [String?]?

  /// A user's place in their segment (``segmentRank``).
  public struct SegmentRank: Codable, Sendable, Equatable {
    /// The `users.csv` column.
    public var groupBy: String
    /// The user's value in it; nil for the users with none, the "unknown" segment.
    public var value: String?
    /// As ``SeriesOutput/cohortRank``, among the users of the segment.
    public var rank: [Measure: [Double?]]

    public init(groupBy: String, value: String?, rank: [Measure: [Double?]]) {
      self.groupBy = groupBy
      self.value = value
      self.rank = rank
    }

    enum CodingKeys: String, CodingKey { case groupBy, value, rank }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      groupBy = try c.decode(String.self, forKey: .groupBy)
      value = try c.decodeIfPresent(String.self, forKey: .value)
      rank = try c.decode([Measure: [Double?]].self, forKey: .rank)
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(groupBy, forKey: .groupBy)
      try c.encode(value, forKey: .value)
      try c.encode(rank, forKey: .rank)
    }
  }

  public init(
    user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, range: BucketRange,
    granularity: Granularity, measures: [Measure], domain: Extent?, asOfBucket: Int? = nil,
    yAxis: [Measure: YAxis] = [:], bands: ValueBands? = nil, buckets: [Bucket], average: MeasureValues
  ) {
    self.header = UserChartHeader(
      schema: Self.schemaID, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    self.range = range
    self.granularity = granularity
    self.measures = measures
    self.mark = Dictionary(uniqueKeysWithValues: measures.map { ($0, $0.mark) })
    self.domain = domain
    self.asOfBucket = asOfBucket
    self.yAxis = yAxis
    self.bands = bands
    self.buckets = buckets
    self.average = average
  }

  enum CodingKeys: String, CodingKey {
    case range, granularity, measures, mark, domain, asOfBucket, yAxis, bands
    case buckets, average, recordBuckets, cohortYAxis, cohortRank, segmentRank, cohortRows
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    header = try UserChartHeader(from: decoder, schema: Self.schemaID)
    range = try c.decode(BucketRange.self, forKey: .range)
    granularity = try c.decode(Granularity.self, forKey: .granularity)
    measures = try c.decode([Measure].self, forKey: .measures)
    // Files written before SPEC 11.8 have no `mark`: every measure was a bar then.
    mark =
      try c.decodeIfPresent([Measure: SeriesMark].self, forKey: .mark)
      ?? Dictionary(uniqueKeysWithValues: measures.map { ($0, .bar) })
    domain = try c.decodeIfPresent(Extent.self, forKey: .domain)
    asOfBucket = try c.decodeIfPresent(Int.self, forKey: .asOfBucket)
    yAxis = try c.decode([Measure: YAxis].self, forKey: .yAxis)
    bands = try c.decodeIfPresent(ValueBands.self, forKey: .bands)
    buckets = try c.decode([Bucket].self, forKey: .buckets)
    average = try c.decode(MeasureValues.self, forKey: .average)
    recordBuckets = try c.decodeIfPresent([Measure: [Int]].self, forKey: .recordBuckets) ?? [:]
    cohortYAxis = try c.decodeIfPresent([Measure: YAxis].self, forKey: .cohortYAxis)
    cohortRank = try c.decodeIfPresent([Measure: [Double?]].self, forKey: .cohortRank)
    segmentRank = try c.decodeIfPresent(SegmentRank.self, forKey: .segmentRank)
    cohortRows = try c.decodeIfPresent([String?].self, forKey: .cohortRows)
  }
}

extension SeriesOutput: OutputWritable {
  /// Writes SPEC 7's keys in order: `schema, user, chart, timeZone, units, asOf, range,
  /// granularity, measures, mark, domain, asOfBucket, yAxis, bands, buckets, average,
  /// recordBuckets, xAxis` (`bands` only with a `bands` stage).
  ///
  /// - Complexity: O(*b* × *m*), where *b* is the number of buckets and *m* of measures.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(header)
    writer.member("range", range.rawValue)
    writer.member("granularity", granularity.rawValue)
    writer.key("measures")
    writer.array(measures) { $0.string($1.rawValue) }
    writer.key("mark")
    writer.object(mark) { $0.string($1.rawValue) }
    writer.key("domain")
    // Written as `null`, not left out: "no buckets, so no domain" is a fact the app should see.
    if let domain { domain.write(to: &writer) } else { writer.null() }
    writer.key("asOfBucket")
    if let asOfBucket { writer.number(asOfBucket) } else { writer.null() }
    writer.key("yAxis")
    try writer.object(yAxis) { try $1.write(to: &$0) }
    if let bands {
      writer.key("bands")
      try bands.write(to: &writer)
    }
    writer.key("buckets")
    try writer.array(buckets) { try $1.write(to: &$0, measures: measures) }
    writer.key("average")
    try writer.measures(measures, average)
    writer.key("recordBuckets")
    writer.object(recordBuckets) { writer, indexes in writer.array(indexes) { $0.number($1) } }
    writer.key("xAxis")
    xAxis.write(to: &writer)
    if let cohortYAxis { try Self.writeCohortYAxis(cohortYAxis, to: &writer) }
    if let cohortRank {
      try Self.writeCohortRank(cohortRank, segment: segmentRank, rows: cohortRows, measures: measures, to: &writer)
    }
    writer.endObject()
  }

  static func writeCohortYAxis(_ axes: [Measure: YAxis], to writer: inout OutputWriter) throws {
    writer.key("cohortYAxis")
    try writer.object(axes) { try $1.write(to: &$0) }
  }

  /// `cohortRank`, then `segmentRank` when there is one, each measure in `measures` order, then
  /// `cohortRows` when given.
  static func writeCohortRank(
    _ rank: [Measure: [Double?]], segment: SegmentRank?, rows: [String?]?, measures: [Measure],
    to writer: inout OutputWriter
  ) throws {
    func ranks(_ rank: [Measure: [Double?]]) throws {
      writer.beginObject()
      for measure in measures {
        guard let values = rank[measure] else { continue }
        writer.key(escaping: measure.rawValue)
        try writer.array(values) { writer, value in if let value { try writer.number(value) } else { writer.null() } }
      }
      writer.endObject()
    }
    writer.key("cohortRank")
    try ranks(rank)
    if let segment {
      writer.key("segmentRank")
      writer.beginObject()
      writer.member("groupBy", segment.groupBy)
      writer.key("value")
      if let value = segment.value { writer.string(value) } else { writer.null() }
      writer.key("rank")
      try ranks(segment.rank)
      writer.endObject()
    }
    if let rows {
      writer.key("cohortRows")
      writer.array(rows) { writer, row in if let row { writer.string(row) } else { writer.null() } }
    }
  }

  /// `cohortRank` (and `segmentRank`, and `cohortRows` when given) as members after
  /// `cohortYAxis`, `,\n  "cohortRank": {…}`:
  /// encoded per user and stamped after the chart's axis member (``stamping(member:into:)``).
  ///
  /// - Complexity: O(*b* × *m*) for *b* buckets and *m* measures.
  public static func cohortRankMember(
    _ rank: [Measure: [Double?]], segment: SegmentRank?, rows: [String?]? = nil, measures: [Measure]
  ) throws -> [UInt8] {
    let wrapper = try OutputWriter.encode(
      CohortRankMember(rank: rank, segment: segment, rows: rows, measures: measures),
      timeZone: TimeZone(secondsFromGMT: 0)!)
    return Array(",\n".utf8) + wrapper.dropFirst(2).dropLast(3)
  }

  /// The bytes of a written series output (``OutputWriter/encode(_:timeZone:)``) with
  /// `cohortYAxis` as its last member (and the ranks after it, when stamped with them), replacing
  /// one stamped before: exactly the bytes the output with that axis encodes to, without
  /// decoding the file. A run stamps each compared
  /// chart once the cohort is reduced, and `merge` each shard's, so a merged output stays
  /// byte-identical to one run's, and stamping again is harmless.
  ///
  /// Returns nil for bytes that are not a written output (no closing `\n}\n`).
  ///
  /// - Complexity: O(*n*), where *n* is the size of the file.
  public static func stamping(cohortYAxis axes: [Measure: YAxis], into bytes: [UInt8]) throws -> [UInt8]? {
    stamping(member: try cohortYAxisMember(axes), into: bytes)
  }

  /// `cohortYAxis` as a written output's last member, `,\n  "cohortYAxis": {…}`: encoded once
  /// per chart and stamped into every user's file (``stamping(member:into:)``).
  ///
  /// - Complexity: O(*m*) for *m* measures.
  public static func cohortYAxisMember(_ axes: [Measure: YAxis]) throws -> [UInt8] {
    let wrapper = try OutputWriter.encode(CohortYAxisMember(axes: axes), timeZone: TimeZone(secondsFromGMT: 0)!)
    // "{\n" + the member + "\n}\n": the member alone, indented as a top-level one.
    return Array(",\n".utf8) + wrapper.dropFirst(2).dropLast(3)
  }

  /// The last bytes of every written output, `\n}\n`, before which a stamp goes.
  public static let closing = Array("\n}\n".utf8)

  /// ``stamping(cohortYAxis:into:)`` with the member already encoded (``cohortYAxisMember(_:)``).
  ///
  /// - Complexity: O(*n*), where *n* is the size of the file.
  public static func stamping(member: [UInt8], into bytes: [UInt8]) -> [UInt8]? {
    let end = closing
    guard bytes.count > end.count, bytes.suffix(end.count).elementsEqual(end) else { return nil }
    var body = bytes[..<(bytes.count - end.count)]
    // A top-level member is indented by exactly two spaces, so this finds no nested key.
    let marker = Array(",\n  \"cohortYAxis\": ".utf8)
    if let start = lastRange(of: marker, in: body) { body = body[..<start] }
    var stamped: [UInt8] = []
    stamped.reserveCapacity(body.count + member.count + end.count)
    stamped += body
    stamped += member
    stamped += end
    return stamped
  }

  private static func lastRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var index = haystack.endIndex - needle.count
    while index >= haystack.startIndex {
      if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index -= 1
    }
    return nil
  }
}

/// `{"cohortRank": …, "segmentRank": …}`, encoded to take the members' bytes in the outputs' layout.
private struct CohortRankMember: OutputWritable {
  var rank: [Measure: [Double?]]
  var segment: SeriesOutput.SegmentRank?
  var rows: [String?]?
  var measures: [Measure]

  func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    try SeriesOutput.writeCohortRank(rank, segment: segment, rows: rows, measures: measures, to: &writer)
    writer.endObject()
  }
}

/// `{"cohortYAxis": …}`, encoded to take the member's bytes in the outputs' layout.
private struct CohortYAxisMember: OutputWritable {
  var axes: [Measure: YAxis]

  func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    try SeriesOutput.writeCohortYAxis(axes, to: &writer)
    writer.endObject()
  }
}

extension SeriesOutput.Bucket {
  /// Writes `id, start, end, partial, elapsed, sessions, values, trend, bar, label`, with a member for
  /// each of `measures` in `values` and `trend`.
  ///
  /// - Complexity: O(*m*), where *m* is the number of measures.
  func write(to writer: inout OutputWriter, measures: [Measure]) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("start", start)
    writer.member("end", end)
    writer.member("partial", partial)
    try writer.member("elapsed", elapsed)
    writer.member("sessions", sessions)
    writer.key("values")
    try writer.measures(measures, values)
    // Left out, not `null`, without a `smooth` stage (SPEC 9.8).
    if let trend {
      writer.key("trend")
      try writer.measures(measures, trend)
    }
    writer.key("bar")
    bar.write(to: &writer)
    writer.member("label", label)
    writer.endObject()
  }
}

extension SeriesOutput: ChartKind {
  public static let kindName = "series"
  /// Each user's buckets join the cohort's rows by their local start day (``CohortSeriesOutput``).
  public static let cohortSchemaID: String? = CohortSeriesOutput.schemaID

  /// A small output of this kind: two Monday weeks in UTC, the second holding as-of (29 Nov
  /// 2026), sessions and volume counted. For an app's previews, and for the tests that check
  /// every kind (``ChartKind/example``).
  public static let example: SeriesOutput = {
    let weeks: [Int64] = [1_794_787_200, 1_795_392_000, 1_795_996_800]
    let buckets = (0..<2).map { index in
      Bucket(
        id: ["2026-11-16", "2026-11-23"][index], start: Date(epochSeconds: weeks[index]),
        end: Date(epochSeconds: weeks[index + 1]), partial: false, sessions: 2 + index,
        values: [.sessions: Double(2 + index), .volumeKg: [5_400, 7_250.5][index]],
        bar: .bar(start: weeks[index], end: weeks[index + 1]))
    }
    return SeriesOutput(
      user: "ada", chart: "training-volume", timeZone: "UTC", asOf: Date(epochSeconds: 1_795_996_799),
      range: BucketRange(2, .week)!, granularity: .week, measures: [.sessions, .volumeKg],
      domain: Extent(start: buckets[0].bar.start, end: buckets[1].bar.end), asOfBucket: 1, buckets: buckets,
      average: [.sessions: 2.5, .volumeKg: 6_325.25]
    ).withDerivedFields()
  }()

  public static func tableColumns(measures: [Measure], trend: Bool) -> [String] {
    let values = measures.map(\.rawValue)
    let trends = trend ? measures.map { $0.rawValue + "Trend" } : []
    return ["user", "date", "start", "end", "partial", "elapsed"] + values + trends
  }

  /// A row per bucket: its period, `elapsed`, each measure's value and, when smoothed, trend.
  ///
  /// - Complexity: O(*b* × *m*) for *b* buckets and *m* measures.
  public func appendTableRows(to rows: inout TableRows, trend: Bool) {
    for bucket in buckets {
      rows.period(user: user, id: bucket.id, start: bucket.start, end: bucket.end, partial: bucket.partial)
      rows.number(bucket.elapsed)
      for measure in measures { rows.number(bucket.values[measure]) }
      if trend { for measure in measures { rows.number(bucket.trend?[measure]) } }
      rows.endRow()
    }
  }
}
