import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// Why a cache file was not used. Every case means "read the exports again"; none is shown as
/// an error, because a cache is only ever a shortcut.
public enum CacheFault: Error, Equatable, Sendable, CustomStringConvertible {
  /// Shorter than its header says (or than a header): a write that was cut off.
  case truncated
  /// Does not start with the cache magic: not a Trendline cache file.
  case badMagic
  /// Written by another version of this format.
  case unsupportedVersion(found: UInt32, expected: UInt32)
  /// The payload's checksum does not match the header's: the bytes were damaged.
  case checksumMismatch
  /// The checksum matched but a value is out of range: a bug or a forged file.
  case malformed(String)
  /// A valid entry of another user, copied or renamed.
  case otherUser(String)

  public var description: String {
    switch self {
    case .truncated: return "the cache file is cut off"
    case .badMagic: return "not a Trendline cache file"
    case .unsupportedVersion(let found, let expected):
      return "cache format version \(found), this trendline reads version \(expected)"
    case .checksumMismatch: return "the cache file's checksum does not match its contents"
    case .malformed(let what): return "the cache file is malformed: \(what)"
    case .otherUser(let user): return "the cache file holds user '\(user)'"
    }
  }
}

/// One user's cache file.
///
/// Layout, all integers little-endian:
///
///     header, 32 bytes:
///       0   magic      89 54 4C 43 0D 0A 1A 0A   ("\x89TLC\r\n\x1A\n", PNG's trick: the
///                      high byte and the line ends catch 7-bit and text-mode copies)
///       8   version    UInt32 (``formatVersion``)
///       12  reserved   UInt32 (0)
///       16  length     UInt64, bytes of payload after the header
///       24  checksum   UInt64, the first half of MurmurHash3 x64 128 of the payload
///     payload:
///       head    user, key (32 bytes), inputs: name, bytes, SHA-256 (32 bytes), stat
///               (size, mtime ns, ctime ns, inode), flags (1 = stat not to be trusted)
///       ingest  file accounting, rejects, unmapped exercises, the stated units (kg, lb, km,
///               mi: four counts), a table of names (exercises and session names), a
///               table of muscle-group id lists, a table of the user's exercises (name
///               index, id-list index, unmapped byte), then sessions, each with its sets
///               (the exercise's index, a type byte, four numbers) and its count of records
///
/// Numbers are LEB128 varints, signed ones zigzag-encoded; strings are a varint byte count and
/// UTF-8. A set's four numbers (kg, reps, metres, seconds) are tagged in one byte, two bits each:
/// zero, a whole number, a whole number of thousandths, or the Double's 8-byte bit pattern; every
/// tag decodes to the identical bit pattern, so charts computed from an entry are byte-identical.
struct Entry {
  /// How much to reserve for `count` decoded elements. A count is checked against the bytes
  /// its elements need, but a decoded element is larger than its bytes (a 3-byte set is a
  /// 40-byte `TrainedSet`), so reserving a forged count up front could still ask for many
  /// times the entry's size; beyond a few thousand, arrays grow as elements really decode.
  static func reservation(_ count: Int) -> Int { min(count, 4096) }

  /// 2: the checksum became MurmurHash3 (version 1 used FNV-1a, a byte at a time).
  /// 3: row notes (every row not accepted as written, with its outcome) replace rejects, and
  /// files count rows with a value dropped.
  /// 4: a session's duration may be unknown, written as -1 (SPEC 10.3), and the units the
  /// exports stated (``UnitTally``), which decide the units a user reads.
  /// 5: the user's exercises (name, muscle groups, unmapped) are a table of their own, and a set
  /// holds its index there and its type, as ``Session`` keeps them.
  /// 6: the zone the exports state (SPEC 11.9), empty for none, after the units.
  /// 7: each session's count of personal records (``UserIngest/newRecords``) after its sets.
  static let formatVersion: UInt32 = 7
  static let magic: [UInt8] = [0x89, 0x54, 0x4C, 0x43, 0x0D, 0x0A, 0x1A, 0x0A]
  static let headerSize = 32
  /// Set types by their code, a byte of its own; `allCases` builds a new array on every call.
  static let setTypes = SetType.allCases

