import Foundation
import TrendlineSchema

/// A file's sets as they are kept between reading and the merge: what every set of one
/// workout repeats (its key, name, start and duration) held once in a table of sessions, what
/// sets of one exercise repeat (the exercise, its stated muscle groups, the set type and the
/// units the file stated) held once in a table of kinds, and each set a 48-byte record of its
/// own values, its line and number, and an index into each table.
///
/// A set read as an ``ExportSet`` is 144 bytes, and a file held one per row until the merge:
/// a 173 MB export of 2.4 M rows held 346 MB of them beside its own bytes, 3.4× the file, and
/// every copy of one retained and released three strings and an array. Here the same file's
/// sets take 115 MB, and the merge reads numbers and indices, and a name only where the kind
/// of set changes.
///
/// Readers append ``ExportSet``s (``append(_:)``) and tests and `trendline parse` read them
/// back whole (``subscript(_:)``), so the tables are this type's business alone.
public struct FileSets: Sendable, RandomAccessCollection {
  /// What a run of a file's sets shares about their workout.
  struct Session: Sendable {
    var key: String
    var name: String
    var start: Int64
    var durationSeconds: Int64?
  }

  /// What many of a file's sets share besides their workout: a real file has a few dozen
  /// exercises, four set types and a unit or two, so a few hundred kinds. A hostile one may
  /// have a kind per set; the look-up stays a hash (seeded per process, so no file can choose
  /// names that collide) and a comparison.
  ///
  /// Names are compared and hashed by their UTF-8 bytes, one definition for both: the readers
  /// write names in NFC, where equal text is equal bytes, and `String`'s own `==` and hash,
  /// which allow for other forms, cost 940 instructions a look-up in a first version.
  struct Kind: Sendable, Hashable {
    var exercise: String
    var muscleGroupIds: [Int]?
    /// The catalog's names of the muscle groups the file names for the exercise (Liftosaur).
    var muscleNames: [String]? = nil
    var type: SetType
    var stated: StatedUnits
    var sharesRowWithPrevious: Bool

    static func == (a: Kind, b: Kind) -> Bool {
      a.smallFields == b.smallFields && a.muscleGroupIds == b.muscleGroupIds && a.muscleNames == b.muscleNames
        && sameBytes(a.exercise, b.exercise)
    }

    func hash(into hasher: inout Hasher) {
      withBytes(exercise) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
      hasher.combine(smallFields)
      if let muscleGroupIds {
        hasher.combine(muscleGroupIds.count)
        for id in muscleGroupIds { hasher.combine(id) }
      }
      if let muscleNames { hasher.combine(muscleNames) }
    }

    /// The type, the stated units and the row flag in one integer: one comparison and one
    /// hash instead of four.
    var smallFields: Int {
      var fields = sharesRowWithPrevious ? 1 : 0
      switch type {
      case .normal: break
      case .warmup: fields |= 1 << 1
      case .dropset: fields |= 2 << 1
      case .failure: fields |= 3 << 1
      }
      switch stated.weight {
      case nil: break
      case .kilograms?: fields |= 1 << 3
      case .pounds?: fields |= 2 << 3
      }
      switch stated.distance {
      case nil: break
      case .kilometers?: fields |= 1 << 5
      case .miles?: fields |= 2 << 5
      case .meters?: fields |= 3 << 5
      }
      return fields
    }
  }

  /// One set's own values. Lines fit in 32 bits because a file is at most 2 GiB
  /// (`source.limits.maxFileMB`), and set numbers because every reader bounds them (a
  /// million in Hevy and mapped CSV, nine digits in Strong's `Set Order`, 2³¹ − 1 in JSON).
  struct Record: Sendable {
    var weightKg: Double
    var reps: Double
    var distanceMeters: Double
    var seconds: Double
    var session: Int32
    var kind: Int32
    var line: Int32
    /// The set's number within its block, or ``Record/noSetIndex``.
    var setIndex: Int32

    static let noSetIndex: Int32 = -1
  }

