/// One workout after ingest and normalization: the unit every stage counts.
///
/// Instants are whole seconds since 1970-01-01T00:00:00Z (`Int64`), never `Date`: every
/// instant Trendline reads or writes is whole seconds (SPEC 9.9), and integer arithmetic keeps
/// bucket edges exact.
///
/// A session holds only its *counted* sets (warm-ups are dropped unless the pipeline includes
/// them), so volume, set count and muscle groups need no further filtering. It does not hold
/// the user's time zone: calendar work takes that from ``UserCalendar``.
///
/// What a set's exercise is — its name and muscle groups — is kept once in ``exercises`` and
/// each set holds its index there, so a set is numbers only: building, copying and freeing a
/// user's sets retains and releases nothing (a set holding a `String` and an `[Int]` did both,
/// an atomic operation each, for every one of millions of sets). The sessions of one ingest
/// share one table.
public struct Session: Sendable {
  /// The format's session key, e.g. Strong's `Date` + `Workout Name`, unique within a user.
  public var key: String
  /// When the workout started.
  public var start: Int64
  /// Length in seconds; nil when it is unknown: the export has no duration for the session (no
  /// such column, an empty cell) or stated one Trendline dropped (SPEC 10.2). Never 0 for
  /// "unknown" (SPEC 10.3): a chart would draw "0 minutes trained" where the truth is not known.
  public var durationSeconds: Int64?
  /// The workout's name as written (NFC), or empty.
  public var name: String
  /// The exercises the sets refer to by ``TrainedSet/exercise``. It may hold exercises no set
  /// of this session refers to: an ingest's sessions share the user's whole table, which also
  /// holds the exercises of warm-ups that were not counted.
  public var exercises: [TrainedExercise]
  /// The counted sets, in file order. Each set's ``TrainedSet/exercise`` is an index of
  /// ``exercises``: the initializer checks it, and code that changes either keeps it
  /// (`UserIngestValidator` checks it again where sessions come from a file).
  public var sets: [TrainedSet]

  /// A session whose sets refer to `exercises` by index.
  ///
  /// - Precondition: every set's `exercise` is an index of `exercises`.
  public init(
    key: String, start: Int64, durationSeconds: Int64?, name: String, exercises: [TrainedExercise],
    sets: [TrainedSet]
  ) {
    precondition(
      sets.allSatisfy { $0.exercise >= 0 && Int($0.exercise) < exercises.count },
      "a set's exercise index is outside the session's exercises")
    self.key = key
    self.start = start
    self.durationSeconds = durationSeconds
    self.name = name
    self.exercises = exercises
    self.sets = sets
  }

  /// A session from sets given with their exercises, its table built here: for sessions made
  /// by hand (tests, examples), where a few sets' look-ups cost nothing.
  ///
  /// - Complexity: O(*n*), where *n* is the number of sets.
  public init(
    key: String, start: Int64, durationSeconds: Int64?, name: String,
    sets: [(exercise: TrainedExercise, set: TrainedSet)]
  ) {
    var exercises: [TrainedExercise] = []
    var indices: [TrainedExercise: Int32] = [:]
    var counted: [TrainedSet] = []
    counted.reserveCapacity(sets.count)
    for (exercise, var set) in sets {
      if let index = indices[exercise] {
        set.exercise = index
      } else {
        set.exercise = Int32(exercises.count)
        indices[exercise] = set.exercise
        exercises.append(exercise)
      }
      counted.append(set)
    }
    self.init(key: key, start: start, durationSeconds: durationSeconds, name: name, exercises: exercises, sets: counted)
  }

  /// The exercise of one of this session's sets.
  @inlinable
  public func exercise(of set: TrainedSet) -> TrainedExercise {
    exercises[Int(set.exercise)]
  }

  /// Whether `table` is this session's ``exercises`` itself, one storage, not an equal copy:
  /// how a loop over an ingest's sessions, which share one table, does a table's work once.
  /// The caller holds `table`, so its storage cannot be freed and its address reused; a
  /// false "no" only costs doing the work again.
  @inlinable
  public func sharesExercises(_ table: [TrainedExercise]) -> Bool {
    table.count == exercises.count
      && table.withUnsafeBufferPointer { a in exercises.withUnsafeBufferPointer { $0.baseAddress == a.baseAddress } }
  }

