import Foundation
import TrendlineSchema
import TrendlineSupport

/// Compares users (SPEC 6 `compare`, SPEC 7 cohort schemas): gathers what each user's series
/// and radar charts hold, then reduces it to per-bucket statistics, shared value axes and a
/// ranking.
///
/// Gathering and reducing are separate so the same reduction runs whether all users were in
/// one process or spread over shards: a shard writes its gathered values as a partial file,
/// `trendline merge` adds the partials up, and the reduction sorts every list of values
/// before it sums or ranks them, so the result is byte-identical however users were split.
///
/// A cohort counts every user whose run succeeded and whose pipeline produced the chart:
/// users with no session in the window are counted with the zeros their chart shows (they
/// are part of the cohort, and leaving them out would flatter it); users that failed are not
/// counted, since their numbers are unknown, and the manifest lists them.
public struct Compare: Sendable, Equatable, Codable {
  public var quantiles: [Double]
  public var rankMeasure: Measure?
  public var rankTop: Int
  /// The day every weekly row starts on when the cohort is aligned (`compare.weekStart`): each
  /// user's compared weekly chart is then bucketed again with weeks starting that day, for the
  /// cohort only. Nil: rows start on Mondays, and a user's week that starts on another day
  /// joins the row of the Monday week that holds its start (the Monday 0…6 days before it).
  public var weekStart: Weekday?

  /// SPEC 6's defaults: the quartiles and the 90th percentile; the top ten users.
  public static let defaultQuantiles = [0.25, 0.5, 0.75, 0.9]
  public static let defaultRankTop = 10

  public init(
    quantiles: [Double] = Compare.defaultQuantiles, rankMeasure: Measure? = nil, rankTop: Int = Compare.defaultRankTop,
    weekStart: Weekday? = nil
  ) {
    self.quantiles = quantiles
    self.rankMeasure = rankMeasure
    self.rankTop = rankTop
    self.weekStart = weekStart
  }

  /// The weekday weekly rows start on: `weekStart`, or Monday.
  public var rowWeekday: Weekday { weekStart ?? .monday }

  // MARK: Gathering

  /// What a set of users contributes to one series chart's cohort, row by row: a row is the
  /// local start day its users' buckets join (``Compare/row(of:zone:granularity:rowWeekday:)``).
  public struct SeriesPart: Sendable, Equatable {
    public var range: BucketRange
    public var granularity: Granularity
    public var measures: [Measure]
    public var users: Int = 0
    /// Row → measure → one value per user with that bucket and a known value.
    public var buckets: [LocalDay: [Measure: [Double]]] = [:]
    /// Row → users with that bucket (each measure's list may be shorter: a user whose value is
    /// unknown is in this count but not in the list).
    public var counts: [LocalDay: Int] = [:]
    /// Row → users with at least one session in that bucket (absent: none).
    public var active: [LocalDay: Int] = [:]
    /// The rows of the users' partial buckets, ascending, each once.
    public var partial: [LocalDay] = []
    /// The best users by the rank measure, at most `rankTop` of them.
    public var ranking: [CohortSeriesOutput.Ranking.Entry] = []

    /// An empty part: what no user contributes.
    public init(range: BucketRange, granularity: Granularity, measures: [Measure]) {
      self.range = range
      self.granularity = granularity
      self.measures = measures
    }
  }

  /// What a set of users contributes to one radar chart's cohort.
  public struct RadarPart: Codable, Sendable, Equatable {
    public var period: Granularity
    public var axes: [RadarOutput.Axis]
    public var users: Int
    /// Per axis, one latest-period count per user.
    public var counts: [[Double]]
    /// Whether any user's latest period is still in progress (it holds as-of, SPEC 10.6).
    public var partial: Bool

    public init(
      period: Granularity, axes: [RadarOutput.Axis], users: Int = 0, counts: [[Double]]? = nil, partial: Bool = false
    ) {
      self.period = period
      self.axes = axes
      self.users = users
      self.counts = counts ?? Array(repeating: [], count: axes.count)
      self.partial = partial
    }
  }

  /// Adds one user's series chart to `part` (nil for the first user).
  ///
  /// - Complexity: O(*b* × *m*) with `part` uniquely held, where *b* is the number of buckets
  ///   and *m* of measures.
  public func add(_ series: SeriesOutput, to part: SeriesPart?) -> SeriesPart {
    var part = part ?? SeriesPart(range: series.range, granularity: series.granularity, measures: series.measures)
    add(series, into: &part)
    return part
  }

