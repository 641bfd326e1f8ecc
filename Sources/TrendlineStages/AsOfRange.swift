import TrendlineSchema

/// `--as-of FROM..TO --every day|week|month`: the dates of a backfill, each an as-of of its own
/// (``AsOf/endOfDay(year:month:day:)``), computed in one pass over the users.
///
/// The dates are FROM, then every step after it up to TO: TO itself only when a step lands on
/// it. A monthly step keeps FROM's day of the month, or the month's last day when it has no
/// such day: from 2024-01-31 the dates are 31 January, 29 February, 31 March. Only dates are
/// taken, not instants: a snapshot is "what every chart showed on that day", the end of the day
/// in each user's zone, as a single run given that date shows it.
public struct AsOfRange: Sendable, Equatable {
  public enum Step: String, Sendable, CaseIterable {
    case day, week, month
  }

  /// The snapshots, oldest first; never empty.
  public let dates: [AsOf]
  public let step: Step

  /// At most this many snapshots in one run: ten years of days. A longer range is several runs,
  /// each of which skips the snapshots already complete.
  public static let maxSnapshots = 3_660

  /// `as_of=2025-01-06`: the folder a snapshot is written to, the partition name Hive, Spark,
  /// Trino and DuckDB read as a column `as_of`.
  public static func folderName(of asOf: AsOf) -> String { folderPrefix + asOf.text }
  public static let folderPrefix = "as_of="

  /// Whether `text` is written as a range, `FROM..TO`, rather than one as-of.
  public static func isRange(_ text: String) -> Bool { text.contains("..") }

  /// Reads `FROM..TO` with the step `every` (`day`, `week` or `month`).
  ///
  /// - Throws: ``AsOf/Invalid`` naming what is wrong: not two dates, an instant, TO before
  ///   FROM, an unknown step, or more than ``maxSnapshots`` snapshots.
  /// - Complexity: O(*s*) for *s* snapshots.
  public init(reading text: String, every: String) throws(AsOf.Invalid) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[1].isEmpty else {
      throw AsOf.Invalid(
        description: "'\(text)' is not a range of dates: give FROM..TO, such as 2025-01-06..2025-12-29")
    }
    var ends: [(year: Int, month: Int, day: Int)] = []
    for part in [String(parts[0]), String(parts[2])] {
      guard case .endOfDay(let year, let month, let day) = try AsOf(reading: part) else {
        throw AsOf.Invalid(
          description: "'\(part)' in '\(text)' is an instant; a range takes dates (YYYY-MM-DD), each the end of that "
            + "day for every user")
      }
      ends.append((year, month, day))
    }
    guard let step = Step(rawValue: every) else {
      throw AsOf.Invalid(description: "'\(every)' is not a step of --every: give day, week or month")
    }
    let from = RFC3339.days(fromCivil: Int64(ends[0].year), month: Int64(ends[0].month), day: Int64(ends[0].day))
    let to = RFC3339.days(fromCivil: Int64(ends[1].year), month: Int64(ends[1].month), day: Int64(ends[1].day))
    guard from <= to else {
      throw AsOf.Invalid(description: "'\(text)' ends before it starts: give the earlier date first")
    }
    var dates: [AsOf] = []
    var index: Int64 = 0
    while true {
      let days: Int64
      switch step {
      case .day: days = from + index
      case .week: days = from + index * 7
      case .month:
        let months = Int64(ends[0].month - 1) + index
        let year = Int64(ends[0].year) + months / 12
        let month = months % 12 + 1
        let day = min(Int64(ends[0].day), RFC3339.daysInMonth(year: year, month: month))
        days = RFC3339.days(fromCivil: year, month: month, day: day)
      }
      guard days <= to else { break }
      guard dates.count < Self.maxSnapshots else {
        throw AsOf.Invalid(
          description: "'\(text)' every \(every) is more than \(Self.maxSnapshots) snapshots, too many for one run; "
            + "split the range into several runs")
      }
      let date = RFC3339.civilDate(fromDays: days)
      dates.append(.endOfDay(year: Int(date.year), month: Int(date.month), day: Int(date.day)))
      index += 1
    }
    self.dates = dates
    self.step = step
  }
}
