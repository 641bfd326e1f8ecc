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
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    append(x, decimals: decimals, grouped: false, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A value for people: thousands grouped with a thin space (`12 340`), `decimals` places at
  /// most.
  ///
  /// - Complexity: O(*d*), where *d* is the number of digits.
  public static func display(_ x: Double, decimals: Int = 1) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    append(x, decimals: decimals, grouped: true, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the UTF-8 of ``format(_:decimals:)``, or of ``display(_:decimals:)`` when
  /// `grouped`, to `bytes`.
  ///
  /// A read-out per bucket and a label per tick are written for every user's chart: built
  /// from `String`s piece by piece they were a tenth of a whole run, so the digits are
  /// written straight into the caller's bytes.
  ///
  /// - Complexity: O(*d*), where *d* is the number of digits.
  public static func append(_ x: Double, decimals: Int, grouped: Bool, to bytes: inout [UInt8]) {
    guard x.isFinite else { return bytes.append(UInt8(ascii: "0")) }
    let places = min(max(decimals, 0), 15)
    let scale = powersOfTen[places]
    let scaled = (x * Double(scale)).rounded()
    if scaled == 0 { return bytes.append(UInt8(ascii: "0")) }
    // Past 2^53 a Double has no fraction to show, and past 2^63 `Int64(_:)` would trap: write
    // the whole number as C's printf does, which is locale-free.
    guard abs(scaled) < NumberText.exactIntegerLimit else {
      let text = Array(String(format: "%.0f", x).utf8)
      let negative = text.first == UInt8(ascii: "-")
      if negative { bytes.append(UInt8(ascii: "-")) }
      appendDigits(text[(negative ? 1 : 0)...], grouped: grouped, to: &bytes)
      return
    }
    if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = UInt64(abs(scaled))
    appendWhole(magnitude / scale, grouped: grouped, to: &bytes)
    var fraction = magnitude % scale
    guard fraction > 0 else { return }
    // The fraction's digits, leading zeros kept and trailing zeros dropped: 0.05 at two
    // places is 5 hundredths, written `.05`.
    var width = places
    while fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    bytes.append(UInt8(ascii: "."))
    let end = bytes.count + width
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
    var position = end - 1
    while fraction > 0 {
      bytes[position] = UInt8(ascii: "0") + UInt8(fraction % 10)
      fraction /= 10
      position -= 1
    }
  }

  private static let powersOfTen: [UInt64] = (0...15).map { power in
    (0..<power).reduce(UInt64(1)) { product, _ in product * 10 }
  }

  /// `whole` in decimal, with a thin space between groups of three when `grouped`.
  private static func appendWhole(_ whole: UInt64, grouped: Bool, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var count = 0
      var rest = whole
      repeat {
        digits[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      appendDigits(UnsafeBufferPointer(rebasing: digits[(20 - count)...]), grouped: grouped, to: &bytes)
    }
  }

  /// Appends ASCII `digits`, grouped in threes from the right with U+2009 THIN SPACE when
  /// `grouped`.
  private static func appendDigits<Digits: Collection<UInt8>>(
    _ digits: Digits, grouped: Bool, to bytes: inout [UInt8]
  ) {
    guard grouped else { return bytes.append(contentsOf: digits) }
    let count = digits.count
    for (index, digit) in digits.enumerated() {
      if index > 0 && (count - index) % 3 == 0 { bytes += [0xE2, 0x80, 0x89] }
      bytes.append(digit)
    }
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
    self.init(epochSeconds: date.epochSeconds, offset: Int64(zone.secondsFromGMT(for: date)))
  }

  /// The local date of an instant `offset` seconds ahead of UTC, for callers that know the
  /// offset already (``RFC3339/Formatter``) and need not ask the zone.
  init(epochSeconds seconds: Int64, offset: Int64) {
    self.init(LocalDay(instant: seconds, offset: offset))
  }

  /// The date of a day.
  public init(_ local: LocalDay) {
    let civil = local.civil
    year = Int(civil.year)
    month = Int(civil.month)
    day = Int(civil.day)
    weekday = Int(local.weekday)
  }

  /// From `YYYY-MM-DD` (a cohort bucket's key), as ``LocalDay/init(text:)`` reads it.
  public init?(key: String) {
    guard let local = LocalDay(text: key) else { return nil }
    self.init(local)
  }

  public var monthName: String { Self.monthNames[month - 1] }
  /// `24 Nov`
  public var dayMonth: String { "\(day) \(monthName)" }
  /// `24 Nov 2026`
  public var long: String {
    var bytes: [UInt8] = []
    appendLong(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the UTF-8 of ``long`` to `bytes`: a read-out per bucket builds its text in one
  /// buffer instead of a `String` per part.
  func appendLong(to bytes: inout [UInt8]) {
    // `String(Int)` of a short number is a small string, built without allocating.
    bytes.append(utf8: String(day))
    bytes.append(UInt8(ascii: " "))
    bytes.append(utf8: monthName)
    bytes.append(UInt8(ascii: " "))
    bytes.append(utf8: String(year))
  }
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
    var bytes: [UInt8] = []
    appendLong(start, granularity, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the UTF-8 of ``long(_:_:)`` to `bytes`.
  static func appendLong(_ start: LocalDate, _ granularity: Granularity, to bytes: inout [UInt8]) {
    switch granularity {
    case .month:
      bytes.append(utf8: start.monthName)
      bytes.append(UInt8(ascii: " "))
      bytes.append(utf8: String(start.year))
    case .week:
      bytes.append(utf8: "Week of ")
      start.appendLong(to: &bytes)
    case .day:
      bytes.append(utf8: LocalDate.weekdayNames[start.weekday])
      bytes.append(UInt8(ascii: " "))
      start.appendLong(to: &bytes)
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
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    append(value, measure, units, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the UTF-8 of ``text(_:_:_:)`` to `bytes`.
  ///
  /// - Complexity: O(*d*), where *d* is the number of digits.
  public static func append(_ value: Double, _ measure: Measure, _ units: Units, to bytes: inout [UInt8]) {
    let shown = scaled(value, measure, units)
    let decimals: Int
    let unit: String?
    switch measure {
    case .sessions, .sets, .reps, .records: (decimals, unit) = (1, nil)
    case .durationSeconds: (decimals, unit) = (0, "min")
    case .volumeKg: (decimals, unit) = (0, units.weight.rawValue)
    case .topSetKg, .e1rmKg: (decimals, unit) = (1, units.weight.rawValue)
    case .distanceM: (decimals, unit) = (1, units.distance.rawValue)
    }
    ShownNumber.append(shown, decimals: decimals, grouped: true, to: &bytes)
    if let unit {
      bytes.append(UInt8(ascii: " "))
      bytes.append(utf8: unit)
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
    start: Date, partial: Bool, values: MeasureValues, trend: MeasureValues?, measures: [Measure],
    granularity: Granularity, zone: TimeZone, units: Units
  ) -> String {
    var text: [UInt8] = []
    appendBucket(
      start: LocalDate(start, in: zone), partial: partial, values: values, trend: trend, measures: measures,
      granularity: granularity, units: units, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the UTF-8 of the read-out of a bucket whose start is already a local date to
  /// `text`: ``SeriesOutput/withDerivedFields(zone:)`` builds every bucket's in one buffer.
  static func appendBucket(
    start: LocalDate, partial: Bool, values: MeasureValues, trend: MeasureValues?, measures: [Measure],
    granularity: Granularity, units: Units, to text: inout [UInt8]
  ) {
    PeriodName.appendLong(start, granularity, to: &text)
    if partial { text.append(utf8: " (so far)") }
    text.append(utf8: ": ")
    for (position, measure) in measures.enumerated() {
      if position > 0 { text.append(utf8: " · ") }
      text.append(utf8: MeasureDisplay.short(measure))
      text.append(UInt8(ascii: " "))
      if let value = values[measure] {
        MeasureDisplay.append(value, measure, units, to: &text)
      } else {
        text.append(utf8: "–")
      }
      if let trend = trend?[measure] {
        text.append(utf8: " (trend ")
        MeasureDisplay.append(trend, measure, units, to: &text)
        text.append(UInt8(ascii: ")"))
      }
    }
  }
}

extension [UInt8] {
  /// Appends `text`'s UTF-8 in one copy. `+= text.utf8` goes through the generic sequence
  /// path, about 130 instructions for a month's name, and a read-out per bucket makes a dozen
  /// such appends (3 % of a night served from the cache).
  @inline(__always)
  mutating func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }
}

// The read-outs of the charts other than the series: one sentence an app gives a screen reader
// for a period, a line, a record or a streak, in the user's units and zone, so that no app
// formats a number or a date of its own (and every app says what the SVG says).
extension ReadOut {
  /// `5 sessions`, `1 session`: a count with its noun.
  ///
  /// - Complexity: O(1).
  public static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

  /// A radar period: `Nov 2026 (so far): Chest 2, Back 1, Legs 0`, each axis's sessions in spoke
  /// order, as the SVG's polygon says it.
  ///
  /// - Complexity: O(*a*), where *a* is the number of axes.
  public static func radarPeriod(
    start: Date, partial: Bool, axes: [RadarOutput.Axis], counts: [Int], granularity: Granularity, zone: TimeZone
  ) -> String {
    PeriodName.long(LocalDate(start, in: zone), granularity) + (partial ? " (so far)" : "") + ": "
      + zip(axes, counts).map { "\($0.label) \($1)" }.joined(separator: ", ")
  }

  /// A heat map period: `Week of 23 Nov 2026 (so far): Chest 2, Quadriceps 1`, the groups
  /// trained, most sessions first (catalog order among equals), or `nothing trained`. The 30-odd
  /// untrained groups are left out: read aloud, they would bury the few that were trained.
  ///
  /// - Complexity: O(*g* log *g*), where *g* is the number of groups.
  public static func heatmapPeriod(
    start: Date, partial: Bool, groups: [HeatmapOutput.Group], granularity: Granularity, zone: TimeZone
  ) -> String {
    let trained = groups.enumerated().filter { $0.element.sessions > 0 }.sorted {
      ($0.element.sessions, $1.offset) > ($1.element.sessions, $0.offset)
    }
    let said = trained.map { "\($0.element.name) \($0.element.sessions)" }.joined(separator: ", ")
    return PeriodName.long(LocalDate(start, in: zone), granularity) + (partial ? " (so far)" : "") + ": "
      + (trained.isEmpty ? "nothing trained" : said)
  }

  /// A sparkline's latest value as drawn beside it: `225 lb`, `12 reps` (one decimal at most).
  ///
  /// - Complexity: O(1).
  public static func sparklineValue(_ v: Double, _ value: SparklinesOutput.Value, _ units: Units) -> String {
    value == .reps
      ? ShownNumber.display(v) + " reps"
      : ShownNumber.display(units.weight(fromKilograms: v)) + " " + units.weight.rawValue
  }

  /// A sparkline: `Bench Press: latest 225 lb, 5 sessions in the window`, or for a line with no
  /// load `Plank: no load recorded, 3 sessions in the window`.
  ///
  /// - Complexity: O(1).
  public static func sparkline(
    exercise: String, latest: Double?, sessions: Int, noLoad: Bool, value: SparklinesOutput.Value, units: Units
  ) -> String {
    let window = count(sessions, "session") + " in the window"
    guard !noLoad, let latest else { return exercise + ": no load recorded, " + window }
    return exercise + ": latest " + sparklineValue(latest, value, units) + ", " + window
  }

  /// A record as it was set: `Bench Press: top set 102.5 kg on 3 Nov 2026, up from 100 kg`,
  /// `… e1RM 110 kg …`, `Bench Press: 8 reps at 80 kg on 3 Nov 2026, up from 6`.
  ///
  /// - Complexity: O(1).
  public static func record(_ record: RecordsOutput.Record, exercise: String, zone: TimeZone, units: Units) -> String {
    let date = " on " + LocalDate(record.at, in: zone).long + ", up from "
    switch record.kind {
    case .topSetKg, .e1rmKg:
      let measure: Measure = record.kind == .topSetKg ? .topSetKg : .e1rmKg
      return exercise + ": " + MeasureDisplay.short(measure) + " " + MeasureDisplay.text(record.value, measure, units)
        + date + MeasureDisplay.text(record.previous, measure, units)
    case .repsAtWeight:
      return exercise + ": " + MeasureDisplay.text(record.value, .reps, units) + " reps at "
        + MeasureDisplay.text(record.weightKg, .topSetKg, units) + date
        + MeasureDisplay.text(record.previous, .reps, units)
    }
  }

  /// A records row: `Bench Press: top set 102.5 kg on 3 Nov 2026 · e1RM 116.7 kg on 3 Nov 2026 ·
  /// 4 records`, `–` for a best never set.
  ///
  /// - Complexity: O(1).
  public static func recordsExercise(_ exercise: RecordsOutput.Exercise, zone: TimeZone, units: Units) -> String {
    func best(_ best: RecordsOutput.Best?, _ measure: Measure) -> String {
      guard let best else { return MeasureDisplay.short(measure) + " –" }
      return MeasureDisplay.short(measure) + " " + MeasureDisplay.text(best.value, measure, units) + " on "
        + LocalDate(best.at, in: zone).long
    }
    return exercise.exercise + ": " + best(exercise.topSetKg, .topSetKg) + " · " + best(exercise.e1rmKg, .e1rmKg)
      + " · " + count(exercise.records.count, "record")
  }

  /// The target of a streak: `2 sessions`, `5 000 kg volume`.
  ///
  /// - Complexity: O(1).
  public static func streakTarget(_ atLeast: Double, _ measure: Measure, _ units: Units) -> String {
    "\(MeasureDisplay.text(atLeast, measure, units)) \(MeasureDisplay.short(measure))"
  }

  /// A streak's three numbers, as the SVG's summary: `current 3 weeks · longest 5 · 67 % of 12
  /// complete weeks met` (`–` with no complete period).
  ///
  /// - Complexity: O(1).
  public static func streakSummary(
    current: Int, longest: Int, share: Double?, complete: Int, granularity: Granularity
  ) -> String {
    let unit = granularity.rawValue
    let shown = share.map { ShownNumber.display($0 * 100, decimals: 0) + " %" } ?? "–"
    return "current \(count(current, unit)) · longest \(longest) · \(shown) of \(complete) complete \(unit)s met"
  }

  /// A streak period, as the SVG's square says it: `23 Nov 2026: 2 sessions, met`, `30 Nov 2026:
  /// 1 sessions so far` (the period under way is not missed yet), `no value` for an unknown one.
  ///
  /// - Complexity: O(1).
  public static func streakPeriod(
    start: Date, partial: Bool, value: Double?, met: Bool, measure: Measure, zone: TimeZone, units: Units
  ) -> String {
    let shown = value.map { MeasureDisplay.text($0, measure, units) } ?? "no value"
    return "\(LocalDate(start, in: zone).long): \(shown)\(partial ? " so far" : "")"
      + (met ? ", met" : partial ? "" : ", missed")
  }
}