  var user: String
  var key: [UInt8]
  var inputs: [InputFile]
  var stats: [FileStat]
  var racy: [Bool]
  var ingest: UserIngest

  /// The checksum of an entry's payload (everything after the header): the first 64 bits of
  /// ``ContentHash/murmur3(_:)``. It is there to catch damage (a torn or flipped byte), not
  /// tampering; at 16 bytes a step it costs a warm night a tenth of the FNV-1a it replaced,
  /// which read a byte at a time and was 3 % of such a run.
  ///
  /// - Complexity: O(*n*), where *n* is the payload's size.
  static func checksum(_ entry: [UInt8]) -> UInt64 {
    entry.withUnsafeBytes { ContentHash.murmur3(UnsafeRawBufferPointer(rebasing: $0[headerSize...])).0 }
  }

  /// The file's bytes: header and payload.
  ///
  /// - Complexity: O(*s*), where *s* is the number of sets.
  func encoded() -> [UInt8] {
    precondition(key.count == 32, "a cache key is a SHA-256 digest")
    precondition(inputs.count == stats.count && inputs.count == racy.count, "one stat per input")
    var out = CacheWriter()
    out.bytes = Array(repeating: 0, count: Entry.headerSize)
    out.string(user)
    out.raw(key)
    out.count(inputs.count)
    for (index, input) in inputs.enumerated() {
      out.string(input.name)
      out.int(input.bytes)
      out.string(input.contentHash)
      let stat = stats[index]
      out.int(Int(stat.size))
      out.int(Int(stat.modified))
      out.int(Int(stat.changed))
      out.varint(stat.inode)
      out.byte(racy[index] ? 1 : 0)
    }
    encodeIngest(into: &out)

    let payloadLength = out.bytes.count - Entry.headerSize
    let checksum = Entry.checksum(out.bytes)
    var header = CacheWriter()
    header.raw(Entry.magic)
    header.fixed32(Entry.formatVersion)
    header.fixed32(0)
    header.fixed64(UInt64(payloadLength))
    header.fixed64(checksum)
    out.bytes.replaceSubrange(0..<Entry.headerSize, with: header.bytes)
    return out.bytes
  }

  private func encodeIngest(into out: inout CacheWriter) {
    out.count(ingest.files.count)
    for file in ingest.files {
      out.string(file.file)
      out.string(file.format)
      for value in file.rows.values { out.int(value) }
      // Sorted, so the same ingest always gives the same bytes.
      out.count(file.ignoredByReason.count)
      for (reason, count) in file.ignoredByReason.sorted(by: { $0.key < $1.key }) {
        out.string(reason)
        out.int(count)
      }
    }
    out.count(ingest.notes.count)
    for note in ingest.notes {
      out.string(note.file)
      out.int(note.line)
      out.int(note.column)
      out.string(note.field)
      out.string(note.outcome.rawValue)
      out.string(note.reason)
    }
    out.count(ingest.unmappedExercises.count)
    for (name, sessions) in ingest.unmappedExercises.sorted(by: { $0.key < $1.key }) {
      out.string(name)
      out.int(sessions)
    }
    let stated = ingest.statedUnits
    for count in [stated.kilograms, stated.pounds, stated.kilometers, stated.miles] { out.int(count) }
    out.string(ingest.statedTimeZone?.identifier ?? "")

    // Names and id lists repeat in nearly every set; tables store each once, and the user's
    // exercises once, which every session shares when decoded, as Normalize made them.
    var names: [String: Int] = [:]
    var nameList: [String] = []
    var idLists: [[Int]: Int] = [:]
    var idListList: [[Int]] = []
    func name(_ text: String) -> Int {
      if let index = names[text] { return index }
      names[text] = nameList.count
      nameList.append(text)
      return nameList.count - 1
    }
    func ids(_ list: [Int]) -> Int {
      if let index = idLists[list] { return index }
      idLists[list] = idListList.count
      idListList.append(list)
      return idListList.count - 1
    }
    var exercises: [TrainedExercise: Int] = [:]
    var exerciseList: [TrainedExercise] = []
    // Each session's table mapped to the user's, once per table: an ingest's sessions share one.
    var table: [TrainedExercise] = []
    var mapped: [Int] = []
    var sessions = CacheWriter()
    sessions.count(ingest.sessions.count)
    let newRecords = RecordBook.newRecords(ingest.sessions, given: ingest.newRecords)
    for (position, session) in ingest.sessions.enumerated() {
      if !session.sharesExercises(table) {
        table = session.exercises
        mapped = table.map { exercise in
          if let index = exercises[exercise] { return index }
          exercises[exercise] = exerciseList.count
          exerciseList.append(exercise)
          return exerciseList.count - 1
        }
      }
      sessions.string(session.key)
      sessions.int64(session.start)
      // -1 for unknown: a stated duration is never negative (SPEC 10.2 drops such durations).
      sessions.int64(session.durationSeconds ?? -1)
      sessions.count(name(session.name))
      sessions.count(session.sets.count)
      for set in session.sets {
        sessions.count(mapped[Int(set.exercise)])
        sessions.byte(UInt8(Entry.setTypes.firstIndex(of: set.type)!))
        sessions.numbers(set.weightKg, set.reps, set.distanceMeters, set.seconds)
      }
      sessions.count(newRecords[position])
    }
    let exerciseCodes = exerciseList.map { (name($0.name), ids($0.muscleGroupIds), $0.isUnmapped) }
    out.count(nameList.count)
    for text in nameList { out.string(text) }
    out.count(idListList.count)
    for list in idListList {
      out.count(list.count)
      for id in list { out.int(id) }
    }
    out.count(exerciseCodes.count)
    for (name, ids, isUnmapped) in exerciseCodes {
      out.count(name)
      out.count(ids)
      out.byte(isUnmapped ? 1 : 0)
    }
    out.raw(sessions.bytes)
  }
}

