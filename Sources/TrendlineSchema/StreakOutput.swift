import Foundation

/// Consistency against a target (`trendline/streak@1`): which periods met it (for example at
/// least two sessions a week), the current and the longest run of periods that did, and the
/// share of complete periods that did.
///
/// The period holding as-of is still under way: it never breaks a streak and never counts
/// against the share. It extends the current streak once it has met the target
/// (`includesPartial`), so a user who trained twice this week sees the week counted at once.
public struct StreakOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/streak@1"

  public struct Period: Decodable, Sendable, Equatable {
    /// The local date the period starts on, `YYYY-MM-DD`: stable across runs.
    public var id: String
    public var start: Date
    public var end: Date
    public var partial: Bool
    /// The measure's value; `null` when it has none (a best, such as `topSetKg`, in a period
    /// without a weighted set), which does not meet the target.
    public var value: Double?
    public var met: Bool
    /// What a screen reader says for the period's square, as the SVG does: `23 Nov 2026: 2, met`,
    /// `30 Nov 2026: 1 so far` (the period under way is not missed yet), `… no value, missed`
    /// (``ReadOut/streakPeriod(start:partial:value:met:measure:zone:units:)``).
    public var label: String = ""

    public init(id: String, start: Date, end: Date, partial: Bool, value: Double?, met: Bool) {
      self.id = id
      self.start = start
      self.end = end
      self.partial = partial
      self.value = value
      self.met = met
    }
  }

  /// A run of consecutive periods that met the target; `start` and `end` are `null` for a run
  /// of length 0.
  public struct Run: Decodable, Sendable, Equatable {
    public var length: Int
    /// The first period's start and the last period's end.
    public var start: Date?
    public var end: Date?
    /// Whether the run's last period is the one still under way.
    public var includesPartial: Bool

    public init(length: Int, start: Date?, end: Date?, includesPartial: Bool) {
      self.length = length
      self.start = start
      self.end = end
      self.includesPartial = includesPartial
    }
  }

  /// `schema, user, chart, timeZone, units, asOf`, as every user output starts (``ChartKind``
  /// gives each its own property).
  public var header: UserChartHeader
  public var range: BucketRange
  public var granularity: Granularity
  public var measure: Measure
  public var atLeast: Double
  /// The run that ends at the latest complete period, or at the period under way when that
  /// has met the target already.
  public var current: Run
  public var longest: Run
  /// Complete periods, and those of them that met the target.
  public var complete: Int
  public var met: Int
  /// `met ÷ complete`; `null` with no complete period.
  public var share: Double?
  /// Every period of the window, oldest first.
  public var periods: [Period]
  /// The streak read out, the SVG's summary under its target: `Weeks with at least 2 sessions:
  /// current 3 weeks · longest 5 · 67 % of 12 complete weeks met`.
  public var label: String = ""

  public init(
    user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, range: BucketRange,
    granularity: Granularity,
    measure: Measure, atLeast: Double, current: Run, longest: Run, complete: Int, met: Int, share: Double?,
    periods: [Period]
  ) {
    self.header = UserChartHeader(
      schema: Self.schemaID, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    self.range = range
    self.granularity = granularity
    self.measure = measure
    self.atLeast = atLeast
    self.current = current
    self.longest = longest
    self.complete = complete
    self.met = met
    self.share = share
    self.periods = periods
    self = withDerivedFields()
  }

  /// This output with its read-outs written, in its `units` and zone: `label` and each period's.
  /// The initializers call it, and so does ``ChartOutput/with(units:)``.
  ///
  /// - Complexity: O(*p*), where *p* is the number of periods.
  public func withDerivedFields() -> StreakOutput {
    var output = self
    let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
    let unit = granularity.rawValue
    output.label =
      unit.prefix(1).uppercased() + unit.dropFirst() + "s with at least "
      + ReadOut.streakTarget(atLeast, measure, units) + ": "
      + ReadOut.streakSummary(
        current: current.length, longest: longest.length, share: share, complete: complete, granularity: granularity)
    for index in output.periods.indices {
      let period = output.periods[index]
      output.periods[index].label = ReadOut.streakPeriod(
        start: period.start, partial: period.partial, value: period.value, met: period.met, measure: measure,
        zone: zone, units: units)
    }
    return output
  }

  enum CodingKeys: String, CodingKey {
    case range, granularity, measure, atLeast, current, longest, complete, met, share, periods, label
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    header = try UserChartHeader(from: decoder, schema: Self.schemaID)
    range = try c.decode(BucketRange.self, forKey: .range)
    granularity = try c.decode(Granularity.self, forKey: .granularity)
    measure = try c.decode(Measure.self, forKey: .measure)
    atLeast = try c.decode(Double.self, forKey: .atLeast)
    current = try c.decode(Run.self, forKey: .current)
    longest = try c.decode(Run.self, forKey: .longest)
    complete = try c.decode(Int.self, forKey: .complete)
    met = try c.decode(Int.self, forKey: .met)
    share = try c.decodeIfPresent(Double.self, forKey: .share)
    periods = try c.decode([Period].self, forKey: .periods).completed(zone: header.timeZone, asOf: header.asOf)
    // The labels were added to `trendline/streak@1` later: an older file's are written here.
    label = try c.decodeAdded(String.self, forKey: .label) ?? ""
    if label.isEmpty || periods.contains(where: \.label.isEmpty) { self = withDerivedFields() }
  }
}

