import Foundation
import TrendlineSchema
import TrendlineSupport

/// A wall-clock date and time as an export writes it, before any time zone is applied.
public struct CivilDateTime: Sendable, Equatable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int

  public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Days from 1970-01-01 to this date in the proleptic Gregorian calendar (integer
  /// arithmetic, shared with the output writer in ``RFC3339``: no `Calendar` call per row).
  ///
  /// - Complexity: O(1).
  public var daysSinceEpoch: Int64 {
    RFC3339.days(fromCivil: Int64(year), month: Int64(month), day: Int64(day))
  }

  /// Seconds from 1970-01-01T00:00:00 to this wall time, as if it were UTC.
  public var localSeconds: Int64 {
    daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// The civil date and time of `localSeconds` (seconds since 1970 on a wall clock).
  ///
  /// - Complexity: O(1).
  public init(localSeconds: Int64) {
    let days = LocalDay(localSeconds: localSeconds).number
    let secondOfDay = Int(localSeconds - days * 86_400)
    let (year, month, day) = RFC3339.civilDate(fromDays: days)
    self.init(
      year: Int(year), month: Int(month), day: Int(day), hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
      second: secondOfDay % 60)
  }

  public static func daysInMonth(year: Int, month: Int) -> Int {
    Int(RFC3339.daysInMonth(year: Int64(year), month: Int64(month)))
  }

  public var description: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
  }
}

/// A timestamp read from an export: the wall time, whether it had a time of day, and the UTC
/// offset if the text stated one.
public struct ParsedTimestamp: Sendable, Equatable {
  public var civil: CivilDateTime
  public var hasTime: Bool
  /// Seconds east of UTC, when the text carried `Z` or `±HH:MM`; then no zone is applied.
  public var offsetSeconds: Int?

  public init(civil: CivilDateTime, hasTime: Bool = true, offsetSeconds: Int? = nil) {
    self.civil = civil
    self.hasTime = hasTime
    self.offsetSeconds = offsetSeconds
  }
}