extension Entry {
  /// The header and the head of an entry: enough to decide whether it matches, without
  /// decoding its sessions.
  struct Head {
    var user: String
    var key: [UInt8]
    var inputs: [InputFile]
    var stats: [FileStat]
    var racy: [Bool]
    /// Where the ingest section starts.
    var ingestOffset: Int

    /// Checks the header and checksum, then reads the head.
    ///
    /// - Complexity: O(*n*), where *n* is the file's size (the checksum covers it all).
    init(decoding bytes: [UInt8]) throws(CacheFault) {
      guard bytes.count >= Entry.magic.count else { throw .truncated }
      guard bytes.starts(with: Entry.magic) else { throw .badMagic }
      guard bytes.count >= Entry.headerSize else { throw .truncated }
      var header = CacheReader(bytes: bytes, offset: Entry.magic.count)
      let version = try header.fixed32()
      guard version == Entry.formatVersion else {
        throw .unsupportedVersion(found: version, expected: Entry.formatVersion)
      }
      guard try header.fixed32() == 0 else { throw .malformed("reserved header bits are set") }
      let length = try header.fixed64()
      let checksum = try header.fixed64()
      let available = UInt64(bytes.count - Entry.headerSize)
      guard length <= available else { throw .truncated }
      guard length == available else { throw .malformed("bytes after the payload") }
      let actual = Entry.checksum(bytes)
      guard actual == checksum else { throw .checksumMismatch }

      var reader = CacheReader(bytes: bytes, offset: Entry.headerSize)
      user = try reader.string()
      key = try reader.raw(32)
      // name, size, hash, four stat numbers, flags: a byte each at least.
      let count = try reader.count(each: 8)
      inputs = []
      stats = []
      racy = []
      for _ in 0..<count {
        let name = try reader.string()
        let size = try reader.int()
        guard size >= 0 else { throw .malformed("an input of \(size) bytes") }
        let hash = try reader.string()
        inputs.append(InputFile(name: name, bytes: size, contentHash: hash))
        stats.append(
          FileStat(
            size: Int64(try reader.int()), modified: Int64(try reader.int()),
            changed: Int64(try reader.int()),
            inode: try reader.varint()))
        let flags = try reader.byte()
        guard flags <= 1 else { throw .malformed("unknown input flags \(flags)") }
        racy.append(flags == 1)
      }
      ingestOffset = reader.offset
    }
  }

