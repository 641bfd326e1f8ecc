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
  /// Every exercise's bests and records, by exercise name: a dictionary made on each read, so
  /// read it once.
  ///
  /// - Complexity: O(*e*) for *e* exercises.
  public var exercises: [String: Exercise] { Dictionary(uniqueKeysWithValues: zip(names, histories)) }

  /// The exercises by number, in the order first set: an exercise's number is its place in
  /// both. Numbers, not names, key the work per set: looked up by name, the dashboard's record
  /// count took a quarter of a whole run's instructions (hashing a name three times a set and
  /// copying an exercise's weights each time).
  private var names: [String] = []
  private var histories: [Exercise] = []

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

  /// One session's best sets of one exercise, before they are compared with its history.
  private struct SessionBest {
    var exercise: Int
    var topSet: Mark?
    var e1rm: Mark?
  }

  /// The reps of the session's set number `order` at a weight, in `SessionBest`'s slot `slot`.
  private struct RepsMark {
    var slot: Int
    var grams: Int64
    var order: Int
    var mark: Mark
  }

  /// Each session's count of records: `given` when it has one per session (the session cache
  /// keeps it), else worked out. A count depends on no as-of, only on the sessions before it,
  /// so counts through the last session serve every as-of.
  ///
  /// - Complexity: O(1) when given; as ``init(_:through:)`` otherwise.
  public static func newRecords(_ sessions: [Session], given: [Int]?) -> [Int] {
    if let given, given.count == sessions.count { return given }
    return RecordBook(sessions, through: .max).newRecords
  }

  /// The records of `sessions` (sorted by start) up to `asOf`.
  public init(_ sessions: [Session], through asOf: Int64) {
    newRecords = [Int](repeating: 0, count: sessions.count)
    var numbers: [String: Int] = [:]
    // The exercise number of each entry of the sessions' table, -1 until a set names it: an
    // ingest's sessions share one table, so each name is looked up once a user.
    var table: [TrainedExercise] = []
    var tableNumbers: [Int] = []
    // Per exercise number, its slot in `bests` in the session at hand, or -1.
    var slots: [Int] = []
    var bests: [SessionBest] = []
    var reps: [RepsMark] = []
    // By index, not by element: a session taken out of the array was a copy, retaining and
    // releasing its four references, for each session of each user.
    for index in sessions.indices where sessions[index].start <= asOf {
      let start = sessions[index].start
      if !sessions[index].sharesExercises(table) {
        table = sessions[index].exercises
        tableNumbers = [Int](repeating: -1, count: table.count)
      }
      // The session's best of each kind per exercise, before any is compared with history,
      // so a session is judged by its best set against earlier sessions only.
      for set in sessions[index].sets {
        var number = tableNumbers[Int(set.exercise)]
        if number < 0 {
          let name = table[Int(set.exercise)].name
          if let known = numbers[name] {
            number = known
          } else {
            number = names.count
            numbers[name] = number
            names.append(name)
            histories.append(Exercise())
            slots.append(-1)
          }
          tableNumbers[Int(set.exercise)] = number
        }
        if slots[number] < 0 {
          slots[number] = bests.count
          bests.append(SessionBest(exercise: number))
        }
        let slot = slots[number]
        if set.weightKg > 0 {
          let mark = Mark(value: set.weightKg, weightKg: set.weightKg, reps: set.reps, start: start)
          if bests[slot].topSet.map({ mark.value > $0.value }) ?? true { bests[slot].topSet = mark }
          // Ingest bounds weights (at most 1500 kg), but a stage does not trap on a value it
          // was not meant to see: a weight with no whole number of grams is no weight to compare.
          if set.reps >= 1, let grams = Int64(exactly: (set.weightKg * 1000).rounded()) {
            let mark = Mark(value: set.reps, weightKg: set.weightKg, reps: set.reps, start: start)
            reps.append(RepsMark(slot: slot, grams: grams, order: reps.count, mark: mark))
          }
        }
        if let e1rm = set.e1rmKg {
          let mark = Mark(value: e1rm, weightKg: set.weightKg, reps: set.reps, start: start)
          if bests[slot].e1rm.map({ mark.value > $0.value }) ?? true { bests[slot].e1rm = mark }
        }
      }
      // Each slot's reps by weight, the most reps (the earliest of equals) first: the first of
      // a weight is its best.
      reps.sort {
        ($0.slot, $0.grams, $1.mark.value, $0.order) < ($1.slot, $1.grams, $0.mark.value, $1.order)
      }
      var next = 0
      for (slot, best) in bests.enumerated() {
        let first = next
        while next < reps.count && reps[next].slot == slot { next += 1 }
        newRecords[index] += Self.fold(best, reps[first..<next], into: &histories[best.exercise])
        slots[best.exercise] = -1
      }
      bests.removeAll(keepingCapacity: true)
      reps.removeAll(keepingCapacity: true)
    }
  }

  /// Folds one session's bests of an exercise into its `history` (changed in place: a copy
  /// made every append copy the whole history, O(n²) over 200,000 sessions of one exercise);
  /// returns the records set. `reps` is sorted by weight, the most reps first.
  private static func fold(_ session: SessionBest, _ reps: ArraySlice<RepsMark>, into history: inout Exercise) -> Int {
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
    // One at a time, not a loop over an array of the two: that array was an allocation per
    // exercise of every session.
    if let record = beat(.topSetKg, session.topSet, &history.topSet) {
      history.records.append(record)
      count += 1
    }
    if let record = beat(.e1rmKg, session.e1rm, &history.e1rm) {
      history.records.append(record)
      count += 1
    }
    var repsRecord = false
    var lastGrams: Int64? = nil
    for entry in reps where entry.grams != lastGrams {
      lastGrams = entry.grams
      guard let previous = history.repsAtWeight[entry.grams] else {
        history.repsAtWeight[entry.grams] = entry.mark
        continue
      }
      guard entry.mark.value > previous.value else { continue }
      history.records.append(Record(kind: .repsAtWeight, mark: entry.mark, previous: previous.value))
      history.repsAtWeight[entry.grams] = entry.mark
      repsRecord = true
    }
    if repsRecord { count += 1 }
    return count
  }
}
