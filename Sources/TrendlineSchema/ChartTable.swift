import Foundation

/// The rows of one chart's table (`"tables"` in `output.formats`): every user's chart as CSV
/// rows, long form, one row per mark, so a whole chart of every user is one file DuckDB,
/// pandas or a spreadsheet loads (`Guides/Tables.md`).
///
/// What a reader's type guessing needs is decided here, once for every table:
/// - RFC 4180: a header line, `,` between fields, `\n` after every row, a field quoted (`"`
///   doubled) only when it holds `,`, `"`, CR or LF; a text field that a spreadsheet would run as
///   a formula starts with `'` (``append(cell:to:)``).
/// - Instants in UTC, `2025-06-01T22:00:00+00:00`: one offset in a column, so a reader takes it as
///   one timestamp type (a user's local offsets differ from user to user). The period's local
///   start date, which a user's chart is drawn by, is the `date` column (`2025-06-02`).
/// - Numbers as JSON writes them (``NumberText``): whole values as integers, others in the
///   shortest form that reads back as the same `Double`; `true`/`false`; an unknown value is an empty field (a
///   reader's null, never 0).
/// - The user id is the first field of every user row and needs no quotes (ids are `A–Z a–z
///   0–9 . _ -`), so the rows of a user are found, and shards' tables merged, by that field.
public struct TableRows: Sendable {
  public private(set) var bytes: [UInt8] = []
  private var fieldsInRow = 0

  public init() {}

  /// Starts a field: a comma unless it is the row's first.
  private mutating func separate() {
    if fieldsInRow > 0 { bytes.append(UInt8(ascii: ",")) }
    fieldsInRow += 1
  }

  public mutating func text(_ value: String) {
    separate()
    TableRows.append(cell: value, to: &bytes)
  }

  /// Appends `value` as one CSV cell to `bytes`: a cell a spreadsheet would run as a formula
  /// (starting with `=`, `+`, `-`, `@`, a tab or a carriage return, as OWASP lists them) gets a
  /// leading `'`, so a hostile export or file name cannot put `=HYPERLINK(…)` into an analyst's
  /// sheet (SPEC 11.7); then the cell is quoted per RFC 4180 when it needs to be. Every CSV
  /// Trendline writes takes its text cells from here.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `value`.
  public static func append(cell value: String, to bytes: inout [UInt8]) {
    let utf8 = value.utf8
    let defused = utf8.first.map { "=+-@\t\r".utf8.contains($0) } ?? false
    guard
      utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
    else {
      if defused { bytes.append(UInt8(ascii: "'")) }
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(UInt8(ascii: "\""))
    if defused { bytes.append(UInt8(ascii: "'")) }
    for byte in utf8 {
      if byte == UInt8(ascii: "\"") { bytes.append(byte) }
      bytes.append(byte)
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// A value that is unknown (nil, or not finite) is an empty field.
  public mutating func number(_ value: Double?) {
    separate()
    guard let value, value.isFinite else { return }
    bytes.append(contentsOf: NumberText.text(value).utf8)
  }

  public mutating func number(_ value: Int) {
    separate()
    bytes.append(contentsOf: String(value).utf8)
  }

  public mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  /// An instant in UTC: `2025-06-01T22:00:00+00:00`.
  public mutating func instant(_ value: Date?) {
    separate()
    guard let value else { return }
    RFC3339.append(seconds: value.epochSeconds, offset: 0, to: &bytes)
  }

  /// The columns every period's row starts with: `user, date, start, end, partial`.
  mutating func period(user: String, id: String, start: Date, end: Date, partial: Bool) {
    text(user)
    text(id)
    instant(start)
    instant(end)
    bool(partial)
  }

  public mutating func endRow() {
    bytes.append(0x0A)
    fieldsInRow = 0
  }

  /// A header line of `names`.
  public static func header(_ names: [String]) -> [UInt8] {
    var rows = TableRows()
    for name in names { rows.text(name) }
    rows.endRow()
    return rows.bytes
  }
}

// MARK: - Users' charts

extension ChartOutput {
  /// This user's rows of the chart's table, in the columns of its kind's
  /// ``ChartKind/tableColumns(measures:trend:)``.
  ///
  /// - Complexity: O(*m*), the number of marks.
  public func tableRows(trend: Bool) -> [UInt8] {
    var rows = TableRows()
    content.appendTableRows(to: &rows, trend: trend)
    return rows.bytes
  }
}

// MARK: - Cohorts

extension CohortChart {
  /// The cohort's table, header and rows, with the statistics of `quantiles` (the pipeline's
  /// `compare.quantiles`); with `segments`, a row per segment and row of the cohort, after a
  /// first column `segment` holding its value (empty for the users with no value, "unknown").
  ///
  /// A series has a row per bucket: its users (`n`), active users and their share, then per
  /// measure `<measure>N`, `Mean`, `Min`, `Max` and each quantile (`<measure>P50`, `P12_5`); a
  /// statistic no user of the row knows is empty. A radar has a row per axis with the same
  /// statistics of the counts.
  public func table(quantiles: [Double], segments: [(value: String?, cohort: CohortChart)]? = nil) -> [UInt8] {
    let names = quantiles.map { CohortStats.quantileName($0) }
    var bytes = TableRows.header((segments == nil ? [] : ["segment"]) + columns(quantiles: names))
    for part in segments ?? [(nil, self)] {
      var rows = TableRows()
      part.cohort.writeRows(into: &rows, quantiles: names) { rows in
        if segments != nil { rows.text(part.value ?? "") }
      }
      bytes += rows.bytes
    }
    return bytes
  }

  private func columns(quantiles: [String]) -> [String] {
    func stats(_ prefix: String) -> [String] {
      let column = quantiles.map { "P" + $0.dropFirst().replacingOccurrences(of: ".", with: "_") }
      return (["N", "Mean", "Min", "Max"] + column).map { prefix + $0 }
    }
    switch self {
    case .series(let output):
      return ["date", "start", "end", "partial", "n", "active", "activeShare"]
        + output.measures.flatMap { stats($0.rawValue) }
    case .radar:
      return ["axis", "partial", "users"] + stats("count")
    }
  }

  private func writeRows(into rows: inout TableRows, quantiles: [String], lead: (inout TableRows) -> Void) {
    func stats(_ stats: CohortStats?) {
      rows.number(stats?.n ?? 0)
      rows.number(stats?.mean)
      rows.number(stats?.min)
      rows.number(stats?.max)
      for name in quantiles { rows.number(stats?.quantiles.first { $0.name == name }?.value) }
    }
    switch self {
    case .series(let output):
      for bucket in output.buckets {
        lead(&rows)
        rows.text(bucket.date)
        rows.instant(bucket.start)
        rows.instant(bucket.end)
        rows.bool(bucket.partial)
        rows.number(bucket.n)
        rows.number(bucket.active)
        rows.number(bucket.activeShare)
        for measure in output.measures { stats(bucket.values[measure]) }
        rows.endRow()
      }
    case .radar(let output):
      for axis in output.axes {
        lead(&rows)
        rows.text(axis.id)
        rows.bool(output.partial)
        rows.number(output.users)
        stats(axis.counts)
        rows.endRow()
      }
    }
  }
}
