import TrendlineSchema

/// Checks that a ``UserIngest`` holds only what the export readers and ``Normalize`` can
/// produce: the one statement of those guarantees, for a read that did not come from reading
/// (a session-cache entry).
///
/// A cache entry's checksum catches damage, not a forged or buggy entry, and everything after
/// ingest trusts these guarantees: `Bucket` stops on unsorted sessions, a NaN weight makes a
/// chart unwritable as JSON, a start before 1970 has no RFC 3339 year. So a decoded read is
/// held to the same bounds as a parsed one, and one that fails is read again from its exports.
///
/// It deliberately does not re-check what only the formats know (a session key's spelling, a
/// name's normalization, which notes a file got): a wrong value there is wrong text in an
/// output, never a crash or an overflow.
public enum UserIngestValidator {
  /// What is wrong with `ingest`, or nil when it keeps every guarantee.
  ///
  /// Counts and positions are bounded by `limits.maxFileBytes`, since every row and every
  /// column takes at least one byte of its file; so summing them over a whole corpus cannot
  /// overflow.
  ///
  /// - Complexity: O(*s* + *n*), where *s* is the number of sets and *n* of notes and files.
  public static func problem(in ingest: UserIngest, limits: ReadLimits) -> String? {
    let rowBound = limits.maxFileBytes
    func bounded(_ value: Int) -> Bool { value >= 0 && value <= rowBound }

    for file in ingest.files {
      guard file.rows.isWithin(0...rowBound), file.ignoredByReason.values.allSatisfy(bounded) else {
        return "a row count of \(file.file) is negative or over \(rowBound)"
      }
      // Normalize computes the accepted rows from the others, so the identity always holds.
      guard file.rows.balances else { return "the rows of \(file.file) do not add up" }
    }
    // Line 0 is a native JSON set's (it has no line of its own); a column may be one past the
    // last byte, an empty last field.
    func position(_ value: Int) -> Bool { value >= 0 && value <= rowBound + 1 }
    for note in ingest.notes where !position(note.line) || !position(note.column) {
      return "a row note of \(note.file) is at line \(note.line), column \(note.column)"
    }
    for (name, sessions) in ingest.unmappedExercises where sessions < 1 || sessions > ingest.sessions.count {
      return "unmapped exercise '\(name)' is counted in \(sessions) of \(ingest.sessions.count) sessions"
    }
    // A set takes at least a byte of its file, so no file states a unit for more sets than it
    // has bytes.
    let stated = ingest.statedUnits
    let (product, overflow) = rowBound.multipliedReportingOverflow(by: max(ingest.files.count, 1))
    let setBound = overflow ? Int.max : product
    for count in [stated.kilograms, stated.pounds, stated.kilometers, stated.miles] where count < 0 || count > setBound
    {
      return "a count of stated units is \(count), outside 0...\(setBound)"
    }

    var previous: Session?
    // The sessions of an ingest share one table of exercises, checked once.
    var checked: [TrainedExercise] = []
    for session in ingest.sessions {
      if !session.sharesExercises(checked) {
        checked = session.exercises
        // An unmapped exercise is one no catalog entry or export gave muscle groups.
        if let exercise = checked.first(where: { $0.isUnmapped && !$0.muscleGroupIds.isEmpty }) {
          return "exercise '\(exercise.name)' is unmapped but has muscle groups"
        }
      }
      guard StartLimits.range.contains(session.start) else {
        return "session '\(session.key)' starts at \(session.start), outside \(StartLimits.range)"
      }
      // Normalize sorts by start, then key; keys are unique within a user, so strictly.
      if let previous,
        previous.start > session.start || (previous.start == session.start && previous.key >= session.key)
      {
        return "session '\(session.key)' is not after '\(previous.key)'"
      }
      previous = session
      if let duration = session.durationSeconds, duration < 0 || Double(duration) > WorkoutLength.maximumSeconds {
        return "session '\(session.key)' lasts \(duration) s"
      }
      for set in session.sets {
        // The decoder checks this already; stated here with the other guarantees.
        guard set.exercise >= 0 && Int(set.exercise) < session.exercises.count else {
          return "a set of session '\(session.key)' names exercise \(set.exercise) of \(session.exercises.count)"
        }
        if let problem = problem(in: set) { return "a set of session '\(session.key)' \(problem)" }
      }
    }
    return nil
  }

  /// What is wrong with one set's values, or nil.
  private static func problem(in set: TrainedSet) -> String? {
    // Plain comparisons, each false for NaN, so these also reject non-finite values; a
    // `ClosedRange` built per set checked its own bounds each time (2 % of a cached night).
    guard set.weightKg >= 0 && set.weightKg <= SetLimits.maximumWeightKg else { return "weighs \(set.weightKg) kg" }
    guard set.reps >= 0 && set.reps <= SetLimits.maximumReps else { return "has \(set.reps) reps" }
    guard set.distanceMeters >= 0 && set.distanceMeters <= SetLimits.maximumDistanceMeters else {
      return "covers \(set.distanceMeters) m"
    }
    guard set.seconds >= 0 && set.seconds <= SetLimits.maximumSeconds else { return "lasts \(set.seconds) s" }
    return nil
  }
}
