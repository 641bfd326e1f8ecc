import Foundation
import TrendlineSchema

/// Personal records over a user's sessions up to as-of: the computation shared by the
/// `records` stage and `bucket`'s `records` measure, so the count in a bucket and the list in
/// the records chart can never disagree. It is not a stage.
///
/// A set beats an exercise's record when its value is greater than every earlier session's
/// best of that exercise: the top set's weight, the Epley estimate, or the reps at that
/// weight. The first session of an exercise, and the first time a weight is lifted in it, set
/// a baseline and are no record, or a user's first week would be all records. Within one
/// session only the session's best counts, once per kind: three rising sets of bench press in
/// one workout are one top-set record, not three. Weights are compared to the gram.
///
/// - Complexity: O(*n* × *s* + *e* log *e*) for *n* sessions of *s* sets and *e* bests.
public struct RecordBook: Sendable {
  /// For each session in the order given, how many records it set (each exercise and kind
  /// counted once); 0 for sessions after as-of.
  public private(set) var newRecords: [Int]
  /// Every exercise's bests and records, by exercise name.
  public private(set) var exercises: [String: Exercise] = [:]

  public struct Exercise: Sendable, Equatable {
    public var topSet: Mark?
    public var e1rm: Mark?
    /// Keyed by weight in grams.
    public var repsAtWeight: [Int64: Mark] = [:]
    /// Oldest first.
    public var records: [Record] = []
  }

  /// A set's value and where it was set.
  public struct Mark: Sendable, Equatable {
    public var value: Double
    public var weightKg: Double
    public var reps: Double
    public var start: Int64
  }

  public struct Record: Sendable, Equatable {
    public var kind: RecordsOutput.Record.Kind
    public var mark: Mark
    public var previous: Double
  }

  /// The records of `sessions` (sorted by start) up to `asOf`.
  public init(_ sessions: [Session], through asOf: Int64) {
    newRecords = [Int](repeating: 0, count: sessions.count)
    for (index, session) in sessions.enumerated() where session.start <= asOf {
      // The session's best of each kind per exercise, before any is compared with history,
      // so a session is judged by its best set against earlier sessions only.
      var best: [String: Exercise] = [:]
      var order: [String] = []
      for set in session.sets {
        let name = session.exercise(of: set).name
        if best[name] == nil { order.append(name) }
        var entry = best[name, default: Exercise()]
        if set.weightKg > 0 {
          let mark = Mark(value: set.weightKg, weightKg: set.weightKg, reps: set.reps, start: session.start)
          if entry.topSet.map({ mark.value > $0.value }) ?? true { entry.topSet = mark }
          // Ingest bounds weights (at most 1500 kg), but a stage does not trap on a value it
          // was not meant to see: a weight with no whole number of grams is no weight to compare.
          if set.reps >= 1, let grams = Int64(exactly: (set.weightKg * 1000).rounded()) {
            let repsMark = Mark(value: set.reps, weightKg: set.weightKg, reps: set.reps, start: session.start)
            if entry.repsAtWeight[grams].map({ repsMark.value > $0.value }) ?? true {
              entry.repsAtWeight[grams] = repsMark
            }
          }
        }
        if let e1rm = set.e1rmKg {
          let mark = Mark(value: e1rm, weightKg: set.weightKg, reps: set.reps, start: session.start)
          if entry.e1rm.map({ mark.value > $0.value }) ?? true { entry.e1rm = mark }
        }
        best[name] = entry
      }
      for name in order {
        // Every name in `order` was put in `best` on first sight, so the unwrap holds.
        newRecords[index] += record(best[name]!, of: name)
      }
    }
  }

  /// Folds one session's bests of exercise `name` into the book; returns the records set.
  private mutating func record(_ session: Exercise, of name: String) -> Int {
    // Taken out of the book while it changes, so appending a record mutates the one copy: a
    // copy left in the dictionary made every append copy the whole history, O(n²) over
    // 200,000 sessions of one exercise.
    var history = exercises.removeValue(forKey: name) ?? Exercise()
    var count = 0
    // Returns the record `new` sets over `old`, if any, and moves `old` up. It does not touch
    // `history` itself: `old` is one of its fields, passed inout.
    func beat(_ kind: RecordsOutput.Record.Kind, _ new: Mark?, _ old: inout Mark?) -> Record? {
      guard let new else { return nil }
      guard let previous = old else {
        old = new  // A baseline.
        return nil
      }
      guard new.value > previous.value else { return nil }
      old = new
      return Record(kind: kind, mark: new, previous: previous.value)
    }
    for record in [
      beat(.topSetKg, session.topSet, &history.topSet), beat(.e1rmKg, session.e1rm, &history.e1rm),
    ] {
      guard let record else { continue }
      history.records.append(record)
      count += 1
    }
    var repsRecord = false
    for grams in session.repsAtWeight.keys.sorted() {
      let new = session.repsAtWeight[grams]!
      guard let previous = history.repsAtWeight[grams] else {
        history.repsAtWeight[grams] = new
        continue
      }
      guard new.value > previous.value else { continue }
      history.records.append(Record(kind: .repsAtWeight, mark: new, previous: previous.value))
      history.repsAtWeight[grams] = new
      repsRecord = true
    }
    if repsRecord { count += 1 }
    exercises[name] = history
    return count
  }
}
