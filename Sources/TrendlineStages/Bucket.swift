import Foundation
import TrendlineSchema
import TrendlineSupport

/// Counts sessions into whole calendar periods of the user's calendar (SPEC 5 and 9.2).
///
/// It keeps only the buckets that have sessions (SPEC 9.8); `FillGaps` puts the empty periods
/// back. It does not cut the first bucket at the window start: the first bucket is a whole
/// period and counts every session in it, so no bucket is drawn short.
public struct Bucket: Sendable, Equatable {
  /// How periods are chosen: `auto` picks by range, the others fix it.
  public enum GranularitySetting: String, Sendable, CaseIterable {
    case auto, day, week, month
  }

  /// Without `granularity`, periods are picked by range.
  public static let defaultGranularity = GranularitySetting.auto

  public var range: BucketRange
  public var granularity: GranularitySetting
  public var measures: [Measure]

  public init(range: BucketRange, granularity: GranularitySetting = Bucket.defaultGranularity, measures: [Measure]) {
    self.range = range
    self.granularity = granularity
    self.measures = measures
  }

  /// The granularity written to the output: days for a range of up to 31 days (1w, 1m), weeks
  /// up to 186 (3m, 6m, 26w), months beyond and for `all` (1y, 18m, 2y).
  ///
  /// These keep a chart between about 7 and 31 bars up to a year, readable on a phone.
  public var resolvedGranularity: Granularity {
    switch granularity {
    case .day: return .day
    case .week: return .week
    case .month: return .month
    case .auto:
      guard let days = range.approximateDays else { return .month }
      return days <= 31 ? .day : days <= 186 ? .week : .month
    }
  }

  /// The first instant of the window `[asOf − range, asOf]`, by calendar arithmetic in the
  /// user's zone (a month back from 31 March is 29 February in a leap year); for `all`, the
  /// first session's start, or nil when no session starts at or before as-of.
  ///
  /// - Complexity: O(1) calendar calls.
  public func windowStart(_ sessions: [Session], calendar: UserCalendar, asOf: Int64) -> Int64? {
    let component: Calendar.Component
    let amount: Int
    switch range.unit {
    case .day: (component, amount) = (.day, -range.count)
    case .week: (component, amount) = (.day, -7 * range.count)
    case .month: (component, amount) = (.month, -range.count)
    case .year: (component, amount) = (.year, -range.count)
    case nil:
      guard let first = sessions.first, first.start <= asOf else { return nil }
      return first.start
    }
    guard
      let start = calendar.calendar.date(
        byAdding: component, value: amount, to: Date(epochSeconds: asOf))
    else {
      preconditionFailure(
        "the Gregorian calendar can step \(amount) \(component) back from \(asOf)")
    }
    return start.epochSeconds
  }

  /// The most buckets one chart holds: 54 years of days, 380 of weeks. Only `range: all`
  /// can reach it, and only by day or week over decades (a forged 1970 session before a far
  /// as-of made a 31 MB JSON, a 38 MB SVG and a 45 MB page for one chart).
  public static let maxBuckets = 20_000

  /// Why this bucket stage cannot run for a user, or nil: the window from the first session
  /// would hold more than ``maxBuckets`` periods.
  ///
  /// - Complexity: O(1).
  public func sizeProblem(_ sessions: [Session], calendar: UserCalendar, asOf: Int64) -> String? {
    guard range == .all, let start = windowStart(sessions, calendar: calendar, asOf: asOf) else { return nil }
    let granularity = resolvedGranularity
    let seconds: Int64
    switch granularity {
    case .day: seconds = 86_400
    case .week: seconds = 7 * 86_400
    case .month: seconds = 28 * 86_400
    }
    // An upper estimate (a month counted as 28 days): the limit is on the order of magnitude.
    let periods = (asOf - start) / seconds + 1
    guard periods > Self.maxBuckets else { return nil }
    return
      "range 'all' by \(granularity.rawValue) from the first session, "
      + "\(RFC3339.format(seconds: start, timeZone: calendar.timeZone).prefix(10)), "
      + "would hold about \(periods) buckets, over the limit of \(Self.maxBuckets); "
      + "use a coarser granularity or a shorter range"
  }