  /// Decodes the ingest section of an entry whose head was read by ``Head`` and holds it to the
  /// readers' guarantees (``UserIngestValidator``): the checksum proves only that the bytes are
  /// the ones written, and a forged or buggy entry must cost a rebuild, not the run.
  ///
  /// - Complexity: O(*e*), where *e* is the entry's size.
  static func checkedIngest(decoding bytes: [UInt8], from offset: Int, limits: ReadLimits) throws(CacheFault)
    -> UserIngest
  {
    let ingest = try Entry.ingest(decoding: bytes, from: offset)
    if let problem = UserIngestValidator.problem(in: ingest, limits: limits) { throw .malformed(problem) }
    return ingest
  }

  /// Decodes the ingest section of an entry whose head was read by ``Head``.
  ///
  /// - Complexity: O(*e*), where *e* is the entry's size.
  static func ingest(decoding bytes: [UInt8], from offset: Int) throws(CacheFault) -> UserIngest {
    var reader = CacheReader(bytes: bytes, offset: offset)
    var ingest = UserIngest()

    // Names, format, seven counts and a reason count: a byte each at least; and so below.
    let fileCount = try reader.count(each: 10)
    for _ in 0..<fileCount {
      var file = FileAccounting(file: try reader.string(), format: try reader.string())
      file.rows = try RowCounts { () throws(CacheFault) in try reader.int() }
      let reasons = try reader.count(each: 2)
      for _ in 0..<reasons {
        let reason = try reader.string()
        file.ignoredByReason[reason] = try reader.int()
      }
      ingest.files.append(file)
    }
    let noteCount = try reader.count(each: 6)
    ingest.notes.reserveCapacity(Entry.reservation(noteCount))
    for _ in 0..<noteCount {
      let (file, line, column, field) = (try reader.string(), try reader.int(), try reader.int(), try reader.string())
      guard let outcome = RowNote.Outcome(rawValue: try reader.string()) else {
        throw CacheFault.malformed("an unknown row outcome")
      }
      ingest.notes.append(
        RowNote(file: file, line: line, column: column, field: field, outcome: outcome, reason: try reader.string()))
    }
    let unmappedCount = try reader.count(each: 2)
    for _ in 0..<unmappedCount {
      let name = try reader.string()
      ingest.unmappedExercises[name] = try reader.int()
    }
    ingest.statedUnits = UnitTally(
      kilograms: try reader.int(), pounds: try reader.int(), kilometers: try reader.int(), miles: try reader.int())
    let zone = try reader.string()
    if !zone.isEmpty {
      guard let stated = TimeZone(identifier: zone) else { throw CacheFault.malformed("an unknown time zone") }
      ingest.statedTimeZone = stated
    }

    let nameCount = try reader.count()
    var names: [String] = []
    names.reserveCapacity(Entry.reservation(nameCount))
    for _ in 0..<nameCount { names.append(try reader.string()) }
    let listCount = try reader.count()
    var idLists: [[Int]] = []
    idLists.reserveCapacity(Entry.reservation(listCount))
    for _ in 0..<listCount {
      let count = try reader.count()
      var list: [Int] = []
      list.reserveCapacity(Entry.reservation(count))
      for _ in 0..<count { list.append(try reader.int()) }
      idLists.append(list)
    }
    func indexed<T>(_ table: [T], _ what: String) throws(CacheFault) -> T {
      // An index is bounded by its table, not by the bytes left (`count()` checks those).
      let index = try reader.varint()
      guard index < UInt64(table.count) else {
        throw .malformed("\(what) \(index) of \(table.count)")
      }
      return table[Int(index)]
    }

    let exerciseCount = try reader.count(each: 3)
    // A set's index is an Int32, as Normalize's records bound it.
    guard exerciseCount <= Int(Int32.max) else { throw .malformed("\(exerciseCount) exercises") }
    var exercises: [TrainedExercise] = []
    exercises.reserveCapacity(Entry.reservation(exerciseCount))
    for _ in 0..<exerciseCount {
      let (name, ids) = (try indexed(names, "name"), try indexed(idLists, "id list"))
      let flag = try reader.byte()
      guard flag < 2 else { throw .malformed("unmapped flag \(flag)") }
      exercises.append(TrainedExercise(name: name, muscleGroupIds: ids, isUnmapped: flag == 1))
    }

    let sessionCount = try reader.count(each: 6)
    ingest.sessions.reserveCapacity(Entry.reservation(sessionCount))
    var newRecords: [Int] = []
    newRecords.reserveCapacity(Entry.reservation(sessionCount))
    for _ in 0..<sessionCount {
      let key = try reader.string()
      let start = try reader.int64()
      let stated = try reader.int64()
      guard stated >= -1 else { throw .malformed("duration \(stated)") }
      let duration = stated == -1 ? nil : stated
      let name = try indexed(names, "name")
      let setCount = try reader.count(each: 3)
      var sets: [TrainedSet] = []
      sets.reserveCapacity(Entry.reservation(setCount))
      for _ in 0..<setCount {
        // Checked here, so that `Session`'s own check of the indices cannot fail.
        let exercise = try reader.varint()
        guard exercise < UInt64(exercises.count) else { throw .malformed("exercise \(exercise) of \(exercises.count)") }
        let type = try reader.byte()
        guard type < Entry.setTypes.count else { throw .malformed("set type \(type)") }
        let numbers = try reader.numbers()
        sets.append(
          TrainedSet(
            exercise: Int32(exercise), type: Entry.setTypes[Int(type)], weightKg: numbers.0, reps: numbers.1,
            distanceMeters: numbers.2, seconds: numbers.3))
      }
      // At most three records an exercise (top set, e1RM, reps at a weight), so three a set.
      let records = try reader.varint()
      guard records <= 3 * UInt64(setCount) else {
        throw .malformed("\(records) records from \(setCount) set\(setCount == 1 ? "" : "s")")
      }
      newRecords.append(Int(records))
      ingest.sessions.append(
        Session(key: key, start: start, durationSeconds: duration, name: name, exercises: exercises, sets: sets))
    }
    ingest.newRecords = newRecords
    guard reader.offset == bytes.count else { throw .malformed("bytes after the last session") }
    return ingest
  }
}

