import Foundation
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
  /// `9:21` (minutes and seconds), a plain number of seconds (`4195`, `75.0`), or units named in
  /// another language (`1小时13分钟`, ``DurationUnits``).
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

    // Unit form: numbers each followed by a unit, hours before minutes before seconds, spaces
    // between or none: `h`, `m`, `min`, `s`, or a unit's name in another language (`1小时13分钟`).
    var total = 0
    var value = first.value
    var lastRank = 0
    while true {
      scanner.skipSpaces()
      var end = scanner.position
      while end < bytes.count, bytes[end] != ASCII.space, !(bytes[end] >= ASCII.zero && bytes[end] <= ASCII.nine) {
        end += 1
      }
      let word = UnsafeBufferPointer(rebasing: bytes[scanner.position..<end])
      guard !word.isEmpty, let rank = DurationUnits.rank(of: word) else { return .invalid }
      scanner.position = end
      guard rank > lastRank else { return .invalid }
      lastRank = rank
      total += value * [3600, 60, 1][rank - 1]
      scanner.skipSpaces()
      if scanner.isAtEnd { return .number(Double(total)) }
      guard let next = scanner.digits(maxCount: 9) else { return .invalid }
      value = next.value
    }
  }
}

/// The names of hours, minutes and seconds in a written duration: `h`, `m`, `min`, `s`, and
/// every language's own from Foundation's locale data (Strong writes `1小时13分钟` in Chinese,
/// `1 Std. 5 Min.` is German's), SPEC 11.1.
///
/// It deliberately holds no hand-written translations: each language's names are what
/// Foundation's duration formatting writes for 1, 2, 5 and 13 of a unit, in each width, so
/// plural forms are there too. A name that is one unit in one language and another unit in
/// another (`saat`, hours in Turkish, seconds in Malay) is left out rather than guessed. The
/// names are made once per process, and only when a duration is not written in the ASCII
/// units (about 0.5 s).
enum DurationUnits {
  /// 1 for hours, 2 for minutes, 3 for seconds; nil for a word no language uses for a unit.
  ///
  /// - Complexity: O(*m*) for a word of *m* bytes.
  static func rank(of word: UnsafeBufferPointer<UInt8>) -> Int? {
    switch word.count {
    case 1:
      switch word[0] {
      case UInt8(ascii: "h"): return 1
      case UInt8(ascii: "m"): return 2
      case UInt8(ascii: "s"): return 3
      default: break
      }
    case 3 where word.elementsEqual("min".utf8): return 2
    default: break
    }
    return translated[MonthNames.normalized(String(decoding: word, as: UTF8.self))]
  }

  private static let translated: [String: Int] = {
    var codes = Set<String>()
    for identifier in Locale.availableIdentifiers {
      if let code = Locale(identifier: identifier).language.languageCode?.identifier { codes.insert(code) }
    }
    var ranks: [String: Int] = [:]
    var conflicting: Set<String> = []
    let units: [(unit: Duration.UnitsFormatStyle.Unit, seconds: Int64, rank: Int)] = [
      (.hours, 3600, 1), (.minutes, 60, 2), (.seconds, 1, 3),
    ]
    let widths: [Duration.UnitsFormatStyle.UnitWidth] = [.wide, .abbreviated, .condensedAbbreviated, .narrow]
    for code in codes.sorted() {
      let locale = Locale(identifier: code)
      for (unit, seconds, rank) in units {
        for width in widths {
          for count in [1, 2, 5, 13] as [Int64] {
            let text = Duration.seconds(seconds * count).formatted(.units(allowed: [unit], width: width).locale(locale))
            // The name is what is left of `13 min` without its number, spaces and direction marks.
            let name = String(
              String.UnicodeScalarView(
                text.unicodeScalars.filter {
                  !$0.properties.isWhitespace && $0.properties.numericType == nil && $0 != "\u{200E}"
                    && $0 != "\u{200F}"
                }))
            let key = MonthNames.normalized(name)
            guard !key.isEmpty else { continue }
            if let known = ranks[key], known != rank { conflicting.insert(key) }
            ranks[key] = rank
          }
        }
      }
    }
    for key in conflicting { ranks[key] = nil }
    return ranks
  }()
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
