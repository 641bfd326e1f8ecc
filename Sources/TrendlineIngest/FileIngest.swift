import Foundation
import TrendlineSchema
import TrendlineSupport

/// How a user's exports are read: the unit and zone to assume where a file does not say.
///
/// A unit or zone stated by the file itself wins over these (SPEC 9.4); these come from
/// `users.csv`, which wins over the pipeline's defaults.
public struct ReadSettings: Sendable, Equatable {
  public var timeZone: TimeZone
  public var weightUnit: WeightUnit
  public var distanceUnit: DistanceUnit
  /// How to read `nn/nn/yy` dates (StrongLifts, GymBook); nil: inferred from each file.
  public var dateOrder: DateOrder?

  public init(
    timeZone: TimeZone = TimeZone(identifier: "UTC")!, weightUnit: WeightUnit = .kilograms,
    distanceUnit: DistanceUnit = .kilometers, dateOrder: DateOrder? = nil
  ) {
    self.timeZone = timeZone
    self.weightUnit = weightUnit
    self.distanceUnit = distanceUnit
    self.dateOrder = dateOrder
  }
}

/// The bounds on what one input file may cost, from `source.limits` (SPEC 2; RELIABILITY.md).
///
/// Each is checked where it is cheapest: the file's size before it is read, a field's size
/// and a record's field count while scanning, JSON nesting while parsing. The messages name
/// the `source.limits` key that raises each one.
public struct ReadLimits: Sendable, Equatable {
  /// An empirically generous default: the largest real export we know of (ten years of
  /// Strong logging) is under 20 MB.
  public static let defaultMaxFileBytes = 256 << 20
  /// The largest `source.limits.maxFileMB`: under 2 GiB, so that every line number of a
  /// file fits in the 32 bits ``FileSets`` keeps of it.
  public static let largestFileMB = 2047
  /// At most ``largestFileMB`` MiB: a larger value is taken as that, so that no file's line
  /// numbers outgrow what is kept of them.
  public var maxFileBytes: Int {
    didSet { maxFileBytes = min(maxFileBytes, ReadLimits.largestFileMB << 20) }
  }
  /// The longest CSV field; a longer one makes its record malformed.
  public var maxFieldBytes: Int
  /// The most columns in a CSV header, and the most fields in one record. Real exports have
  /// 10–20.
  public var maxColumns: Int
  /// The deepest JSON nesting; real exports nest 4–6 levels.
  public var maxJSONDepth: Int
  /// The most export files in one user's folder. Files are read one at a time, but every
  /// set of every file is kept, so a folder of a million small files was memory and hours for
  /// one user; a person's exports are a few, a backfill a few hundred.
  public var maxFilesPerUser = 1000
  /// The share of one file's rows that may be rejected before its user fails (SPEC 11.2):
  /// a file mostly unreadable (dates in a language not read, another app's columns) would
  /// otherwise draw months of rest that never happened under exit 0. 0 fails on any
  /// rejected row, as `--strict` does; 1 never fails.
  public var maxRejectedShare = RejectedShare.defaultLimit

  public init(
    maxFileBytes: Int = ReadLimits.defaultMaxFileBytes, maxFieldBytes: Int = 1 << 20, maxColumns: Int = 1000,
    maxJSONDepth: Int = JSONReader.defaultMaxDepth
  ) {
    precondition(maxFileBytes > 0 && maxFieldBytes > 0 && maxColumns > 0 && maxJSONDepth > 0, "limits are positive")
    self.maxFileBytes = min(maxFileBytes, ReadLimits.largestFileMB << 20)
    self.maxFieldBytes = maxFieldBytes
    self.maxColumns = maxColumns
    self.maxJSONDepth = maxJSONDepth
  }

  /// The error for a user folder of `count` files over ``maxFilesPerUser``.
  public func tooManyFiles(_ folder: String, count: Int) -> ExportError {
    ExportError(
      file: folder,
      message:
        "the folder holds \(count) export files, over the limit of \(maxFilesPerUser); "
        + "raise source.limits.maxFilesPerUser to read them"
    )
  }

  /// The error for a file of `size` bytes over ``maxFileBytes``.
  public func fileTooLarge(_ file: String, size: Int) -> ExportError {
    let megabytes = Double(size) / Double(1 << 20)
    let shown = megabytes < 10 ? String(format: "%.1f", megabytes) : String(Int(megabytes.rounded()))
    return ExportError(
      file: file,
      message:
        "the file is \(shown) MB, over the limit of \(maxFileBytes >> 20) MB; raise source.limits.maxFileMB to read it")
  }
}

