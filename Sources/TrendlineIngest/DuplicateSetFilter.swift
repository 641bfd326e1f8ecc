import Foundation
import TrendlineSchema
import TrendlineSupport

/// Finds rows that repeat a set already read from the same file (SPEC 10.5).
///
/// A row is a duplicate only when it repeats the same set of the same exercise block — the
/// same set index within its block — *and* says the same thing (type, weight, reps, distance,
/// time). A block is a run of consecutive sets of one session and exercise whose numbers do not
/// go back: Hevy and Strong number sets per block, so an exercise done twice in one workout —
/// apart, or twice in a row — repeats its numbers with real sets, and dropping those would lose
/// real work. A block, once left, never continues (coming back to an exercise starts a new
/// one), so only the block being read needs remembering: a few sets, searched per row.
struct DuplicateSetFilter {
  private struct Key: Equatable {
    var index: Int
    var type: SetType
    var weightKg: Double
    var reps: Double
    var distanceMeters: Double
    var seconds: Double
  }
  private var session = ""
  private var exercise = ""
  private var lastIndex: Int?
  /// The current block's numbered sets and, at the same positions, their lines.
  private var keys: [Key] = []
  private var lines: [Int] = []

  /// The line of the set that `set` repeats (0 for a set without a line), or nil when it is
  /// a set of its own. Every set passes through, so that blocks are told apart right.
  mutating func original(of set: ExportSet) -> Int? {
    let restarts = set.setIndex.map { index in lastIndex.map { index < $0 } ?? false } ?? false
    if set.sessionKey != session || set.exercise != exercise || restarts {
      session = set.sessionKey
      exercise = set.exercise
      keys.removeAll(keepingCapacity: true)
      lines.removeAll(keepingCapacity: true)
      lastIndex = nil
    }
    // A warm-up (no number) between blocks does not hide where the numbers start again.
    guard let index = set.setIndex else { return nil }
    lastIndex = index
    let key = Key(
      index: index, type: set.type, weightKg: set.weightKg, reps: set.reps, distanceMeters: set.distanceMeters,
      seconds: set.seconds)
    // Numbers do not go down within a block, so the sets with this one are the last few: the
    // search stops at the first smaller number, and one long block stays linear.
    var position = keys.count - 1
    while position >= 0 && keys[position].index == index {
      if keys[position] == key { return lines[position] }
      position -= 1
    }
    keys.append(key)
    lines.append(set.line)
    return nil
  }

  /// The reason listed for a duplicate of the set at `line`.
  static func reason(_ line: Int) -> String {
    line > 0
      ? "repeats line \(line): the same set of the same exercise block, with the same values"
      : "repeats an earlier set: the same set of the same exercise block, with the same values"
  }
}

extension FileIngest {
  /// Moves to duplicates every workout written twice over in one file: a session whose rows
  /// are one sequence of numbered sets and then the same sequence again, set for set (seen in
  /// four real Strong exports, where a sync wrote whole workouts twice). That is a repeat of the same
  /// sets, not an exercise done twice — the second copy is listed, naming the line it repeats.
  ///
  /// - Complexity: O(*n*) in the number of sets; a session is compared only when it has an
  ///   even number of sets, and stops at its first difference.
  mutating func moveRepeatedWorkouts() {
    // Read from a copy (the same storage, shared): `note` changes `self` while the runs are read.
    let sets = self.sets
    var kept: [Int] = []
    var moved = Set<Int>()
    sets.forEachSessionRun { _, run in
      let start = run.lowerBound
      let half = run.count / 2
      // Only sets that carry their number can show a repeat: without one, two equal halves
      // are as likely to be a routine done twice (3 × 10 at 60 kg, then again).
      let repeated =
        half > 0 && run.count % 2 == 0 && sets.hasSetIndex(start)
        && sets.isWholeWorkout(start..<(start + half))
        && (0..<half).allSatisfy { sets.sameSet(start + $0, start + half + $0) }
      if repeated {
        if moved.isEmpty { kept = Array(0..<start) }
        kept += start..<(start + half)
        for offset in 0..<half {
          let line = sets.line(start + half + offset)
          moved.insert(line)
          note(
            .duplicate, line: line, column: 1, field: "",
            reason: "repeats line \(sets.line(start + offset)): the whole workout is written twice in the file")
        }
      } else if !moved.isEmpty {
        kept += run
      }
    }
    guard !moved.isEmpty else { return }
    self.sets.keep(kept)
    // A repeated row is a duplicate and nothing else: a value it dropped is not counted twice.
    let before = notes.count
    notes.removeAll { $0.outcome == .valueDropped && moved.contains($0.line) }
    counts.valueDropped -= before - notes.count
    notes.sort { $0.line < $1.line }
  }
}

extension FileSets {
  /// Whether the sets at `half` look like a workout rather than a round of one: at least two
  /// exercise blocks and a block of at least two sets. One exercise done twice (`1, 2` and
  /// `1, 2`) or a circuit of single sets (`Curl 1, Dip 1` twice) is real work repeated, never
  /// moved.
  func isWholeWorkout(_ half: Range<Int>) -> Bool {
    var blocks = 1
    var longest = 1
    var run = 1
    for position in half.dropFirst() {
      if kind(of: position).exercise == kind(of: position - 1).exercise {
        run += 1
        longest = Swift.max(longest, run)
      } else {
        blocks += 1
        run = 1
      }
    }
    return blocks >= 2 && longest >= 2
  }

  /// Whether the sets at `a` and `b` are the same set, wherever each was read: every value but
  /// the line.
  func sameSet(_ a: Int, _ b: Int) -> Bool {
    let (first, second) = (records[a], records[b])
    return first.setIndex == second.setIndex && first.weightKg == second.weightKg && first.reps == second.reps
      && first.distanceMeters == second.distanceMeters && first.seconds == second.seconds
      && kind(of: a).type == kind(of: b).type && kind(of: a).exercise == kind(of: b).exercise
  }
}
