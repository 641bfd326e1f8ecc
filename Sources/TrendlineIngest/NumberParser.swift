import TrendlineSupport

/// Reads decimal numbers and durations from field bytes, without making a `String`.
///
/// Numbers: optional sign, digits, optional fraction, optional exponent, with surrounding
/// spaces allowed (Fitbod writes `, 4`). Most values in exports (`40.0`, `13.0`,
/// `149.99999999999997`) have at most 19 significant digits and a small exponent; those are
/// converted exactly with one multiplication or division by a power of ten that a `Double`
/// holds exactly (Clinger's fast path). Anything else goes through the standard library's
/// correctly rounded conversion, so the result is always the nearest `Double`.
public enum NumberParser {
  /// What a field held.
  public enum Value: Equatable, Sendable {
    case empty
    case number(Double)
    case invalid
  }

  /// Parses a decimal number; `.empty` for a field of only spaces.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Value {
    var start = 0
    var end = bytes.count
    while start < end && bytes[start] == ASCII.space { start += 1 }
    while end > start && bytes[end - 1] == ASCII.space { end -= 1 }
    if start == end { return .empty }

    var index = start
    var negative = false
    if bytes[index] == ASCII.minus || bytes[index] == ASCII.plus {
      negative = bytes[index] == ASCII.minus
      index += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var significant = 0
    var exponent = 0
    var sawDigit = false
    while index < end, bytes[index] >= ASCII.zero, bytes[index] <= ASCII.nine {
      sawDigit = true
      if significant < 19 {
        mantissa = mantissa * 10 + UInt64(bytes[index] - ASCII.zero)
        if mantissa != 0 { significant += 1 }
      } else {
        exponent += 1
        significant += 1
      }
      digits += 1
      index += 1
    }
    if index < end && bytes[index] == ASCII.dot {
      index += 1
      while index < end, bytes[index] >= ASCII.zero, bytes[index] <= ASCII.nine {
        sawDigit = true
        if significant < 19 {
          mantissa = mantissa * 10 + UInt64(bytes[index] - ASCII.zero)
          if mantissa != 0 { significant += 1 }
          exponent -= 1
        } else {
          significant += 1
        }
        index += 1
      }
    }
    guard sawDigit else { return .invalid }
    if index < end && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      var exponentNegative = false
      if index < end && (bytes[index] == ASCII.minus || bytes[index] == ASCII.plus) {
        exponentNegative = bytes[index] == ASCII.minus
        index += 1
      }
      var value = 0
      var sawExponentDigit = false
      while index < end, bytes[index] >= ASCII.zero, bytes[index] <= ASCII.nine {
        sawExponentDigit = true
        value = min(value * 10 + Int(bytes[index] - ASCII.zero), 100_000)
        index += 1
      }
      guard sawExponentDigit else { return .invalid }
      exponent += exponentNegative ? -value : value
    }
    guard index == end else { return .invalid }

    // Exact when the mantissa fits in 53 bits and 10^|exponent| is itself exact (≤ 10^22).
    if significant <= 19, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 {
        value /= powersOfTen[-exponent]
      } else {
        value *= powersOfTen[exponent]
      }
      return .number(negative ? -value : value)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return .invalid }
    return .number(value)
  }

  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// Reads a duration in seconds: `1h 5m`, `45m`, `30s`, `38min`, `1h`, `01:05:00`, `0:09:21`,
  /// `9:21` (minutes and seconds), or a plain number of seconds (`4195`, `75.0`).
  /// `.empty` for a blank field.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func duration(_ bytes: UnsafeBufferPointer<UInt8>) -> Value {
    switch decimal(bytes) {
    case .number(let seconds): return .number(seconds)
    case .empty: return .empty
    case .invalid: break
    }
    var scanner = ByteScanner(bytes)
    scanner.skipSpaces()
    guard let first = scanner.digits(maxCount: 9) else { return .invalid }

    // Clock form: H:MM:SS or M:SS.
    if scanner.take(ASCII.colon) {
      guard let second = scanner.digits(maxCount: 2), second.count == 2, second.value < 60 else {
        return .invalid
      }
      var total = first.value * 60 + second.value
      if scanner.take(ASCII.colon) {
        guard let third = scanner.digits(maxCount: 2), third.count == 2, third.value < 60 else {
          return .invalid
        }
        total = total * 60 + third.value
      }
      scanner.skipSpaces()
      return scanner.isAtEnd ? .number(Double(total)) : .invalid
    }

    // Unit form: numbers each followed by h, m, min or s, in that order, spaces between.
    var total = 0
    var value = first.value
    var lastRank = 0
    while true {
      scanner.skipSpaces()
      let rank: Int
      let multiplier: Int
      if scanner.take(UInt8(ascii: "h")) {
        (rank, multiplier) = (1, 3600)
      } else if scanner.take(UInt8(ascii: "m")) {
        _ = scanner.take(UInt8(ascii: "i")) && scanner.take(UInt8(ascii: "n"))
        (rank, multiplier) = (2, 60)
      } else if scanner.take(UInt8(ascii: "s")) {
        (rank, multiplier) = (3, 1)
      } else {
        return .invalid
      }
      guard rank > lastRank else { return .invalid }
      lastRank = rank
      total += value * multiplier
      scanner.skipSpaces()
      if scanner.isAtEnd { return .number(Double(total)) }
      guard let next = scanner.digits(maxCount: 9) else { return .invalid }
      value = next.value
    }
  }
}

extension NumberParser {
  /// `decimal` over a `String`, for JSON values and tests.
  public static func decimal(_ text: String) -> Value {
    var copy = text
    return copy.withUTF8 { decimal($0) }
  }

  /// `duration` over a `String`, for JSON values and tests.
  public static func duration(_ text: String) -> Value {
    var copy = text
    return copy.withUTF8 { duration($0) }
  }
}