/// One set as a format reader accepted it: values in kilograms, metres and seconds, the
/// session it belongs to, and the line it came from.
public struct ExportSet: Sendable, Equatable {
  /// The 1-based line of the row; 0 for a native JSON set, whose position is looked up only
  /// when it is rejected (finding it walks the document, which per set would be quadratic).
  public var line = 0
  /// The session key: the same workout gives the same key in every export of it, whatever
  /// the variant (it is built from the start instant and the name, never from raw text).
  public var sessionKey = ""
  public var sessionName = ""
  public var start: Int64 = 0
  /// The workout's length, when the format records one.
  public var durationSeconds: Int64?
  /// The exercise name, trimmed and in Unicode NFC.
  public var exercise = ""
  /// Muscle groups stated by the export itself (native formats), else nil.
  public var muscleGroupIds: [Int]?
  /// Muscle groups the export names for the exercise, by the catalog's group names
  /// (Liftosaur's target muscles), else nil. Unlike ``muscleGroupIds`` they do not override the
  /// catalog: the merge uses them only for an exercise the catalog lacks, resolving each name
  /// in the run's catalog (a reader does not know which catalog that is).
  public var muscleNames: [String]?
  /// The set's number within its exercise block, when the format writes one (SPEC 10.5).
  public var setIndex: Int?
  /// The set comes from the same row as the set before it: a StrongLifts row is a whole
  /// workout. Rows, not sets, are what the accounting counts.
  public var sharesRowWithPrevious = false
  /// The line of the `value-dropped` note this set's row got, 0 when none: a native JSON
  /// session's note sits at its `durationSeconds`, not at a line of the set's own. The merge
  /// withdraws the note if the set turns out a duplicate.
  public var droppedValueLine: Int32 = 0
  public var type = SetType.normal
  public var weightKg = 0.0
  public var reps = 0.0
  public var distanceMeters = 0.0
  public var seconds = 0.0
  /// The units the export stated for this set, for the units the user reads (SPEC 10.8).
  public var stated = StatedUnits()

  public init(
    line: Int, sessionKey: String, sessionName: String, start: Int64, durationSeconds: Int64?,
    exercise: String, muscleGroupIds: [Int]? = nil, setIndex: Int?, type: SetType,
    weightKg: Double, reps: Double, distanceMeters: Double = 0, seconds: Double = 0,
    stated: StatedUnits = StatedUnits()
  ) {
    assign(
      line: line, sessionKey: sessionKey, sessionName: sessionName, start: start, durationSeconds: durationSeconds,
      exercise: exercise, setIndex: setIndex, type: type, weightKg: weightKg, reps: reps,
      distanceMeters: distanceMeters, seconds: seconds, stated: stated)
    self.muscleGroupIds = muscleGroupIds
  }

  /// A set with no values yet, for a reader to refill with ``assign``.
  init() {}

  /// Makes this the set given, field for field, as the initializer does (with no stated muscle
  /// groups), for a reader that refills one set row after row.
  ///
  /// A string already held is not assigned again: the readers hand out one `String` for as
  /// long as a column repeats it, so that comparison is of two pointers, and a row costs no
  /// reference counting for the workout and exercise it repeats.
  mutating func assign(
    line: Int, sessionKey: String, sessionName: String, start: Int64, durationSeconds: Int64?,
    exercise: String, setIndex: Int?, type: SetType, weightKg: Double, reps: Double,
    distanceMeters: Double = 0, seconds: Double = 0, stated: StatedUnits = StatedUnits()
  ) {
    self.line = line
    if self.sessionKey != sessionKey { self.sessionKey = sessionKey }
    if self.sessionName != sessionName { self.sessionName = sessionName }
    if self.exercise != exercise { self.exercise = exercise }
    self.start = start
    self.durationSeconds = durationSeconds
    self.setIndex = setIndex
    self.type = type
    self.weightKg = weightKg
    self.reps = reps
    self.distanceMeters = distanceMeters
    self.seconds = seconds
    self.stated = stated
    muscleGroupIds = nil
    muscleNames = nil
    sharesRowWithPrevious = false
    droppedValueLine = 0
  }
}

/// A row that was not accepted exactly as written, with where and why (SPEC 10.4): a line of
/// the user's `row-outcomes.csv`, so that every such row can be found by file and line.
public struct RowNote: Sendable, Equatable, CustomStringConvertible {
  /// What became of the row. Rejected, duplicate and ignored rows are not sets; repaired rows
  /// and rows with a value dropped are accepted sets, counted also as accepted.
  public enum Outcome: String, Sendable, Codable, CaseIterable {
    case rejected
    /// Repeats a set already read: the same set of the same exercise block in one file, or a
    /// session taken whole from a newer export. The reason names what it repeats.
    case duplicate
    /// Not a set: a pseudo-row, a skipped set, a workout with no set.
    case ignored
    /// Read only after repairing a known exporter bug.
    case repaired
    /// Accepted with one value dropped as impossible (a workout timer left running), which
    /// becomes unknown rather than a guess.
    case valueDropped = "value-dropped"
  }

  public var file: String
  /// The 1-based line of the row; 0 for a native JSON set, which has no line of its own.
  public var line = 0
  /// The 1-based byte column of the field at fault on its line.
  public var column: Int
  /// The column's name in the file's header, or empty when the whole record is meant.
  public var field: String
  public var outcome: Outcome
  public var reason: String

