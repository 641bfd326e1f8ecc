/// One workout after ingest and normalization: the unit every stage counts.
///
/// Instants are whole seconds since 1970-01-01T00:00:00Z (`Int64`), never `Date`: every
/// instant Trendline reads or writes is whole seconds (SPEC 9.9), and integer arithmetic keeps
/// bucket edges exact.
///
/// A session holds only its *counted* sets (warm-ups are dropped unless the pipeline includes
/// them), so volume, set count and muscle groups need no further filtering. It does not hold
/// the user's time zone: calendar work takes that from ``UserCalendar``.
public struct Session: Sendable, Equatable {
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
  /// The counted sets, in file order.
  public var sets: [TrainedSet]

  public init(key: String, start: Int64, durationSeconds: Int64?, name: String, sets: [TrainedSet]) {
    self.key = key
    self.start = start
    self.durationSeconds = durationSeconds
    self.name = name
    self.sets = sets
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
  /// - Complexity: O(*n* log *n*), where *n* is the number of ids over all sets.
  public var muscleGroupIds: [Int] {
    var ids = Set<Int>()
    for set in sets { ids.formUnion(set.muscleGroupIds) }
    return ids.sorted()
  }
}

/// One counted set of a session.
public struct TrainedSet: Sendable, Equatable {
  /// The exercise's display name: the catalog's name when the exercise is in the catalog (so
  /// aliases and case variants merge), else the trimmed NFC name as written.
  public var exercise: String
  /// The muscle groups trained: the set's own `muscleGroupIds` if the export gave them, else
  /// the catalog's; empty when neither knows the exercise.
  public var muscleGroupIds: [Int]
  /// True when neither the catalog nor the set itself gave muscle groups (SPEC 9.10).
  public var isUnmapped: Bool
  public var type: SetType
  public var weightKg: Double
  public var reps: Double
  public var distanceMeters: Double
  public var seconds: Double

  public init(
    exercise: String, muscleGroupIds: [Int], isUnmapped: Bool, type: SetType, weightKg: Double,
    reps: Double, distanceMeters: Double = 0, seconds: Double = 0
  ) {
    self.exercise = exercise
    self.muscleGroupIds = muscleGroupIds
    self.isUnmapped = isUnmapped
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
