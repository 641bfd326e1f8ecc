import Foundation

// What a person reads: numbers, dates, period names and measures with their units, written the
// same in the JSON's read-outs and tick labels (`Emit`, `Compare`) as in the SVG and HTML drawn
// from it, without a formatter or the machine's locale.

/// Numbers as SVG and HTML write them: never locale-dependent, never `1e-05`, never `-0`, at
/// most two decimals for coordinates, so the same chart is the same bytes on every machine.
public enum ShownNumber {
  /// `x` rounded to `decimals` places, trailing zeros dropped: `12.50` → `12.5`, `3.0` → `3`.
  ///
  /// - Complexity: O(1).
  public static func format(_ x: Double, decimals: Int = 2) -> String {
    guard x.isFinite else { return "0" }
    let scale = pow(10.0, Double(decimals))
    let scaled = (x * scale).rounded()
    if scaled == 0 { return "0" }
    // Past 2^53 a Double has no fraction to show, and past 2^63 `Int64(_:)` would trap: write
    // the whole number as C's printf does, which is locale-free.
    guard abs(scaled) < 9_007_199_254_740_992 else { return String(format: "%.0f", x) }
    let negative = scaled < 0
    let magnitude = Int64(abs(scaled))
    let factor = Int64(scale)
    var whole = String(magnitude / factor)
    var fraction = String(magnitude % factor)
    if decimals > 0 {
      fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      if !fraction.isEmpty { whole += "." + fraction }
    }
    return (negative ? "-" : "") + whole
  }

  /// A value for people: thousands grouped with a thin space (`12 340`), `decimals` places at
  /// most.
  ///
  /// - Complexity: O(*d*), where *d* is the number of digits.
  public static func display(_ x: Double, decimals: Int = 1) -> String {
    // Built from the ASCII bytes of `format`: a label per bucket and tick is made for every
    // user's chart, and appending `Character`s one at a time cost 4 % of a backfill.
    let text = Array(format(x, decimals: decimals).utf8)
    let negative = text.first == UInt8(ascii: "-")
    let body = negative ? text[1...] : text[...]
    let point = body.firstIndex(of: UInt8(ascii: ".")) ?? body.endIndex
    let digits = body.distance(from: body.startIndex, to: point)
    var grouped: [UInt8] = negative ? [UInt8(ascii: "-")] : []
    grouped.reserveCapacity(text.count + digits / 3 * 3)
    for (index, digit) in body[..<point].enumerated() {
      // U+2009 THIN SPACE between groups of three.
      if index > 0 && (digits - index) % 3 == 0 { grouped += [0xE2, 0x80, 0x89] }
      grouped.append(digit)
    }
    grouped += body[point...]
    return String(decoding: grouped, as: UTF8.self)
  }

  /// An axis label that stays short: `950`, `1.2k`, `12k`, `1.5M`.
  ///
  /// - Complexity: O(1).
  public static func compact(_ x: Double) -> String {
    let magnitude = abs(x)
    if magnitude >= 1_000_000 { return format(x / 1_000_000, decimals: magnitude >= 10_000_000 ? 0 : 1) + "M" }
    if magnitude >= 1000 { return format(x / 1000, decimals: magnitude >= 10_000 ? 0 : 1) + "k" }
    return format(x, decimals: magnitude >= 10 ? 0 : 1)
  }
}

/// A local calendar date of an instant in a zone, from integer arithmetic (no formatter, so
/// labels do not depend on the machine's locale).
public struct LocalDate: Sendable, Equatable {
  public var year: Int
  public var month: Int
  public var day: Int
  /// 0 = Sunday … 6 = Saturday.
  public var weekday: Int

  public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

  public init(_ date: Date, in zone: TimeZone) {
    let seconds = date.epochSeconds
    let local = seconds + Int64(zone.secondsFromGMT(for: date))
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let civil = RFC3339.civilDate(fromDays: days)
    year = Int(civil.year)
    month = Int(civil.month)
    day = Int(civil.day)
    weekday = Int(((days + 4) % 7 + 7) % 7)
  }

  /// From `YYYY-MM-DD` (a cohort bucket's key).
  public init?(key: String) {
    let parts = key.split(separator: "-")
    guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
    year = y
    month = m
    day = d
    let days = RFC3339.days(fromCivil: Int64(y), month: Int64(m), day: Int64(d))
    weekday = Int(((days + 4) % 7 + 7) % 7)
  }

  public var monthName: String { Self.monthNames[month - 1] }
  /// `24 Nov`
  public var dayMonth: String { "\(day) \(monthName)" }
  /// `24 Nov 2026`
  public var long: String { "\(day) \(monthName) \(year)" }
  /// Midnight UTC of this date, for charts whose x axis is a list of dates rather than instants.
  public var utcMidnight: Date {
    Date(epochSeconds: RFC3339.days(fromCivil: Int64(year), month: Int64(month), day: Int64(day)) * 86_400)
  }
}

/// How a chart names one period of a granularity, for labels and read-outs.
public enum PeriodName {
  /// Radar and heat map outputs do not store their period, so it is read from the length:
  /// four weeks or more is a month, six days or more a week (a day is 23 to 25 hours).
  public static func granularity(start: Date, end: Date) -> Granularity {
    let days = end.timeIntervalSince(start) / 86_400
    if days >= 27 { return .month }
    if days >= 6 { return .week }
    return .day
  }