  private(set) var records: [Record] = []
  private(set) var sessions: [Session] = []
  private(set) var kinds: [Kind] = []
  /// Each kind's hash, at its place in ``kinds``.
  private var kindHashes: [Int] = []
  /// Places in ``kinds`` by hash: open addressing with linear probing over a power-of-two
  /// table, −1 where empty, kept at most half full. A `Dictionary` keyed by the kind copied
  /// each key it compared, retaining its name and groups, and cost 890 instructions a look-up.
  private var kindSlots: [Int32] = []
  /// The line of the `value-dropped` note of each set that has one, by the set's position:
  /// few sets have one, so it is not a field of every record.
  private(set) var droppedValueLines: [Int: Int32] = [:]
  /// One copy of each session name longer than a small string.
  private var names: [String: String] = [:]
  /// The last set's strings as its reader gave them. The readers share one `String` across the
  /// rows of a workout and of a block, so comparing the next set's with these is a pointer
  /// comparison; the tables' copies are others, and comparing with them read every byte.
  private var lastSessionName = ""
  private var lastExercise = ""
  private var lastMuscleGroupIds: [Int]?
  private var lastMuscleNames: [String]?

  public init() {}

  /// What one kept set costs, its tables aside.
  public static var bytesPerSet: Int { MemoryLayout<Record>.stride }

  public var startIndex: Int { 0 }
  public var endIndex: Int { records.count }

  /// The set at `position`, as its reader gave it.
  ///
  /// - Complexity: O(1).
  public subscript(position: Int) -> ExportSet {
    let record = records[position]
    let session = sessions[Int(record.session)]
    let kind = kinds[Int(record.kind)]
    var set = ExportSet(
      line: Int(record.line), sessionKey: session.key, sessionName: session.name, start: session.start,
      durationSeconds: session.durationSeconds, exercise: kind.exercise, muscleGroupIds: kind.muscleGroupIds,
      setIndex: record.setIndex == Record.noSetIndex ? nil : Int(record.setIndex), type: kind.type,
      weightKg: record.weightKg, reps: record.reps, distanceMeters: record.distanceMeters, seconds: record.seconds,
      stated: kind.stated)
    set.sharesRowWithPrevious = kind.sharesRowWithPrevious
    set.muscleNames = kind.muscleNames
    set.droppedValueLine = droppedValueLines[position] ?? 0
    return set
  }

  /// Room for `count` sets, so that the array of a large file is not grown by doubling (which
  /// holds its old and new buffers at once, and keeps up to half of the new one unused).
  mutating func reserveCapacity(_ count: Int) {
    records.reserveCapacity(count)
  }

  /// Appends a set, sharing its session and kind with the set before it when they are the
  /// same (sets of one workout, and of one block, follow each other in every export).
  ///
  /// The comparisons are of strings the readers already share from row to row, so they are
  /// pointer comparisons nearly always; a kind is looked up only where it changes.
  mutating func append(_ set: borrowing ExportSet) {
    let lastSession = sessions.count - 1
    if lastSession < 0 || sessions[lastSession].key != set.sessionKey || sessions[lastSession].start != set.start
      || sessions[lastSession].durationSeconds != set.durationSeconds || lastSessionName != set.sessionName
    {
      sessions.append(
        Session(
          key: set.sessionKey, name: shared(set.sessionName), start: set.start, durationSeconds: set.durationSeconds))
      lastSessionName = set.sessionName
    }
    var kind = records.last?.kind ?? -1
    let sameKind =
      kind >= 0 && kinds[Int(kind)].type == set.type
      && kinds[Int(kind)].sharesRowWithPrevious == set.sharesRowWithPrevious && kinds[Int(kind)].stated == set.stated
      && lastExercise == set.exercise && lastMuscleGroupIds == set.muscleGroupIds && lastMuscleNames == set.muscleNames
    if !sameKind {
      lastExercise = set.exercise
      lastMuscleGroupIds = set.muscleGroupIds
      lastMuscleNames = set.muscleNames
      let new = Kind(
        exercise: set.exercise, muscleGroupIds: set.muscleGroupIds, muscleNames: set.muscleNames, type: set.type,
        stated: set.stated, sharesRowWithPrevious: set.sharesRowWithPrevious)
      kind = place(of: new)
    }
    if set.droppedValueLine > 0 { droppedValueLines[records.count] = set.droppedValueLine }
    records.append(
      Record(
        weightKg: set.weightKg, reps: set.reps, distanceMeters: set.distanceMeters, seconds: set.seconds,
        session: Int32(sessions.count - 1), kind: kind, line: Int32(clamping: set.line),
        setIndex: set.setIndex.map { Int32(clamping: $0) } ?? Record.noSetIndex))
  }

