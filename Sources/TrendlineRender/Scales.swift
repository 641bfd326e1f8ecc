import Foundation
import TrendlineSchema

/// A rectangle in a chart's own coordinates (SVG user units, y growing downward).
public struct PlotRect: Sendable, Equatable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
}

/// Maps instants onto a plot's x range, linearly in seconds.
///
/// Linear in absolute time, not in calendar units: a 23-hour day is drawn narrower than a
/// 25-hour one, exactly as the JSON's bucket edges and bar extents say, so a bar drawn here is
/// where Swift Charts would draw it from the same file.
public struct TimeScale: Sendable, Equatable {
  public var domain: Extent
  public var range: ClosedRange<Double>

  public init(domain: Extent, range: ClosedRange<Double>) {
    self.domain = domain
    self.range = range
  }

  /// The x of `date`; dates outside the domain map outside the range.
  ///
  /// - Complexity: O(1).
  public func x(_ date: Date) -> Double {
    let span = domain.end.timeIntervalSince(domain.start)
    guard span > 0 else { return (range.lowerBound + range.upperBound) / 2 }
    let fraction = date.timeIntervalSince(domain.start) / span
    return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
  }
}

/// Maps values onto a plot's y range, 0 at the bottom.
public struct LinearScale: Sendable, Equatable {
  public var domain: ClosedRange<Double>
  /// Pixel y of `domain.lowerBound` … of `domain.upperBound` (bottom … top).
  public var bottom: Double
  public var top: Double

  public init(domain: ClosedRange<Double>, bottom: Double, top: Double) {
    self.domain = domain
    self.bottom = bottom
    self.top = top
  }

  /// - Complexity: O(1).
  public func y(_ value: Double) -> Double {
    let span = domain.upperBound - domain.lowerBound
    guard span > 0 else { return bottom }
    return bottom - (value - domain.lowerBound) / span * (bottom - top)
  }
}

/// A radar's rings: four steps of a round size (1, 2, 2.5 or 5 × 10ⁿ) from the centre to an
/// outer ring at or above the largest value, each labelled with exactly its value.
///
/// A ring labelled with a rounded value lies: rings at 0.375 and 0.75 labelled "0.4" and
/// "0.8". Steps are round, and a label has as many decimals as its step needs (2.5 × 10⁻¹ →
/// two), so the label *is* the ring's value.
public struct RingScale: Sendable, Equatable {
  public static let rings = 4
  /// The value of one ring.
  public var step: Double
  /// The decimals the labels need.
  public var decimals: Int
  /// The outer ring's value, `rings` × `step`.
  public var outer: Double { step * Double(Self.rings) }

  /// The rings for values up to `largest`; 0, less or not a number gives rings of 0.25 up to 1,
  /// so an empty radar still has rings.
  ///
  /// - Complexity: O(1).
  public init(largest: Double) {
    let needed = largest.isFinite && largest > 0 ? largest / Double(Self.rings) : 0.25
    var exponent = Int((log10(needed)).rounded(.down))
    var mantissa = 0.0
    repeat {
      // A step within a billionth of `needed` reaches it (0.3 / 3 is 0.09999999999999999).
      mantissa = [1, 2, 2.5, 5].first { $0 * pow(10, Double(exponent)) >= needed * (1 - 1e-9) } ?? 0
      if mantissa == 0 { exponent += 1 }
    } while mantissa == 0
    step = mantissa * pow(10, Double(exponent))
    decimals = max(0, -exponent + (mantissa == 2.5 ? 1 : 0))
  }

  /// The value of ring `ring` (1 … `rings`).
  public func value(_ ring: Int) -> Double { step * Double(ring) }

  /// Ring `ring`'s label: its value, exactly.
  public func label(_ ring: Int) -> String { ShownNumber.display(value(ring), decimals: decimals) }
}

/// Where the x-axis labels of a bucketed chart go, and what they say.
///
/// Fewer whole labels beat many truncated ones: the stride grows until labels of the estimated
/// width fit, and it counts back from the newest bucket, so the bucket holding as-of is always
/// labelled. Month axes label quarters (Jan, Apr, Jul, Oct) in bold with longer ticks, so a
/// year reads in four steps; when months crowd, only quarters are labelled. Day and week axes
/// name the year on their first label and wherever it changes, so 18 months of weeks say which
/// year they are. Where buckets are narrower than ``markPitch``, only labelled buckets get a
/// tick mark: a year of days was a solid band of 365 marks.
enum TimeAxis {
  struct Tick: Equatable {
    var date: Date
    var label: String?
    var emphasized: Bool
    /// Whether a tick mark is drawn.
    var marked = true
  }

  /// The narrowest bucket, in px, that still gets a tick mark of its own.
  static let markPitch = 6.0

  /// An estimate of a label's width at 11 px: wide enough for digits and capitals, so labels
  /// never touch (an empirically derived 6.4 px a character, plus a 12 px gap).
  static func labelWidth(_ text: String) -> Double { Double(text.count) * 6.4 + 12 }

  static func ticks(starts: [Date], granularity: Granularity, zone: TimeZone, width: Double) -> [Tick] {
    guard !starts.isEmpty else { return [] }
    let dates = starts.map { LocalDate($0, in: zone) }
    let pitch = width / Double(max(starts.count, 1))
    func text(_ i: Int) -> String {
      let d = dates[i]
      switch granularity {
      case .month:
        let yearShown = d.month == 1 || i == 0
        return yearShown ? "\(d.monthName) \(d.year)" : d.monthName
      case .week, .day:
        return d.dayMonth
      }
    }
    // Room for the year, which any day or week label may carry.
    let widest = (0..<starts.count).map { labelWidth(text($0) + (granularity == .month ? "" : " 2000")) }.max() ?? 0
    var labelled = Set<Int>()
    switch granularity {
    case .month:
      // Every month, else quarters, else half years, else years.
      let choices = [1, 3, 6, 12]
      let stride = choices.first { Double($0) * pitch >= widest } ?? 12
      for i in 0..<starts.count where (dates[i].month - 1) % stride == 0 { labelled.insert(i) }
      if stride == 1 { labelled = Set(0..<starts.count) }
    case .week, .day:
      let choices = granularity == .week ? [1, 2, 4, 8, 13, 26, 52] : [1, 2, 7, 14, 28, 91, 182, 364]
      let stride = choices.first { Double($0) * pitch >= widest } ?? choices.last!
      var i = starts.count - 1
      while i >= 0 {
        labelled.insert(i)
        i -= stride
      }
    }
    // A month axis names the year on January and on the first label, wherever the stride put it;
    // a day or week axis on its first label and on the first label of each new year.
    let firstLabelled = labelled.min()
    var previousYear: Int?
    return (0..<starts.count).map { i in
      var label = labelled.contains(i) ? text(i) : nil
      if granularity == .month, i == firstLabelled, dates[i].month != 1 {
        label = "\(dates[i].monthName) \(dates[i].year)"
      } else if granularity == .month, labelled.contains(i), dates[i].month != 1 {
        label = dates[i].monthName
      } else if granularity != .month, let text = label {
        if dates[i].year != previousYear { label = text + " \(dates[i].year)" }
        previousYear = dates[i].year
      }
      let emphasized = granularity == .month && (dates[i].month - 1) % 3 == 0
      return Tick(
        date: starts[i], label: label, emphasized: emphasized, marked: pitch >= markPitch || label != nil || emphasized)
    }
  }
}
