import Testing
import TrendlineIngest

@Test(arguments: [
  ("40.0", NumberParser.Value.number(40)),
  ("13.0", .number(13)),
  (" 4", .number(4)),  // Fitbod's leading space
  ("149.99999999999997", .number(149.99999999999997)),
  ("20.41168092460379", .number(20.41168092460379)),
  ("-20", .number(-20)),
  ("1e3", .number(1000)),
  ("0.005", .number(0.005)),
  ("12345678901234567890123", .number(12_345_678_901_234_567_890_123)),
  ("", .empty),
  ("   ", .empty),
  ("abc", .invalid),
  ("1.2.3", .invalid),
  ("NaN", .invalid),
  ("Infinity", .invalid),
  ("1e400", .invalid),
  ("62,5", .invalid),
  (".", .invalid),
  // At the bounds of the exact path (a mantissa of at most 19 significant digits and under
  // 2⁵³): 20 digits (2⁶⁴, which would wrap a 64-bit mantissa to 0) and 2⁵³ + 1 (which a
  // Double cannot hold, and rounds to even) go through the standard library's conversion.
  ("0.0", .number(0)),
  ("5.", .number(5)),
  (".5", .number(0.5)),
  ("0.1234567890123456", .number(0.1234567890123456)),
  ("1234567890123456789", .number(1_234_567_890_123_456_789)),
  ("18446744073709551616", .number(18_446_744_073_709_551_616)),
  ("9007199254740993", .number(9_007_199_254_740_992)),
  ("0000000000000000000001.5", .number(1.5)),
])
func decimals(text: String, expected: NumberParser.Value) {
  #expect(NumberParser.decimal(text) == expected)
}

/// 1 lb = 0.45359237 kg exactly, so 225 lb is 102.05828325 kg: 225 × 0.45359237.
@Test func poundsToKilograms() {
  #expect(WeightUnit.pounds.kilograms(225) == 102.05828325)
  #expect(WeightUnit.kilograms.kilograms(100) == 100)
  #expect(DistanceUnit.miles.meters(1) == 1609.344)
  #expect(DistanceUnit.kilometers.meters(1.5) == 1500)
}

@Test(arguments: [
  ("1h 5m", NumberParser.Value.number(3900)),  // 3600 + 5 × 60
  ("2h 38m", .number(9480)),  // 7200 + 38 × 60
  ("45m", .number(2700)),
  ("30s", .number(30)),
  ("1h", .number(3600)),
  ("38min", .number(2280)),
  ("01:05:00", .number(3900)),
  ("0:09:21", .number(561)),  // 9 × 60 + 21
  ("9:21", .number(561)),
  ("4195", .number(4195)),
  ("75.0", .number(75)),
  ("", .empty),
  ("5m 1h", .invalid),
  ("1:75", .invalid),
  ("soon", .invalid),
])
func durations(text: String, expected: NumberParser.Value) {
  #expect(NumberParser.duration(text) == expected)
}
