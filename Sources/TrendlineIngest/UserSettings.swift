import Foundation
import TrendlineSchema
import TrendlineSupport

/// A user's settings: how to read their exports and lay out their calendar.
public struct UserSettings: Sendable, Equatable {
  public var read: ReadSettings
  public var firstWeekday: Weekday
  /// The weight unit the user's row of `users.csv` names; nil when the cell is blank (or there
  /// is no row), so that the pipeline's default in `read` is not mistaken for the user's word.
  public var listedWeightUnit: WeightUnit?
  /// The distance unit the user's row of `users.csv` names; nil when the cell is blank.
  public var listedDistanceUnit: DistanceUnit?
  /// The zone the user's row of `users.csv` names; nil when the cell is blank, and the zone the
  /// exports state, if any, is the user's (SPEC 11.9).
  public var listedTimeZone: TimeZone?

  public init(
    read: ReadSettings = ReadSettings(), firstWeekday: Weekday = .monday, listedWeightUnit: WeightUnit? = nil,
    listedDistanceUnit: DistanceUnit? = nil
  ) {
    self.read = read
    self.firstWeekday = firstWeekday
    self.listedWeightUnit = listedWeightUnit
    self.listedDistanceUnit = listedDistanceUnit
  }

  /// The calendar every stage works in for this user.
  public var calendar: UserCalendar {
    UserCalendar(timeZone: read.timeZone, firstWeekday: firstWeekday)
  }

  /// These settings with the user's zone settled (SPEC 11.9): the one their row of `users.csv`
  /// names; else the one their exports state (``UserIngest/statedTimeZone``); else the
  /// pipeline's `source.defaults`. A native export saying Europe/Berlin under a blank cell
  /// made a page in UTC whose weeks started at UTC midnight.
  ///
  /// - Complexity: O(1).
  public func settlingZone(statedIn ingest: UserIngest) -> UserSettings {
    guard listedTimeZone == nil, let stated = ingest.statedTimeZone else { return self }
    var settled = self
    settled.read.timeZone = stated
    return settled
  }

  /// The units the user reads (SPEC 10.8), weight and distance each decided on its own: the
  /// unit their row of `users.csv` names; else the one their exports stated for most of their
  /// sets (``UnitTally``); else, with none stated or a tie, the pipeline's `source.defaults`.
  ///
  /// `users.csv` comes first although a file's unit wins when *reading* a value (SPEC 9.4):
  /// a file states how one number was written, the row says how the person wants to read them
  /// all, and it is the one place an operator can correct a guess.
  ///
  /// - Complexity: O(1).
  public func units(stated: UnitTally) -> Units {
    Units(
      weight: listedWeightUnit?.shown ?? stated.weight ?? read.weightUnit.shown,
      distance: listedDistanceUnit?.shown ?? stated.distance ?? read.distanceUnit.shown)
  }
}

/// `users.csv` at the top of the input folder: per-user settings, header
/// `user,timeZone,weightUnit,distanceUnit,firstWeekday,dateOrder`, every column optional (any
/// other column is allowed, and read only when `compare.groupBy` names it), a blank cell
/// falling back to the pipeline's `source.defaults` (SPEC 2 and 9.14).
///
/// Values are checked when a user is run, not when the file is read: an unknown zone fails
/// that user alone, with the value and the line, and every other user goes on.
public struct UsersFile: Sendable {
  public struct Row: Sendable, Equatable {
    /// The table the row is in: `users.csv`, or a partition's `0a3/users.csv`.
    public var file: String
    public var line: Int
    public var timeZone: String
    public var weightUnit: String
    public var distanceUnit: String
    public var firstWeekday: String
    public var dateOrder: String
    /// The cell of the `compare.groupBy` column, trimmed; empty without one, or when blank.
    public var group: String = ""
  }

