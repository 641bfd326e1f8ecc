import Foundation

/// The mark a measure is drawn with (`mark` in `trendline/series@2`).
public enum SeriesMark: String, Codable, Sendable {
  /// Bars from 0, 70 % of the period wide (``Extent/bar(start:end:)``).
  case bar
  /// A line through the known values at each bucket's start, a point on each, on an axis fitted
  /// to the values rather than from 0.
  case line
}

/// What a series bucket counts (SPEC section 5). The raw values are the JSON spelling, used
/// both in pipeline files and as the keys of `values`, `trend` and `average`.
///
/// Two sorts: a *total* (sessions, sets, duration, volume, reps, distance, records) sums over
/// the bucket's sessions, so an empty bucket is a true 0; a *best* (`topSetKg`, `e1rmKg`) is the
/// largest value of one set in the bucket, so a bucket with no weighted set has none: it is
/// left out of `values`, never written as 0, and trends, averages and cohort statistics skip it.
///
/// `CodingKeyRepresentable` makes a `[Measure: YAxis]` encode as a JSON object keyed by the raw
/// value (`{"volumeKg": 1200}`), not as the alternating key/value array `Dictionary` falls back to.
public enum Measure: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable {
  case sessions, sets, durationSeconds, volumeKg
  /// The heaviest counted set with weight, kg (a best).
  case topSetKg
  /// The best Epley estimate over counted sets with weight and reps, kg (a best).
  case e1rmKg
  /// Σ reps over counted sets.
  case reps
  /// Σ distance over counted sets, metres.
  case distanceM
  /// Personal records set (``TrainedSet``s that beat every earlier one of their exercise; see
  /// `Guides/Records.md`).
  case records

  /// The case's place in the declaration, 0 up.
  public var ordinal: Int {
    switch self {
    case .sessions: 0
    case .sets: 1
    case .durationSeconds: 2
    case .volumeKg: 3
    case .topSetKg: 4
    case .e1rmKg: 5
    case .reps: 6
    case .distanceM: 7
    case .records: 8
    }
  }

  /// Whether the measure is a bucket's best single set rather than a sum: it has no value in
  /// a bucket without a set that has one.
  public var isBest: Bool { self == .topSetKg || self == .e1rmKg }

  /// How the measure is drawn (SPEC 11.8, the form follows the question): a best answers
  /// "which way", a line with points on a fitted axis; a total answers "how much", bars from 0.
  public var mark: SeriesMark { isBest ? .line : .bar }

  /// Every measure in the UTF-8 byte order of its name, the order objects keyed by measure are
  /// written in.
  public static let inKeyOrder: [Measure] = allCases.sorted {
    Array($0.rawValue.utf8).lexicographicallyPrecedes($1.rawValue.utf8)
  }

  // A raw-value enum inherits `==` and `hash(into:)` from `RawRepresentable`, which compare and
  // hash the raw strings: every look-up in a dictionary keyed by measure hashed a string.
  public static func == (left: Measure, right: Measure) -> Bool { left.ordinal == right.ordinal }
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
}

/// The length of a calendar period: the resolved granularity of a series, or the period of a
/// radar or heat map.
///
/// There is no `auto` here on purpose: outputs are written resolved (SPEC 9.8), so an app never
/// has to repeat the rule that picks one.
public enum Granularity: String, Codable, Sendable, CaseIterable {
  case day, week, month
}

