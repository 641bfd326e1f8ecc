import Foundation
import TrendlineSchema

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

extension WeightUnit {
  /// The unit a person reads this one as.
  public var shown: Units.Weight { self == .pounds ? .lb : .kg }
}

extension DistanceUnit {
  /// The unit a person reads this one as: metres are a metric person's, read as kilometres.
  public var shown: Units.Distance { self == .miles ? .mi : .km }
}

/// The units an export itself stated for one set: a header (`weight_lbs`, `Weight (kg)`), a
/// unit column or cell, a native file's `weightUnit`, a mapped layout's unit. Nil where the
/// export stated none and the user's were assumed, so that an assumption is never counted as
/// evidence of what the person uses.
public struct StatedUnits: Sendable, Equatable {
  public var weight: WeightUnit?
  public var distance: DistanceUnit?

  public init(weight: WeightUnit? = nil, distance: DistanceUnit? = nil) {
    self.weight = weight
    self.distance = distance
  }
}

/// How many of a user's sets their exports stated each unit for, counted over the sets kept
/// after duplicates are removed (warm-ups included: the unit is the person's, whatever a chart
/// counts). It decides the units a user reads when `users.csv` does not say (SPEC 10.8).
///
/// Metres count as kilometres: what is counted is the unit the person reads, not the one an
/// app wrote the number in.
public struct UnitTally: Sendable, Equatable {
  public var kilograms = 0
  public var pounds = 0
  public var kilometers = 0
  public var miles = 0

  public init(kilograms: Int = 0, pounds: Int = 0, kilometers: Int = 0, miles: Int = 0) {
    self.kilograms = kilograms
    self.pounds = pounds
    self.kilometers = kilometers
    self.miles = miles
  }

  /// Counts one set's stated units.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  public mutating func count(_ stated: StatedUnits) {
    switch stated.weight {
    case .kilograms: kilograms += 1
    case .pounds: pounds += 1
    case nil: break
    }
    switch stated.distance {
    case .kilometers, .meters: kilometers += 1
    case .miles: miles += 1
    case nil: break
    }
  }

  /// The weight unit stated for most sets; nil when none was stated or two tie, which the
  /// pipeline's defaults then decide.
  public var weight: Units.Weight? {
    kilograms == pounds ? nil : (kilograms > pounds ? .kg : .lb)
  }

  /// The distance unit stated for most sets; nil when none was stated or two tie.
  public var distance: Units.Distance? {
    kilometers == miles ? nil : (kilometers > miles ? .km : .mi)
  }
}
