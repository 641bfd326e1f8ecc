import Testing
import TrendlineSupport

/// Digests as Python's `mmh3.hash128(data, 0, True, signed=False)` gives them (low 64 bits =
/// h1, high = h2), covering the empty input, tails of 1, 3 and 11 bytes, and whole blocks.
@Test(arguments: [
  ([UInt8](), "00000000000000000000000000000000"),
  (Array("a".utf8), "85555565f6597889e6b53a48510e895a"),
  (Array("abc".utf8), "b4963f3f3fad78673ba2744126ca2d52"),
  (Array("The quick brown fox jumps over the lazy dog".utf8), "e34bbc7bbc071b6c7a433ca9c49a9347"),
  (Array((0..<768).map { UInt8($0 % 256) }), "cf926c3003b926b6fa53d9e5e2f34638"),
])
func murmur3KnownDigests(input: [UInt8], digest: String) {
  #expect(ContentHash.of(input) == "murmur3-128:" + digest)
}
