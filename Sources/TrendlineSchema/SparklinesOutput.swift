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
    /// A weight value whose every point is 0: an exercise with no load recorded (a plank, a
    /// run), whose values are unknown rather than 0 kg. Said in words ("no load recorded"),
    /// never drawn as a flat line at 0 kg.
    public var noLoad: Bool = false
    /// The line's own y domain, in the points' units (kg or reps): their range widened about its
    /// middle to at least a fifth of the largest value (``SparklinesOutput/fittedDomain(_:)``);
    /// `null` for a line with no load, which is not drawn.
    public var yDomain: AxisDomain?
    /// The latest value as the SVG writes it beside the line, in the user's units: `225 lb`,
    /// `12 reps`; `null` for a line with no load or no point.
    public var latestLabel: String?
    /// What a screen reader says for the line: `Bench Press: latest 225 lb, 5 sessions in the
    /// window`, or `Plank: no load recorded, 3 sessions in the window`.
    public var label: String = ""

    public init(exercise: String, points: [Point]) {
      self.exercise = exercise
      self.points = points
    }

    enum CodingKeys: String, CodingKey { case exercise, points, noLoad, yDomain, latestLabel, label }

    /// Decodes a line; the keys after `points`, added to `trendline/sparklines@1` later, may be
    /// absent and are then worked out by the output (``SparklinesOutput/withDerivedFields()``).
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      exercise = try c.decode(String.self, forKey: .exercise)
      points = try c.decode([Point].self, forKey: .points)
      noLoad = try c.decodeAdded(Bool.self, forKey: .noLoad) ?? false
      yDomain = try c.decodeIfPresent(AxisDomain.self, forKey: .yDomain)
      latestLabel = try c.decodeIfPresent(String.self, forKey: .latestLabel)
      label = try c.decodeAdded(String.self, forKey: .label) ?? ""
    }
  }

  /// The smallest y span of a line, as a share of its largest value.
  public static let minimumSpan = 0.2

  /// A sparkline's y domain for `values`: their range, widened about its middle to at least
  /// ``minimumSpan`` of the largest magnitude (1 when that is 0), so a flat line sits in the
  /// middle and a 2.5 kg change on an 80 kg top set moves the line an eighth of its height, not
  /// all of it. A sparkline shows a shape, so each line has its own.
  ///
  /// - Complexity: O(*n*), where *n* is the number of values.
  public static func fittedDomain(_ values: [Double]) -> AxisDomain {
    let low = values.min() ?? 0
    let high = values.max() ?? 0
    let span = max(high - low, max(abs(low), abs(high)) * minimumSpan, high == low && high == 0 ? 1 : 0)
    let middle = (low + high) / 2
    // Never past the values: middle ± half the span can land an ulp inside them (24.94758035
    // kg came out as …006), and an app that clips to the domain would drop that point.
    return AxisDomain(min: Swift.min(low, middle - span / 2), max: Swift.max(high, middle + span / 2))
  }

  /// Whether `points` of `value` have no load: a weight whose every point is 0.
  ///
  /// - Complexity: O(*n*), where *n* is the number of points.
  public static func hasNoLoad(_ points: [Point], _ value: Value) -> Bool {
    value != .reps && points.allSatisfy { $0.v == 0 }
  }

  /// `schema, user, chart, timeZone, units, asOf`, as every user output starts (``ChartKind``
  /// gives each its own property).
  public var header: UserChartHeader
  public var value: Value
  public var windowDays: Int
  public var domain: Extent
  /// Most recently trained first; ties by name.
  public var lines: [Line]

  public init(
    user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, value: Value, windowDays: Int,
    domain: Extent, lines: [Line]
  ) {
    self.header = UserChartHeader(
      schema: Self.schemaID, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    self.value = value
    self.windowDays = windowDays
    self.domain = domain
    self.lines = lines
    self = withDerivedFields()
  }

  /// This output with what its points imply written out for an app, in its `units`: each line's
  /// `noLoad`, `yDomain`, `latestLabel` and `label`. The initializers call it, and so does
  /// ``ChartOutput/with(units:)``, since the labels are in the user's units.
  ///
  /// - Complexity: O(*p*), where *p* is the number of points.
  public func withDerivedFields() -> SparklinesOutput {
    var output = self
    for index in output.lines.indices {
      let line = output.lines[index]
      let noLoad = Self.hasNoLoad(line.points, value)
      let latest = noLoad ? nil : line.points.last?.v
      output.lines[index].noLoad = noLoad
      output.lines[index].yDomain = noLoad ? nil : Self.fittedDomain(line.points.map(\.v))
      output.lines[index].latestLabel = latest.map { ReadOut.sparklineValue($0, value, units) }
      output.lines[index].label = ReadOut.sparkline(
        exercise: line.exercise, latest: latest, sessions: line.points.count, noLoad: noLoad, value: value,
        units: units)
    }
    return output
  }

  enum CodingKeys: String, CodingKey { case value, windowDays, domain, lines }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    header = try UserChartHeader(from: decoder, schema: Self.schemaID)
    value = try c.decode(Value.self, forKey: .value)
    windowDays = try c.decode(Int.self, forKey: .windowDays)
    domain = try c.decode(Extent.self, forKey: .domain)
    lines = try c.decode([Line].self, forKey: .lines)
    if lines.contains(where: \.label.isEmpty) { self = withDerivedFields() }
  }
}

extension SparklinesOutput: OutputWritable {
  /// Writes SPEC 7's keys in order: `schema, user, chart, timeZone, units, asOf, value, windowDays,
  /// domain, lines`.
  ///
  /// - Complexity: O(*p*), where *p* is the number of points.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(header)
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
  /// Writes `exercise, points, noLoad, yDomain, latestLabel, label`.
  ///
  /// - Complexity: O(*p*), where *p* is the number of points.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("exercise", exercise)
    writer.key("points")
    try writer.array(points)
    writer.member("noLoad", noLoad)
    writer.key("yDomain")
    if let yDomain { try yDomain.write(to: &writer) } else { writer.null() }
    writer.key("latestLabel")
    if let latestLabel { writer.string(latestLabel) } else { writer.null() }
    writer.member("label", label)
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

extension SparklinesOutput: ChartKindWordedInUnits {
  public static let kindName = "sparklines"

  /// A small output of this kind: the bench press's top set in two sessions of the 91 days to
  /// 29 Nov 2026, in UTC. For an app's previews, and for the tests that check every kind
  /// (``ChartKind/example``).
  public static let example = SparklinesOutput(
    user: "ada", chart: "exercise-trends", timeZone: "UTC", asOf: Date(epochSeconds: 1_795_996_799),
    value: .topSetKg, windowDays: 91,
    domain: Extent(start: Date(epochSeconds: 1_795_996_799 - 91 * 86_400), end: Date(epochSeconds: 1_795_996_799)),
    lines: [
      Line(
        exercise: "Bench Press",
        points: [
          Point(t: Date(epochSeconds: 1_794_852_000), v: 80), Point(t: Date(epochSeconds: 1_795_456_800), v: 82.5),
        ])
    ])

  public static func tableColumns(measures: [Measure], trend: Bool) -> [String] {
    ["user", "exercise", "t", "value"]
  }

  /// A row per point of each line.
  ///
  /// - Complexity: O(*p*) for *p* points.
  public func appendTableRows(to rows: inout TableRows, trend: Bool) {
    for line in lines {
      for point in line.points {
        rows.text(user)
        rows.text(line.exercise)
        rows.instant(point.t)
        rows.number(point.v)
        rows.endRow()
      }
    }
  }
}
