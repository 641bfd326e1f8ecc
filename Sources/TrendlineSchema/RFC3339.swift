import Foundation

/// RFC 3339 instants in whole seconds, written with the user's UTC offset at that instant.
///
/// Written by hand instead of with `ISO8601DateFormatter`: an output holds thousands of
/// instants, and a formatter per zone is slower than one `secondsFromGMT(for:)` call plus
/// integer date arithmetic. It never writes `Z` (always `+00:00`), so every instant in a file
/// has the same shape. It never writes fractions: some decoders mishandle them (SPEC section 7).
public enum RFC3339 {
  /// `2026-08-24T00:00:00+02:00` for `seconds` in `timeZone`.
  ///
  /// A zone whose offset at that instant is not a whole number of minutes (local mean time
  /// before 1972 in a few zones) cannot be written as `±hh:mm`; the instant is then written in
  /// UTC as `+00:00`, which is the same instant, rather than with a rounded, wrong offset.
  ///
  /// - Complexity: O(1).
  public static func format(seconds: Int64, timeZone: TimeZone) -> String {
    text(seconds: seconds, offset: Int64(timeZone.secondsFromGMT(for: Date(epochSeconds: seconds))))
  }

  /// The local date of `seconds` in `timeZone`, `2026-08-24`: the stable `id` of a period,
  /// which starts at local midnight, so no two periods of one output share it.
  ///
  /// - Complexity: O(1).
  public static func localDate(seconds: Int64, timeZone: TimeZone) -> String {
    localDate(seconds: seconds, offset: Int64(timeZone.secondsFromGMT(for: Date(epochSeconds: seconds))))
  }

  /// The local date of `seconds` with a known UTC `offset`.
  static func localDate(seconds: Int64, offset: Int64) -> String {
    LocalDay(instant: seconds, offset: offset).text
  }

  /// `YYYY-MM-DD` of a civil date, the one writer of ``LocalDay/text``.
  static func dateText(_ date: (year: Int64, month: Int64, day: Int64)) -> String {
    let (year, month, day) = date
    guard (0...9999).contains(year) else { return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }
    // Written in place: the five strings of padding and joining cost more than the zone look-up.
    return String(unsafeUninitializedCapacity: 10) { buffer in
      let text = buffer.baseAddress!
      put(year, width: 4, at: text)
      text[4] = UInt8(ascii: "-")
      put(month, width: 2, at: text + 5)
      text[7] = UInt8(ascii: "-")
      put(day, width: 2, at: text + 8)
      return 10
    }
  }

  /// `seconds` written with a known UTC `offset` (whole minutes; anything else is written as
  /// `+00:00`, which only a few zones before 1972 would need).
  ///
  /// - Complexity: O(1); one allocation for the result.
  static func text(seconds: Int64, offset: Int64) -> String {
    String(unsafeUninitializedCapacity: byteCount) { text in
      write(seconds: seconds, offset: offset, into: text.baseAddress!)
      return byteCount
    }
  }

  /// The length of every instant's text: `2026-08-24T00:00:00+02:00`.
  static let byteCount = 25

  /// Appends the 25 bytes of ``text(seconds:offset:)`` to `bytes`.
  ///
  /// - Complexity: O(1) amortized.
  static func append(seconds: Int64, offset: Int64, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { text in
      write(seconds: seconds, offset: offset, into: text.baseAddress!)
      bytes.append(contentsOf: text)
    }
  }

  /// Writes the 25 bytes of ``text(seconds:offset:)`` at `text`, so that a writer of thousands
  /// of instants makes no `String` for each.
  ///
  /// - Complexity: O(1).
  static func write(seconds: Int64, offset given: Int64, into text: UnsafeMutablePointer<UInt8>) {
    let offset = given % 60 == 0 ? given : 0
    let local = seconds + offset
    let days = LocalDay(localSeconds: local).number
    let secondOfDay = local - days * 86_400
    let (year, month, day) = civilDate(fromDays: days)
    let offsetMinutes = abs(offset) / 60
    // Written in place, where an array append per character cost more than the date arithmetic.
    put(year, width: 4, at: text)
    text[4] = UInt8(ascii: "-")
    put(month, width: 2, at: text + 5)
    text[7] = UInt8(ascii: "-")
    put(day, width: 2, at: text + 8)
    text[10] = UInt8(ascii: "T")
    put(secondOfDay / 3600, width: 2, at: text + 11)
    text[13] = UInt8(ascii: ":")
    put(secondOfDay / 60 % 60, width: 2, at: text + 14)
    text[16] = UInt8(ascii: ":")
    put(secondOfDay % 60, width: 2, at: text + 17)
    text[19] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
    put(offsetMinutes / 60, width: 2, at: text + 20)
    text[22] = UInt8(ascii: ":")
    put(offsetMinutes % 60, width: 2, at: text + 23)
  }