extension StreakOutput.Period: PeriodOfOutput {
  enum CodingKeys: String, CodingKey { case id, start, end, partial, value, met, label }

  /// Decodes a period; `id`, added to this schema's version later, may be absent and is then
  /// the local start date (``completed(zone:asOf:)``).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decodeAdded(String.self, forKey: .id) ?? ""
    start = try c.decode(Date.self, forKey: .start)
    end = try c.decode(Date.self, forKey: .end)
    partial = try c.decode(Bool.self, forKey: .partial)
    value = try c.decodeIfPresent(Double.self, forKey: .value)
    met = try c.decode(Bool.self, forKey: .met)
    label = try c.decodeAdded(String.self, forKey: .label) ?? ""
  }

}

extension StreakOutput: OutputWritable {
  /// Writes the keys in declaration order: `schema, user, chart, timeZone, units, asOf, range,
  /// granularity, measure, atLeast, current, longest, complete, met, share, periods, label`.
  ///
  /// - Complexity: O(*p*), where *p* is the number of periods.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(header)
    writer.member("range", range.rawValue)
    writer.member("granularity", granularity.rawValue)
    writer.member("measure", measure.rawValue)
    try writer.member("atLeast", atLeast)
    writer.key("current")
    current.write(to: &writer)
    writer.key("longest")
    longest.write(to: &writer)
    writer.member("complete", complete)
    writer.member("met", met)
    writer.key("share")
    if let share { try writer.number(share) } else { writer.null() }
    writer.key("periods")
    try writer.array(periods)
    writer.member("label", label)
    writer.endObject()
  }
}

extension StreakOutput.Run {
  /// Writes `length, start, end, includesPartial`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("length", length)
    writer.key("start")
    if let start { writer.instant(start) } else { writer.null() }
    writer.key("end")
    if let end { writer.instant(end) } else { writer.null() }
    writer.member("includesPartial", includesPartial)
    writer.endObject()
  }
}

extension StreakOutput.Period: OutputWritable {
  /// Writes `id, start, end, partial, value, met, label`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("start", start)
    writer.member("end", end)
    writer.member("partial", partial)
    writer.key("value")
    if let value { try writer.number(value) } else { writer.null() }
    writer.member("met", met)
    writer.member("label", label)
    writer.endObject()
  }
}

extension StreakOutput: ChartKindWordedInUnits {
  public static let kindName = "streak"

  /// A small output of this kind: two Monday weeks in UTC to 29 Nov 2026 against 2 sessions a
  /// week, the first met. For an app's previews, and for the tests that check every kind
  /// (``ChartKind/example``).
  public static let example: StreakOutput = {
    let weeks = [1_794_787_200, 1_795_392_000, 1_795_996_800].map { Date(epochSeconds: $0) }
    return StreakOutput(
      user: "ada", chart: "twice-a-week", timeZone: "UTC", asOf: Date(epochSeconds: 1_795_996_799),
      range: BucketRange(2, .week)!, granularity: .week, measure: .sessions, atLeast: 2,
      current: Run(length: 0, start: nil, end: nil, includesPartial: false),
      longest: Run(length: 1, start: weeks[0], end: weeks[1], includesPartial: false), complete: 2, met: 1,
      share: 0.5,
      periods: [
        Period(id: "2026-11-16", start: weeks[0], end: weeks[1], partial: false, value: 2, met: true),
        Period(id: "2026-11-23", start: weeks[1], end: weeks[2], partial: false, value: 1, met: false),
      ])
  }()

  public static func tableColumns(measures: [Measure], trend: Bool) -> [String] {
    ["user", "date", "start", "end", "partial", "value", "met"]
  }

  /// A row per period.
  ///
  /// - Complexity: O(*p*) for *p* periods.
  public func appendTableRows(to rows: inout TableRows, trend: Bool) {
    for period in periods {
      rows.period(user: user, id: period.id, start: period.start, end: period.end, partial: period.partial)
      rows.number(period.value)
      rows.bool(period.met)
      rows.endRow()
    }
  }
}