  /// Adds one user's series chart to `part` in place. A gatherer must add this way: a part
  /// passed by value is still held by its dictionary, so appending to it copied every value
  /// gathered so far, once per user: quadratic in the users.
  ///
  /// - Complexity: O(*b* × *m*), where *b* is the number of buckets and *m* of measures.
  public func add(_ series: SeriesOutput, into part: inout SeriesPart) {
    part.users += 1
    let zone = TimeZone(identifier: series.timeZone) ?? TimeZone(identifier: "UTC")!
    var total = 0.0
    for bucket in series.buckets {
      let key = Compare.row(of: bucket.start, zone: zone, granularity: series.granularity, rowWeekday: rowWeekday)
      part.counts[key, default: 0] += 1
      if bucket.sessions > 0 { part.active[key, default: 0] += 1 }
      if bucket.partial { part.partial = Compare.union(part.partial, [key]) }
      for measure in series.measures {
        // An unknown value (a best without a set, a duration no session states) is no user's 0:
        // it is left out of the statistics, which say how many users they cover.
        guard let value = bucket.values[measure] else { continue }
        part.buckets[key, default: [:]][measure, default: []].append(value)
        if measure == rankMeasure { total += value }
      }
    }
    // A ranking of who did most lists no one who did nothing: a user whose total is 0 (or
    // unknown throughout) is not a top user, however few users did more.
    if let rankMeasure, series.measures.contains(rankMeasure), total > 0 {
      part.ranking = top(part.ranking + [.init(user: series.user, value: total)])
    }
  }

  /// Adds one user's radar chart to `part`: the counts of its latest period, the one holding
  /// as-of.
  ///
  /// - Complexity: O(*a*), where *a* is the number of axes.
  public func add(_ radar: RadarOutput, period: Granularity, to part: RadarPart?) -> RadarPart {
    var part = part ?? RadarPart(period: period, axes: radar.axes)
    add(radar, into: &part)
    return part
  }

  /// Adds one user's radar chart to `part` in place (see the series one).
  ///
  /// - Complexity: O(*a*), where *a* is the number of axes.
  public func add(_ radar: RadarOutput, into part: inout RadarPart) {
    part.users += 1
    let latest = radar.periods.last?.counts ?? []
    if radar.periods.last?.partial == true { part.partial = true }
    for axis in part.axes.indices {
      part.counts[axis].append(axis < latest.count ? Double(latest[axis]) : 0)
    }
  }

  /// Two gathered parts of the same chart as one (shards, or workers).
  ///
  /// - Complexity: O(*v*), where *v* is the number of values in `other`.
  public func merge(_ part: SeriesPart, _ other: SeriesPart) -> SeriesPart {
    var merged = part
    merged.users += other.users
    for (key, measures) in other.buckets {
      for (measure, values) in measures { merged.buckets[key, default: [:]][measure, default: []] += values }
    }
    for (key, count) in other.counts { merged.counts[key, default: 0] += count }
    for (key, count) in other.active { merged.active[key, default: 0] += count }
    merged.partial = Compare.union(part.partial, other.partial)
    merged.ranking = top(part.ranking + other.ranking)
    return merged
  }

  /// - Complexity: O(*v*), where *v* is the number of values in `other`.
  public func merge(_ part: RadarPart, _ other: RadarPart) -> RadarPart {
    var merged = part
    merged.users += other.users
    for axis in merged.counts.indices where axis < other.counts.count { merged.counts[axis] += other.counts[axis] }
    merged.partial = part.partial || other.partial
    return merged
  }

  /// The best `rankTop` entries: highest value first, ties by user id so the order never
  /// depends on which user was seen first.
  private func top(_ entries: [CohortSeriesOutput.Ranking.Entry]) -> [CohortSeriesOutput.Ranking.Entry] {
    Array(
      entries.sorted {
        $0.value != $1.value ? $0.value > $1.value : $0.user.utf8.lexicographicallyPrecedes($1.user.utf8)
      }
      .prefix(rankTop))
  }

  // MARK: Reducing

