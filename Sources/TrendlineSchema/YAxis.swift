import Foundation

/// A value axis of one measure, worked out so that an app draws it as given: a domain (from 0
/// for a bar, fitted around the values for a line: SPEC 11.8) and tick values with their labels
/// for each label count a phone chart uses (see `Guides/AppGeometry.md`).
///
/// Ticks are round *in the unit shown* (500 lb, 30 min, 2.5 km), though their values are in the
/// JSON's units (kilograms, seconds, metres) like every other number, so an app places them with
/// the data and prints the label as written. For *k* labels a bar's ticks are 0, s, 2s, … (k − 1)s,
/// s the smallest step of 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10ⁿ that reaches the axis's largest
/// value and is a whole number of the unit shown (a tenth of a km or mi): the labels need no
/// rounding, so an app never asks Swift Charts for a `desiredCount` it rounds up and truncates.
/// A line's start at a multiple of s below its values
/// (``init(measure:fitting:_:units:)``). A chart that draws *k* labels sets its domain to the
/// first … the last of `ticks[k]`; `domain` is the five-label one, the one the SVG draws.
public struct YAxis: Decodable, Sendable, Equatable {
  /// One tick: where it is, in the JSON's units, and what it says, in the unit shown.
  public struct Tick: Decodable, Sendable, Equatable {
    public var value: Double
    public var label: String
    public init(value: Double, label: String) {
      self.value = value
      self.label = label
    }
  }

  /// The label counts ticks are given for: what a phone chart shows, small to roomy.
  public static let labelCounts = [3, 4, 5, 7]
  /// The label count of `domain`.
  public static let defaultLabelCount = 5

  /// What the labels count in: `kg`, `lb`, `min`, `km`, `mi`, or the measure's own word
  /// (`sessions`, `sets`, `reps`, `records`).
  public var unit: String
  /// 0 … the last tick of the five-label axis, in the JSON's units.
  public var domain: AxisDomain
  /// Label count (3, 4, 5, 7) → its ticks, lowest first.
  public var ticks: [Int: [Tick]]

  public init(unit: String, domain: AxisDomain, ticks: [Int: [Tick]]) {
    self.unit = unit
    self.domain = domain
    self.ticks = ticks
  }

  /// The axis of `measure` for values up to `largest` (JSON units), shown in `units`; 0, less,
  /// or not a number gives the smallest axis, one unit a step (a tenth for distances).
  ///
  /// - Complexity: O(*k*²) for the *k* label counts: a few dozen steps are tried.
  public init(measure: Measure, largest: Double, units: Units) {
    let shown = MeasureDisplay.scaled(largest, measure, units)
    // Distances are read to a tenth; everything else in whole units.
    let resolution: Int64 = measure == .distanceM ? 10 : 1
    var ticks: [Int: [Tick]] = [:]
    for count in Self.labelCounts {
      let step = Self.step(reaching: shown, intervals: count - 1, resolution: resolution)
      ticks[count] = (0..<Int64(count)).map { index in
        let count = index * step
        return Tick(
          value: MeasureDisplay.unscaled(Double(count) / Double(resolution), measure, units),
          label: Self.label(count, resolution: resolution))
      }
    }
    self.unit = MeasureDisplay.unit(measure, units)
    self.domain = AxisDomain(min: 0, max: ticks[Self.defaultLabelCount]!.last!.value)
    self.ticks = ticks
  }

  /// The axis `measure` is drawn on when what is drawn runs `lowest…largest` (JSON units): from 0
  /// for a bar (``init(measure:largest:units:)``), fitted around the values for a line
  /// (``init(measure:fitting:_:units:)``), as its ``Measure/mark`` says. A user's series, the
  /// cohort's and its segments' shared axes all come from here, so they agree.
  ///
  /// - Complexity: O(*k*²) for the *k* label counts.
  public init(measure: Measure, drawing lowest: Double, _ largest: Double, units: Units) {
    switch measure.mark {
    case .bar: self.init(measure: measure, largest: largest, units: units)
    case .line: self.init(measure: measure, fitting: lowest, largest, units: units)
    }
  }

