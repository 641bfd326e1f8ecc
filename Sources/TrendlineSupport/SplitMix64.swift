/// SplitMix64 (Steele, Lea and Flood): a tiny seeded generator whose sequence is the same on
/// every platform and every run, unlike `SystemRandomNumberGenerator`. The corpus generator,
/// the benchmarks and the tests that draw random inputs all use this one.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// - Complexity: O(1).
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (0 when `bound` is not positive), by remainder: the slight bias
  /// toward small numbers does not matter to a test's or a corpus's draws.
  ///
  /// - Complexity: O(1).
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

  /// A number in `0..<1`, from the top 53 bits.
  ///
  /// - Complexity: O(1).
  public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