  public init(file: String, line: Int, column: Int, field: String, outcome: Outcome = .rejected, reason: String) {
    self.file = file
    self.line = line
    self.column = column
    self.field = field
    self.outcome = outcome
    self.reason = reason
  }

  /// `file:line:column: error:` for a rejected row, `note:` with the outcome for the others.
  public var description: String {
    let text = (field.isEmpty ? "" : "\(field): ") + reason
    let location = SourceLocation(file: file, line: line, column: column)
    if outcome == .rejected { return Diagnostic(.error, at: location, text).description }
    return Diagnostic(.note, at: location, "\(outcome.rawValue): " + text).description
  }
}

/// What reading one export file produced, before its sets meet the user's other exports.
///
/// Every row read is in exactly one of accepted (its sets in `sets`), rejected, duplicate or
/// ignored, so `rows.read == rows.accepted + rows.rejected + rows.duplicate + rows.ignored` holds
/// here; the merge of a user's files may later move some accepted rows to duplicates. Every
/// row not accepted exactly as written is in `notes`, except blank lines, which are only
/// counted.
public struct FileIngest: Sendable {
  public var file: String
  public var format: ExportFormat
  /// The accepted sets, in the order read.
  public internal(set) var sets = FileSets()
  /// The rows not accepted as written, in the order read.
  public var notes: [RowNote] = []
  /// What became of the file's rows as read (``RowCounts``, the one home of row counters):
  /// `accepted` is what the others leave, rows whose sets are in `sets` (a StrongLifts row holds
  /// a whole workout, so rows and sets differ there); a duplicate here repeats a set of this
  /// file (SPEC 10.5), and the merge of a user's files may later move accepted rows to
  /// duplicates.
  public var rows: RowCounts {
    var rows = counts
    rows.accepted = rows.read - rows.rejected - rows.duplicate - rows.ignored
    return rows
  }
  /// The counts as the readers keep them, all but `accepted` (which ``rows`` works out).
  var counts = RowCounts()
  /// Rows that are not sets, counted by reason (blank lines, Strong's `Rest Timer` rows, …);
  /// their sum is `rows.ignored`.
  public internal(set) var ignored: [String: Int] = [:]
  /// The zone the file itself states (a native file's `timeZone`), which read its wall times;
  /// nil when it states none.
  public var statedTimeZone: TimeZone?

  public init(file: String, format: ExportFormat) {
    self.file = file
    self.format = format
  }

  /// The rejected rows listed (every one, up to ``maximumListedRows`` notes), for messages
  /// and tests; `rows.rejected` counts them all.
  public var rejects: [RowNote] { notes.filter { $0.outcome == .rejected } }

  /// Counts a blank line, which is not listed.
  mutating func ignoreBlankLine() {
    ignored["blank line", default: 0] += 1
    counts.ignored += 1
  }

  /// The most rows one file lists in `notes` (SPEC 11.6). Past it, rows are counted as ever but
  /// not listed one by one: one note per outcome says from which line on. A file of a million
  /// malformed rows took 344 bytes a row (a 4 MB export peaked at 728 MB and wrote a 149 MB
  /// `row-outcomes.csv`); every count, in the manifest and the tables, still has every row.
  public static let maximumListedRows = 10_000

  /// Outcomes whose rows are no longer listed, once the file has listed the most it may.
  private var unlisted: Set<RowNote.Outcome> = []

  /// Counts a row under `outcome` and lists it (SPEC 10.4), up to ``maximumListedRows``.
  mutating func note(_ outcome: RowNote.Outcome, line: Int, column: Int, field: String, reason: String) {
    switch outcome {
    case .rejected: counts.rejected += 1
    case .duplicate: counts.duplicate += 1
    case .ignored:
      ignored[reason, default: 0] += 1
      counts.ignored += 1
    case .repaired: counts.repaired += 1
    case .valueDropped: counts.valueDropped += 1
    }
    if notes.count < Self.maximumListedRows {
      notes.append(RowNote(file: file, line: line, column: column, field: field, outcome: outcome, reason: reason))
    } else if !unlisted.contains(outcome) {
      unlisted.insert(outcome)
      notes.append(
        RowNote(
          file: file, line: line, column: 1, field: "", outcome: outcome,
          reason:
            "this row and the file's later \(outcome.rawValue) rows are counted (the manifest has every count) "
            + "but not listed: a file lists at most \(Self.maximumListedRows) rows; the first is \(reason)"))
    }
  }
}

/// An export that cannot be read at all: not a known format, empty, or not text. It fails
/// the user (other users go on), naming the file and what to do.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
  public var file: String
  public var line = 0
  public var column: Int
  public var message: String

  public init(file: String, line: Int = 1, column: Int = 1, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  public var description: String {
    Diagnostic(.error, at: SourceLocation(file: file, line: line, column: column), message).description
  }
}