  /// Buckets `sessions` (sorted by start) for a user with `calendar` as of `asOf`.
  ///
  /// Sessions starting after `asOf` are not used. A session belongs to the bucket containing its
  /// start; a session at local 00:00 starts the new day.
  ///
  /// - Complexity: O(*p* + *n*) plus one calendar call (the window's start), where *p* is the
  ///   number of periods in the window and *n* the number of sessions.
  public func apply(_ sessions: [Session], calendar: UserCalendar, asOf: Int64) -> BucketedSeries {
    let granularity = resolvedGranularity
    guard let windowStart = windowStart(sessions, calendar: calendar, asOf: asOf) else {
      return BucketedSeries(
        range: range, granularity: granularity, measures: measures, asOf: asOf, periods: nil,
        buckets: [])
    }
    let periods = Periods(granularity, from: windowStart, through: asOf, calendar: calendar)
    // Whether any session up to as-of, in the window or before it, states a duration.
    let durationRecorded = sessions.contains { $0.start <= asOf && $0.durationSeconds != nil }
    var sessionCounts = [Int](repeating: 0, count: periods.count)
    // Sessions with a known duration: a period whose sessions all lack one has an unknown
    // duration, not 0 minutes (SPEC 10.3).
    var knownDurations = [Int](repeating: 0, count: periods.count)
    // One column per measure, by ordinal. A best starts at -∞, which no set reaches: a bucket
    // whose best is still -∞ has no value for it.
    let empty = Measure.allCases.map { $0.isBest ? -Double.infinity : 0 }
    var totals = [[Double]](repeating: empty, count: periods.count)
    let perSet = measures.contains { [.topSetKg, .e1rmKg, .reps, .distanceM].contains($0) }
    // Records need every session up to as-of, not only the window's: a record beats all
    // earlier sets of its exercise.
    let records = measures.contains(.records) ? RecordBook(sessions, through: asOf).newRecords : []
    // Sessions are sorted, so one pointer walks the periods alongside them: no search per session.
    var period = 0
    var previousStart = Int64.min
    var bestBefore = empty
    for (index, session) in sessions.enumerated() {
      precondition(session.start >= previousStart, "Bucket.apply takes sessions sorted by start")
      previousStart = session.start
      if session.start > asOf { break }
      if session.start < periods.start(0) {
        if perSet { Self.addBests(session, to: &bestBefore) }
        continue
      }
      while session.start >= periods.end(period) { period += 1 }
      sessionCounts[period] += 1
      totals[period][0] += 1
      totals[period][1] += Double(session.setCount)
      if let duration = session.durationSeconds {
        totals[period][2] += Double(duration)
        knownDurations[period] += 1
      }
      totals[period][3] += session.volumeKg
      if perSet {
        Self.addBests(session, to: &totals[period])
        for set in session.sets {
          totals[period][6] += set.reps
          totals[period][7] += set.distanceMeters
        }
      }
      if !records.isEmpty { totals[period][8] += Double(records[index]) }
    }
    var buckets: [BucketedSeries.Bucket] = []
    for index in 0..<periods.count where sessionCounts[index] > 0 {
      buckets.append(
        BucketedSeries.Bucket(
          start: periods.start(index), end: periods.end(index), partial: periods.isPartial(index, asOf: asOf),
          sessions: sessionCounts[index],
          values: Self.values(totals[index], durationKnown: knownDurations[index] > 0, measures: measures)))
    }
    var series = BucketedSeries(
      range: range, granularity: granularity, measures: measures, asOf: asOf, periods: periods,
      buckets: buckets, unrecorded: durationRecorded || !measures.contains(.durationSeconds) ? [] : [.durationSeconds])
    for measure in measures where measure.isBest && bestBefore[measure.ordinal] > -Double.infinity {
      series.bestBefore[measure] = bestBefore[measure.ordinal]
    }
    return series
  }