  /// The axis of a measure drawn as a line (SPEC 11.8): round ticks around `lowest…largest`
  /// (JSON units) rather than from 0, so that 228 → 246 lb over a year reads as the climb it is.
  /// For *k* labels the ticks are a, a + s, … a + (k − 1)s, with s the smallest round step (as
  /// for bars) for which a = ⌊lowest′ / s⌋ × s, a multiple of s, reaches largest′, where the
  /// range is first widened by 5 % of its span each side (at least one unit shown, and never
  /// below 0) so no point sits on the frame. `domain` is the five-label axis's first to last tick.
  ///
  /// - Complexity: O(*k*²) for the *k* label counts.
  public init(measure: Measure, fitting lowest: Double, _ largest: Double, units: Units) {
    let resolution: Int64 = measure == .distanceM ? 10 : 1
    var low = MeasureDisplay.scaled(lowest, measure, units)
    var high = MeasureDisplay.scaled(largest, measure, units)
    if !low.isFinite || !high.isFinite || low > high { (low, high) = (0, 0) }
    let pad = max((high - low) * 0.05, 1 / Double(resolution))
    low = max(0, low - pad) * Double(resolution)
    high = (high + pad) * Double(resolution)
    var ticks: [Int: [Tick]] = [:]
    for count in Self.labelCounts {
      var step = Self.step(reaching: (high - low) / Double(resolution), intervals: count - 1, resolution: resolution)
      var first = Int64((low / Double(step)).rounded(.down)) * step
      // Flooring the first tick can leave the last short of the top: the next round step.
      while Double(first + Int64(count - 1) * step) < high * (1 - 1e-9) {
        step = Self.step(reaching: Double(step + 1) / Double(resolution), intervals: 1, resolution: resolution)
        first = Int64((low / Double(step)).rounded(.down)) * step
      }
      ticks[count] = (0..<Int64(count)).map { index in
        let shown = first + index * step
        return Tick(
          value: MeasureDisplay.unscaled(Double(shown) / Double(resolution), measure, units),
          label: Self.label(shown, resolution: resolution))
      }
    }
    self.unit = MeasureDisplay.unit(measure, units)
    let five = ticks[Self.defaultLabelCount]!
    self.domain = AxisDomain(min: five.first!.value, max: five.last!.value)
    self.ticks = ticks
  }

  /// Mantissas of a round step, in tenths: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8.
  static let mantissas: [Int64] = [10, 15, 20, 25, 30, 40, 50, 60, 80]

  /// The smallest round step, in units of 1 / `resolution`, whose `intervals` steps reach
  /// `shown`; at least one unit of the resolution.
  ///
  /// A step within a billionth of `needed` reaches it: converting a round value in miles to
  /// metres and back can land an ulp above it, which must not cost a step.
  ///
  /// - Complexity: O(1): at most 17 powers of ten × 9 mantissas.
  static func step(reaching shown: Double, intervals: Int, resolution: Int64) -> Int64 {
    let needed = shown.isFinite ? max(shown, 0) * Double(resolution) / Double(intervals) : 0
    var power: Int64 = 1
    for _ in 0..<17 {
      for mantissa in mantissas where (mantissa * power) % 10 == 0 {
        let step = mantissa * power / 10
        if Double(step) >= needed * (1 - 1e-9) { return step }
      }
      power *= 10
    }
    // Beyond 10¹⁷ units no measure reaches: the largest step the loop knows.
    return 80 * power / 100
  }

  /// `count` units of 1 / `resolution` as a label: `2 500`, `0.5`, grouped like every value
  /// a person reads (``ShownNumber/display(_:decimals:)``).
  static func label(_ count: Int64, resolution: Int64) -> String {
    ShownNumber.display(Double(count) / Double(resolution), decimals: resolution == 1 ? 0 : 1)
  }

  enum CodingKeys: String, CodingKey { case unit, domain, ticks }

  /// Decodes `{"unit", "domain", "ticks": {"3": [...], ...}}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    unit = try c.decode(String.self, forKey: .unit)
    domain = try c.decode(AxisDomain.self, forKey: .domain)
    ticks = try c.decodeByLabelCount(forKey: .ticks)
  }
}

extension KeyedDecodingContainer {
  /// An axis's `{"3": [...], "4": [...]}`, keyed by label count: a key that is not a whole
  /// number is an error naming it.
  func decodeByLabelCount<Element: Decodable>(forKey key: Key) throws -> [Int: [Element]] {
    var byCount: [Int: [Element]] = [:]
    for (name, list) in try decode([String: [Element]].self, forKey: key) {
      guard let count = Int(name) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: self, debugDescription: "tick count '\(name)' is not a number")
      }
      byCount[count] = list
    }
    return byCount
  }
}

