import TrendlineSchema
import TrendlineSupport

/// A trend line through a series' values (SPEC 5): one output per input, so the line spans the
/// whole chart.
///
/// It does not fill gaps: run `FillGaps` first, or a mean spans periods that are not adjacent
/// and the line hides the gap it should dip through.
public struct Smooth: Sendable, Equatable {
  public enum Method: Sendable, Equatable {
    /// The mean of the values within `window / 2` on each side; the window shrinks at the edges.
    case centeredMean
    /// The mean of the last `window` values up to and including this one; shorter at the start.
    case trailingMean
    /// Exponentially weighted: s₀ = x₀, sᵢ = α·xᵢ + (1 − α)·sᵢ₋₁, with 0 < α ≤ 1.
    case ewma(alpha: Double)
  }

  public var method: Method
  /// Values averaged by the two means; `ewma` ignores it.
  public var window: Int

  /// SPEC 5's default: a centred mean over five buckets.
  public static let defaultMethod = Method.centeredMean
  public static let defaultWindow = 5
  /// A window of more than a year of days smooths nothing a person reads, and the centred mean
  /// costs the window for each value.
  public static let maxWindow = 366

  public init(method: Method = Smooth.defaultMethod, window: Int = Smooth.defaultWindow) {
    precondition(window >= 1, "a smoothing window holds at least one value, not \(window)")
    if case .ewma(let alpha) = method {
      precondition(alpha > 0 && alpha <= 1, "ewma's alpha is in (0, 1], not \(alpha)")
    }
    self.method = method
    self.window = window
  }

  /// The smoothed values, one per value.
  ///
  /// For the centered mean, radius r = window / 2 (integer division) and output i is the mean of
  /// `values[max(0, i − r) … min(n − 1, i + r)]`, exactly as SPEC 5 has it: an even window is
  /// the next odd window, not an off-centre one.
  ///
  /// - Complexity: O(*n* × *w*), where *n* is the number of values and *w* the window.
  public func apply(_ values: [Double]) -> [Double] {
    let n = values.count
    guard n > 0 else { return [] }
    switch method {
    case .centeredMean, .trailingMean:
      let (before, after) = method == .centeredMean ? (window / 2, window / 2) : (window - 1, 0)
      return (0..<n).map { i in
        let low = max(0, i - before)
        let high = min(n - 1, i + after)
        // Summed afresh per window rather than from running sums: a difference of two large
        // running sums drifts in the last digits, and a value that should be exactly 2.5 must be.
        var sum = 0.0
        for k in low...high { sum += values[k] }
        return sum / Double(high - low + 1)
      }
    case .ewma(let alpha):
      var smoothed = [values[0]]
      smoothed.reserveCapacity(n)
      for value in values.dropFirst() {
        smoothed.append(alpha * value + (1 - alpha) * smoothed[smoothed.count - 1])
      }
      return smoothed
    }
  }

  /// The smoothed values of a column with gaps: a missing value (a best in a bucket without
  /// one) is skipped, not read as 0. A mean is over the values present in its window, missing
  /// when none is; ewma carries its last value over a gap and starts at the first value.
  ///
  /// A column without gaps gives exactly ``apply(_:)-([Double])``.
  ///
  /// - Complexity: O(*n* × *w*), where *n* is the number of values and *w* the window.
  public func apply(_ values: [Double?]) -> [Double?] {
    if !values.contains(nil) {
      let complete: [Double] = values.map { $0! }
      let smoothed: [Double] = apply(complete)
      return smoothed.map { $0 }
    }
    let n = values.count
    switch method {
    case .centeredMean, .trailingMean:
      let (before, after) = method == .centeredMean ? (window / 2, window / 2) : (window - 1, 0)
      return (0..<n).map { i in
        var sum = 0.0
        var count = 0
        for k in max(0, i - before)...min(n - 1, i + after) {
          if let value = values[k] {
            sum += value
            count += 1
          }
        }
        return count == 0 ? nil : sum / Double(count)
      }
    case .ewma(let alpha):
      var smoothed: [Double?] = []
      smoothed.reserveCapacity(n)
      var last: Double?
      for value in values {
        if let value { last = last.map { alpha * value + (1 - alpha) * $0 } ?? value }
        smoothed.append(last)
      }
      return smoothed
    }
  }

