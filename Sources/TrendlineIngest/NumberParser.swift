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

    // Unit form: numbers each followed by a unit, hours before minutes before seconds, with
    // spaces, commas or a language's "and" between, or nothing: `1h 5m`, `1小时13分钟`,
    // `1 Std., 13 Min.`, `1 h et 13 min`.
    var units: [(value: Int, ranks: UInt8)] = []
    var value = first.value
    while true {
      scanner.skipSeparators()
      guard let word = scanner.word(), case let ranks = DurationUnits.ranks(of: word), ranks != 0 else {
        return .invalid
      }
      units.append((value, ranks))
      scanner.skipSeparators()
      if scanner.isAtEnd { break }
      if let connector = scanner.word() {
        guard DurationUnits.isConnector(connector) else { return .invalid }
        scanner.skipSeparators()
      }
      guard let next = scanner.digits(maxCount: 9) else { return .invalid }
      value = next.value
    }
    guard let seconds = DurationUnits.total(units) else { return .invalid }
    return .number(Double(seconds))
  }
}

extension ByteScanner {
  /// Skips the spaces and commas between a duration's parts.
  mutating func skipSeparators() {
    while true {
      skipSpaces()
      guard take(ASCII.comma) else { return }
    }
  }

  /// The bytes up to the next space, comma or digit; nil when there are none.
  mutating func word() -> UnsafeBufferPointer<UInt8>? {
    var end = position
    while end < bytes.count, bytes[end] != ASCII.space, bytes[end] != ASCII.comma,
      !(bytes[end] >= ASCII.zero && bytes[end] <= ASCII.nine)
    {
      end += 1
    }
    guard end > position else { return nil }
    defer { position = end }
    return UnsafeBufferPointer(rebasing: bytes[position..<end])
  }
}

/// The names of hours, minutes and seconds in a written duration, and the words that join
/// them: `h`, `m`, `min`, `s`, and every language's own from Foundation's locale data (Strong
/// writes `1小时13分钟` in Chinese; Foundation writes `1 Std., 13 Min.` in German, `1 h et 13 min`
/// in French), SPEC 11.1.
///
/// It deliberately holds no hand-written translations: each language's names are what
/// Foundation's duration formatting writes for 1, 2, 5 and 13 of a unit, in each width, so
/// plural forms are there too, and its joining words what is left of a duration of all three
/// units. A name may be one unit in one language and another in another (`saat`: hours in
/// Turkish, seconds in Malay): it keeps both, and the order of a duration's units settles which
/// (`1 saat 13 dakika`: hours, before minutes); where the order cannot (`2 saat` alone), the
/// duration is not read rather than guessed. The names are made once per process, and only
/// when a duration is not written in the ASCII units (about 0.5 s).
enum DurationUnits {
  /// The units `word` names: bit 0 hours, bit 1 minutes, bit 2 seconds; 0 for none.
  ///
  /// - Complexity: O(*m*) for a word of *m* bytes.
  static func ranks(of word: UnsafeBufferPointer<UInt8>) -> UInt8 {
    switch word.count {
    case 1:
      switch word[0] {
      case UInt8(ascii: "h"): return hours
      case UInt8(ascii: "m"): return minutes
      case UInt8(ascii: "s"): return seconds
      default: break
      }
    case 3 where word.elementsEqual("min".utf8): return minutes
    default: break
    }
    return translated.units[MonthNames.normalized(String(decoding: word, as: UTF8.self))] ?? 0
  }

  /// Whether `word` joins two of a duration's parts in some language (`et`, `y`, `und`).
  ///
  /// - Complexity: O(*m*) for a word of *m* bytes.
  static func isConnector(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
    translated.connectors.contains(MonthNames.normalized(String(decoding: word, as: UTF8.self)))
  }

  static let (hours, minutes, seconds): (UInt8, UInt8, UInt8) = (1, 2, 4)

  /// The seconds `parts` add up to, each value taken in the unit its name allows such that the
  /// units run from hours to seconds; nil when no such reading, or two giving different totals.
  ///
  /// - Complexity: O(1): at most three parts, of at most three units each.
  static func total(_ parts: [(value: Int, ranks: UInt8)]) -> Int? {
    guard parts.count <= 3 else { return nil }
    var totals: Set<Int> = []
    func assign(_ index: Int, after last: Int, sum: Int) {
      guard index < parts.count else {
        totals.insert(sum)
        return
      }
      for rank in (last + 1)..<3 where parts[index].ranks & (1 << rank) != 0 {
        assign(index + 1, after: rank, sum: sum + parts[index].value * [3600, 60, 1][rank])
      }
    }
    assign(0, after: -1, sum: 0)
    return totals.count == 1 ? totals.first : nil
  }

  private static let translated: (units: [String: UInt8], connectors: Set<String>) = {
    var codes = Set<String>()
    for identifier in Locale.availableIdentifiers {
      if let code = Locale(identifier: identifier).language.languageCode?.identifier { codes.insert(code) }
    }
    let widths: [Duration.UnitsFormatStyle.UnitWidth] = [.wide, .abbreviated, .condensedAbbreviated, .narrow]
    // The words of a formatted duration, without its numbers, spaces, commas and direction marks.
    func words(_ text: String) -> [String] {
      text.unicodeScalars.split {
        $0.properties.isWhitespace || $0.properties.numericType != nil || $0 == "," || $0 == "\u{200E}"
          || $0 == "\u{200F}"
      }.map { MonthNames.normalized(String(String.UnicodeScalarView($0))) }.filter { !$0.isEmpty }
    }
    var units: [String: UInt8] = [:]
    var joining: Set<String> = []
    for code in codes.sorted() {
      let locale = Locale(identifier: code)
      var own: Set<String> = []
      for (unit, length, rank) in [
        (Duration.UnitsFormatStyle.Unit.hours, Int64(3600), hours), (.minutes, 60, minutes), (.seconds, 1, seconds),
      ] {
        for width in widths {
          for count in [1, 2, 5, 13] as [Int64] {
            let text = Duration.seconds(length * count).formatted(.units(allowed: [unit], width: width).locale(locale))
            // A unit's name is one word, or several written together (`Std.`, `小时`).
            let name = words(text).joined()
            guard !name.isEmpty else { continue }
            units[name, default: 0] |= rank
            own.formUnion(words(text))
          }
        }
      }
      for width in widths {
        let text = Duration.seconds(3600 + 13 * 60 + 5).formatted(
          .units(allowed: [.hours, .minutes, .seconds], width: width).locale(locale))
        joining.formUnion(words(text).filter { !own.contains($0) })
      }
    }
    return (units, joining.subtracting(units.keys))
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
