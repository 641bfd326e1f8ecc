import Foundation

/// Distinct sessions per catalog muscle group per period (`trendline/heatmap@1`, SPEC section 7):
/// the data behind an anatomical heat map, where the body is the axis.
///
/// Every catalog group is listed in every period, zeros included, in catalog order: an app maps
/// ids onto body regions and must find each one, trained or not.
public struct HeatmapOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/heatmap@1"

  public struct Group: Decodable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var sessions: Int
    /// `sessions` ÷ the largest count of this output (all groups, all periods), 0…1.
    public var intensity: Double

    public init(id: Int, name: String, sessions: Int, intensity: Double) {
      self.id = id
      self.name = name
      self.sessions = sessions
      self.intensity = intensity
    }
  }

  public struct Period: Decodable, Sendable, Equatable {
    /// The local date the period starts on, `YYYY-MM-DD`: stable across runs.
    public var id: String
    public var start: Date
    public var end: Date
    public var partial: Bool
    public var groups: [Group]
    /// What a screen reader says for the period: `Week of 23 Nov 2026 (so far): Chest 2,
    /// Quadriceps 1`, the trained groups most first, or `nothing trained`
    /// (``ReadOut/heatmapPeriod(start:partial:groups:granularity:zone:)``). Written by
    /// ``HeatmapOutput/withDerivedFields()``.
    public var label: String = ""

    public init(id: String, start: Date, end: Date, partial: Bool, groups: [Group], label: String = "") {
      self.label = label
      self.id = id
      self.start = start
      self.end = end
      self.partial = partial
      self.groups = groups
    }
  }

  /// `schema, user, chart, timeZone, units, asOf`, as every user output starts (``ChartKind``
  /// gives each its own property).
  public var header: UserChartHeader
  /// Oldest first; the last one contains as-of.
  public var periods: [Period]
  /// The largest `sessions` of any group in any period, the count where `intensity` is 1: the
  /// legend's top (0 when nothing was trained).
  public var largest: Int
  /// The index in `periods` of the one a body figure shows first: the newest with a session,
  /// else the newest (on the 1st of a month the month so far is empty, and a blank figure reads
  /// as "no data"); `null` without periods.
  public var shownPeriod: Int?

  public init(user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, periods: [Period]) {
    self.header = UserChartHeader(
      schema: Self.schemaID, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    self.periods = periods
    self.largest = 0
    self = withDerivedFields()
  }

  /// This output with what its groups imply written out for an app: `largest`, `shownPeriod`
  /// and each period's `label`, every period named at the first one's granularity. The
  /// initializers call it; a caller that changes `periods` calls it again.
  ///
  /// - Complexity: O(*p* × *g* log *g*), where *p* is the number of periods and *g* of groups.
  public func withDerivedFields() -> HeatmapOutput {
    var output = self
    output.largest = periods.lazy.flatMap { $0.groups.lazy.map(\.sessions) }.max() ?? 0
    output.shownPeriod = periods.lastIndex { $0.groups.contains { $0.sessions > 0 } } ?? periods.indices.last
    output.periods.writeLabels(zone: timeZone) { period, granularity, zone in
      ReadOut.heatmapPeriod(
        start: period.start, partial: period.partial, groups: period.groups, granularity: granularity, zone: zone)
    }
    return output
  }

  enum CodingKeys: String, CodingKey { case periods, largest, shownPeriod }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    header = try UserChartHeader(from: decoder, schema: Self.schemaID)
    periods = try c.decode([Period].self, forKey: .periods).completed(zone: header.timeZone, asOf: header.asOf)
    // `largest`, `shownPeriod` and the labels were added to `trendline/heatmap@1` later: an older
    // file's are worked out as a run would write them.
    let largest = try c.decodeAdded(Int.self, forKey: .largest)
    self.largest = largest ?? 0
    shownPeriod = try c.decodeIfPresent(Int.self, forKey: .shownPeriod)
    if largest == nil || periods.contains(where: \.label.isEmpty) { self = withDerivedFields() }
  }
}

extension HeatmapOutput.Period: PeriodOfOutput {
  enum CodingKeys: String, CodingKey { case id, start, end, partial, groups, label }

  /// Decodes a period; `id`, added to this schema's version later, may be absent and is then
  /// the local start date (``completed(zone:asOf:)``).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decodeAdded(String.self, forKey: .id) ?? ""
    start = try c.decode(Date.self, forKey: .start)
    end = try c.decode(Date.self, forKey: .end)
    partial = try c.decode(Bool.self, forKey: .partial)
    groups = try c.decode([HeatmapOutput.Group].self, forKey: .groups)
    label = try c.decodeAdded(String.self, forKey: .label) ?? ""
  }

}

extension HeatmapOutput: OutputWritable {
  /// Writes SPEC 7's keys in order: `schema, user, chart, timeZone, units, asOf, periods`, then the
  /// drawing's `largest, shownPeriod`.
  ///
  /// - Complexity: O(*p* × *g*), where *p* is the number of periods and *g* of groups.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(header)
    writer.key("periods")
    try writer.array(periods)
    writer.member("largest", largest)
    writer.key("shownPeriod")
    if let shownPeriod { writer.number(shownPeriod) } else { writer.null() }
    writer.endObject()
  }
}

extension HeatmapOutput.Period: OutputWritable {
  /// Writes `id, start, end, partial, groups, label`.
  ///
  /// - Complexity: O(*g*), where *g* is the number of groups.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("start", start)
    writer.member("end", end)
    writer.member("partial", partial)
    writer.key("groups")
    try writer.array(groups)
    writer.member("label", label)
    writer.endObject()
  }
}

extension HeatmapOutput.Group: OutputWritable {
  /// Writes `id, name, sessions, intensity`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("name", name)
    writer.member("sessions", sessions)
    try writer.member("intensity", intensity)
    writer.endObject()
  }
}

extension HeatmapOutput: ChartKind {
  public static let kindName = "heatmap"

  /// A small output of this kind: November 2026 in UTC, chest trained three times and the
  /// lats twice. For an app's previews, and for the tests that check every kind
  /// (``ChartKind/example``).
  public static let example = HeatmapOutput(
    user: "ada", chart: "muscle-heatmap", timeZone: "UTC", asOf: Date(epochSeconds: 1_795_996_799),
    periods: [
      Period(
        id: "2026-11-01", start: Date(epochSeconds: 1_793_491_200), end: Date(epochSeconds: 1_796_083_200),
        partial: true,
        groups: [
          Group(id: 2, name: "Chest", sessions: 3, intensity: 1),
          Group(id: 9, name: "Latissimus dorsi", sessions: 2, intensity: 2.0 / 3),
        ])
    ])

  public static func tableColumns(measures: [Measure], trend: Bool) -> [String] {
    ["user", "date", "start", "end", "partial", "muscleGroupId", "muscleGroup", "sessions", "intensity"]
  }

  /// A row per period and muscle group.
  ///
  /// - Complexity: O(*p* × *g*) for *p* periods and *g* groups.
  public func appendTableRows(to rows: inout TableRows, trend: Bool) {
    for period in periods {
      for group in period.groups {
        rows.period(user: user, id: period.id, start: period.start, end: period.end, partial: period.partial)
        rows.number(group.id)
        rows.text(group.name)
        rows.number(group.sessions)
        rows.number(group.intensity)
        rows.endRow()
      }
    }
  }
}
