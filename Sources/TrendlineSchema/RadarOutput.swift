import Foundation

/// Distinct sessions per radar axis per period (`trendline/radar@1`, SPEC section 7).
///
/// `scale` is shared by all periods of one output, so the polygons of two months drawn on one
/// radar are comparable; an app must not rescale each period on its own.
public struct RadarOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/radar@1"

  /// A spoke, in spoke order (spoke 0 at the top, then clockwise).
  ///
  /// `Encodable` as well, unlike the rest of the output: the cohort partial file holds axes.
  public struct Axis: Codable, Sendable, Equatable {
    public var id: String
    public var label: String
    public init(id: String, label: String) {
      self.id = id
      self.label = label
    }
  }

  public struct Period: Decodable, Sendable, Equatable {
    /// The local date the period starts on, `YYYY-MM-DD`: stable across runs.
    public var id: String
    public var start: Date
    public var end: Date
    /// True for the period containing as-of, whose polygon is still growing (SPEC 10.6).
    public var partial: Bool
    /// How much of the period had passed at as-of, 0…1; 1 for every period but the partial one.
    public var elapsed: Double
    /// Every session in the period, whatever it trained.
    public var sessions: Int
    /// Distinct sessions per axis, in axis order.
    public var counts: [Int]
    /// `counts` ÷ the largest count over all axes and periods of this output, 0…1.
    public var scale: [Double]
    /// What a screen reader says for the period's polygon, as the SVG does: `Nov 2026 (so far):
    /// Chest 2, Back 1, Legs 0` (``ReadOut/radarPeriod(start:partial:axes:counts:granularity:zone:)``).
    /// Filled in by ``RadarOutput``'s initializers, which know the axes and the zone.
    public var label: String = ""

    public init(
      id: String, start: Date, end: Date, partial: Bool, elapsed: Double = 1, sessions: Int, counts: [Int],
      scale: [Double], label: String = ""
    ) {
      self.label = label
      self.id = id
      self.start = start
      self.end = end
      self.partial = partial
      self.elapsed = elapsed
      self.sessions = sessions
      self.counts = counts
      self.scale = scale
    }
  }

  /// An exercise no axis can count because nothing maps it to muscle groups.
  public struct UnmappedExercise: Decodable, Sendable, Equatable {
    public var name: String
    public var sessions: Int
    public init(name: String, sessions: Int) {
      self.name = name
      self.sessions = sessions
    }
  }

  /// `schema, user, chart, timeZone, units, asOf`, as every user output starts (``ChartKind``
  /// gives each its own property).
  public var header: UserChartHeader
  public var axes: [Axis]
  /// Oldest first; the last one contains as-of.
  public var periods: [Period]
  /// The largest count over every axis and period: the value of the outer ring, where `scale`
  /// is 1 (0 when nothing was counted).
  public var largest: Int
  /// Most sessions first, then by name.
  public var unmappedExercises: [UnmappedExercise]
  /// Each spoke's angle in degrees, parallel to `axes`: measured clockwise from straight up, so
  /// spoke *i* of *n* is at 360 × *i* ÷ *n* (`[0, 72, 144, 216, 288]` for five). An app draws the
  /// spoke at (sin θ, −cos θ) on a y-down canvas (SwiftUI's, SVG's); a y-up formula would turn
  /// the chart anticlockwise.
  public var axisAngles: [Double]
  /// The grid's rings: a sessions axis from 0 to a round count at or above `largest`, with rings
  /// for 3, 4, 5 and 7 labels (``YAxis``, `unit` `sessions`). A chart with *k* rings puts each
  /// at `ticks[k]`'s value and a vertex at `counts[i]` on the radial scale 0 … the last tick of
  /// `ticks[k]`. `scale` stays relative to `largest`, the SVG's outer ring.
  public var rings: YAxis

  public init(
    user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, axes: [Axis], periods: [Period],
    unmappedExercises: [UnmappedExercise]
  ) {
    self.header = UserChartHeader(
      schema: Self.schemaID, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    self.axes = axes
    self.periods = periods
    self.largest = periods.lazy.flatMap(\.counts).max() ?? 0
    self.unmappedExercises = unmappedExercises
    self.axisAngles = []
    self.rings = YAxis(unit: "", domain: AxisDomain(min: 0, max: 0), ticks: [:])
    self = withDerivedFields()
  }

  /// This output with what its counts imply written out for an app: `axisAngles`, `rings` and
  /// each period's `label` (spoke order, at the first period's granularity, as the SVG names
  /// them). The initializers call it; a caller that changes `axes` or `periods` calls it again.
  ///
  /// - Complexity: O(*p* × *a*), where *p* is the number of periods and *a* of axes.
  public func withDerivedFields() -> RadarOutput {
    var output = self
    output.axisAngles = (0..<axes.count).map { 360 * Double($0) / Double(axes.count) }
    output.rings = YAxis(measure: .sessions, largest: Double(largest), units: units)
    output.periods.writeLabels(zone: timeZone) { period, granularity, zone in
      ReadOut.radarPeriod(
        start: period.start, partial: period.partial, axes: axes, counts: period.counts, granularity: granularity,
        zone: zone)
    }
    return output
  }

  enum CodingKeys: String, CodingKey { case axes, largest, periods, unmappedExercises, axisAngles, rings }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    header = try UserChartHeader(from: decoder, schema: Self.schemaID)
    axes = try c.decode([Axis].self, forKey: .axes)
    periods = try c.decode([Period].self, forKey: .periods).completed(zone: header.timeZone, asOf: header.asOf)
    largest = try c.decodeAdded(Int.self, forKey: .largest) ?? periods.lazy.flatMap(\.counts).max() ?? 0
    unmappedExercises = try c.decode([UnmappedExercise].self, forKey: .unmappedExercises)
    // Added to `trendline/radar@1` later: an older file's are worked out as a run would write them.
    let angles = try c.decodeAdded([Double].self, forKey: .axisAngles)
    let rings = try c.decodeAdded(YAxis.self, forKey: .rings)
    axisAngles = angles ?? []
    self.rings = rings ?? YAxis(unit: "", domain: AxisDomain(min: 0, max: 0), ticks: [:])
    if angles == nil || rings == nil || periods.contains(where: \.label.isEmpty) { self = withDerivedFields() }
  }
}