  /// Σ weightKg × reps over the counted sets.
  ///
  /// - Complexity: O(*n*), where *n* is the number of sets.
  public var volumeKg: Double {
    var total = 0.0
    for set in sets { total += set.weightKg * set.reps }
    return total
  }

  /// The number of counted sets.
  public var setCount: Int { sets.count }

  /// The union of the muscle-group ids of the counted sets, ascending.
  ///
  /// - Complexity: O(*n* + *g* log *g*), where *n* is the number of sets and *g* the number of
  ///   ids over the session's distinct exercises; not the table's size, which is the user's.
  public var muscleGroupIds: [Int] {
    // A block's sets share an exercise: each block's ids once, however many sets it has.
    var last: Int32 = -1
    var ids = Set<Int>()
    for set in sets where set.exercise != last {
      last = set.exercise
      ids.formUnion(exercises[Int(last)].muscleGroupIds)
    }
    return ids.sorted()
  }
}

extension Session: Equatable {
  /// Sessions are equal when they say the same: the same fields and, set by set, the same
  /// values and the same exercise, whatever index each table gives it.
  public static func == (a: Session, b: Session) -> Bool {
    guard a.key == b.key, a.start == b.start, a.durationSeconds == b.durationSeconds, a.name == b.name,
      a.sets.count == b.sets.count
    else { return false }
    for (x, y) in zip(a.sets, b.sets) {
      guard x.type == y.type, x.weightKg == y.weightKg, x.reps == y.reps, x.distanceMeters == y.distanceMeters,
        x.seconds == y.seconds, a.exercise(of: x) == b.exercise(of: y)
      else { return false }
    }
    return true
  }
}

/// What every set of one exercise shares: kept once per user in ``Session/exercises``.
public struct TrainedExercise: Sendable, Hashable {
  /// The exercise's display name: the catalog's name when the exercise is in the catalog (so
  /// aliases and case variants merge), else the trimmed NFC name as written.
  public var name: String
  /// The muscle groups trained: the sets' own `muscleGroupIds` if the export gave them, else
  /// the catalog's; empty when neither knows the exercise.
  public var muscleGroupIds: [Int]
  /// True when neither the catalog nor the sets themselves gave muscle groups (SPEC 9.10).
  public var isUnmapped: Bool

  public init(name: String, muscleGroupIds: [Int], isUnmapped: Bool) {
    self.name = name
    self.muscleGroupIds = muscleGroupIds
    self.isUnmapped = isUnmapped
  }
}

/// One counted set of a session: numbers only, its exercise an index into the session's
/// ``Session/exercises``.
public struct TrainedSet: Sendable, Equatable {
  /// The index of the set's exercise in its session's ``Session/exercises``
  /// (``Session/exercise(of:)``). Two sets compare by index, so compare sets of one session.
  /// It is 0 unless given: the session initializer that takes sets paired with their
  /// exercises sets it.
  public var exercise: Int32
  public var type: SetType
  public var weightKg: Double
  public var reps: Double
  public var distanceMeters: Double
  public var seconds: Double

  public init(
    exercise: Int32 = 0, type: SetType, weightKg: Double, reps: Double, distanceMeters: Double = 0,
    seconds: Double = 0
  ) {
    self.exercise = exercise
    self.type = type
    self.weightKg = weightKg
    self.reps = reps
    self.distanceMeters = distanceMeters
    self.seconds = seconds
  }
}

extension TrainedSet {
  /// The Epley estimate of a one-rep max, w × (1 + reps / 30), with a single rep giving w
  /// itself (Epley would add 1/30 to a true one-rep max); nil for a set without weight or
  /// without reps, which estimates nothing.
  public var e1rmKg: Double? {
    guard weightKg > 0, reps >= 1 else { return nil }
    return reps == 1 ? weightKg : weightKg * (1 + reps / 30)
  }
}

/// The kinds of set the SPEC knows; every app's vocabulary maps onto these.
public enum SetType: String, Sendable, Codable, CaseIterable {
  case normal, warmup, dropset, failure
}