  /// The cohort series of one chart, and the ranks its users are stamped with: both read the
  /// part's values sorted once (``CohortRanks``).
  ///
  /// - Complexity: O(*v* log *v*), where *v* is the number of gathered values.
  public func reduce(_ part: SeriesPart, chart: String, asOf: String) -> (
    cohort: CohortSeriesOutput, ranks: CohortRanks
  ) {
    let ranks = CohortRanks(part, compare: self)
    var (lowest, largest): (MeasureValues, MeasureValues) = ([:], [:])
    let buckets = part.counts.keys.sorted().map { day -> CohortSeriesOutput.Bucket in
      let rows = ranks.ascendingValues(of: day)
      var values: [Measure: CohortStats] = [:]
      for (position, measure) in part.measures.enumerated() {
        let sorted = rows?[position] ?? []
        values[measure] = stats(sorted)
        largest[measure] = max(largest[measure] ?? 0, sorted.last ?? 0)
        if let first = sorted.first { lowest[measure] = min(lowest[measure] ?? first, first) }
      }
      let active = part.active[day] ?? 0
      return .init(
        day: day, granularity: part.granularity, partial: part.partial.contains(day), n: part.counts[day]!,
        active: active, activeShare: Double(active) / Double(part.users), values: values)
    }
    var yAxis: [Measure: YAxis] = [:]
    for measure in part.measures {
      // A best's axis is fitted around every user's values (SPEC 11.8), a total's from 0.
      yAxis[measure] = YAxis(measure: measure, drawing: lowest[measure] ?? 0, largest[measure] ?? 0, units: .metric)
    }
    var ranking: CohortSeriesOutput.Ranking?
    if let rankMeasure, part.measures.contains(rankMeasure) {
      ranking = .init(measure: rankMeasure, top: rankTop, users: part.ranking)
    }
    var domain: Extent?
    if let first = buckets.first, let last = buckets.last {
      let (firstStart, lastStart) = (first.start.epochSeconds, last.start.epochSeconds)
      domain = Extent(
        start: Date(epochSeconds: firstStart - Emit.halfLength(first.end.epochSeconds - firstStart)),
        end: Date(epochSeconds: lastStart + Emit.halfLength(last.end.epochSeconds - lastStart)))
    }
    let cohort = CohortSeriesOutput(
      chart: chart, asOf: asOf, range: part.range, granularity: part.granularity, measures: part.measures,
      users: part.users, domain: domain, buckets: buckets, yAxis: yAxis, ranking: ranking)
    return (cohort, ranks)
  }

  /// The cohort radar of one chart.
  ///
  /// - Complexity: O(*v* log *v*), where *v* is the number of gathered counts.
  public func reduce(_ part: RadarPart, chart: String, asOf: String) -> CohortRadarOutput {
    let axes = part.axes.enumerated().map { index, axis in
      let sorted = part.counts[index].sorted()
      // A part exists only once a user was added, and every user has a count on every axis.
      return CohortRadarOutput.Axis(
        id: axis.id, label: axis.label,
        counts: stats(sorted) ?? CohortStats(n: 0, mean: 0, min: 0, max: 0, quantiles: []))
    }
    return CohortRadarOutput(
      chart: chart, asOf: asOf, period: part.period, partial: part.partial, users: part.users, axes: axes)
  }

  /// How many, mean, min, max and the pipeline's quantiles of ascending `sorted` values; nil
  /// for none, which is unknown, not 0.
  ///
  /// The mean sums the sorted values, so it does not depend on the order users were seen in.
  ///
  /// - Complexity: O(*n* + *q*).
  public func stats(_ sorted: [Double]) -> CohortStats? {
    guard let first = sorted.first, let last = sorted.last else { return nil }
    let named = quantiles.map { q in
      CohortStats.Quantile(name: CohortStats.quantileName(q), value: Compare.quantile(sorted, q))
    }
    return CohortStats(
      n: sorted.count, mean: sorted.reduce(0, +) / Double(sorted.count), min: first, max: last, quantiles: named)
  }

  /// `a` and `b`, both ascending without repeats, as one such list.
  ///
  /// - Complexity: O((*a* + *b*) log(*a* + *b*)); the lists hold a day or two.
  static func union(_ a: [LocalDay], _ b: [LocalDay]) -> [LocalDay] { Array(Set(a).union(b)).sorted() }

  /// Whether `day` is a row ``row(of:zone:granularity:rowWeekday:)`` can give for `granularity`:
  /// a day of the years as-of dates and their windows reach, the first of a month for months
  /// and a ``rowWeekday`` for weeks. Merge checks partials with it, so that a forged row cannot
  /// reach the date arithmetic of a row's instants or make a row of no period.
  ///
  /// - Complexity: O(1).
  public func isRow(_ day: LocalDay, granularity: Granularity) -> Bool {
    let civil = day.civil
    guard (1960...2210).contains(civil.year) else { return false }
    switch granularity {
    case .day: return true
    case .month: return civil.day == 1
    case .week: return Compare.daysPastRowWeekday(day.number, rowWeekday) == 0
    }
  }