  /// Formats many instants of one zone, asking the zone for an offset only when an instant
  /// falls outside the stretch between two of its transitions already looked up. A chart's
  /// instants mostly rise, so one output costs a few zone look-ups instead of one per instant
  /// (a zone look-up takes a lock, which workers on other users would wait for).
  public final class Formatter {
    public let timeZone: TimeZone
    /// Placed at the first instant asked about. Unchecked for exclusivity: moved once per
    /// instant by the one thread that owns the formatter, and a checked access there cost
    /// more than the offset look-up (20 M instructions of a warm night of 200 users).
    @exclusivity(unchecked) private var stretch: ZoneStretch?

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// - Complexity: O(1) amortized over rising instants.
    public func string(_ seconds: Int64) -> String {
      RFC3339.text(seconds: seconds, offset: offset(at: seconds))
    }

    /// The local date of `seconds`, as ``RFC3339/localDate(seconds:timeZone:)`` gives it: the
    /// `id` of each period of an output, without a zone look-up (which locks) per period.
    ///
    /// - Complexity: O(1) amortized over rising instants.
    public func localDate(_ seconds: Int64) -> String {
      RFC3339.localDate(seconds: seconds, offset: offset(at: seconds))
    }

    /// Writes the instant's 25 bytes at `text`, for ``OutputWriter``, which writes every instant
    /// of an output into one buffer.
    ///
    /// - Complexity: O(1) amortized over rising instants.
    func write(_ seconds: Int64, into text: UnsafeMutablePointer<UInt8>) {
      RFC3339.write(seconds: seconds, offset: offset(at: seconds), into: text)
    }

    /// The zone's offset from UTC at `seconds`, in seconds.
    ///
    /// - Complexity: O(1) amortized over rising instants.
    func offset(at seconds: Int64) -> Int64 {
      if stretch == nil { stretch = ZoneStretch(timeZone: timeZone, holding: seconds) }
      return stretch!.offset(at: seconds)
    }
  }

  /// Reads an RFC 3339 date-time (`2025-11-29T23:59:59+01:00`, `…Z`, lowercase `t`/`z`, or a
  /// space for `T`) as whole seconds; nil for anything else.
  ///
  /// Fractional seconds are accepted and rounded down: every instant Trendline compares is a
  /// whole second, so `…:59.9` keeps exactly the sessions that `…:59` keeps.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  public static func parse(_ text: String) -> Int64? {
    let b = Array(text.utf8)
    func number(_ from: Int, _ count: Int) -> Int64? {
      guard from + count <= b.count else { return nil }
      var value: Int64 = 0
      for i in from..<from + count {
        guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
        value = value * 10 + Int64(b[i] - 0x30)
      }
      return value
    }
    func byte(_ i: Int, in set: String) -> Bool { i < b.count && set.utf8.contains(b[i]) }
    guard b.count >= 20, let year = number(0, 4), byte(4, in: "-"), let month = number(5, 2),
      byte(7, in: "-"), let day = number(8, 2), byte(10, in: "Tt "), let hour = number(11, 2),
      byte(13, in: ":"), let minute = number(14, 2), byte(16, in: ":"), let second = number(17, 2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }
    var i = 19
    if byte(i, in: ".") {
      i += 1
      let digitsStart = i
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
      guard i > digitsStart else { return nil }
    }
    var offset: Int64
    if byte(i, in: "Zz") {
      offset = 0
      i += 1
    } else if byte(i, in: "+-"), let offsetHours = number(i + 1, 2), byte(i + 3, in: ":"),
      let offsetMinutes = number(i + 4, 2), offsetHours <= 23, offsetMinutes <= 59
    {
      offset = (offsetHours * 60 + offsetMinutes) * 60
      if b[i] == UInt8(ascii: "-") { offset = -offset }
      i += 6
    } else {
      return nil
    }
    guard i == b.count else { return nil }
    // A leap second (:60) is read as the first second of the next minute, which is how every
    // clock Trendline reads from would have stored it.
    let local =
      days(fromCivil: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    return local - offset
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
  ///
  /// - Complexity: O(1).
  public static func days(fromCivil year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDiv(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
  ///
  /// - Complexity: O(1).
  public static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = floorDiv(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// 28 to 31, by the Gregorian leap-year rule.
  ///
  /// - Complexity: O(1).
  public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  /// The last `width` decimal digits of `value` (≥ 0), zero-padded, at `text`.
  private static func put(_ value: Int64, width: Int, at text: UnsafeMutablePointer<UInt8>) {
    var value = value
    for position in stride(from: width - 1, through: 0, by: -1) {
      text[position] = UInt8(ascii: "0") + UInt8(value % 10)
      value /= 10
    }
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    // A sign before the padding, not inside it: -5 is `-0005`, never `00-5`.
    guard value >= 0 else { return "-" + pad(-value, width) }
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