  /// Sets each bucket's `trend` to the smoothed values of each measure, across the buckets; a
  /// bucket with no trend value for a measure (no value in its window) leaves it out.
  ///
  /// The partial bucket, the period holding as-of, is not an input (SPEC 10.6): a week one day
  /// old is not evidence of a week, and read as one it pulls the line down at the right edge.
  /// It still gets a trend value, from the complete buckets in its window, so the line spans
  /// the chart; a chart whose only bucket is partial has no trend at all.
  ///
  /// - Complexity: O(*n* × *w* × *m*), where *n* is the number of buckets, *w* the window and *m*
  ///   the number of measures.
  public func apply(_ series: BucketedSeries) -> BucketedSeries {
    var result = series
    let smoothed = series.measures.map { measure in
      apply(series.buckets.map { $0.partial ? nil : $0.values[measure] })
    }
    // Each bucket's trend is built whole, at its final size: filling it in place one measure
    // at a time rehashed and regrew the dictionaries of every bucket.
    for index in result.buckets.indices {
      var trend = MeasureValues()
      for (column, measure) in series.measures.enumerated() { trend[measure] = smoothed[column][index] }
      result.buckets[index].trend = trend
    }
    return result
  }
}

extension Smooth: SeriesStage {
  public static let key = "smooth"
  public static let summary =
    "Draws a trend line through each measure: centred or trailing mean, or ewma (SPEC 5)."
  public static let reads: [StageData] = [.buckets]
  public static let produces = StageData.trend
  static let methodNames = ["centered-mean", "trailing-mean", "ewma"]

  /// `{"method": "centered-mean", "window": 5}` or `{"method": "ewma", "alpha": 0.3}`; a
  /// parameter the method does not use is refused, so it cannot be believed to have effect.
  ///
  /// - Complexity: O(1).
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Smooth? {
    let reader = context.reader
    guard let members = reader.object(value, at: path, keys: ["method", "window", "alpha"]) else { return nil }
    var method = methodNames[0]
    if let value = members["method"] {
      guard let given = reader.choice(value, at: path.appending("method"), methodNames, what: "smoothing method")
      else {
        // Still check the window, so one run reports both.
        _ = members["window"].map {
          reader.integer($0, at: path.appending("window"), in: 1...maxWindow, what: "window")
        }
        return nil
      }
      method = given
    }
    var valid = true
    var window = defaultWindow
    if let value = members["window"] {
      if method == "ewma" {
        context.report(path.appending("window"), .windowNotWithEwma, atKey: true, shownPath: path)
        valid = false
      } else if let given = reader.integer(value, at: path.appending("window"), in: 1...maxWindow, what: "window") {
        window = given
      } else {
        valid = false
      }
    }
    switch method {
    case "ewma":
      guard let value = members["alpha"] else {
        context.report(path, .ewmaNeedsAlpha)
        return nil
      }
      let alphaPath = path.appending("alpha")
      guard let alpha = reader.number(value, at: alphaPath) else { return nil }
      guard alpha > 0 && alpha <= 1 else {
        context.report(alphaPath, .alphaOutOfRange(found: reader.text(of: value)))
        return nil
      }
      return valid ? Smooth(method: .ewma(alpha: alpha), window: window) : nil
    default:
      if members["alpha"] != nil {
        context.report(path.appending("alpha"), .alphaOnlyWithEwma, atKey: true, shownPath: path)
        valid = false
      }
      guard valid else { return nil }
      return Smooth(method: method == "trailing-mean" ? .trailingMean : .centeredMean, window: window)
    }
  }

  public var settings: [String] {
    switch method {
    case .centeredMean: return ["centered-mean, window \(window)"]
    case .trailingMean: return ["trailing-mean, window \(window)"]
    case .ewma(let alpha): return ["ewma, alpha \(NumberText.text(alpha))"]
    }
  }
}