extension OutputWriter {
  /// An axis's ticks as `{"3": [...], …}`, the label counts ascending, each tick an object
  /// `writeTick` fills.
  ///
  /// - Complexity: O(*t*) calls of `writeTick`, where *t* is the number of ticks.
  mutating func ticksByLabelCount<Tick>(
    _ ticks: [Int: [Tick]], _ writeTick: (inout OutputWriter, Tick) throws -> Void
  ) rethrows {
    beginObject()
    for count in ticks.keys.sorted() {
      key(escaping: String(count))
      try array(ticks[count]!) { writer, tick in
        writer.beginObject()
        try writeTick(&writer, tick)
        writer.endObject()
      }
    }
    endObject()
  }
}

extension YAxis: OutputWritable {
  /// Writes `unit, domain, ticks`, the label counts ascending.
  ///
  /// - Complexity: O(*t*), where *t* is the number of ticks.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("unit", unit)
    writer.key("domain")
    try domain.write(to: &writer)
    writer.key("ticks")
    try writer.ticksByLabelCount(ticks) { writer, tick in
      try writer.member("value", tick.value)
      writer.member("label", tick.label)
    }
    writer.endObject()
  }
}

extension SeriesOutput {
  /// The largest number drawn for `measure`: its values, trends and average, and, when the
  /// chart's bands are on this measure, the top of the band the values reach: the next level's
  /// start, or above the top level room for its label (half the height of the level below it,
  /// at least half a unit). Bands above the values are not stretched into view: an axis to a
  /// "Heavy 5+" band put a user's one or two sessions a week in the plot's bottom quarter.
  ///
  /// - Complexity: O(*b* + *l*), where *b* is the number of buckets and *l* of band levels.
  public func largestDrawn(_ measure: Measure) -> Double {
    var largest = average[measure] ?? 0
    for bucket in buckets {
      largest = max(largest, bucket.values[measure] ?? 0, bucket.trend?[measure] ?? 0)
    }
    if let bands, bands.measure == measure, let last = bands.levels.last {
      if let next = bands.levels.first(where: { $0.from > largest }) {
        largest = next.from
      } else {
        let below = bands.levels.count > 1 ? bands.levels[bands.levels.count - 2].from : 0
        largest = max(largest, last.from + max((last.from - below) / 2, 0.5))
      }
    }
    return largest
  }

  /// The lowest and largest number drawn for `measure` as a line: its values, trends and
  /// average; 0…0 when it has none.
  ///
  /// - Complexity: O(*b*), where *b* is the number of buckets.
  public func rangeDrawn(_ measure: Measure) -> (lowest: Double, largest: Double) {
    var drawn = average[measure].map { [$0] } ?? []
    for bucket in buckets {
      if let value = bucket.values[measure] { drawn.append(value) }
      if let value = bucket.trend?[measure] { drawn.append(value) }
    }
    return (drawn.min() ?? 0, drawn.max() ?? 0)
  }

  /// This output with what its values imply filled in, in its zone and units: each bucket's
  /// `label` (``ReadOut/bucket(start:partial:values:trend:measures:granularity:zone:units:)``)
  /// and each measure's ``YAxis`` over everything drawn. `Emit` writes it; a hand-made output
  /// gets the same from it.
  ///
  /// - Complexity: O(*b* × *m*), where *b* is the number of buckets and *m* of measures.
  /// `zone` is the output's own `timeZone` when the caller has it at hand (`Emit`, once per
  /// chart of every user), else looked up by name.
  public func withDerivedFields(zone known: TimeZone? = nil) -> SeriesOutput {
    var output = self
    let zone = known ?? TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
    // The zone is asked for an offset once per stretch between its transitions, not once per
    // bucket: a zone look-up takes a lock that the workers on other users wait for.
    let offsets = RFC3339.Formatter(timeZone: zone)
    // One buffer for every label: each is built in place, then copied once into its String.
    var text: [UInt8] = []
    text.reserveCapacity(48 + 40 * measures.count)
    for index in output.buckets.indices {
      let bucket = output.buckets[index]
      let start = bucket.start.epochSeconds
      text.removeAll(keepingCapacity: true)
      ReadOut.appendBucket(
        start: LocalDate(epochSeconds: start, offset: offsets.offset(at: start)), partial: bucket.partial,
        values: bucket.values, trend: bucket.trend, measures: measures, granularity: granularity, units: units,
        to: &text)
      output.buckets[index].label = String(decoding: text, as: UTF8.self)
    }
    output.yAxis = [:]
    for measure in measures {
      let drawn = measure.mark == .line ? rangeDrawn(measure) : (lowest: 0, largest: largestDrawn(measure))
      output.yAxis[measure] = YAxis(measure: measure, drawing: drawn.lowest, drawn.largest, units: units)
    }
    return output
  }
}
