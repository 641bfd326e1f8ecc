import Foundation
import TrendlineSchema
import TrendlineSupport

/// Consistency against a target: which periods of a series met it, the current and the longest
/// run of periods that did, and the share of complete periods that did (`trendline/streak@1`).
///
/// It reads every period of the bucket's window (``BucketedSeries/periods``), with or without
/// `fillGaps`: a week without sessions breaks a streak whether or not the chart fills it. The
/// period holding as-of never breaks a streak or counts against the share, because it is not
/// over; once it meets the target it extends the current streak.
public struct Streak: Sendable, Equatable {
  public var measure: Measure
  /// The target: a period meets it when the measure's value is at least this.
  public var atLeast: Double

  /// One session a period: "active" weeks.
  public static let defaultAtLeast = 1.0
  /// A target beyond any measure (a billion sessions or kilograms in a period) is a typo.
  public static let atLeastRange: ClosedRange<Double> = 0...1_000_000_000

  public init(measure: Measure, atLeast: Double = Streak.defaultAtLeast) {
    precondition(atLeast > 0, "a streak's target is above 0, not \(atLeast)")
    self.measure = measure
    self.atLeast = atLeast
  }

  /// The streaks of `series` for `user`'s chart `chart`.
  ///
  /// - Complexity: O(*p*), where *p* is the number of periods in the window.
  public func apply(_ series: BucketedSeries, user: String, chart: String, calendar: UserCalendar) -> StreakOutput {
    var periods: [StreakOutput.Period] = []
    if let window = series.periods {
      var buckets = series.buckets.makeIterator()
      var next = buckets.next()
      let dates = RFC3339.Formatter(timeZone: calendar.timeZone)
      for index in 0..<window.count {
        // No sessions: a total is 0, a best has none, and a total the exports never record is
        // unknown (``BucketedSeries/unrecorded``), which meets no target.
        var value: Double? = measure.isBest || series.unrecorded.contains(measure) ? nil : 0
        if let bucket = next, bucket.start == window.start(index) {
          value = bucket.values[measure]
          next = buckets.next()
        }
        periods.append(
          StreakOutput.Period(
            id: dates.localDate(window.start(index)),
            start: Date(epochSeconds: window.start(index)), end: Date(epochSeconds: window.end(index)),
            partial: window.isPartial(index, asOf: series.asOf), value: value, met: value.map { $0 >= atLeast } ?? false
          ))
      }
    }
    let complete = periods.filter { !$0.partial }
    let met = complete.filter(\.met).count
    // Runs over the periods that count: every complete one, and the one under way if it has met
    // the target already.
    let counted = periods.filter { !$0.partial || $0.met }
    var longest = StreakOutput.Run(length: 0, start: nil, end: nil, includesPartial: false)
    var run = longest
    for period in counted {
      if period.met {
        run = StreakOutput.Run(
          length: run.length + 1, start: run.start ?? period.start, end: period.end, includesPartial: period.partial)
        if run.length > longest.length { longest = run }
      } else {
        run = StreakOutput.Run(length: 0, start: nil, end: nil, includesPartial: false)
      }
    }
    return StreakOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName, asOf: Date(epochSeconds: series.asOf),
      range: series.range, granularity: series.granularity, measure: measure, atLeast: atLeast, current: run,
      longest: longest, complete: complete.count, met: met,
      share: complete.isEmpty ? nil : Double(met) / Double(complete.count), periods: periods)
  }
}

extension Streak: SeriesChartStage {
  public static let key = "streak"
  public static let summary =
    "Current and longest run of periods meeting a target (e.g. 2 sessions a week), and the share met."
  public static let reads: [StageData] = [.buckets, .trend]
  public static let produces = StageData.chart

  /// `{"measure": "sessions", "atLeast": 2}`, `atLeast` optional; the measure must be one the
  /// chart's bucket counts.
  ///
  /// - Complexity: O(*m*) for *m* measures.
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Streak? {
    let reader = context.reader
    guard let members = reader.object(value, at: path, keys: ["measure", "atLeast"], required: ["measure"]) else {
      return nil
    }
    let measure = members["measure"].flatMap { context.bucketMeasure($0, at: path.appending("measure"), stage: key) }
    var atLeast: Double? = defaultAtLeast
    if let value = members["atLeast"] {
      atLeast = reader.number(value, at: path.appending("atLeast"))
      if let given = atLeast, !(given > 0 && atLeastRange.contains(given)) {
        context.report(path.appending("atLeast"), .atLeastOutOfRange(found: reader.text(of: value)))
        atLeast = nil
      }
    }
    guard let measure, let atLeast else { return nil }
    return Streak(measure: measure, atLeast: atLeast)
  }

  public var settings: [String] { ["\(measure.rawValue) at least \(NumberText.text(atLeast)) a period"] }

  /// ``apply(_:user:chart:calendar:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:user:chart:calendar:)``.
  public func apply(_ series: BucketedSeries, in context: ChartContext) -> ChartOutput {
    ChartOutput(apply(series, user: context.user, chart: context.chart, calendar: context.calendar))
  }
}

/// What makes a streak: the stage registry reaches this stage through its kind (``StagedChartKind``).
extension StreakOutput: StagedChartKind {
  public static var stage: any StageUnit.Type { Streak.self }
}
