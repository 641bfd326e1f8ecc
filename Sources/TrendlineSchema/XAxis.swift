import Foundation

/// The time axis's labels of a series, for each label count an app fits (3, 4, 5 or 7, like
/// ``YAxis``): which buckets carry a label and what it says, so an app at a larger text size
/// draws fewer labels without a calendar or a date formatter of its own (Swift Charts' automatic
/// date labels are the device's zone and language, not the user's).
///
/// For *k* labels: months are labelled every 1, 2, 3, 6 or 12 months, the first stride that
/// leaves at most *k* labels, on months whose number fits it (January, April, July, October
/// for quarters), so labels stay put as months are added; weeks every 1, 2, 4, 8, 13, 26 or 52
/// weeks and days every 1, 2, 7, 14, 28, 91, 182 or 364 days, counted back from the newest, which
/// is always labelled. A month's label is its short name (`Sep`), with the year on January and
/// on the first label (`Jan 2026`); a week's or day's is the date (`24 Nov`), with the year on
/// the first label and the first of each new year (`29 Dec 2025`).
public struct XAxis: Decodable, Sendable, Equatable {
  /// A labelled bucket: its start (where its bar and point are centred) and the label.
  public struct Tick: Decodable, Sendable, Equatable {
    public var value: Date
    public var label: String
    public init(value: Date, label: String) {
      self.value = value
      self.label = label
    }
  }

  /// Label count (3, 4, 5, 7) → its ticks, oldest first.
  public var ticks: [Int: [Tick]]

  public init(ticks: [Int: [Tick]]) { self.ticks = ticks }

  /// The axis of buckets starting at `starts` (oldest first) of `granularity`, labelled in
  /// `zone`.
  ///
  /// - Complexity: O(*n* × *k*) for *n* buckets and the *k* label counts.
  public init(starts: [Date], granularity: Granularity, zone: TimeZone) {
    let dates = starts.map { LocalDate($0, in: zone) }
    var ticks: [Int: [Tick]] = [:]
    for count in YAxis.labelCounts {
      let labelled = Self.labelled(dates, granularity: granularity, atMost: count)
      var previousYear: Int?
      ticks[count] = labelled.enumerated().map { order, index in
        let date = dates[index]
        var label: String
        switch granularity {
        case .month: label = date.month == 1 || order == 0 ? "\(date.monthName) \(date.year)" : date.monthName
        case .week, .day:
          label = date.dayMonth
          if date.year != previousYear { label += " \(date.year)" }
          previousYear = date.year
        }
        return Tick(value: starts[index], label: label)
      }
    }
    self.ticks = ticks
  }

  /// The indexes of the buckets labelled with at most `count` labels, ascending.
  static func labelled(_ dates: [LocalDate], granularity: Granularity, atMost count: Int) -> [Int] {
    guard !dates.isEmpty else { return [] }
    switch granularity {
    case .month:
      for stride in [1, 2, 3, 6, 12] {
        let chosen = dates.indices.filter { (dates[$0].month - 1) % stride == 0 }
        if chosen.count <= count { return chosen.isEmpty ? [dates.count - 1] : chosen }
      }
      // More than `count` Januaries: every so many years, back from the newest.
      let januaries = dates.indices.filter { dates[$0].month == 1 }
      let every = (januaries.count + count - 1) / count
      return januaries.reversed().enumerated().filter { $0.offset % every == 0 }.map(\.element).reversed()
    case .week, .day:
      let strides = granularity == .week ? [1, 2, 4, 8, 13, 26, 52] : [1, 2, 7, 14, 28, 91, 182, 364]
      let last = dates.count - 1
      let stride =
        strides.first { (last / $0) + 1 <= count } ?? max(strides.last!, (last + count - 2) / max(count - 1, 1))
      return Swift.stride(from: last, through: 0, by: -stride).reversed()
    }
  }
}

extension XAxis: OutputWritable {
  /// Writes `{"ticks": {"3": [{value, label}], …}}`, the label counts ascending.
  ///
  /// - Complexity: O(*t*), where *t* is the number of ticks.
  public func write(to writer: inout OutputWriter) {
    writer.beginObject()
    writer.key("ticks")
    writer.ticksByLabelCount(ticks) { writer, tick in
      writer.member("value", tick.value)
      writer.member("label", tick.label)
    }
    writer.endObject()
  }

  enum CodingKeys: String, CodingKey { case ticks }

  /// Decodes `{"ticks": {"3": [...], ...}}`.
  public init(from decoder: any Decoder) throws {
    ticks = try decoder.container(keyedBy: CodingKeys.self).decodeByLabelCount(forKey: .ticks)
  }
}