  /// The place of `kind` in ``kinds``, added if it is new.
  ///
  /// - Complexity: O(1) expected: the hash is `Hasher`'s, seeded per process, so no file can
  ///   choose kinds that collide.
  private mutating func place(of kind: Kind) -> Int32 {
    let hash = kind.hashValue
    if kindSlots.isEmpty {
      kindSlots = Array(repeating: -1, count: 64)
    }
    var mask = kindSlots.count - 1
    var slot = hash & mask
    while kindSlots[slot] >= 0 {
      let known = Int(kindSlots[slot])
      if kindHashes[known] == hash && kinds[known] == kind { return Int32(known) }
      slot = (slot + 1) & mask
    }
    let place = Int32(kinds.count)
    kinds.append(kind)
    kindHashes.append(hash)
    kindSlots[slot] = place
    if 2 * kinds.count > kindSlots.count {
      kindSlots = Array(repeating: -1, count: 2 * kindSlots.count)
      mask = kindSlots.count - 1
      for (known, hash) in kindHashes.enumerated() {
        slot = hash & mask
        while kindSlots[slot] >= 0 { slot = (slot + 1) & mask }
        kindSlots[slot] = Int32(known)
      }
    }
    return place
  }

  /// The table's copy of `name`: a file names a few workouts over thousands of sessions, and
  /// each session's reader made its own copy. Names of 15 bytes or fewer are stored inside
  /// the `String` itself, so only longer ones are worth a look-up.
  private mutating func shared(_ name: String) -> String {
    guard name.utf8.count > 15 else { return name }
    if let known = names[name] { return known }
    names[name] = name
    return name
  }

  /// Keeps only the sets at `positions` (ascending), with their tables as they are.
  mutating func keep(_ positions: [Int]) {
    var dropped: [Int: Int32] = [:]
    for (new, old) in positions.enumerated() {
      if let line = droppedValueLines[old] { dropped[new] = line }
    }
    records = positions.map { records[$0] }
    droppedValueLines = dropped
  }

  /// The workout of the set at `position`.
  func session(of position: Int) -> Session { sessions[Int(records[position].session)] }

  /// The line the set at `position` was read from.
  func line(_ position: Int) -> Int { Int(records[position].line) }

  /// Whether the set at `position` carries its number within its block.
  func hasSetIndex(_ position: Int) -> Bool { records[position].setIndex != Record.noSetIndex }

  /// The kind of the set at `position`.
  func kind(of position: Int) -> Kind { kinds[Int(records[position].kind)] }

  /// Calls `body` with each run of consecutive sets that share a session key.
  ///
  /// Sets of one session follow each other in every export, so callers do their work once per
  /// run (an index comparison between sets of one table entry) rather than once per set.
  func forEachSessionRun(_ body: (String, Range<Int>) -> Void) {
    var start = 0
    while start < records.count {
      let session = records[start].session
      let key = sessions[Int(session)].key
      var end = start + 1
      while end < records.count
        && (records[end].session == session || sessions[Int(records[end].session)].key == key)
      {
        end += 1
      }
      body(key, start..<end)
      start = end
    }
  }

  /// The latest start among the file's sets, nil for a file of none.
  ///
  /// Read from the sets rather than the table: ``keep(_:)`` may leave a table entry no set
  /// refers to any more.
  var latestStart: Int64? {
    var latest: Int64?
    var previous: Int32 = -1
    for record in records where record.session != previous {
      previous = record.session
      latest = Swift.max(latest ?? .min, sessions[Int(record.session)].start)
    }
    return latest
  }
}

/// Whether two strings hold the same UTF-8 bytes: one `memcmp`, and none when they share
/// storage.
private func sameBytes(_ a: String, _ b: String) -> Bool {
  withBytes(a) { first in
    withBytes(b) { second in
      first.count == second.count
        && (first.baseAddress == second.baseAddress || first.count == 0
          || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
    }
  }
}

/// `body` over the UTF-8 bytes of `text`, in place: a native string's own storage, without
/// the copy of the string (and its retain and release) that `withUTF8` needs to be mutable.
private func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
  if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
  var copy = text
  return copy.withUTF8(body)
}
