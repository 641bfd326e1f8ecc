import Foundation
import TrendlineSchema
import TrendlineSupport

/// Whether warm-up sets count toward volume, set counts and muscle groups
/// (`source.normalize.warmupSets`).
public enum WarmupPolicy: String, Sendable, Codable, CaseIterable {
  case exclude, include
}

/// Catalog lookup by name: trimmed, NFC, case-folded, aliases included, and `Name (Equipment)`
/// by its base name (SPEC 3 and 4).
///
/// Built once per run and shared by every user; it is immutable, so workers read it without
/// a lock.
public struct ExerciseLookup: Sendable {
  public struct Entry: Sendable, Equatable {
    public var name: String
    public var muscleGroupIds: [Int]
    public init(name: String, muscleGroupIds: [Int]) {
      self.name = name
      self.muscleGroupIds = muscleGroupIds
    }
  }
  private let entries: [String: Entry]
  /// The catalog's muscle groups by the comparison key of their names, for an export that
  /// names them (``muscleGroupIds(named:)``).
  private let groups: [String: Int]

  /// - Complexity: O(*e*), where *e* is the number of catalog names and aliases.
  public init(catalog: Catalog) {
    var groups: [String: Int] = [:]
    for group in catalog.muscleGroups where groups[ExerciseLookup.key(group.name)] == nil {
      groups[ExerciseLookup.key(group.name)] = group.id
    }
    self.groups = groups
    var entries: [String: Entry] = [:]
    for exercise in catalog.exercises {
      let entry = Entry(name: normalizedName(exercise.name), muscleGroupIds: exercise.muscleGroupIds)
      for name in [exercise.name] + exercise.aliases {
        // The first entry to claim a name keeps it, so the catalog's order decides a clash.
        let key = ExerciseLookup.key(name)
        if entries[key] == nil { entries[key] = entry }
      }
    }
    self.entries = entries
  }

  /// The catalog entry for `name`, however it is spelled or cased. A name the catalog does not
  /// hold whose last part is an equipment in parentheses (`Bench Press (Swiss Bar)`: Strong and
  /// Hevy name exercises this way) takes the muscle groups of its base name (`Bench Press`),
  /// keeping its own name, since the equipment makes it another exercise on a chart.
  ///
  /// - Complexity: O(*n*), where *n* is the length of the name.
  public func find(_ name: String) -> Entry? {
    let key = ExerciseLookup.key(name)
    if let entry = entries[key] { return entry }
    let utf8 = key.utf8
    guard utf8.last == UInt8(ascii: ")"), let open = utf8.lastIndex(of: UInt8(ascii: "(")), open > utf8.startIndex
    else { return nil }
    let base = String(key[..<open]).trimmingCharacters(in: .whitespaces)
    guard !base.isEmpty, let entry = entries[base] else { return nil }
    return Entry(name: normalizedName(name), muscleGroupIds: entry.muscleGroupIds)
  }

  /// The ids of the catalog's muscle groups named `names` (trimmed, NFC, any case), each once in
  /// the order named; a name the catalog has no group for is left out. Nil when none is known,
  /// so that an exercise named only by unknown muscles stays unmapped rather than mapped to
  /// nothing.
  ///
  /// - Complexity: O(*n*), where *n* is the total length of the names.
  public func muscleGroupIds(named names: [String]) -> [Int]? {
    var ids: [Int] = []
    for name in names {
      if let id = groups[ExerciseLookup.key(name)], !ids.contains(id) { ids.append(id) }
    }
    return ids.isEmpty ? nil : ids
  }