/// Appends little-endian values to a byte array.
struct CacheWriter {
  var bytes: [UInt8] = []

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func raw(_ values: [UInt8]) { bytes.append(contentsOf: values) }

  mutating func fixed32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  mutating func fixed64(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  /// LEB128: seven bits a byte, low bits first, the high bit set on every byte but the last.
  mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// A non-negative count or index.
  mutating func count(_ value: Int) {
    precondition(value >= 0, "counts are never negative")
    varint(UInt64(value))
  }

  /// Zigzag: 0, -1, 1, -2, … → 0, 1, 2, 3, …, so small negative numbers stay short.
  mutating func int64(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  mutating func int(_ value: Int) { int64(Int64(value)) }

  mutating func string(_ text: String) {
    let utf8 = text.utf8
    count(utf8.count)
    bytes.append(contentsOf: utf8)
  }

  /// Four numbers behind one tag byte (see ``Entry``).
  mutating func numbers(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
    let tagAt = bytes.count
    bytes.append(0)
    var tags: UInt8 = 0
    for (slot, value) in [a, b, c, d].enumerated() {
      tags |= number(value) << (2 * slot)
    }
    bytes[tagAt] = tags
  }

  /// Writes one number in its shortest exact form and returns its tag.
  private mutating func number(_ value: Double) -> UInt8 {
    // 2^53: above it not every whole number is a Double, and below it each converts exactly.
    let limit = NumberText.exactIntegerLimit
    if value.bitPattern == 0 { return 0 }
    if value.isFinite, value != 0, abs(value) < limit, value == value.rounded(.towardZero) {
      int64(Int64(value))
      return 1
    }
    let thousandths = (value * 1000).rounded()
    // `value != 0` keeps -0.0 out of the short forms: Int64 has no negative zero.
    if value.isFinite, value != 0, abs(thousandths) < limit, thousandths / 1000 == value {
      int64(Int64(thousandths))
      return 2
    }
    fixed64(value.bitPattern)
    return 3
  }
}

/// Reads what ``CacheWriter`` wrote, checking every length against the bytes left, so a
/// damaged file throws instead of trapping or allocating without bound.
struct CacheReader {
  let bytes: [UInt8]
  var offset: Int

  mutating func byte() throws(CacheFault) -> UInt8 {
    guard offset < bytes.count else { throw .truncated }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func raw(_ count: Int) throws(CacheFault) -> [UInt8] {
    guard count <= bytes.count - offset else { throw .truncated }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func fixed32() throws(CacheFault) -> UInt32 {
    UInt32(littleEndian: try load(UInt32.self))
  }

  /// One check and one load, not eight of each: a pound user's every weight is one of these.
  mutating func fixed64() throws(CacheFault) -> UInt64 {
    UInt64(littleEndian: try load(UInt64.self))
  }

  private mutating func load<T: FixedWidthInteger>(_: T.Type) throws(CacheFault) -> T {
    guard MemoryLayout<T>.size <= bytes.count - offset else { throw .truncated }
    defer { offset += MemoryLayout<T>.size }
    return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
  }

  mutating func varint() throws(CacheFault) -> UInt64 {
    // Most numbers in an entry (table indices, small counts) fit in one byte.
    if offset < bytes.count && bytes[offset] < 0x80 {
      offset += 1
      return UInt64(bytes[offset - 1])
    }
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      // The tenth byte holds bit 63 alone; anything more does not fit in 64 bits.
      guard shift < 63 || next <= 1 else { throw .malformed("a number longer than 64 bits") }
      value |= UInt64(next & 0x7F) << shift
      if next < 0x80 { return value }
      shift += 7
    }
  }

  /// A count of elements that each take at least `minimumBytes` bytes of the entry: never more
  /// than the bytes left allow, so a forged count fails here instead of reserving memory for
  /// billions of elements.
  mutating func count(each minimumBytes: Int = 1) throws(CacheFault) -> Int {
    let value = try varint()
    guard value <= UInt64((bytes.count - offset) / minimumBytes) else {
      throw .malformed("a count of \(value) with \(bytes.count - offset) bytes left")
    }
    return Int(value)
  }

  mutating func int64() throws(CacheFault) -> Int64 {
    let value = try varint()
    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  mutating func int() throws(CacheFault) -> Int {
    let value = try int64()
    guard let result = Int(exactly: value) else { throw .malformed("\(value) does not fit an Int") }
    return result
  }

  mutating func string() throws(CacheFault) -> String {
    let count = try count()
    defer { offset += count }
    // Lengths were checked by `count()`; the checksum vouches for the UTF-8.
    return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
  }

  // Inlined: four of these a set, and a call each was a tenth of decoding an entry.
  @inline(__always)
  mutating func numbers() throws(CacheFault) -> (Double, Double, Double, Double) {
    let tags = try byte()
    return (
      try number(tags & 3), try number(tags >> 2 & 3), try number(tags >> 4 & 3),
      try number(tags >> 6 & 3)
    )
  }

  @inline(__always)
  private mutating func number(_ tag: UInt8) throws(CacheFault) -> Double {
    switch tag {
    case 0: return 0
    case 1: return Double(try int64())
    case 2: return Double(try int64()) / 1000
    default: return Double(bitPattern: try fixed64())
    }
  }
}

/// Lower-case hex, as `SHA256.hex` writes digests.
enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  static func string(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of a hex string; a digest we computed ourselves, so a bad digit is a bug.
  static func bytes(_ text: String) -> [UInt8] {
    func value(_ digit: UInt8) -> UInt8 {
      switch digit {
      case 0x30...0x39: return digit - 0x30
      case 0x61...0x66: return digit - 0x61 + 10
      case 0x41...0x46: return digit - 0x41 + 10
      default: preconditionFailure("'\(text)' is not a hex digest")
      }
    }
    let utf8 = Array(text.utf8)
    precondition(utf8.count % 2 == 0, "'\(text)' is not a hex digest")
    return stride(from: 0, to: utf8.count, by: 2).map { value(utf8[$0]) << 4 | value(utf8[$0 + 1]) }
  }
}
