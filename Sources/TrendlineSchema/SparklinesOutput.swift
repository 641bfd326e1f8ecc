import Foundation

/// One small line per exercise over a window that ends at as-of (`trendline/sparklines@1`,
/// SPEC section 7).
///
/// `domain` is the window itself, not the span of the data: every line of the output, and of
/// every user, is drawn on the same time axis, so a line that stops early shows that the
/// exercise stopped.
public struct SparklinesOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/sparklines@1"

  /// What a point's `v` measures, per session.
  public enum Value: String, Codable, Sendable, CaseIterable {
    /// The heaviest counted set, kg.
    case topSetKg
    /// The best Epley estimate w × (1 + reps / 30) over counted sets; a single rep is w.
    case e1rmKg
    /// Σ weight × reps over counted sets, kg.
    case volumeKg
    /// The most reps in one counted set.
    case reps
  }

  public struct Point: Decodable, Sendable, Equatable {
    /// The session's start.
    public var t: Date
    public var v: Double
    public init(t: Date, v: Double) {
      self.t = t
      self.v = v
    }
  }

  public struct Line: Decodable, Sendable, Equatable {
    /// The catalog's name, or the trimmed NFC name for an exercise outside the catalog.
    public var exercise: String
    /// Oldest first.
    public var points: [Point]
    public init(exercise: String, points: [Point]) {
      self.exercise = exercise
      self.points = points
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
  public var value: Value
  public var windowDays: Int
  public var domain: Extent
  /// Most recently trained first; ties by name.
  public var lines: [Line]

  public init(
    user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, value: Value, windowDays: Int,
    domain: Extent, lines: [Line]
  ) {
    self.schema = Self.schemaID
    self.user = user
    self.chart = chart
    self.timeZone = timeZone
    self.units = units
    self.asOf = asOf
    self.value = value
    self.windowDays = windowDays
    self.domain = domain
    self.lines = lines
  }

  enum CodingKeys: String, UserOutputCodingKey {
    case schema, user, chart, timeZone, asOf, value, windowDays, domain, lines
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    (schema, user, chart, timeZone, asOf) = try UserOutputHeader.decode(c, schema: Self.schemaID)
    units = try UserOutputHeader.units(decoder)
    value = try c.decode(Value.self, forKey: .value)
    windowDays = try c.decode(Int.self, forKey: .windowDays)
    domain = try c.decode(Extent.self, forKey: .domain)
    lines = try c.decode([Line].self, forKey: .lines)
  }
}

extension SparklinesOutput: OutputWritable {
  /// Writes SPEC 7's keys in order: `schema, user, chart, timeZone, units, asOf, value, windowDays,
  /// domain, lines`.
  ///
  /// - Complexity: O(*p*), where *p* is the number of points.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(
      schema: schema, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    writer.member("value", value.rawValue)
    writer.member("windowDays", windowDays)
    writer.key("domain")
    domain.write(to: &writer)
    writer.key("lines")
    try writer.array(lines)
    writer.endObject()
  }
}

extension SparklinesOutput.Line: OutputWritable {
  /// Writes `exercise, points`.
  ///
  /// - Complexity: O(*p*), where *p* is the number of points.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("exercise", exercise)
    writer.key("points")
    try writer.array(points)
    writer.endObject()
  }
}

extension SparklinesOutput.Point: OutputWritable {
  /// Writes `t, v`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("t", t)
    try writer.member("v", v)
    writer.endObject()
  }
}