  /// Raises the bests in `totals` (by ordinal) to `session`'s: its heaviest weighted set and its
  /// best estimated one-rep max.
  ///
  /// - Complexity: O(*s*) for the session's *s* sets.
  private static func addBests(_ session: Session, to totals: inout [Double]) {
    for set in session.sets {
      if set.weightKg > 0 { totals[4] = max(totals[4], set.weightKg) }
      if let e1rm = set.e1rmKg { totals[5] = max(totals[5], e1rm) }
    }
  }

  /// The bucket's value of each measure; what is unknown is left out: a best no set reached,
  /// and the duration when none of the bucket's sessions has one.
  private static func values(_ totals: [Double], durationKnown: Bool, measures: [Measure]) -> MeasureValues {
    var values: MeasureValues = [:]
    for measure in measures where totals[measure.ordinal] > -Double.infinity {
      if measure == .durationSeconds && !durationKnown { continue }
      values[measure] = totals[measure.ordinal]
    }
    return values
  }
}

extension Bucket: BucketingStage {
  public static let key = "bucket"
  public static let summary =
    "Counts sessions into whole calendar periods over a range back from as-of (SPEC 5)."
  public static let reads: [StageData] = [.sessions]
  public static let produces = StageData.buckets
  static let parameterKeys = ["range", "granularity", "measures"]

  /// `{"range": "3m", "granularity": "auto", "measures": ["sessions", …]}`; a measure listed
  /// twice is refused, since its column would be written twice under one key.
  ///
  /// - Complexity: O(*m*²) for *m* measures.
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Bucket? {
    let reader = context.reader
    guard let members = reader.object(value, at: path, keys: parameterKeys, required: ["range", "measures"]) else {
      return nil
    }
    let range: BucketRange? = members["range"].flatMap { value in
      guard let text = reader.string(value, at: path.appending("range")) else { return nil }
      guard let range = BucketRange(rawValue: text) else {
        reader.report(path.appending("range"), "unknown range '\(text)'", hint: "Use " + BucketRange.spelling)
        return nil
      }
      return range
    }
    var granularity = defaultGranularity
    var granularityValid = true
    if let value = members["granularity"] {
      let given: GranularitySetting? = reader.choice(value, at: path.appending("granularity"), what: "granularity")
      granularityValid = given != nil
      granularity = given ?? defaultGranularity
    }
    var measures: [Measure] = []
    var measuresValid = false
    if let value = members["measures"],
      let elements = reader.array(value, at: path.appending("measures"), nonEmpty: true)
    {
      measuresValid = true
      for (index, element) in elements.enumerated() {
        let elementPath = path.appending("measures").appending(index)
        guard let measure: Measure = reader.choice(element, at: elementPath, what: "measure") else {
          measuresValid = false
          continue
        }
        if measures.contains(measure) {
          context.report(elementPath, .measureListedTwice(measure))
          measuresValid = false
        } else {
          measures.append(measure)
        }
      }
    }
    guard let range, granularityValid, measuresValid else { return nil }
    return Bucket(range: range, granularity: granularity, measures: measures)
  }

  public var settings: [String] {
    let shown =
      granularity == .auto ? "\(resolvedGranularity.rawValue) (auto)" : resolvedGranularity.rawValue
    return [
      "range \(range.rawValue), granularity \(shown), measures "
        + measures.map(\.rawValue).joined(separator: ", ")
    ]
  }

  /// ``apply(_:calendar:asOf:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:calendar:asOf:)``.
  public func apply(_ sessions: [Session], in context: ChartContext) -> BucketedSeries {
    apply(sessions, calendar: context.calendar, asOf: context.asOf)
  }

  /// ``sizeProblem(_:calendar:asOf:)`` in a chart.
  ///
  /// - Complexity: O(1).
  public func sizeProblem(_ sessions: [Session], in context: ChartContext) -> String? {
    sizeProblem(sessions, calendar: context.calendar, asOf: context.asOf)
  }
}
