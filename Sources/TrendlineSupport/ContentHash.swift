/// The content hash the manifest records for each input file, and the session cache keys on:
/// MurmurHash3 x64 128-bit (seed 0), written `murmur3-128:` and 32 hex digits (h1 then h2, each
/// as a 64-bit number).
///
/// Not SHA-256: a cryptographic hash of every input cost a third of all instructions of a
/// run, and nothing here needs resistance to a deliberate collision — an input hash tells an
/// unchanged export from a changed one, and a user who forged a collision would only serve
/// themselves a stale chart. MurmurHash3 is public, has implementations in every language
/// (`mmh3` in Python gives the same digits), and reads 16 bytes per step.
public enum ContentHash {
  public static let algorithm = "murmur3-128"

  /// `murmur3-128:` followed by the digest in hex.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func of(_ bytes: [UInt8]) -> String {
    let (h1, h2) = bytes.withUnsafeBufferPointer { murmur3(UnsafeRawBufferPointer($0)) }
    return algorithm + ":" + hex(h1) + hex(h2)
  }

  /// MurmurHash3_x64_128 with seed 0 (Austin Appleby's reference, public domain).
  public static func murmur3(_ data: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    let c1: UInt64 = 0x87c3_7b91_1142_53d5
    let c2: UInt64 = 0x4cf5_ad43_2745_937f
    var h1: UInt64 = 0
    var h2: UInt64 = 0
    let blocks = data.count / 16
    for block in 0..<blocks {
      var k1 = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: block &* 16, as: UInt64.self))
      var k2 = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: block &* 16 &+ 8, as: UInt64.self))
      k1 &*= c1
      k1 = rotate(k1, 31)
      k1 &*= c2
      h1 ^= k1
      h1 = rotate(h1, 27)
      h1 &+= h2
      h1 = h1 &* 5 &+ 0x52dc_e729
      k2 &*= c2
      k2 = rotate(k2, 33)
      k2 &*= c1
      h2 ^= k2
      h2 = rotate(h2, 31)
      h2 &+= h1
      h2 = h2 &* 5 &+ 0x3849_5ab5
    }
    // The last 0–15 bytes.
    let tail = blocks * 16
    let remaining = data.count - tail
    var k1: UInt64 = 0
    var k2: UInt64 = 0
    if remaining > 8 {
      for i in stride(from: remaining - 1, through: 8, by: -1) { k2 ^= UInt64(data[tail + i]) << UInt64((i - 8) * 8) }
      k2 &*= c2
      k2 = rotate(k2, 33)
      k2 &*= c1
      h2 ^= k2
    }
    if remaining > 0 {
      for i in stride(from: min(remaining, 8) - 1, through: 0, by: -1) { k1 ^= UInt64(data[tail + i]) << UInt64(i * 8) }
      k1 &*= c1
      k1 = rotate(k1, 31)
      k1 &*= c2
      h1 ^= k1
    }
    h1 ^= UInt64(data.count)
    h2 ^= UInt64(data.count)
    h1 &+= h2
    h2 &+= h1
    h1 = mix(h1)
    h2 = mix(h2)
    h1 &+= h2
    h2 &+= h1
    return (h1, h2)
  }

  @inline(__always)
  private static func rotate(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    var k = value
    k ^= k >> 33
    k &*= 0xff51_afd7_ed55_8ccd
    k ^= k >> 33
    k &*= 0xc4ce_b9fe_1a85_ec53
    k ^= k >> 33
    return k
  }

  private static func hex(_ value: UInt64) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }
}
