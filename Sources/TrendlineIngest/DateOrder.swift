import TrendlineSchema
import TrendlineSupport

/// Which of a `nn/nn/yy` date's first two numbers is the day: StrongLifts and GymBook write
/// dates as the phone's region does, `19/11/18` in Europe and `11/19/18` in the US, with
/// nothing in the file saying which (EXPORT-FORMATS §9.6, §9.7).
///
/// The order is a property of a file, never of a row: it is inferred from the file's dates
/// (a first number above 12 can only be a day), or set by `dateOrder` in `users.csv` or in the
/// pipeline's `source.defaults`. A file whose dates cannot tell, or that contradicts itself,
/// is refused with a message saying how to set it — a guess would move every workout of the
/// ambiguous days by months, silently.
public enum DateOrder: String, Sendable, Equatable, CaseIterable {
  case dayFirst = "day-first"
  case monthFirst = "month-first"
}

/// The century of a two-digit year, as POSIX `strptime` `%y` reads it: 00–69 are 2000–2069,
/// 70–99 are 1970–1999. Every reader of two-digit years uses this one rule.
public enum TwoDigitYear {
  public static func expand(_ year: Int) -> Int { year < 70 ? 2000 + year : 1900 + year }
}

/// A date written `a/b/y`: one or two digits, two of them, then a two- or four-digit year.
struct SlashDate: Equatable {
  var first: Int
  var second: Int
  var year: Int

  /// Reads a whole field (surrounding spaces allowed); nil when it is not such a date.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SlashDate? {
    var scanner = ByteScanner(bytes)
    scanner.skipSpaces()
    guard let first = scanner.digits(maxCount: 2), scanner.take(UInt8(ascii: "/")),
      let second = scanner.digits(maxCount: 2), scanner.take(UInt8(ascii: "/")),
      let year = scanner.digits(maxCount: 4), year.count == 2 || year.count == 4
    else { return nil }
    scanner.skipSpaces()
    guard scanner.isAtEnd else { return nil }
    return SlashDate(
      first: first.value, second: second.value, year: year.count == 2 ? TwoDigitYear.expand(year.value) : year.value)
  }

  /// The date in `order`, or nil when it is no real date in that order.
  func civil(_ order: DateOrder) -> CivilDateTime? {
    let (day, month) = order == .dayFirst ? (first, second) : (second, first)
    guard month >= 1, month <= 12, day >= 1, day <= CivilDateTime.daysInMonth(year: year, month: month) else {
      return nil
    }
    return CivilDateTime(year: year, month: month, day: day)
  }
}

/// What a file's dates say about their order.
struct DateOrderEvidence {
  /// A date whose first number can only be a day, and one whose second can only be.
  private(set) var dayFirstExample: (line: Int, text: String)?
  private(set) var monthFirstExample: (line: Int, text: String)?

  /// Counts a date as evidence only when it is a real date in the one order it allows.
  mutating func add(_ date: SlashDate, line: Int, text: @autoclosure () -> String) {
    if date.first > 12 && dayFirstExample == nil && date.civil(.dayFirst) != nil { dayFirstExample = (line, text()) }
    if date.second > 12 && monthFirstExample == nil && date.civil(.monthFirst) != nil {
      monthFirstExample = (line, text())
    }
  }

  /// The order of a file whose dates are in its first column: the user's, else what those
  /// dates show, found in one pass before reading (these exports are small: StrongLifts writes
  /// a workout per row), stopping once the dates disagree.
  ///
  /// - Complexity: O(*n*), where *n* is the file's size in bytes.
  static func order(
    of file: String, bytes: [UInt8], format: String, dateColumn: String..., settings: ReadSettings, limits: ReadLimits
  ) throws(ExportError) -> DateOrder {
    try order(of: file, bytes: bytes, format: format, dateColumn: dateColumn, settings: settings, limits: limits)
  }

  /// As above, the date column being the first header name among `dateColumn` (any case).
  static func order(
    of file: String, bytes: [UInt8], format: String, dateColumn: [String], settings: ReadSettings, limits: ReadLimits
  ) throws(ExportError) -> DateOrder {
    if let stated = settings.dateOrder { return stated }
    // Borrowed, not copied: this pass runs before the real read over the same large file.
    let evidence = bytes.withUnsafeBufferPointer { buffer in
      var evidence = DateOrderEvidence()
      let reader = CSVReader(
        borrowing: buffer, maximumFieldBytes: limits.maxFieldBytes, maximumFields: limits.maxColumns)
      var column: Int?
      loop: while true {
        switch reader.next() {
        case .end: break loop
        case .blankLine, .malformed: continue
        case .record(let line):
          guard let column else {
            let names = (0..<reader.fieldCount).map { normalizedName(reader.string($0)).lowercased() }
            column = dateColumn.lazy.compactMap { names.firstIndex(of: $0.lowercased()) }.first ?? 0
            continue
          }
          guard column < reader.fieldCount, let date = SlashDate.parse(reader.field(column)) else { continue }
          evidence.add(date, line: line, text: reader.string(column))
          if evidence.dayFirstExample != nil && evidence.monthFirstExample != nil { break loop }
        }
      }
      return evidence
    }
    return try evidence.resolve(file: file, format: format, stated: nil)
  }

  /// The order to read the file in: the one set for the user, else the one the dates show.
  ///
  /// - Throws: ``ExportError`` when nothing is set and the dates cannot tell or disagree.
  func resolve(file: String, format: String, stated: DateOrder?) throws(ExportError) -> DateOrder {
    if let stated { return stated }
    let howToSet =
      "set dateOrder to \"day-first\" or \"month-first\" for this user in users.csv, "
      + "or in the pipeline's source.defaults"
    switch (dayFirstExample, monthFirstExample) {
    case (.some, nil): return .dayFirst
    case (nil, .some): return .monthFirst
    case (nil, nil):
      throw ExportError(
        file: file,
        message:
          "\(format): no date in the file has a number above 12, so whether its dates are day-first (19/11/18) or "
          + "month-first (11/19/18) cannot be told; \(howToSet)"
      )
    case (.some(let day), .some(let month)):
      throw ExportError(
        file: file, line: month.line,
        message:
          "\(format): the dates disagree on their order: '\(day.text)' (line \(day.line)) is day-first, "
          + "'\(month.text)' (line \(month.line)) month-first; \(howToSet), "
          + "and the rows that do not fit it are rejected"
      )
    }
  }
}