  /// The comparison key: NFC, case-folded (`ß` and `SS`, `Kniebeuge` and `KNIEBEUGE`
  /// compare equal) and with runs of spaces as one, so a catalog name matches every spelling
  /// an app or a person writes.
  static func key(_ name: String) -> String {
    let normalized = normalizedName(name)
    // Folding ASCII is lowercasing it; Foundation's folding cost thousands of instructions a
    // name, and every user's every exercise name is looked up.
    let folded =
      normalized.utf8.allSatisfy({ $0 < 0x80 })
      ? String(decoding: normalized.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
      : normalized.folding(options: [.caseInsensitive], locale: nil)
    // `Seated Shoulder  Press` typed with two spaces is the same exercise.
    var previous: UInt8 = 0
    for byte in folded.utf8 {
      if byte == ASCII.space && previous == ASCII.space {
        return folded.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
      }
      previous = byte
    }
    return folded
  }
}

/// Row counts for one input file, for the manifest's file record and the session cache: the
/// accounting identity ``RowCounts/balances`` holds for each.
///
/// Its `Codable` form is flat (`"rowsRead"` beside `"file"`), as it was before the counters
/// became one ``RowCounts``.
public struct FileAccounting: Sendable, Equatable, Codable {
  public var file: String
  public var format: String
  public var rows: RowCounts
  /// Ignored rows by reason, so "ignored" is never a silent bucket.
  public var ignoredByReason: [String: Int]

  public init(file: String, format: String, rows: RowCounts = RowCounts(), ignoredByReason: [String: Int] = [:]) {
    self.file = file
    self.format = format
    self.rows = rows
    self.ignoredByReason = ignoredByReason
  }

  private enum CodingKeys: String, CodingKey { case file, format, ignoredByReason }

  /// Decodes the flat form, the counters beside `file` and `format`.
  ///
  /// - Complexity: O(*r*), where *r* is the number of ignored reasons.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    file = try container.decode(String.self, forKey: .file)
    format = try container.decode(String.self, forKey: .format)
    rows = try RowCounts(from: decoder)
    ignoredByReason = try container.decode([String: Int].self, forKey: .ignoredByReason)
  }

  /// Encodes the flat form, the counters beside `file` and `format`.
  ///
  /// - Complexity: O(*r*), where *r* is the number of ignored reasons.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(file, forKey: .file)
    try container.encode(format, forKey: .format)
    try rows.encode(to: encoder)
    try container.encode(ignoredByReason, forKey: .ignoredByReason)
  }
}

/// One user's exports, read, merged and normalized: the sessions every chart counts, and what
/// happened to every row.
public struct UserIngest: Sendable {
  /// Sessions ordered by start (then key), each holding only its counted sets.
  public var sessions: [Session]
  public var files: [FileAccounting]
  /// Every row not accepted exactly as written, file by file in the order read (SPEC 10.4).
  public var notes: [RowNote]
  /// Exercises found neither in the catalog nor with set-level muscle groups, with the
  /// number of distinct sessions they appear in.
  public var unmappedExercises: [String: Int]
  /// The units the exports stated, counted over the sets kept: where `users.csv` gives the user
  /// no unit, the one stated for most sets is the one they read (SPEC 10.8).
  public var statedUnits: UnitTally
  /// The zone the exports state (SPEC 11.9), the one stated by the files holding most of the
  /// accepted sets; nil when none states one or two zones tie. Where `users.csv` gives the user
  /// no zone, it is the user's: their calendar, and the zone every file that states none is read in.
  public var statedTimeZone: TimeZone?
  /// For each session, how many personal records it set (`RecordBook`'s count over these
  /// sessions, which depends on no as-of: a session's records are decided by the sessions
  /// before it). Worked out once by the runner and kept in the session cache, so that neither
  /// a night served from the cache nor each as-of of a backfill works it out again; nil until
  /// then.
  public var newRecords: [Int]?

  public init(
    sessions: [Session] = [], files: [FileAccounting] = [], notes: [RowNote] = [],
    unmappedExercises: [String: Int] = [:], statedUnits: UnitTally = UnitTally()
  ) {
    self.sessions = sessions
    self.files = files
    self.notes = notes
    self.unmappedExercises = unmappedExercises
    self.statedUnits = statedUnits
  }
}