/// Reads every timestamp shape seen in real exports, from bytes, with no formatter.
///
///     2020-12-30 18:51:52              Strong
///     2025-01-29 5:30:00\u{202F}pm     Strong on a 12-hour device (narrow no-break space)
///     15 Sep 2025, 07:48               Hevy
///     Apr 12, 2026, 12:29 PM           Hevy on a US phone
///     2025-04-29                       FitNotes (date only)
///     2021-01-17 22:14:35 +0000        Fitbod, Apple Health
///     2026-08-24T18:00:00+02:00        native JSON (RFC 3339, `Z`, fractions)
///
/// One grammar covers them all: a date (`YYYY-MM-DD`, `D MMM YYYY` or `MMM D, YYYY`), optionally `T`, a space
/// or `, ` and a time `H:MM[:SS[.fff]]`, optionally `am`/`pm` after a space, a no-break space
/// or none, optionally an offset (`Z`, `±HH:MM`, `±HHMM`, `±HH`). Fractions of a second are
/// dropped, since every instant Trendline keeps is whole seconds. A month name is English
/// unless the caller reads the file's dates in another language (``MonthReading``; Hevy
/// writes `30 abr 2024, 19:25` from a Spanish phone).
public enum TimestampParser {
  /// Parses `bytes` (surrounding spaces allowed); nil when it is not a valid timestamp,
  /// including impossible dates such as 2025-02-29 or 24:00.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ParsedTimestamp? {
    parse(bytes, months: nil)
  }

  /// Parses `bytes`, reading a month name with `months` (English when nil).
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, months: MonthReading?) -> ParsedTimestamp? {
    var scanner = ByteScanner(bytes)
    scanner.skipSpaces()
    var civil = CivilDateTime(year: 0, month: 0, day: 0)

    // The date: ISO order, Hevy's day, month name, year, or (on a US phone) month name, day, year,
    // or JavaScript's `Sun Jul 09 2017 10:55:21 GMT+0000 (UTC)` (Fitbod's 2017 app).
    let javaScript = scanner.weekdayName()
    if let month = scanner.monthName(months) {
      guard scanner.afterMonthName(), let day = scanner.digits(maxCount: 2),
        javaScript ? scanner.take(ASCII.space) : scanner.take(ASCII.comma) && scanner.take(ASCII.space),
        let year = scanner.digits(maxCount: 4), year.count == 4
      else { return nil }
      (civil.year, civil.month, civil.day) = (year.value, month, day.value)
      _ = scanner.take(ASCII.comma)
    } else {
      guard let first = scanner.digits(maxCount: 4) else { return nil }
      if first.count == 4 {
        guard scanner.take(ASCII.minus), let month = scanner.digits(maxCount: 2),
          scanner.take(ASCII.minus), let day = scanner.digits(maxCount: 2)
        else { return nil }
        (civil.year, civil.month, civil.day) = (first.value, month.value, day.value)
      } else {
        guard first.count <= 2, scanner.take(ASCII.space), let month = scanner.monthName(months),
          scanner.afterMonthName(), let year = scanner.digits(maxCount: 4), year.count == 4
        else { return nil }
        (civil.year, civil.month, civil.day) = (year.value, month, first.value)
        _ = scanner.take(ASCII.comma)
      }
    }
    guard civil.month >= 1 && civil.month <= 12, civil.day >= 1,
      civil.day <= CivilDateTime.daysInMonth(year: civil.year, month: civil.month)
    else { return nil }

    var result = ParsedTimestamp(civil: civil, hasTime: false)
    if !scanner.take(UInt8(ascii: "T")) { scanner.skipSpaces() }
    if scanner.isAtEnd { return result }

    // The time of day.
    guard let hour = scanner.digits(maxCount: 2), scanner.take(ASCII.colon),
      let minute = scanner.digits(maxCount: 2), minute.count == 2
    else { return nil }
    var second = 0
    if scanner.take(ASCII.colon) {
      guard let value = scanner.digits(maxCount: 2), value.count == 2 else { return nil }
      second = value.value
      if scanner.take(ASCII.dot) || scanner.take(ASCII.comma) {
        guard scanner.digits(maxCount: 9) != nil else { return nil }
      }
    }
    var hourValue = hour.value
    let spaceBeforeMeridiem = scanner.position
    scanner.skipSpaces()
    if let isPM = scanner.meridiem() {
      // 12-hour clock: 12 am is midnight, 12 pm is noon.
      guard hourValue >= 1 && hourValue <= 12 else { return nil }
      hourValue = hourValue % 12 + (isPM ? 12 : 0)
    } else {
      scanner.position = spaceBeforeMeridiem
    }
    guard hourValue <= 23, minute.value <= 59, second <= 59 else { return nil }
    result.civil.hour = hourValue
    result.civil.minute = minute.value
    result.civil.second = second
    result.hasTime = true

    // The offset, if any.
    scanner.skipSpaces()
    if scanner.isAtEnd { return result }
    if javaScript {
      // `GMT+0000 (UTC)`: the offset after `GMT`, then the zone's name in parentheses.
      guard scanner.take(UInt8(ascii: "G")), scanner.take(UInt8(ascii: "M")), scanner.take(UInt8(ascii: "T")) else {
        return nil
      }
    }
    if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
      result.offsetSeconds = 0
    } else {
      let sign: Int
      if scanner.take(ASCII.plus) {
        sign = 1
      } else if scanner.take(ASCII.minus) {
        sign = -1
      } else {
        return nil
      }
      guard let hours = scanner.digits(maxCount: 2), hours.count == 2 else { return nil }
      var minutes = 0
      let hadColon = scanner.take(ASCII.colon)
      if let value = scanner.digits(maxCount: 2) {
        guard value.count == 2 else { return nil }
        minutes = value.value
      } else if hadColon {
        return nil
      }
      guard hours.value <= 23, minutes <= 59 else { return nil }
      result.offsetSeconds = sign * (hours.value * 3600 + minutes * 60)
    }
    scanner.skipSpaces()
    if javaScript, scanner.take(UInt8(ascii: "(")) {
      // The zone's name says nothing the offset did not: skipped to its closing parenthesis.
      while !scanner.isAtEnd, !scanner.take(UInt8(ascii: ")")) { scanner.position += 1 }
      scanner.skipSpaces()
    }
    return scanner.isAtEnd ? result : nil
  }

  /// Parses a `String`, for callers that already hold one (JSON values, tests).
  public static func parse(_ text: String) -> ParsedTimestamp? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }
}