  /// `Nov 2026`, `Week of 23 Nov 2026`, `Sat 29 Nov 2026`.
  public static func long(_ start: LocalDate, _ granularity: Granularity) -> String {
    switch granularity {
    case .month: return "\(start.monthName) \(start.year)"
    case .week: return "Week of \(start.long)"
    case .day: return "\(LocalDate.weekdayNames[start.weekday]) \(start.long)"
    }
  }

  /// `Nov`, `23 Nov`, `29 Nov`: a column header.
  public static func short(_ start: LocalDate, _ granularity: Granularity) -> String {
    granularity == .month ? start.monthName : start.dayMonth
  }
}

/// What a measure is called on a chart, and the unit it is shown in: weights and distances in
/// the units the person reads (SPEC 10.8), whatever unit the JSON holds them in.
public enum MeasureDisplay {
  public static func title(_ measure: Measure, _ units: Units) -> String {
    switch measure {
    case .sessions: return "Sessions"
    case .sets: return "Sets"
    case .durationSeconds: return "Duration (min)"
    case .volumeKg: return "Volume (\(units.weight.rawValue))"
    case .topSetKg: return "Top set (\(units.weight.rawValue))"
    case .e1rmKg: return "Estimated 1RM (\(units.weight.rawValue))"
    case .reps: return "Reps"
    case .distanceM: return "Distance (\(units.distance.rawValue))"
    case .records: return "Records"
    }
  }

  public static func short(_ measure: Measure) -> String {
    switch measure {
    case .sessions: return "sessions"
    case .sets: return "sets"
    case .durationSeconds: return "duration"
    case .volumeKg: return "volume"
    case .topSetKg: return "top set"
    case .e1rmKg: return "e1RM"
    case .reps: return "reps"
    case .distanceM: return "distance"
    case .records: return "records"
    }
  }

  /// The value as drawn: seconds as minutes, metres as kilometres or miles, kilograms as the
  /// person's weight unit. An axis of `3600, 7200` makes a reader divide; one in kilograms
  /// makes a pound user multiply. Axes are computed on these values, so their ticks are round
  /// in the unit shown (500 lb, not 226.8 kg relabelled).
  public static func scaled(_ value: Double, _ measure: Measure, _ units: Units) -> Double {
    switch measure {
    case .durationSeconds: return value / 60
    case .distanceM: return units.distance(fromMeters: value)
    case .volumeKg, .topSetKg, .e1rmKg: return units.weight(fromKilograms: value)
    default: return value
    }
  }

  /// The inverse of ``scaled(_:_:_:)``: a value as shown, in the JSON's units (a tick at 30 min
  /// is at 1 800 s). Multiplied, not divided by a reciprocal, so whole minutes stay whole seconds.
  public static func unscaled(_ shown: Double, _ measure: Measure, _ units: Units) -> Double {
    switch measure {
    case .durationSeconds: return shown * 60
    case .distanceM: return shown * (units.distance == .mi ? Units.metersPerMile : 1000)
    case .volumeKg, .topSetKg, .e1rmKg: return units.weight == .lb ? shown * Units.kilogramsPerPound : shown
    default: return shown
    }
  }

  /// What an axis of `measure` counts in: `kg` or `lb`, `min`, `km` or `mi`, or the measure's
  /// own word for a count (`sessions`).
  public static func unit(_ measure: Measure, _ units: Units) -> String {
    switch measure {
    case .durationSeconds: return "min"
    case .distanceM: return units.distance.rawValue
    case .volumeKg, .topSetKg, .e1rmKg: return units.weight.rawValue
    case .sessions, .sets, .reps, .records: return short(measure)
    }
  }

  /// A value with its unit for a read-out: `3 sessions`, `65 min`, `12 340 kg`, `2 205 lb`.
  public static func text(_ value: Double, _ measure: Measure, _ units: Units) -> String {
    let shown = scaled(value, measure, units)
    switch measure {
    case .sessions, .sets: return ShownNumber.display(shown, decimals: 1)
    case .durationSeconds: return ShownNumber.display(shown, decimals: 0) + " min"
    case .volumeKg: return ShownNumber.display(shown, decimals: 0) + " " + units.weight.rawValue
    case .topSetKg, .e1rmKg: return ShownNumber.display(shown, decimals: 1) + " " + units.weight.rawValue
    case .reps, .records: return ShownNumber.display(shown, decimals: 1)
    case .distanceM: return ShownNumber.display(shown, decimals: 1) + " " + units.distance.rawValue
    }
  }
}

/// The read-out of a series bucket: what the report shows under the pointer and what a screen
/// reader says for the bar (``SeriesOutput/Bucket/label``).
public enum ReadOut {
  /// `Week of 23 Nov 2026 (so far): sessions 1 (trend 1.5) · duration – · volume 2 302 kg`: the
  /// period, then each measure's value and trend in `units`, `–` for an unknown value.
  ///
  /// - Complexity: O(*m*), where *m* is the number of measures.
  public static func bucket(
    start: Date, partial: Bool, values: [Measure: Double], trend: [Measure: Double]?, measures: [Measure],
    granularity: Granularity, zone: TimeZone, units: Units
  ) -> String {
    var text = PeriodName.long(LocalDate(start, in: zone), granularity)
    if partial { text += " (so far)" }
    let parts = measures.map { measure -> String in
      var part =
        MeasureDisplay.short(measure) + " " + (values[measure].map { MeasureDisplay.text($0, measure, units) } ?? "–")
      if let trend = trend?[measure] { part += " (trend " + MeasureDisplay.text(trend, measure, units) + ")" }
      return part
    }
    return text + ": " + parts.joined(separator: " · ")
  }
}