  /// The most bytes a segment value may have: it is a label and a JSON key, not a document.
  public static let maxGroupBytes = 64
  /// The most segments a `compare.groupBy` column may hold: each is a cohort of its own, and
  /// a column of ids (one segment per user) is a mistake to report, not a thousand cohorts.
  public static let maxGroups = 100

  public let file: String
  public private(set) var rows: [String: Row] = [:]
  /// Lines that could not be read at all (malformed CSV, a header without `user`): whose
  /// settings they held is unknown, so a run stops on the first (``Runner``) rather than
  /// run someone in the wrong zone.
  public private(set) var problems: [ExportError] = []
  /// Users listed on more than one line, with every line: which row is meant cannot be
  /// guessed, so such a user fails with the lines named, and the others go on.
  public private(set) var repeated: [String: [Int]] = [:]
  /// The distinct segments of the `compare.groupBy` column, up to one more than ``maxGroups``.
  private var segments: Set<String> = []

  /// An empty table, for an input folder without `users.csv`.
  public init() { file = InputLayout.settingsFileName }

  /// Reads `users.csv` from bytes.
  ///
  /// - Complexity: O(*n*), where *n* is the file's size in bytes.
  /// `groupBy` names the column whose cells are the users' segments (`compare.groupBy`): the
  /// header must have it, each cell is at most ``maxGroupBytes`` bytes of text without control
  /// characters, and the column holds at most ``maxGroups`` values; otherwise ``problems`` says
  /// which line or what to do.
  ///
  /// `keeping` names the users whose rows are kept (a shard's); every line is still read and
  /// checked, so each shard of a run stops, or goes on, on the same table, while its memory
  /// follows its own users rather than the whole input's.
  ///
  /// `partition` is the partition whose `users.csv` this is, in a partitioned input
  /// (``UserLayout``): a row of a user of another partition is a problem, not a row that no
  /// user ever reads while that user runs on the defaults.
  public init(
    bytes: [UInt8], file: String = InputLayout.settingsFileName, groupBy: String? = nil,
    keeping: (@Sendable (String) -> Bool)? = nil, partition: Int? = nil
  ) {
    self.file = file
    let reader = CSVReader(bytes: bytes)
    guard case .record = reader.next() else { return }
    let header = (0..<reader.fieldCount).map { reader.string($0).trimmingCharacters(in: .whitespaces) }
    func column(_ name: String) -> Int? { header.firstIndex { $0.lowercased() == name.lowercased() } }
    guard let user = column("user") else {
      problems.append(
        ExportError(
          file: file,
          message: "the header has no 'user' column; the first line names the columns, such as user,timeZone"))
      return
    }
    // A row per line, about: growing the table a row at a time rehashed it a dozen times for
    // thousands of users, before any user could start.
    if keeping == nil { rows.reserveCapacity(bytes.reduce(0) { $0 + ($1 == ASCII.newline ? 1 : 0) }) }
    let zone = column("timeZone")
    let weight = column("weightUnit")
    let distance = column("distanceUnit")
    let weekday = column("firstWeekday")
    let dateOrder = column("dateOrder")
    let group = groupBy.flatMap(column)
    if let groupBy, group == nil {
      problems.append(
        ExportError(
          file: file,
          message: "the header has no '\(TerminalText.escaped(groupBy))' column, which compare.groupBy names; "
            + "add it (a blank cell puts a user in the \"unknown\" segment) or change compare.groupBy"))
      return
    }
    while true {
      switch reader.next() {
      case .end:
        // A partition's table is one of many: the segments are counted over all of them.
        if partition == nil { checkSegmentCount(groupBy: groupBy) }
        return
      case .blankLine: continue
      case .malformed(let bad):
        problems.append(
          ExportError(
            file: file, line: bad.line, column: bad.column, message: bad.message + "; fix the line and run again"))
      case .record(let line):
        func value(_ index: Int?) -> String {
          guard let index, index < reader.fieldCount else { return "" }
          return reader.string(index).trimmingCharacters(in: .whitespaces)
        }
        let id = value(user)
        // A row without a user (a spreadsheet's trailing `,,,,`) is no one's, in any layout.
        if let partition, !id.isEmpty, UserLayout.partition(of: id) != partition {
          problems.append(
            ExportError(
              file: file, line: line,
              message: "user '\(TerminalText.escaped(id))' belongs to partition "
                + "\(UserLayout.partitionName(UserLayout.partition(of: id))); move the row to its users.csv"))
          continue
        }
        // Every line's segment is checked and counted before anything depends on whose it is,
        // so that every shard, keeping its own users' rows, stops or goes on as one.
        let segment = value(group)
        if segment.utf8.count > Self.maxGroupBytes
          || segment.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
          problems.append(
            ExportError(
              file: file, line: line,
              message: "the segment '\(TerminalText.escaped(String(segment.prefix(Self.maxGroupBytes))))' is longer "
                + "than \(Self.maxGroupBytes) bytes or holds a control character; shorten it"))
          continue
        }
        // Counted to one past the bound, whichever users are kept: a column of ids is refused
        // without holding every id.
        if !segment.isEmpty, segments.count <= Self.maxGroups { segments.insert(segment) }
        guard keeping?(id) ?? true else { continue }
        if let first = rows[id] {
          repeated[id, default: [first.line]].append(line)
          continue
        }
        rows[id] = Row(
          file: file, line: line, timeZone: value(zone), weightUnit: value(weight), distanceUnit: value(distance),
          firstWeekday: value(weekday), dateOrder: value(dateOrder), group: segment)
      }
    }
  }

  /// Adds the rows of `other`, a table of other users (another partition's); its segments
  /// count with this table's (``checkSegmentCount(groupBy:)``).
  public mutating func add(_ other: UsersFile) {
    rows.merge(other.rows) { mine, _ in mine }
    problems += other.problems
    repeated.merge(other.repeated) { mine, _ in mine }
    for segment in other.segments where segments.count <= Self.maxGroups { segments.insert(segment) }
  }

  /// Adds a problem when the `compare.groupBy` column holds more than ``maxGroups`` values:
  /// a table read whole checks itself; partitions' tables are checked once all are added.
  public mutating func checkSegmentCount(groupBy: String?) {
    guard segments.count > Self.maxGroups else { return }
    problems.append(
      ExportError(
        file: file,
        message: "the '\(TerminalText.escaped(groupBy ?? ""))' column holds more values than "
          + "the \(Self.maxGroups) segments compare.groupBy allows; group by a coarser column"))
  }

  /// The settings of user `id`: this file's values over `defaults`.
  ///
  /// - Throws: ``ExportError`` naming the value and the line when a value is not known.
  public func settings(for id: String, defaults: UserSettings) throws(ExportError) -> UserSettings {
    var settings = defaults
    guard let row = rows[id] else { return settings }
    if let lines = repeated[id] {
      throw ExportError(
        file: row.file, line: lines[1],
        message:
          "user '\(id)' is listed on lines \(lines.map(String.init).joined(separator: ", ")); "
          + "keep one row for each user"
      )
    }
    func fail(_ message: String) -> ExportError { ExportError(file: row.file, line: row.line, message: message) }
    if !row.timeZone.isEmpty {
      guard let zone = TimeZone(identifier: row.timeZone) else {
        throw fail("unknown time zone '\(row.timeZone)' for user '\(id)'; use an IANA name such as Europe/Oslo")
      }
      settings.read.timeZone = zone
      settings.listedTimeZone = zone
    }
    if !row.weightUnit.isEmpty {
      guard let unit = WeightUnit(spelling: row.weightUnit) else {
        throw fail("unknown weight unit '\(row.weightUnit)' for user '\(id)'; use kg or lb")
      }
      settings.read.weightUnit = unit
      settings.listedWeightUnit = unit
    }
    if !row.distanceUnit.isEmpty {
      guard let unit = DistanceUnit(spelling: row.distanceUnit) else {
        throw fail("unknown distance unit '\(row.distanceUnit)' for user '\(id)'; use km, mi or m")
      }
      settings.read.distanceUnit = unit
      settings.listedDistanceUnit = unit
    }
    if !row.firstWeekday.isEmpty {
      guard let day = Weekday(name: row.firstWeekday) else {
        throw fail("unknown firstWeekday '\(row.firstWeekday)' for user '\(id)'; use a weekday name such as monday")
      }
      settings.firstWeekday = day
    }
    if !row.dateOrder.isEmpty {
      guard let order = DateOrder(rawValue: row.dateOrder.lowercased()) else {
        throw fail("unknown dateOrder '\(row.dateOrder)' for user '\(id)'; use day-first or month-first")
      }
      settings.read.dateOrder = order
    }
    return settings
  }
}