/// Merges a user's export files into one history (SPEC 3 and 9.3).
///
/// Exports are snapshots of one history and overlap. A session found in several files is
/// taken whole from the most recent export — the file whose latest session is newest, ties
/// going to the file name that sorts last — and its rows elsewhere count as duplicates. Sets
/// are never matched across files one by one, because apps renumber sets between exports.
public enum Normalize {
  /// - Complexity: O(*n* log *n*), where *n* is the number of sets read.
  public static func merge(
    _ files: [FileIngest], lookup: ExerciseLookup, warmupSets: WarmupPolicy = .exclude
  ) -> UserIngest {
    // Rank files: newest latest session first, then the name that sorts last (byte order).
    let latest = files.map { $0.sets.latestStart ?? Int64.min }
    let ranked = files.indices.sorted { a, b in
      if latest[a] != latest[b] { return latest[a] > latest[b] }
      return files[b].file.utf8.lexicographicallyPrecedes(files[a].file.utf8)
    }
    // Sets of one session follow each other in every export, so the work below is done once
    // per run of equal keys, not per set. Each session's owning file, and the line its kept
    // copy starts on (for the duplicates' reasons, so that finding it is not a search of the
    // owning file per duplicate session).
    var owner: [String: (file: Int, line: Int)] = [:]
    for fileIndex in ranked {
      files[fileIndex].sets.forEachSessionRun { key, run in
        if owner[key] == nil { owner[key] = (fileIndex, files[fileIndex].sets.line(run.lowerBound)) }
      }
    }

    var accounting: [FileAccounting] = []
    var notes: [RowNote] = []
    // Where each kept session's sets are: runs in the owning file, never copies of the sets.
    var bySession: [String: [(file: Int, range: Range<Int>)]] = [:]
    var sessionOrder: [String] = []
    for (fileIndex, file) in files.enumerated() {
      // The file's own counts, which the merge can only move from accepted to duplicate.
      var rows = file.rows
      // A row that turns out a duplicate is that and nothing else: a repair or a dropped value
      // noted when it was read is withdrawn. Only files with such notes pay for looking.
      let notesAccepted = file.notes.contains { $0.outcome == .repaired || $0.outcome == .valueDropped }
      // Lines of the notes to withdraw: repairs by the row's line, dropped values by the note's
      // own line, as many times as duplicate sets carried one.
      var repairedLines = Set<Int>()
      var droppedLines: [Int: Int] = [:]
      let firstNote = notes.count
      notes += file.notes
      file.sets.forEachSessionRun { key, run in
        let kept = owner[key]!
        if kept.file == fileIndex {
          if bySession[key] == nil { sessionOrder.append(key) }
          bySession[key, default: []].append((fileIndex, run))
          return
        }
        // The session is taken whole from a newer export: each of its rows here is listed
        // with where the kept copy starts.
        let reason =
          "the session is taken whole from \(files[kept.file].file)\(kept.line > 0 ? " (line \(kept.line))" : ""), "
          + "the newer export"
        for position in run where !file.sets.kind(of: position).sharesRowWithPrevious {
          let line = file.sets.line(position)
          rows.duplicate += 1
          if notesAccepted {
            repairedLines.insert(line)
            if let line = file.sets.droppedValueLines[position] { droppedLines[Int(line), default: 0] += 1 }
          }
          notes.append(
            RowNote(file: file.file, line: line, column: 1, field: "", outcome: .duplicate, reason: reason))
        }
      }
      if !repairedLines.isEmpty {
        var kept = Array(notes[..<firstNote])
        for note in notes[firstNote...] {
          if note.outcome == .repaired && repairedLines.contains(note.line) {
            rows.repaired -= 1
          } else if note.outcome == .valueDropped, let left = droppedLines[note.line], left > 0 {
            droppedLines[note.line] = left - 1
            rows.valueDropped -= 1
          } else {
            kept.append(note)
          }
        }
        notes = kept
      }
      rows.accepted = rows.read - rows.rejected - rows.duplicate - rows.ignored
      accounting.append(
        FileAccounting(file: file.file, format: file.format.rawValue, rows: rows, ignoredByReason: file.ignored))
    }

    var names: [String: (display: String, ids: [Int]?)] = [:]
    // The user's exercises, each once, shared by every session: a set holds an index here.
    var exercises: [TrainedExercise] = []
    var exerciseIndex: [TrainedExercise: Int32] = [:]
    // Each file's kinds by their index there: a kind's exercise is hashed and looked up once,
    // not once per block (a user's blocks are thousands, their kinds a few hundred).
    var resolved = files.map { [Int32?](repeating: nil, count: $0.sets.kinds.count) }
    var built: [(key: String, start: Int64, duration: Int64?, name: String, sets: [TrainedSet])] = []
    var unmapped: [String: Int] = [:]
    var stated = UnitTally()
    built.reserveCapacity(sessionOrder.count)
    for key in sessionOrder {
      let runs = bySession[key]!
      let first = files[runs[0].file].sets.session(of: runs[0].range.lowerBound)
      var counted: [TrainedSet] = []
      counted.reserveCapacity(runs.reduce(0) { $0 + $1.range.count })
      // Unmapped exercises by index: an unmapped name has one entry (no muscle groups).
      var unmappedHere = Set<Int32>()
      // The kind of the last set, by its place in its file's table, and what it resolved to:
      // a block's sets share one, so a kind is read and its name resolved once per block, and
      // a set on its own costs its record (reading the kind per set retained its strings).
      var last: (file: Int, kind: Int32)?
      var kindStated = StatedUnits()
      var type = SetType.normal
      var exercise: Int32 = 0
      var duration: Int64?
      for (fileIndex, range) in runs {
        let sets = files[fileIndex].sets
        for record in sets.records[range] {
          if duration == nil { duration = sets.sessions[Int(record.session)].durationSeconds }
          if last?.file != fileIndex || last?.kind != record.kind {
            last = (fileIndex, record.kind)
            let kind = sets.kinds[Int(record.kind)]
            kindStated = kind.stated
            type = kind.type
            if let found = resolved[fileIndex][Int(record.kind)] {
              exercise = found
            } else {
              let known: (display: String, ids: [Int]?)
              if let found = names[kind.exercise] {
                known = found
              } else {
                let entry = lookup.find(kind.exercise)
                known = (entry?.name ?? kind.exercise, entry?.muscleGroupIds)
                names[kind.exercise] = known
              }
              // Ids the file states win over the catalog; muscles it names only fill in for an
              // exercise the catalog lacks (Liftosaur's target muscles, SPEC 11.3).
              let ids =
                kind.muscleGroupIds ?? known.ids ?? kind.muscleNames.flatMap { lookup.muscleGroupIds(named: $0) }
              let entry = TrainedExercise(name: known.display, muscleGroupIds: ids ?? [], isUnmapped: ids == nil)
              if let found = exerciseIndex[entry] {
                exercise = found
              } else {
                // At most one exercise per kind, and a file's kinds fit Int32 (`FileSets`' records).
                exercise = Int32(exercises.count)
                exerciseIndex[entry] = exercise
                exercises.append(entry)
              }
              resolved[fileIndex][Int(record.kind)] = exercise
            }
            if exercises[Int(exercise)].isUnmapped && (warmupSets == .include || type != .warmup) {
              unmappedHere.insert(exercise)
            }
          }
          stated.count(kindStated)
          guard warmupSets == .include || type != .warmup else { continue }
          counted.append(
            TrainedSet(
              exercise: exercise, type: type, weightKg: record.weightKg, reps: record.reps,
              distanceMeters: record.distanceMeters, seconds: record.seconds))
        }
      }
      for index in unmappedHere { unmapped[exercises[Int(index)].name, default: 0] += 1 }
      built.append((key, first.start, duration, first.name, counted))
    }
    // Sessions are made once the table is whole, all with the one array: a session given the
    // table while it grew would make each later addition copy it.
    var sessions = built.map {
      Session(
        key: $0.key, start: $0.start, durationSeconds: $0.duration, name: $0.name, exercises: exercises, sets: $0.sets)
    }
    sessions.sort { $0.start != $1.start ? $0.start < $1.start : $0.key < $1.key }

    return UserIngest(
      sessions: sessions, files: accounting, notes: notes,
      unmappedExercises: unmapped, statedUnits: stated)
  }
}