extension RadarOutput.Period: PeriodOfOutput {
  enum CodingKeys: String, CodingKey { case id, start, end, partial, elapsed, sessions, counts, scale, label }

  /// Decodes a period; `id` and `elapsed`, added to `trendline/radar@1` later, may be absent and
  /// are then filled in by the output (``completed(zone:asOf:)``).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decodeAdded(String.self, forKey: .id) ?? ""
    start = try c.decode(Date.self, forKey: .start)
    end = try c.decode(Date.self, forKey: .end)
    partial = try c.decode(Bool.self, forKey: .partial)
    elapsed = try c.decodeAdded(Double.self, forKey: .elapsed) ?? -1
    sessions = try c.decode(Int.self, forKey: .sessions)
    counts = try c.decode([Int].self, forKey: .counts)
    scale = try c.decode([Double].self, forKey: .scale)
    label = try c.decodeAdded(String.self, forKey: .label) ?? ""
  }

  var isIncomplete: Bool { id.isEmpty || elapsed < 0 }

  func completed(zone: TimeZone, asOf: Int64) -> Self {
    var period = self
    if id.isEmpty { period.id = RFC3339.localDate(seconds: start.epochSeconds, timeZone: zone) }
    // Besides the id, which every period of an output may lack, `elapsed`.
    if elapsed < 0 {
      period.elapsed = partial ? Extent.elapsed(start: start.epochSeconds, end: end.epochSeconds, asOf: asOf) : 1
    }
    return period
  }
}