/// Reads all of one user's exports and merges them: the per-user half of ingest.
public enum UserReader {
  /// What to read and how, shared by every user of a run.
  public struct Options: Sendable {
    public var format: ExportReader.FormatChoice
    public var layout: MappedCSVLayout?
    public var lookup: ExerciseLookup
    public var warmupSets: WarmupPolicy
    public var limits: ReadLimits

    public init(
      format: ExportReader.FormatChoice = .auto, layout: MappedCSVLayout? = nil, lookup: ExerciseLookup,
      warmupSets: WarmupPolicy = .exclude, limits: ReadLimits = ReadLimits()
    ) {
      self.format = format
      self.layout = layout
      self.lookup = lookup
      self.warmupSets = warmupSets
      self.limits = limits
    }
  }

  /// Reads every file of `user` and merges them into sessions.
  ///
  /// Files are read one at a time and only their sets are kept, so memory follows the
  /// user's history, not the size of the exports; the largest is read first, so its bytes are
  /// never held beside another file's sets. What the read gives, and which file a failure
  /// names, is as reading in name order gives it.
  ///
  /// - Throws: ``ExportError`` when a file cannot be read at all; the user fails.
  /// - Complexity: O(*n* log *n*), where *n* is the number of rows.
  public static func read(_ user: UserInput, settings: UserSettings, options: Options) throws(ExportError)
    -> (ingest: UserIngest, inputs: [InputFile])
  {
    var reached: [(name: String, content: String)] = []
    return try read(user, settings: settings, options: options, reached: &reached)
  }