/// A cursor over bytes with the few primitives the value parsers need.
struct ByteScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var isAtEnd: Bool { position >= bytes.count }

  mutating func take(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  /// Skips ASCII spaces, tabs, and the no-break spaces U+00A0 and U+202F that 12-hour exports
  /// put before `am`/`pm`.
  mutating func skipSpaces() {
    while position < bytes.count {
      let byte = bytes[position]
      if byte == ASCII.space || byte == ASCII.tab {
        position += 1
      } else if byte == 0xC2, position + 1 < bytes.count, bytes[position + 1] == 0xA0 {
        position += 2
      } else if byte == 0xE2, position + 2 < bytes.count, bytes[position + 1] == 0x80,
        bytes[position + 2] == 0xAF
      {
        position += 3
      } else {
        return
      }
    }
  }

  /// One to `maxCount` ASCII digits, with how many there were.
  mutating func digits(maxCount: Int) -> (value: Int, count: Int)? {
    var value = 0
    var count = 0
    while count < maxCount, position < bytes.count, bytes[position] >= ASCII.zero,
      bytes[position] <= ASCII.nine
    {
      value = value * 10 + Int(bytes[position] - ASCII.zero)
      position += 1
      count += 1
    }
    return count == 0 ? nil : (value, count)
  }

  /// A month's name: its letters (any byte of a non-ASCII letter counts as one), `30 abr 2024`,
  /// `28 Şub`, `05-Jan-2024` in a mapped pattern: 1…12; a period after it is the caller's. Read by
  /// `months` when given; else an English name of three letters, any case, looked up without
  /// allocating.
  mutating func monthName(_ months: MonthReading?) -> Int? {
    var end = position
    while end < bytes.count, bytes[end] >= 0x80 || (bytes[end] | 0x20 >= 0x61 && bytes[end] | 0x20 <= 0x7A) {
      end += 1
    }
    guard end > position else { return nil }
    let token = UnsafeBufferPointer(rebasing: bytes[position..<end])
    let month: Int?
    if let months {
      month = months.month(token)
    } else if token.count == 3 {
      // Lower-case the three letters into one integer and compare with the table.
      let key = (UInt32(token[0] | 0x20) << 16) | (UInt32(token[1] | 0x20) << 8) | UInt32(token[2] | 0x20)
      month = ByteScanner.englishMonthKeys.first { $0.key == key }?.month
    } else {
      month = nil
    }
    guard let month else { return nil }
    position = end
    return month
  }

  /// An English weekday's three-letter name and the space after it (`Sun `), as JavaScript
  /// begins a date; false, and nothing taken, when there is none.
  mutating func weekdayName() -> Bool {
    guard position + 4 <= bytes.count, bytes[position + 3] == ASCII.space else { return false }
    let key =
      (UInt32(bytes[position] | 0x20) << 16) | (UInt32(bytes[position + 1] | 0x20) << 8)
      | UInt32(bytes[position + 2] | 0x20)
    guard ByteScanner.englishWeekdayKeys.contains(key) else { return false }
    position += 4
    return true
  }

  /// English weekdays' three-letter names, from the locale data as the months' are.
  private static let englishWeekdayKeys: Set<UInt32> = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en")
    let keys = calendar.shortWeekdaySymbols.compactMap { symbol -> UInt32? in
      let b = Array(symbol.lowercased().utf8)
      guard b.count >= 3 else { return nil }
      return (UInt32(b[0]) << 16) | (UInt32(b[1]) << 8) | UInt32(b[2])
    }
    precondition(keys.count == 7, "Foundation's locale data has no English weekday names")
    return Set(keys)
  }()

  /// The space after a month's name, and a period before it (`Sept. `, as the locale data
  /// abbreviates).
  mutating func afterMonthName() -> Bool {
    _ = take(ASCII.dot)
    return take(ASCII.space)
  }

  /// Every three-letter ASCII spelling that names one month in English, from the locale data
  /// (``MonthNames/english``): `jan` … `dec`, and the starts of the full names, which are the same.
  private static let englishMonthKeys: [(key: UInt32, month: Int)] = {
    let keys: [(key: UInt32, month: Int)] = MonthNames.english.threeLetterASCII.map {
      let b = Array($0.spelling.utf8)
      return ((UInt32(b[0]) << 16) | (UInt32(b[1]) << 8) | UInt32(b[2]), $0.month)
    }
    // Locale data without English (a stripped ICU) would make every spelled date unreadable:
    // a bug of the build, said at once rather than as rows rejected.
    precondition(Set(keys.map(\.month)).count == 12, "Foundation's locale data has no English month names")
    return keys
  }()

  /// `am`/`pm` (any case, with optional dots: `a.m.`): true for pm.
  mutating func meridiem() -> Bool? {
    guard position < bytes.count else { return nil }
    let letter = bytes[position] | 0x20
    guard letter == UInt8(ascii: "a") || letter == UInt8(ascii: "p") else { return nil }
    var cursor = position + 1
    if cursor < bytes.count && bytes[cursor] == ASCII.dot { cursor += 1 }
    guard cursor < bytes.count, bytes[cursor] | 0x20 == UInt8(ascii: "m") else { return nil }
    cursor += 1
    if cursor < bytes.count && bytes[cursor] == ASCII.dot { cursor += 1 }
    position = cursor
    return letter == UInt8(ascii: "p")
  }
}
