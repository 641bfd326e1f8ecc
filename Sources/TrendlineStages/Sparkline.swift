import Foundation
import TrendlineSchema
import TrendlineSupport

/// One line per exercise over a window anchored to as-of (SPEC 5 and 9.11).
///
/// The window ends at as-of, never at the data: recency is the point, so an exercise last
/// trained thirteen weeks ago sits at the left edge of its chart instead of filling it. It does
/// not merge exercise names itself: sets already carry the catalog's name (aliases and case
/// variants merged during normalization), which is the key here.
public struct Sparkline: Sendable, Equatable {
  public typealias Value = SparklinesOutput.Value

  /// Days in the window; the default 91 is thirteen whole weeks.
  public var windowDays: Int
  public var value: Value

  /// Thirteen whole weeks (SPEC 5).
  public static let defaultWindowDays = 91

  public init(windowDays: Int = Sparkline.defaultWindowDays, value: Value) {
    precondition(windowDays >= 1, "a sparkline window is at least one day, not \(windowDays)")
    self.windowDays = windowDays
    self.value = value
  }

  /// The value of one exercise's counted sets in one session, folded a set at a time: start
  /// from ``emptyValue`` and ``adding(_:to:)`` each set in order.
  ///
  /// `e1rmKg` is Epley, w × (1 + reps / 30), with a single rep giving w itself (Epley would add
  /// 1/30 to a true one-rep max). It is applied as written to every set, including sets of 0 reps.
  ///
  /// - Complexity: O(1).
  public func adding(_ set: TrainedSet, to value: Double) -> Double {
    switch self.value {
    case .topSetKg: return max(value, set.weightKg)
    case .e1rmKg: return max(value, set.reps == 1 ? set.weightKg : set.weightKg * (1 + set.reps / 30))
    case .reps: return max(value, set.reps)
    case .volumeKg: return value + set.weightKg * set.reps
    }
  }

  /// The value before any set: −∞ for a best, 0 for a total. Every exercise in a session has a
  /// set, so no point is drawn at −∞.
  public var emptyValue: Double { value == .volumeKg ? 0 : -.infinity }

  /// The sparklines of `sessions` (sorted by start) for `user`'s chart `chart` as of `asOf`.
  ///
  /// The window is `[end − windowDays × 86 400 s, end]`, inclusive at both ends, with
  /// `end = max(last point, asOf)`; no session after as-of is used, so `end` is as-of. Days are
  /// fixed 86 400 s here, not calendar days, as SPEC 5 states the window in seconds. Lines are
  /// ordered by their most recent point, most recent first, ties by name; an exercise with no
  /// point in the window has no line.
  ///
  /// - Complexity: O(*n* × *s* + *e* log *e*), where *n* is the number of sessions in the window,
  ///   *s* the sets per session and *e* the number of exercises.
  public func apply(
    _ sessions: [Session], calendar: UserCalendar, asOf: Int64, user: String, chart: String
  ) -> SparklinesOutput {
    let end = asOf
    let start = end - Int64(windowDays) * 86_400
    var points: [String: [SparklinesOutput.Point]] = [:]
    var lastPoint: [String: Int64] = [:]
    for session in sessions where session.start >= start && session.start <= end {
      // One value per exercise, in first-seen order, in one pass over the sets. A session
      // trains a handful of exercises in runs of sets, so the set's exercise is nearly always
      // the last one named: a dictionary of every set's name, or a pass per exercise, cost
      // most of what a snapshot of this chart cost.
      var names: [String] = []
      var values: [Double] = []
      // By name, not by the table's index: two entries of one name (sets that stated
      // different muscle groups) are one line.
      var lastExercise: Int32 = -1
      var index = -1
      for set in session.sets {
        if set.exercise != lastExercise {
          lastExercise = set.exercise
          let name = session.exercise(of: set).name
          if let found = names.firstIndex(of: name) {
            index = found
          } else {
            names.append(name)
            values.append(emptyValue)
            index = names.count - 1
          }
        }
        values[index] = adding(set, to: values[index])
      }
      for (name, value) in zip(names, values) {
        points[name, default: []].append(SparklinesOutput.Point(t: Date(epochSeconds: session.start), v: value))
        lastPoint[name] = max(lastPoint[name] ?? .min, session.start)
      }
    }
    // Every exercise with points has a last point, so the unwraps hold.
    let lines = points.map { SparklinesOutput.Line(exercise: $0.key, points: $0.value) }
      .sorted { (lastPoint[$0.exercise]!, $1.exercise) > (lastPoint[$1.exercise]!, $0.exercise) }
    return SparklinesOutput(
      user: user, chart: chart, timeZone: calendar.timeZoneName,
      asOf: Date(epochSeconds: asOf),
      value: value, windowDays: windowDays,
      domain: Extent(start: Date(epochSeconds: start), end: Date(epochSeconds: end)), lines: lines)
  }
}

extension Sparkline: SessionChartStage {
  public static let key = "sparkline"
  public static let summary =
    "One line per exercise, a point per session, over a window of days ending at as-of (SPEC 5)."
  public static let reads: [StageData] = [.sessions]
  public static let produces = StageData.chart
  /// Ten years: a sparkline wider than the history Trendline reads is a typo.
  public static let maxWindowDays = 3660

  /// `{"windowDays": 91, "value": "topSetKg"}`, `windowDays` optional.
  ///
  /// - Complexity: O(1).
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Sparkline? {
    let reader = context.reader
    guard let members = reader.object(value, at: path, keys: ["windowDays", "value"], required: ["value"]) else {
      return nil
    }
    var windowDays: Int? = defaultWindowDays
    if let value = members["windowDays"] {
      windowDays = reader.integer(
        value, at: path.appending("windowDays"), in: 1...maxWindowDays, what: "windowDays")
    }
    let kind: Value? = members["value"].flatMap {
      reader.choice($0, at: path.appending("value"), what: "sparkline value")
    }
    guard let windowDays, let kind else { return nil }
    return Sparkline(windowDays: windowDays, value: kind)
  }

  public var settings: [String] { ["windowDays \(windowDays), value \(value.rawValue)"] }

  /// ``apply(_:calendar:asOf:user:chart:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:calendar:asOf:user:chart:)``.
  public func apply(_ sessions: [Session], in context: ChartContext) -> ChartOutput {
    ChartOutput(
      apply(sessions, calendar: context.calendar, asOf: context.asOf, user: context.user, chart: context.chart))
  }
}

/// What makes sparklines: the stage registry reaches this stage through its kind (``StagedChartKind``).
extension SparklinesOutput: StagedChartKind {
  public static var stage: any StageUnit.Type { Sparkline.self }
}