  /// ``read(_:settings:options:)``, telling in `reached` what each file it got to held (its
  /// ``ContentHash``, or ``InputFile/content(failing:)``) even when it throws: what a run was
  /// computed from, so a failure that passes (a read timed out on a network share) is redone.
  ///
  /// Where `users.csv` gives the user no zone and their exports state one (SPEC 11.9), that
  /// zone is the user's: a file that states none, read first in the default zone, is read
  /// again in it. Only a user with a native export beside another app's pays the second read.
  public static func read(
    _ user: UserInput, settings: UserSettings, options: Options, reached: inout [(name: String, content: String)]
  ) throws(ExportError) -> (ingest: UserIngest, inputs: [InputFile]) {
    // Read largest first (``UserInput/readingOrder()``), kept and reported in name order. A
    // failing user costs more than in name order: the files larger than the broken one are
    // read before it.
    var parsed: [(file: FileIngest, input: InputFile)?] = Array(repeating: nil, count: user.files.count)
    var held: [[(name: String, content: String)]] = Array(repeating: [], count: user.files.count)
    for index in user.readingOrder() {
      do throws(ExportError) {
        parsed[index] = try readFile(
          at: index, of: user, settings: settings.read, options: options, reached: &held[index])
      } catch {
        // The user fails as a read in name order would have: on the first file in that order
        // that fails, having reached the files before it and none after.
        for earlier in 0..<index where parsed[earlier] == nil {
          do throws(ExportError) {
            parsed[earlier] = try readFile(
              at: earlier, of: user, settings: settings.read, options: options, reached: &held[earlier])
          } catch {
            reached += held[...earlier].joined()
            throw error
          }
        }
        reached += held[...index].joined()
        throw error
      }
    }
    reached += held.joined()
    // Every slot is filled: a file that failed threw above. Emptied once copied, so a file read
    // again below is not held twice.
    var files = parsed.map { $0!.file }
    let inputs = parsed.map { $0!.input }
    parsed.removeAll()
    let stated = statedTimeZone(files)
    if settings.listedTimeZone == nil, let stated, stated != settings.read.timeZone {
      var read = settings.read
      read.timeZone = stated
      for index in files.indices where files[index].statedTimeZone == nil {
        var again: [(name: String, content: String)] = []
        let (file, input) = try readFile(at: index, of: user, settings: read, options: options, reached: &again)
        // Sessions from two versions of one file would be neither's.
        guard input.contentHash == inputs[index].contentHash else {
          throw ExportError(file: input.name, message: "the file changed while it was read; run again")
        }
        files[index] = file
      }
    }
    var ingest = Normalize.merge(files, lookup: options.lookup, warmupSets: options.warmupSets)
    ingest.statedTimeZone = stated
    return (ingest, inputs)
  }