/// How far back a series reaches from as-of (SPEC 5 and 11.8): `all`, or *N* days, weeks,
/// months or years written `Nd`, `Nw`, `Nm`, `Ny` (`2y`, `18m`, `90d`), *N* from 1 to a span
/// of ten years at most (3,660 days, 522 weeks, 120 months, 10 years: ``Periods``' most shown
/// months), without a sign or leading zeros so that one range has one spelling.
///
/// Named `BucketRange`, not `Range`, so it never shadows the standard library's `Range`.
public struct BucketRange: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
  /// A calendar unit a range counts.
  public enum Unit: String, Sendable, CaseIterable {
    case day = "d"
    case week = "w"
    case month = "m"
    case year = "y"

    /// The most of this unit a range may count: ten years' worth.
    public var limit: Int {
      switch self {
      case .day: 3_660
      case .week: 522
      case .month: 120
      case .year: 10
      }
    }

    /// The unit's length in days, about: what picks a granularity.
    var approximateDays: Double {
      switch self {
      case .day: 1
      case .week: 7
      case .month: 30.44
      case .year: 365.25
      }
    }
  }

  /// How many `unit`s; 0 for `all`.
  public let count: Int
  /// Nil for `all`.
  public let unit: Unit?

  public static let all = BucketRange(count: 0, unit: nil)
  public static let oneWeek = BucketRange(count: 1, unit: .week)
  public static let oneMonth = BucketRange(count: 1, unit: .month)
  public static let threeMonths = BucketRange(count: 3, unit: .month)
  public static let sixMonths = BucketRange(count: 6, unit: .month)
  public static let oneYear = BucketRange(count: 1, unit: .year)

  private init(count: Int, unit: Unit?) {
    self.count = count
    self.unit = unit
  }

  /// `count` `unit`s, or nil when `count` is outside 1…the unit's limit.
  public init?(_ count: Int, _ unit: Unit) {
    guard (1...unit.limit).contains(count) else { return nil }
    self.init(count: count, unit: unit)
  }

  /// `all` or `Nd`/`Nw`/`Nm`/`Ny`; nil for anything else, a count out of range included.
  public init?(rawValue: String) {
    if rawValue == "all" {
      self = .all
      return
    }
    let bytes = Array(rawValue.utf8)
    guard bytes.count >= 2, bytes.count <= 5, let unit = Unit(rawValue: String(rawValue.suffix(1))),
      bytes.dropLast().allSatisfy({ (48...57).contains($0) }), bytes[0] != UInt8(ascii: "0"),
      let count = Int(rawValue.dropLast())
    else { return nil }
    self.init(count, unit)
  }

  public var rawValue: String { unit.map { "\(count)\($0.rawValue)" } ?? "all" }
  public var description: String { rawValue }

  /// The range's length in days, about (a month 30.44); nil for `all`.
  public var approximateDays: Double? { unit.map { Double(count) * $0.approximateDays } }

  /// What the pipeline file's error says a range is.
  public static let spelling = "'all' or a number and a unit: 7d, 6w, 3m, 18m, 2y (at most ten years)"

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let range = BucketRange(rawValue: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "range '\(text)' is not \(Self.spelling)"))
    }
    self = range
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// A span of time `[start, end]` on a chart's time axis: a padded domain or a bar's extent.
///
/// Only the two ends are stored, not a duration, because a chart needs the ends and a
/// duration would have to be added back in the user's calendar to find them.
public struct Extent: Decodable, Sendable, Equatable {
  public var start: Date
  public var end: Date

  public init(start: Date, end: Date) {
    self.start = start
    self.end = end
  }

  /// The bar of a period from `start` to `end` (seconds): centred on the start, 0.35 × the
  /// period's length on each side, `round(0.35 × length)` with halves up in whole seconds,
  /// (35 × length + 50) / 100. Nothing is computed in floating point and truncated, which would
  /// shift a bar by a second depending on the platform.
  ///
  /// - Complexity: O(1).
  public static func bar(start: Int64, end: Int64) -> Extent {
    let half = barHalfWidth(end - start)
    return Extent(start: Date(epochSeconds: start - half), end: Date(epochSeconds: start + half))
  }

  /// How much of the period from `start` to `end` had passed at `asOf`, 0…1: SPEC 10.6's
  /// (as-of − start) / (end − start), with as-of counted whole. As-of is the last second a chart
  /// counts (a session starting at it is in), so the time elapsed runs to its end: as-of −
  /// start + 1 seconds. A week whose second day ends at as-of has 2/7 elapsed, not 2/7 less a
  /// second.
  ///
  /// - Complexity: O(1).
  public static func elapsed(start: Int64, end: Int64, asOf: Int64) -> Double {
    min(1, max(0, Double(asOf - start + 1) / Double(end - start)))
  }

