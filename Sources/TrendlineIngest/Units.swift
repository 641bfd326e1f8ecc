import Foundation

/// Weight units as exports spell them.
public enum WeightUnit: String, Sendable, Codable, CaseIterable {
  case kilograms = "kg"
  case pounds = "lb"

  /// Reads `kg`, `kgs`, `lb`, `lbs`, `pounds`, `kilograms` in any case.
  public init?(spelling: String) {
    switch spelling.trimmingCharacters(in: .whitespaces).lowercased() {
    case "kg", "kgs", "kilogram", "kilograms", "kilo", "kilos": self = .kilograms
    case "lb", "lbs", "pound", "pounds", "lb.", "lbs.": self = .pounds
    default: return nil
    }
  }

  /// Kilograms in `value` of this unit; 1 lb = 0.45359237 kg exactly (by definition).
  @inline(__always)
  public func kilograms(_ value: Double) -> Double {
    self == .pounds ? value * 0.45359237 : value
  }
}

/// Distance units as exports spell them.
public enum DistanceUnit: String, Sendable, Codable, CaseIterable {
  case kilometers = "km"
  case miles = "mi"
  case meters = "m"

  /// Reads `km`, `mi`, `mi.` (Strong 2019), `miles`, `m`, `meters`, `metres` in any case.
  public init?(spelling: String) {
    switch spelling.trimmingCharacters(in: .whitespaces).lowercased() {
    case "km", "kms", "kilometer", "kilometers", "kilometre", "kilometres": self = .kilometers
    case "mi", "mi.", "mile", "miles": self = .miles
    case "m", "meter", "meters", "metre", "metres": self = .meters
    default: return nil
    }
  }

  /// Metres in `value` of this unit; 1 mi = 1609.344 m exactly.
  @inline(__always)
  public func meters(_ value: Double) -> Double {
    switch self {
    case .kilometers: return value * 1000
    case .miles: return value * 1609.344
    case .meters: return value
    }
  }
}
