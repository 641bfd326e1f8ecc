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

    public init(id: String, start: Date, end: Date, partial: Bool, groups: [Group]) {
      self.id = id
      self.start = start
      self.end = end
      self.partial = partial
      self.groups = groups
    }
  }

  public var schema: String
  public var user: String
  public var chart: String
  public var timeZone: String
  /// The units everything drawn from this output shows values in; the numbers here stay in
  /// kilograms, metres and seconds (SPEC 10.8).
  public var units: Units
  public var asOf: Date
  /// Oldest first; the last one contains as-of.
  public var periods: [Period]

  public init(user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, periods: [Period]) {
    self.schema = Self.schemaID
    self.user = user
    self.chart = chart
    self.timeZone = timeZone
    self.units = units
    self.asOf = asOf
    self.periods = periods
  }

  enum CodingKeys: String, UserOutputCodingKey { case schema, user, chart, timeZone, asOf, periods }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    (schema, user, chart, timeZone, asOf) = try UserOutputHeader.decode(c, schema: Self.schemaID)
    units = try UserOutputHeader.units(decoder)
    periods = try c.decode([Period].self, forKey: .periods).completed(zone: timeZone, asOf: asOf)
  }
}

extension HeatmapOutput.Period: PeriodOfOutput {
  enum CodingKeys: String, CodingKey { case id, start, end, partial, groups }

  /// Decodes a period; `id`, added to this schema's version later, may be absent and is then
  /// the local start date (``completed(zone:asOf:)``).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decodeAdded(String.self, forKey: .id) ?? ""
    start = try c.decode(Date.self, forKey: .start)
    end = try c.decode(Date.self, forKey: .end)
    partial = try c.decode(Bool.self, forKey: .partial)
    groups = try c.decode([HeatmapOutput.Group].self, forKey: .groups)
  }

}

extension HeatmapOutput: OutputWritable {
  /// Writes SPEC 7's keys in order: `schema, user, chart, timeZone, units, asOf, periods`.
  ///
  /// - Complexity: O(*p* × *g*), where *p* is the number of periods and *g* of groups.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(
      schema: schema, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    writer.key("periods")
    try writer.array(periods)
    writer.endObject()
  }
}

extension HeatmapOutput.Period: OutputWritable {
  /// Writes `id, start, end, partial, groups`.
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