  /// Quantile `q` of ascending `sorted` values by linear interpolation between closest ranks
  /// (numpy's default): at h = (n − 1) × q, x[⌊h⌋] + (h − ⌊h⌋) × (x[⌊h⌋ + 1] − x[⌊h⌋]).
  /// 0 for none.
  ///
  /// - Complexity: O(1).
  public static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let h = Double(sorted.count - 1) * q
    let low = Int(h.rounded(.down))
    let high = min(low + 1, sorted.count - 1)
    let t = h - Double(low)
    let difference = sorted[high] - sorted[low]
    // numpy's own interpolation: from the nearer end, so results match it to the last bit.
    return t >= 0.5 ? sorted[high] - difference * (1 - t) : sorted[low] + difference * t
  }

  /// Days from the latest `weekday` on or before the day `days` after 1970-01-01, 0…6.
  static func daysPastRowWeekday(_ days: Int64, _ weekday: Weekday) -> Int64 {
    LocalDay(days).daysIntoWeek(startingOn: Int64(weekday.calendarValue - 1))
  }

  /// A bucket's row in the cohort: its local start day, weeks moved back to the latest
  /// `rowWeekday` on or before it (0…6 days) so users whose weeks start on different days share
  /// rows. An aligned cohort's weeks already start on it, and stay.
  ///
  /// - Complexity: O(1).
  public static func row(of start: Date, zone: TimeZone, granularity: Granularity, rowWeekday: Weekday = .monday)
    -> LocalDay
  {
    LocalDay(
      rowDay(LocalDay(instant: start.epochSeconds, in: zone).number, granularity: granularity, rowWeekday: rowWeekday))
  }

  /// The row a bucket whose local start date is day `days` (since 1970-01-01) joins, as a day:
  /// the same day, or for weeks the row week that holds the start, the latest `rowWeekday` on or
  /// before it, as ``row(of:zone:granularity:rowWeekday:)`` gives it.
  ///
  /// Never a later day (SPEC 11.9): a Sunday-first week joined to the Monday after it put a row
  /// after as-of at the cohort's right edge, a week no one had started, drawn as a fall to zero.
  ///
  /// - Complexity: O(1).
  public static func rowDay(_ days: Int64, granularity: Granularity, rowWeekday: Weekday = .monday) -> Int64 {
    guard granularity == .week else { return days }
    return days - daysPastRowWeekday(days, rowWeekday)
  }
}

extension Compare.SeriesPart: Decodable {
  private enum CodingKeys: String, CodingKey {
    case range, granularity, measures, users, buckets, counts, active, partial, ranking
  }

  /// A row of a decoded part that is no `YYYY-MM-DD` date, named with its chart (and segment).
  public struct RowIsNoDate: Error, CustomStringConvertible {
    public var description: String
  }

  /// A part as a shard's partial file holds it, its rows `YYYY-MM-DD` (``LocalDay/text``). A row
  /// that is no such date fails the decoding with ``RowIsNoDate``, naming it (the first in byte
  /// order, so a partial with several names the same one on every run): read back as a day it
  /// would not write back as the same text, and the partial's checksum, which re-encodes it,
  /// would disagree.
  ///
  /// - Complexity: O(*v* + *r* log *r*), where *v* is the number of values and *r* of rows.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    // `series.<chart>` or `segments.<value>.series.<chart>`: what the error names.
    let path = decoder.codingPath.map(\.stringValue)
    let place =
      (path.count >= 4 && path[0] == "segments" ? "segment '\(TerminalText.escaped(path[1]))': " : "")
      + "chart '\(TerminalText.escaped(path.last ?? ""))'"
    func day(_ text: String) throws -> LocalDay {
      guard let day = LocalDay(text: text) else {
        throw RowIsNoDate(
          description: "\(place) has a row '\(TerminalText.escaped(text))' that is not a YYYY-MM-DD date")
      }
      return day
    }
    func rows<Value>(_ keyed: [String: Value]) throws -> [LocalDay: Value] {
      var rows: [LocalDay: Value] = [:]
      for text in keyed.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
        rows[try day(text)] = keyed[text]
      }
      return rows
    }
    range = try c.decode(BucketRange.self, forKey: .range)
    granularity = try c.decode(Granularity.self, forKey: .granularity)
    measures = try c.decode([Measure].self, forKey: .measures)
    users = try c.decode(Int.self, forKey: .users)
    counts = try rows(c.decode([String: Int].self, forKey: .counts))
    buckets = try rows(c.decode([String: [Measure: [Double]]].self, forKey: .buckets))
    active = try rows(c.decode([String: Int].self, forKey: .active))
    partial = try c.decode([String].self, forKey: .partial).map(day)
    ranking = try c.decode([CohortSeriesOutput.Ranking.Entry].self, forKey: .ranking)
  }
}
