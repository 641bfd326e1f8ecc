/// A number per measure — a bucket's `values` and `trend`, a series' `average` — where a
/// measure without a value is absent, as in a dictionary keyed by measure.
///
/// It is not a `[Measure: Double]` because there are only nine measures: a dictionary per
/// bucket allocated its storage, hashed a measure at every look-up and was reference counted at
/// every copy: about a tenth of a night served from the cache (`--cache`), and 4 % of the
/// instructions of a run that reads every export. Here the nine numbers are stored in the
/// value itself, and a look-up is an index.
///
/// It reads like the dictionary it replaced: `values[.volumeKg]` is the value or nil, assigning
/// nil removes it, a dictionary literal makes one (`[.sessions: 2, .volumeKg: 1200]`), and
/// iterating gives `(key, value)` pairs — in the declaration order of ``Measure``, where a
/// dictionary's order was unspecified. Two are equal when they have the same measures with
/// values that are `==` (so a NaN, which JSON cannot hold, is equal to nothing, not even to
/// the same `MeasureValues`, where a dictionary compared its own storage as equal).
/// ``dictionary`` gives the dictionary back for code that needs one.
public struct MeasureValues: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
  private typealias Slots = (Double, Double, Double, Double, Double, Double, Double, Double, Double)

  /// How many measures fit: the slots there are, so an index below it is always inside them.
  /// One per ``Measure`` case: `MeasureValuesTests` fails when a case is added without a slot
  /// (adding a slot is adding a `Double` to `Slots`, and a 0 to its initial value).
  public static let capacity = MemoryLayout<Slots>.size / MemoryLayout<Double>.stride

  private var slots: Slots = (0, 0, 0, 0, 0, 0, 0, 0, 0)
  /// Every measure by ordinal: `allCases` builds its array anew at each call.
  static let measures = Measure.allCases
  /// Bit `ordinal` is set for each measure that has a value (room for 16; the tests check
  /// that ``capacity`` fits).
  private var present: UInt16 = 0

  /// No values.
  public init() {}

  /// - Precondition: no measure is given twice, as for a dictionary literal.
  public init(dictionaryLiteral elements: (Measure, Double)...) {
    for (measure, value) in elements {
      precondition(self[measure] == nil, "\(measure.rawValue) is given twice in a MeasureValues literal")
      self[measure] = value
    }
  }

  /// The values of a dictionary keyed by measure.
  ///
  /// - Complexity: O(*m*), where *m* is the number of entries.
  public init(_ dictionary: [Measure: Double]) {
    for (measure, value) in dictionary { self[measure] = value }
  }

  /// The value of `measure`, or nil when it has none; assigning nil removes it.
  ///
  /// - Complexity: O(1).
  @inlinable
  public subscript(measure: Measure) -> Double? {
    get { value(at: measure.ordinal) }
    set { set(newValue, at: measure.ordinal) }
  }

  @usableFromInline
  func value(at ordinal: Int) -> Double? {
    precondition(ordinal >= 0 && ordinal < Self.capacity, "measure ordinal \(ordinal) has no slot")
    guard present & (1 << ordinal) != 0 else { return nil }
    return withUnsafeBytes(of: slots) {
      $0.load(fromByteOffset: ordinal * MemoryLayout<Double>.stride, as: Double.self)
    }
  }

  @usableFromInline
  mutating func set(_ value: Double?, at ordinal: Int) {
    precondition(ordinal >= 0 && ordinal < Self.capacity, "measure ordinal \(ordinal) has no slot")
    guard let value else {
      present &= ~(1 << ordinal)
      return
    }
    withUnsafeMutableBytes(of: &slots) {
      $0.storeBytes(of: value, toByteOffset: ordinal * MemoryLayout<Double>.stride, as: Double.self)
    }
    present |= 1 << ordinal
  }

  /// True when no measure has a value.
  public var isEmpty: Bool { present == 0 }

  /// How many measures have a value.
  public var count: Int { present.nonzeroBitCount }

  /// The measures that have a value, in declaration order.
  public var keys: [Measure] { map(\.key) }

  /// The same values as a dictionary keyed by measure.
  public var dictionary: [Measure: Double] {
    Dictionary(uniqueKeysWithValues: map { ($0.key, $0.value) })
  }

  public func makeIterator() -> Iterator { Iterator(values: self) }

  /// The measures with a value and their values, in the declaration order of ``Measure``.
  public struct Iterator: IteratorProtocol {
    let values: MeasureValues
    var ordinal = 0

    public mutating func next() -> (key: Measure, value: Double)? {
      while ordinal < MeasureValues.capacity {
        defer { ordinal += 1 }
        if let value = values.value(at: ordinal) { return (MeasureValues.measures[ordinal], value) }
      }
      return nil
    }
  }

  /// The same measures, each value transformed.
  ///
  /// - Complexity: O(*m*), where *m* is the number of measures with a value.
  public func mapValues(_ transform: (Double) throws -> Double) rethrows -> MeasureValues {
    var result = MeasureValues()
    for (measure, value) in self { result[measure] = try transform(value) }
    return result
  }

  public static func == (left: MeasureValues, right: MeasureValues) -> Bool {
    guard left.present == right.present else { return false }
    for ordinal in 0..<capacity where left.present & (1 << ordinal) != 0 {
      if left.value(at: ordinal) != right.value(at: ordinal) { return false }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(present)
    for (_, value) in self { hasher.combine(value) }
  }

  public var description: String {
    isEmpty ? "[:]" : "[" + map { "\($0.key.rawValue): \($0.value)" }.joined(separator: ", ") + "]"
  }
}

extension MeasureValues: Codable {
  /// Decodes an object keyed by measure name; a `null` value (an unknown, SPEC 10.3) is left
  /// out, as it was from the dictionary.
  public init(from decoder: any Decoder) throws {
    self.init()
    for (measure, value) in try [Measure: Double?](from: decoder) { self[measure] = value }
  }

  /// Encodes the object a `[Measure: Double]` encoded to: measure names as keys.
  public func encode(to encoder: any Encoder) throws {
    try dictionary.encode(to: encoder)
  }
}
