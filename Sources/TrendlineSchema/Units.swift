import Foundation

/// The units a person reads their numbers in: kilograms or pounds, kilometres or miles
/// (SPEC 10.8).
///
/// Every user output states them (`"units": {"weight": "lb", "distance": "mi"}`, right after
/// `timeZone`), and everything drawn for that person — SVG and HTML — shows values in them.
/// The JSON's numbers themselves stay in kilograms, metres and seconds whatever the units say:
/// an app computes with one unit and converts only what it shows, so a chart never mixes two.
///
/// It holds no metres: a distance a person reads is kilometres or miles, and an export that
/// wrote metres (Strong's `Distance (meters)`) is a metric user.
public struct Units: Sendable, Equatable, Hashable {
  /// A weight as a person reads it.
  public enum Weight: String, Sendable, Codable, CaseIterable {
    case kg, lb
  }

  /// A distance as a person reads it.
  public enum Distance: String, Sendable, Codable, CaseIterable {
    case km, mi
  }

  public var weight: Weight
  public var distance: Distance

  /// Kilograms and kilometres: what an output without a `units` key was written for.
  public static let metric = Units(weight: .kg, distance: .km)

  /// 1 lb = 0.45359237 kg exactly, by the international yard and pound agreement of 1959.
  public static let kilogramsPerPound = 0.45359237
  /// 1 mi = 1609.344 m exactly.
  public static let metersPerMile = 1609.344

  public init(weight: Weight, distance: Distance) {
    self.weight = weight
    self.distance = distance
  }

  /// `kilograms` in the weight unit: 1000 kg is 2204.62… lb.
  ///
  /// - Complexity: O(1).
  public func weight(fromKilograms kilograms: Double) -> Double {
    weight == .lb ? kilograms / Units.kilogramsPerPound : kilograms
  }

  /// `meters` in the distance unit: 5000 m is 5 km, or 3.10… mi.
  ///
  /// - Complexity: O(1).
  public func distance(fromMeters meters: Double) -> Double {
    distance == .mi ? meters / Units.metersPerMile : meters / 1000
  }
}

extension Units: Decodable {
  private enum CodingKeys: String, CodingKey { case weight, distance }

  /// Decodes `{"weight": "kg"|"lb", "distance": "km"|"mi"}`; any other spelling is an error,
  /// since a unit guessed wrong multiplies every number shown by 2.2.
  ///
  /// - Complexity: O(1).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    weight = try container.decode(Weight.self, forKey: .weight)
    distance = try container.decode(Distance.self, forKey: .distance)
  }
}

extension Units: OutputWritable {
  /// Writes `weight, distance`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.member("weight", weight.rawValue)
    writer.member("distance", distance.rawValue)
    writer.endObject()
  }
}