extension RadarOutput: OutputWritable {
  /// Writes SPEC 7's keys in order: `schema, user, chart, timeZone, units, asOf, axes, largest, periods,
  /// unmappedExercises`, then the drawing's `axisAngles, rings`.
  ///
  /// - Complexity: O(*p* × *a* + *u*), where *p* is the number of periods, *a* of axes and *u*
  ///   of unmapped exercises.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(header)
    writer.key("axes")
    try writer.array(axes)
    writer.member("largest", largest)
    writer.key("periods")
    try writer.array(periods)
    writer.key("unmappedExercises")
    try writer.array(unmappedExercises)
    writer.key("axisAngles")
    try writer.array(axisAngles) { try $0.number($1) }
    writer.key("rings")
    try rings.write(to: &writer)
    writer.endObject()
  }
}

extension RadarOutput.Axis: OutputWritable {
  /// Writes `id, label`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("id", id)
    writer.member("label", label)
    writer.endObject()
  }
}

extension RadarOutput.Period: OutputWritable {
  /// Writes `id, start, end, partial, elapsed, sessions, counts, scale, label`.
  ///
  /// - Complexity: O(*a*), where *a* is the number of axes.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("id", id)
    writer.member("start", start)
    writer.member("end", end)
    writer.member("partial", partial)
    try writer.member("elapsed", elapsed)
    writer.member("sessions", sessions)
    writer.key("counts")
    writer.array(counts) { $0.number($1) }
    writer.key("scale")
    try writer.array(scale) { try $0.number($1) }
    writer.member("label", label)
    writer.endObject()
  }
}

extension RadarOutput.UnmappedExercise: OutputWritable {
  /// Writes `name, sessions`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("name", name)
    writer.member("sessions", sessions)
    writer.endObject()
  }
}

extension RadarOutput: ChartKind {
  public static let kindName = "radar"
  /// Each user's latest period joins the cohort's counts per axis (``CohortRadarOutput``).
  public static let cohortSchemaID: String? = CohortRadarOutput.schemaID

  /// A small output of this kind: November 2026 in UTC, under way at as-of, with chest and back
  /// axes. For an app's previews, and for the tests that check every kind (``ChartKind/example``).
  public static let example = RadarOutput(
    user: "ada", chart: "muscle-balance", timeZone: "UTC", asOf: Date(epochSeconds: 1_795_996_799),
    axes: [Axis(id: "chest", label: "Chest"), Axis(id: "back", label: "Back")],
    periods: [
      Period(
        id: "2026-11-01", start: Date(epochSeconds: 1_793_491_200), end: Date(epochSeconds: 1_796_083_200),
        partial: true, elapsed: 29.0 / 30, sessions: 5, counts: [3, 2], scale: [1, 2.0 / 3])
    ],
    unmappedExercises: [UnmappedExercise(name: "Atlas Stone", sessions: 1)])

  public static func tableColumns(measures: [Measure], trend: Bool) -> [String] {
    ["user", "date", "start", "end", "partial", "sessions", "axis", "count", "scale"]
  }

  /// A row per period and axis.
  ///
  /// - Complexity: O(*p* × *a*) for *p* periods and *a* axes.
  public func appendTableRows(to rows: inout TableRows, trend: Bool) {
    for period in periods {
      for (index, axis) in axes.enumerated() {
        rows.period(user: user, id: period.id, start: period.start, end: period.end, partial: period.partial)
        rows.number(period.sessions)
        rows.text(axis.id)
        // A decoded file's period may hold fewer counts than axes; a missing one is unknown, not a trap.
        rows.number(period.counts.indices.contains(index) ? Double(period.counts[index]) : nil)
        rows.number(period.scale.indices.contains(index) ? period.scale[index] : nil)
        rows.endRow()
      }
    }
  }
}