  /// `round(0.35 × length)`, halves up, in whole seconds.
  ///
  /// - Complexity: O(1).
  public static func barHalfWidth(_ length: Int64) -> Int64 { (35 * length + 50) / 100 }
}

extension Extent: OutputWritable {
  /// Writes `start, end`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("start", start)
    writer.member("end", end)
    writer.endObject()
  }
}

extension Date {
  /// The instant `seconds` after 1970-01-01T00:00:00Z.
  ///
  /// Every whole second up to ±2⁵³ is exact as a `Double`, so the round trip to `Int64` and back
  /// loses nothing for any instant an output holds.
  public init(epochSeconds seconds: Int64) {
    self.init(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// Whole seconds since 1970-01-01T00:00:00Z, rounded down, so an instant a decoder gave
  /// with a fraction never lands in the next second.
  public var epochSeconds: Int64 {
    Int64(timeIntervalSince1970.rounded(.down))
  }
}

/// Checks the `schema` field while decoding an output, so that decoding a radar file as a
/// series fails with both ids named instead of with a missing-key error somewhere inside.
func decodeSchema<Key: CodingKey>(
  _ container: KeyedDecodingContainer<Key>, key: Key, expected: String
) throws -> String {
  let found = try container.decode(String.self, forKey: key)
  guard found == expected else {
    let family = expected.prefix { $0 != "@" }
    let advice =
      found.hasPrefix(family + "@")
      ? "it was written by another version of Trendline; run the pipeline again to rewrite it"
      : "it is another kind of output"
    throw DecodingError.dataCorruptedError(
      forKey: key, in: container,
      debugDescription: "schema '\(found)' is not '\(expected)', the only version this decoder reads: \(advice)")
  }
  return found
}

/// Keys a schema's version gained after its first files were written (an `id`, an `elapsed`):
/// a file without them is still that version's, so it decodes, with what they would have held
/// worked out from the rest of the file (``decodeAdded(_:forKey:)`` and the outputs' own
/// `init(from:)`).
extension KeyedDecodingContainer {
  /// The added key's value, or nil in a file written before it.
  func decodeAdded<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try decodeIfPresent(type, forKey: key)
  }
}

extension Array where Element: PeriodOfOutput {
  /// Each period with the keys an older file lacks filled in: its `id` (the local start date in
  /// `zone`) and its `elapsed` at `asOf`.
  func completed(zone: String, asOf: Date) -> [Element] {
    guard contains(where: \.isIncomplete) else { return self }
    let zone = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
    return map { $0.isIncomplete ? $0.completed(zone: zone, asOf: asOf.epochSeconds) : $0 }
  }
}

/// A period of a user output, whose `id` (and `elapsed`) older files of its version lack.
protocol PeriodOfOutput {
  var id: String { get set }
  var start: Date { get }
  var end: Date { get }
  var label: String { get set }
  var isIncomplete: Bool { get }
  func completed(zone: TimeZone, asOf: Int64) -> Self
}

extension PeriodOfOutput {
  /// A period lacks only its `id` unless it says otherwise.
  var isIncomplete: Bool { id.isEmpty }

  /// The period with its `id`, the local start date in `zone`, filled in when it has none.
  func completed(zone: TimeZone, asOf: Int64) -> Self {
    guard id.isEmpty else { return self }
    var period = self
    period.id = RFC3339.localDate(seconds: start.epochSeconds, timeZone: zone)
    return period
  }
}

extension Array where Element: PeriodOfOutput {
  /// Each period's `label` written by `readOut(period, granularity, zone)`: every period is
  /// named at the first one's granularity, in the zone named `zone`, as the SVG names them (a
  /// radar or heat map output does not store its granularity).
  ///
  /// - Complexity: O(*p*) calls of `readOut` for *p* periods.
  mutating func writeLabels(zone: String, _ readOut: (Element, Granularity, TimeZone) -> String) {
    guard let first else { return }
    let zone = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
    let granularity = PeriodName.granularity(start: first.start, end: first.end)
    for index in indices { self[index].label = readOut(self[index], granularity, zone) }
  }
}
