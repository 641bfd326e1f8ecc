import Foundation
import Testing
import TrendlineSchema
import TrendlineStages

// Instants in tests are written as RFC 3339 text with the local offset, the way a person checks
// them against a calendar, and read with Foundation's ISO8601DateFormatter rather than
// Trendline's own `RFC3339`, so no expected value is computed by the code under test.

/// Whole seconds since 1970 for `2025-03-30T00:00:00+01:00`.
func at(_ text: String) -> Int64 {
  let formatter = ISO8601DateFormatter()
  guard let date = formatter.date(from: text) else {
    preconditionFailure("not RFC 3339 in a test: \(text)")
  }
  return Int64(date.timeIntervalSince1970)
}

/// The same instant as a `Date`, for comparing with output types.
func date(_ text: String) -> Date {
  Date(timeIntervalSince1970: TimeInterval(at(text)))
}

func zone(_ identifier: String) -> TimeZone {
  guard let zone = TimeZone(identifier: identifier) else {
    preconditionFailure("unknown zone \(identifier)")
  }
  return zone
}

let utc = UserCalendar(timeZone: zone("UTC"))
let oslo = UserCalendar(timeZone: zone("Europe/Oslo"))
let santiago = UserCalendar(timeZone: zone("America/Santiago"))

/// A set with its exercise, as `Session`'s init for sets made by hand takes them.
typealias Trained = (exercise: TrainedExercise, set: TrainedSet)

func trained(
  _ exercise: String, _ groups: [Int], kg: Double = 0, reps: Double = 0, unmapped: Bool = false
) -> Trained {
  (
    TrainedExercise(name: exercise, muscleGroupIds: groups, isUnmapped: unmapped),
    TrainedSet(type: .normal, weightKg: kg, reps: reps)
  )
}

/// The exercise name of each of a session's sets, in order.
func exerciseNames(_ session: Session) -> [String] {
  session.sets.map { session.exercise(of: $0).name }
}

/// A session starting at `start`; by default one set of 5 × 100 kg squats (volume 500) and an
/// hour long, so the measures of a bucket are easy to add up by hand; `minutes: nil` for an
/// export that states no duration.
func session(
  _ start: String, minutes: Int64? = 60,
  _ sets: [Trained] = [trained("Squat", [20], kg: 100, reps: 5)]
) -> Session {
  Session(key: start, start: at(start), durationSeconds: minutes.map { $0 * 60 }, name: "Workout", sets: sets)
}

/// A bucket as (start, end, partial, sessions), the parts most tests pin.
struct Row: Equatable, CustomStringConvertible {
  var start: Int64
  var end: Int64
  var partial: Bool
  var sessions: Double
  init(_ start: String, _ end: String, partial: Bool = false, sessions: Double) {
    (self.start, self.end, self.partial, self.sessions) = (at(start), at(end), partial, sessions)
  }
  var description: String {
    let f = ISO8601DateFormatter()
    let text = { (seconds: Int64) in
      f.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
    return "(\(text(start)) … \(text(end)) partial: \(partial) sessions: \(sessions))"
  }
}

/// The rows of a series, for comparing with a hand-written list. Each bucket's session count,
/// the one a cohort's active users come from, is checked against its `sessions` measure.
func rows(_ series: BucketedSeries) -> [Row] {
  series.buckets.map { bucket in
    if let measured = bucket.values[.sessions] { #expect(Double(bucket.sessions) == measured) }
    var row = Row(
      "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", sessions: bucket.values[.sessions] ?? -1)
    (row.start, row.end, row.partial) = (bucket.start, bucket.end, bucket.partial)
    return row
  }
}
