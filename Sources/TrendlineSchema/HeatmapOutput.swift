import Foundation

/// Distinct sessions per catalog muscle group per period (`trendline/heatmap@1`, SPEC section 7):
/// the data behind an anatomical heat map, where the body is the axis.
///
/// Every catalog group is listed in every period, zeros included, in catalog order: an app maps
/// ids onto body regions and must find each one, trained or not.
public struct HeatmapOutput: Codable, Sendable, Equatable {
  public static let schemaID = "trendline/heatmap@1"

  public struct Group: Codable, Sendable, Equatable {
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

  public struct Period: Codable, Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var partial: Bool
    public var groups: [Group]

    public init(start: Date, end: Date, partial: Bool, groups: [Group]) {
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
  public var asOf: Date
  /// Oldest first; the last one contains as-of.
  public var periods: [Period]

  public init(user: String, chart: String, timeZone: String, asOf: Date, periods: [Period]) {
    self.schema = Self.schemaID
    self.user = user
    self.chart = chart
    self.timeZone = timeZone
    self.asOf = asOf
    self.periods = periods
  }

  enum CodingKeys: String, CodingKey { case schema, user, chart, timeZone, asOf, periods }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schema = try decodeSchema(c, key: .schema, expected: Self.schemaID)
    user = try c.decode(String.self, forKey: .user)
    chart = try c.decode(String.self, forKey: .chart)
    timeZone = try c.decode(String.self, forKey: .timeZone)
    asOf = try c.decode(Date.self, forKey: .asOf)
    periods = try c.decode([Period].self, forKey: .periods)
  }
}