  /// Reads file `index` of `user` in `settings`, and appends what it held to `reached`.
  private static func readFile(
    at index: Int, of user: UserInput, settings: ReadSettings, options: Options,
    reached: inout [(name: String, content: String)]
  ) throws(ExportError) -> (FileIngest, InputFile) {
    let name = user.files[index].lastPathComponent
    // Opened inside the input folder (a link out is never followed, even one swapped in after
    // discovery) and checked on the open file, so an oversized file never reaches memory and
    // a FIFO or device (which would block or never end) is never read.
    let bytes: [UInt8]
    do throws(FileBytes.Failure) {
      bytes = try user.bytes(ofFileAt: index, maximumBytes: options.limits.maxFileBytes)
    } catch {
      reached.append((name, InputFile.content(failing: error)))
      if case .tooLarge(let size) = error { throw options.limits.fileTooLarge(name, size: size) }
      throw ExportError(file: name, message: error.reason)
    }
    let input = InputFile(name: name, bytes: bytes.count, contentHash: ContentHash.of(bytes))
    reached.append((name, input.contentHash))
    let file = try ExportReader.read(
      file: name, bytes: bytes, format: options.format, settings: settings, layout: options.layout,
      limits: options.limits)
    return (file, input)
  }

  /// The zone `files` state for most of their accepted rows; nil when none states one, or when
  /// two zones tie (which is the person's cannot be told, so `source.defaults` decides).
  ///
  /// - Complexity: O(*f* log *f*) for *f* files.
  static func statedTimeZone(_ files: [FileIngest]) -> TimeZone? {
    var rows: [String: (zone: TimeZone, count: Int)] = [:]
    for file in files {
      guard let zone = file.statedTimeZone else { continue }
      rows[zone.identifier, default: (zone, 0)].count += file.rows.accepted
    }
    let ranked = rows.values.sorted { $0.count > $1.count }
    guard let first = ranked.first else { return nil }
    if ranked.count > 1 && ranked[1].count == first.count { return nil }
    return first.zone
  }
}

/// An input file as the manifest records it.
public struct InputFile: Sendable, Equatable, Codable {
  public var name: String
  public var bytes: Int
  /// ``ContentHash`` of the file's bytes (`murmur3-128:…`).
  public var contentHash: String

  public init(name: String, bytes: Int, contentHash: String) {
    self.name = name
    self.bytes = bytes
    self.contentHash = contentHash
  }

  /// What stands for a file's content in an input's identity when it could not be read: its
  /// size over the limit, or why, so that a check that reads it later tells the difference.
  public static func content(failing failure: FileBytes.Failure) -> String {
    if case .tooLarge(let size) = failure { return "over the file limit: \(size) bytes" }
    return "unreadable: \(failure.reason)"
  }
}
