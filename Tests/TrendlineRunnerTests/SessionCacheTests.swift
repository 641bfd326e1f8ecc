import Foundation
import Testing
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages
import _TrendlineTestSupport

@testable import TrendlineRunner

/// `--cache`: what an entry keeps, when it is used, and that a damaged one is never trusted.
@Suite struct SessionCacheTests {
  /// A user folder with one Strong export, a pipeline reading it, and a cache folder, removed at
  /// the end.
  final class Fixture {
    let root: URL
    let export: URL
    let pipeline: Pipeline

    /// One warm-up, two counted sets of a catalog exercise (one in a pound user's float
    /// artifact), an exercise not in the catalog, and a row with a weight that is not a number
    /// (1 row in 6, under the pipeline's `maxRejectedShare`).
    static let strong = """
      Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
      2025-11-03 18:00:00,Push,1h 5m,Bench Press (Barbell),W,40,10,0,0,,,
      2025-11-03 18:00:00,Push,1h 5m,Bench Press (Barbell),1,62.5,8,0,0,,,
      2025-11-03 18:00:00,Push,1h 5m,Bench Press (Barbell),2,149.99999999999997,5,0,0,,,
      2025-11-03 18:00:00,Push,1h 5m,Zercher Hold,1,60,3,0,0,,,
      2025-11-05 07:30:00,Legs,45m,Squat (Barbell),1,abc,5,0,0,,,
      2025-11-05 07:30:00,Legs,45m,Squat (Barbell),2,100,5,0,0,,,

      """

    init(catalog: String = TestPaths.catalogFile.path) throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "trendline-cache-\(UUID().uuidString)")
      export = root.appendingPathComponent("in/ada/strong.csv")
      try FileManager.default.createDirectory(
        at: export.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(Fixture.strong.utf8).write(to: export)
      try Fixture.age(export)
      let file = root.appendingPathComponent("p.json")
      try Data(
        """
        {"version": 1, "name": "cache",
         "source": {"input": "in", "catalog": "\(catalog)", "limits": {"maxRejectedShare": 0.2}},
         "charts": {"volume": [{"bucket": {"range": "all", "measures": ["sessions"]}}]}}
        """.utf8
      ).write(to: file)
      guard case .success(let pipeline) = PipelineLoader.load(file) else {
        preconditionFailure("the fixture pipeline loads")
      }
      self.pipeline = pipeline
    }
    deinit { try? FileManager.default.removeItem(at: root) }

    var user: UserInput {
      UserInput(
        id: "ada",
        files: (try? FileManager.default.contentsOfDirectory(
          atPath: export.deletingLastPathComponent().path))!
          .sorted().map { export.deletingLastPathComponent().appendingPathComponent($0) })
    }

    /// A cache whose stats are trusted at once: these files were written a moment ago, and a
    /// real cache would hash them again for two seconds (`isRacy`).
    func cache(verify: Bool = false) -> SessionCache {
      SessionCache(
        folder: root.appendingPathComponent("cache"), source: pipeline.source, toolVersion: "test",
        verify: verify,
        racyWindowNanoseconds: 0)
    }

    func read(_ settings: UserSettings = UserSettings()) throws -> (
      ingest: UserIngest, inputs: [InputFile]
    ) {
      try UserReader.read(user, settings: settings, options: pipeline.readOptions)
    }

    /// Looks up, reads on a miss, stores: what `UserJob` does.
    @discardableResult
    func run(_ cache: SessionCache, settings: UserSettings = UserSettings()) throws
      -> SessionCache.Lookup
    {
      let lookup = cache.lookup(user, settings: settings)
      try cache.store(lookup, read: try lookup.cached ?? read(settings))
      return lookup
    }

    /// Moves a file's modification time an hour back, as an export written yesterday has.
    static func age(_ url: URL) throws {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: url.path)
    }
  }

  /// A hit gives back exactly what parsing gave: sessions with their counted sets, accounting,
  /// rejects, unmapped exercises and inputs.
  @Test func hitReturnsWhatParsingGave() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    let first = try fixture.run(cache)
    #expect(first.status == .miss)
    #expect(first.reason == "no entry")

    let second = cache.lookup(fixture.user, settings: UserSettings())
    let parsed = try fixture.read()
    #expect(second.status == .hit)
    let cached = try #require(second.cached)
    #expect(cached.ingest.sessions == parsed.ingest.sessions)
    #expect(cached.ingest.files == parsed.ingest.files)
    #expect(cached.ingest.notes == parsed.ingest.notes)
    #expect(cached.ingest.unmappedExercises == parsed.ingest.unmappedExercises)
    #expect(cached.inputs == parsed.inputs)
    // Written by hand from the fixture, so a round trip of empty values cannot pass.
    #expect(cached.ingest.sessions.map(\.name) == ["Push", "Legs"])
    #expect(cached.ingest.sessions.map(\.sets.count) == [3, 1])
    #expect(cached.ingest.sessions[0].sets.map(\.weightKg) == [62.5, 149.99999999999997, 60])
    #expect(cached.ingest.notes.map(\.line) == [6])
    #expect(cached.ingest.unmappedExercises == ["Zercher Hold": 1])
    #expect(cached.ingest.files.map(\.rows.read) == [6])
    #expect(cached.inputs.map(\.bytes) == [Fixture.strong.utf8.count])
    // Each session's records come back as the book counts them over the sessions.
    #expect(cached.ingest.newRecords == RecordBook(parsed.ingest.sessions, through: .max).newRecords)
  }

  /// The units the exports stated (SPEC 10.8) come back from a hit: a pound user read from the
  /// cache must not turn into a kilogram user. The fixture's Strong export states none; a Hevy
  /// export beside it states pounds for its two sets and kilometres for them (its `distance_km`
  /// column).
  @Test func hitReturnsTheStatedUnits() throws {
    let fixture = try Fixture()
    let hevy = fixture.export.deletingLastPathComponent().appendingPathComponent("hevy.csv")
    try Data(
      """
      title,start_time,end_time,exercise_title,set_index,set_type,weight_lbs,reps,distance_km
      Pull,"10 Nov 2025, 08:40","10 Nov 2025, 09:40",Deadlift (Barbell),0,normal,315,5,
      Pull,"10 Nov 2025, 08:40","10 Nov 2025, 09:40",Deadlift (Barbell),1,normal,335,3,

      """.utf8
    ).write(to: hevy)
    try Fixture.age(hevy)
    let cache = fixture.cache()
    try fixture.run(cache)
    let second = cache.lookup(fixture.user, settings: UserSettings())
    #expect(second.status == .hit)
    let cached = try #require(second.cached)
    #expect(cached.ingest.statedUnits == UnitTally(pounds: 2, kilometers: 2))
    #expect(cached.ingest.statedUnits == (try fixture.read()).ingest.statedUnits)
  }

  /// A hit reads no export: the stored hash is trusted while size, times and inode are unchanged.
  @Test func hitReadsNoExport() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    let lookup = cache.lookup(fixture.user, settings: UserSettings())
    #expect(lookup.status == .hit)
    #expect(cache.inputsHashed == 0)
    #expect(!lookup.needsWrite)
  }

  /// A file touched but not changed is hashed once, still hits, and its new stat is stored, so
  /// the run after it reads nothing again.
  @Test func touchedFileIsHashedOnceThenTrusted() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: fixture.export.path)
    let touched = try fixture.run(cache)
    #expect(touched.status == .hit)
    #expect(cache.inputsHashed == 1)
    #expect(touched.needsWrite)
    let after = try fixture.run(cache)
    #expect(after.status == .hit)
    #expect(cache.inputsHashed == 1)
  }

  /// `--cache-verify` hashes every input on every run, and still hits.
  @Test func verifyHashesEveryInput() throws {
    let fixture = try Fixture()
    let cache = fixture.cache(verify: true)
    try fixture.run(cache)
    #expect(try fixture.run(cache).status == .hit)
    #expect(try fixture.run(cache).status == .hit)
    #expect(cache.inputsHashed == 2)
  }

  /// A changed export is a miss, and the entry written after it serves the new content.
  @Test func changedContentIsAMiss() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    try Data(Fixture.strong.replacingOccurrences(of: "100,5", with: "105,5").utf8).write(
      to: fixture.export)
    let changed = try fixture.run(cache)
    #expect(changed.status == .miss)
    #expect(changed.reason == "strong.csv changed")
    let again = cache.lookup(fixture.user, settings: UserSettings())
    #expect(again.status == .hit)
    #expect(again.cached?.ingest.sessions.last?.sets.map(\.weightKg) == [105])
  }

  /// Same size, modification time set back: the change time still differs, so the file is
  /// hashed and the change is found (a tool restoring mtime cannot hide an edit).
  @Test func editWithRestoredModificationTimeIsFound() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    let modified =
      try FileManager.default.attributesOfItem(atPath: fixture.export.path)[.modificationDate]
      as! Date
    let edited = Fixture.strong.replacingOccurrences(of: "100,5", with: "101,5")
    #expect(edited.utf8.count == Fixture.strong.utf8.count)
    // The change time has nanoseconds; make sure the edit cannot land in the same one.
    Thread.sleep(forTimeInterval: 0.01)
    try Data(edited.utf8).write(to: fixture.export)
    try FileManager.default.setAttributes(
      [.modificationDate: modified], ofItemAtPath: fixture.export.path)
    let lookup = cache.lookup(fixture.user, settings: UserSettings())
    #expect(lookup.status == .miss)
    #expect(lookup.reason == "strong.csv changed")
  }

  /// A new export next to the old one is a miss.
  @Test func addedExportIsAMiss() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    let second = fixture.export.deletingLastPathComponent().appendingPathComponent("strong-2.csv")
    try Data(Fixture.strong.utf8).write(to: second)
    let lookup = try fixture.run(cache)
    #expect(lookup.status == .miss)
    #expect(lookup.reason == "the user's files changed")
    #expect(lookup.cached == nil)
  }

  /// Another zone in users.csv reads the same bytes into other instants: a miss.
  @Test func otherSettingsAreAMiss() throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    var oslo = UserSettings()
    oslo.read.timeZone = TimeZone(identifier: "Europe/Oslo")!
    let lookup = cache.lookup(fixture.user, settings: oslo)
    #expect(lookup.status == .miss)
    #expect(lookup.reason == "the settings, catalog, tool or build changed")
    var sunday = UserSettings()
    sunday.firstWeekday = .sunday
    #expect(cache.lookup(fixture.user, settings: sunday).status == .miss)
  }

  /// Another catalog maps other exercises: its entries are not used.
  @Test func otherCatalogIsAMiss() throws {
    let fixture = try Fixture()
    try fixture.run(fixture.cache())
    let catalog = fixture.root.appendingPathComponent("catalog.json")
    var text = try String(
      contentsOf: TestPaths.catalogFile, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"Chest\"", with: "\"Pecs\"")
    try Data(text.utf8).write(to: catalog)
    let other = try Fixture(catalog: catalog.path)
    let cache = SessionCache(
      folder: fixture.root.appendingPathComponent("cache"), source: other.pipeline.source,
      toolVersion: "test", verify: false,
      racyWindowNanoseconds: 0)
    #expect(cache.lookup(fixture.user, settings: UserSettings()).status == .miss)
    let newer = SessionCache(
      folder: fixture.root.appendingPathComponent("cache"), source: fixture.pipeline.source,
      toolVersion: "test-2", verify: false,
      racyWindowNanoseconds: 0)
    #expect(newer.lookup(fixture.user, settings: UserSettings()).status == .miss)
  }

  /// A partitioned pipeline's entries are one level lower, as its outputs are: `ada` is
  /// partition 13b (FNV-1a 64 mod 4,096), and a stored entry is found there again.
  @Test func aPartitionedCacheKeepsEachEntryInItsPartition() throws {
    let fixture = try Fixture()
    let cache = SessionCache(
      folder: fixture.root.appendingPathComponent("cache"), source: fixture.pipeline.source, toolVersion: "test",
      verify: false, racyWindowNanoseconds: 0, layout: .partitioned)
    #expect(cache.path(for: "ada").hasSuffix("/cache/13b/ada.tlcache"))
    let lookup = cache.lookup(fixture.user, settings: UserSettings())
    #expect(lookup.status == .miss)
    try cache.store(lookup, read: try fixture.read())
    #expect(FileManager.default.fileExists(atPath: cache.path(for: "ada")))
    #expect(cache.lookup(fixture.user, settings: UserSettings()).status == .hit)
  }

  /// A file written in the last two seconds is not trusted by its stat: it is hashed next run.
  @Test func recentlyWrittenFileIsHashedAgain() throws {
    let fixture = try Fixture()
    try Data(Fixture.strong.utf8).write(to: fixture.export)  // now, not an hour ago
    let cache = SessionCache(
      folder: fixture.root.appendingPathComponent("cache"), source: fixture.pipeline.source,
      toolVersion: "test")
    try fixture.run(cache)
    #expect(cache.lookup(fixture.user, settings: UserSettings()).status == .hit)
    #expect(cache.inputsHashed == 1)
  }

  enum Damage: String, CaseIterable, Sendable {
    case flippedPayloadByte, flippedHeaderChecksum, truncatedPayload, truncatedHeader, empty,
      garbage
    case otherVersion, reservedBits, appendedBytes, otherUser
  }

  /// Every kind of damage is detected, reported with the exact reason, and the entry is rebuilt.
  @Test(arguments: [
    (Damage.flippedPayloadByte, "the cache file's checksum does not match its contents"),
    (.flippedHeaderChecksum, "the cache file's checksum does not match its contents"),
    (.truncatedPayload, "the cache file is cut off"),
    (.truncatedHeader, "the cache file is cut off"),
    (.empty, "the cache file is cut off"),
    (.garbage, "not a Trendline cache file"),
    (.otherVersion, "cache format version 8, this trendline reads version 7"),
    (.reservedBits, "the cache file is malformed: reserved header bits are set"),
    (.appendedBytes, "the cache file is malformed: bytes after the payload"),
    (.otherUser, "the cache file holds user 'bob'"),
  ])
  func damagedEntryIsRebuilt(damage: Damage, reason: String) throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    let url = URL(fileURLWithPath: cache.path(for: "ada"))
    var bytes = [UInt8](try Data(contentsOf: url))
    switch damage {
    case .flippedPayloadByte: bytes[bytes.count / 2] ^= 0x10
    case .flippedHeaderChecksum: bytes[24] ^= 0x01
    case .truncatedPayload: bytes.removeLast(5)
    case .truncatedHeader: bytes = Array(bytes[..<20])
    case .empty: bytes = []
    case .garbage: bytes = Array("{\"not\": \"a cache\"}".utf8)
    case .otherVersion: bytes[8] = 8
    case .reservedBits: bytes[12] = 1
    case .appendedBytes: bytes += [0, 0]
    case .otherUser:
      // A valid entry of user bob, copied over ada's.
      let bob = fixture.root.appendingPathComponent("in/bob")
      try FileManager.default.createDirectory(at: bob, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: fixture.export, to: bob.appendingPathComponent("strong.csv"))
      let bobUser = UserInput(id: "bob", files: [bob.appendingPathComponent("strong.csv")])
      let lookup = cache.lookup(bobUser, settings: UserSettings())
      try cache.store(
        lookup,
        read: try UserReader.read(
          bobUser, settings: UserSettings(), options: fixture.pipeline.readOptions))
      bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache.path(for: "bob"))))
    }
    try Data(bytes).write(to: url)

    let damaged = try fixture.run(cache)
    #expect(damaged.status == .rebuilt)
    #expect(damaged.reason == reason)
    #expect(damaged.cached == nil)
    #expect(cache.lookup(fixture.user, settings: UserSettings()).status == .hit)
  }

  /// Each number comes back with the identical bit pattern, in the shortest exact form:
  /// tag 0 zero, 1 whole, 2 thousandths, 3 the raw Double.
  @Test(arguments: [
    (0.0, 0, 1), (5.0, 1, 2), (-3.0, 1, 2), (62.5, 2, 4), (0.1, 2, 3), (-0.0, 3, 9),
    (149.99999999999997 * 0.45359237, 3, 9), (9_007_199_254_740_992.0, 3, 9), (1e300, 3, 9),
    (Double.infinity, 3, 9), (-Double.infinity, 3, 9), (Double.nan, 3, 9),
    (Double.leastNonzeroMagnitude, 3, 9),
  ])
  func numbersRoundTripExactly(value: Double, tag: UInt8, bytes: Int) throws {
    var writer = CacheWriter()
    writer.numbers(value, 0, 0, 0)
    #expect(writer.bytes[0] & 3 == tag)
    #expect(writer.bytes.count == bytes)
    var reader = CacheReader(bytes: writer.bytes, offset: 0)
    let read = try reader.numbers()
    #expect(read.0.bitPattern == value.bitPattern)
    #expect(reader.offset == writer.bytes.count)
  }

  /// Varints and zigzag at their edges, written by hand.
  @Test func varintsAreLEB128AndZigzag() throws {
    var writer = CacheWriter()
    writer.varint(0)
    writer.varint(127)
    writer.varint(128)
    writer.int64(-1)
    writer.int64(1)
    writer.varint(UInt64.max)
    #expect(
      writer.bytes == [
        0x00, 0x7F, 0x80, 0x01, 0x01, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0x01,
      ])
    var reader = CacheReader(bytes: writer.bytes, offset: 0)
    #expect(try reader.varint() == 0)
    #expect(try reader.varint() == 127)
    #expect(try reader.varint() == 128)
    #expect(try reader.int64() == -1)
    #expect(try reader.int64() == 1)
    #expect(try reader.varint() == UInt64.max)
    var tooLong = CacheReader(bytes: Array(repeating: 0xFF, count: 10) + [0x01], offset: 0)
    #expect(throws: CacheFault.malformed("a number longer than 64 bits")) { try tooLong.varint() }
  }

  /// The checksum is the first half of MurmurHash3 x64 128 of the payload (after the 32-byte
  /// header), the value Python's `mmh3.hash128(payload, 0, True, signed=False) & (2**64 - 1)`
  /// gives: 0xcbd8a7b341bd9b02 for `hello`, 0xe34bbc7bbc071b6c for the quick brown fox.
  @Test func checksumIsMurmur3OfThePayload() {
    func checksum(_ text: String) -> UInt64 {
      Entry.checksum(Array(repeating: 0xAA, count: Entry.headerSize) + Array(text.utf8))
    }
    #expect(checksum("hello") == 0xcbd8_a7b3_41bd_9b02)
    #expect(checksum("The quick brown fox jumps over the lazy dog") == 0xe34b_bc7b_bc07_1b6c)
    #expect(checksum("") == 0)
  }

  /// Ways of forging an entry: the content is hostile, the checksum valid.
  enum Forgery: String, CaseIterable, Sendable {
    case unsortedSessions, nanWeight, negativeStart, startAfter9999, hugeSessionCount
    case unmappedWithMuscleGroups, exerciseOutsideTable, unknownSetType, tooManyRecords
  }

  /// A forged entry with a valid checksum is read again from the exports, never trusted, and
  /// the rebuild overwrites it.
  @Test(arguments: [
    (Forgery.unsortedSessions, "the cache file is malformed: session '1762192800|Push' is not after '1762327800|Legs'"),
    (.nanWeight, "the cache file is malformed: a set of session '1762192800|Push' weighs nan kg"),
    (.negativeStart, "the cache file is malformed: session '1762192800|Push' starts at -1, outside 0...253402300799"),
    (
      .startAfter9999,
      "the cache file is malformed: session '1762192800|Push' starts at 253402300800, outside 0...253402300799"
    ),
    (.hugeSessionCount, "the cache file is malformed: a count of 1099511627776 with 0 bytes left"),
    (
      .unmappedWithMuscleGroups,
      "the cache file is malformed: exercise 'Bench Press (Barbell)' is unmapped but has muscle groups"
    ),
    (.exerciseOutsideTable, "the cache file is malformed: exercise 127 of 3"),
    (.unknownSetType, "the cache file is malformed: set type 4"),
    (.tooManyRecords, "the cache file is malformed: 4 records from 1 set"),
  ])
  func forgedEntryIsRebuilt(forgery: Forgery, reason: String) throws {
    let fixture = try Fixture()
    let cache = fixture.cache()
    try fixture.run(cache)
    let path = cache.path(for: "ada")
    try Data(try Self.forge(forgery, entry: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))).write(
      to: URL(fileURLWithPath: path))

    let forged = try fixture.run(cache)
    #expect(forged.status == .rebuilt)
    #expect(forged.reason == reason)
    #expect(forged.cached == nil)
    let after = cache.lookup(fixture.user, settings: UserSettings())
    #expect(after.status == .hit)
    #expect(after.cached?.ingest.sessions == (try fixture.read()).ingest.sessions)
  }

  /// A run over a forged entry writes the same charts and row outcomes as a run without a cache.
  @Test(arguments: Forgery.allCases)
  func runOverForgedEntryMatchesUncachedRun(forgery: Forgery) throws {
    let fixture = try Fixture()
    func run(_ name: String, cache: Bool) throws -> Manifest {
      try Runner.run(
        fixture.pipeline,
        options: RunOptions(
          input: fixture.root.appendingPathComponent("in"), output: fixture.root.appendingPathComponent(name),
          asOf: .instant(1_764_547_200), asOfText: "2025-12-01T00:00:00Z", jobs: 1, now: 1_764_547_200,
          toolVersion: "test", cache: cache ? fixture.root.appendingPathComponent("cache") : nil))
    }
    _ = try run("plain", cache: false)
    _ = try run("warm", cache: true)
    let path = fixture.root.appendingPathComponent("cache/ada.tlcache")
    try Data(try Self.forge(forgery, entry: [UInt8](try Data(contentsOf: path)))).write(to: path)
    // A temporary left by a writer that is gone (no process has pid 2^22 + 1 on Linux).
    let stale = fixture.root.appendingPathComponent(
      "cache/\(AtomicFile.temporaryPrefix)4194305@\(AtomicFile.hostTag)-0-ada.tlcache")
    try Data("half".utf8).write(to: stale)

    let manifest = try run("forged", cache: true)
    #expect(manifest.users.map(\.cache) == ["rebuilt"])
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    for file in ["users/ada/volume.json", "users/ada/row-outcomes.csv"] {
      let plain = try Data(contentsOf: fixture.root.appendingPathComponent("plain/" + file))
      let forged = try Data(contentsOf: fixture.root.appendingPathComponent("forged/" + file))
      #expect(plain == forged, "\(file)")
    }
    #expect(try run("again", cache: true).users.map(\.cache) == ["hit"])
  }

  /// The entry's bytes with its content forged and its checksum made valid again.
  static func forge(_ forgery: Forgery, entry bytes: [UInt8]) throws -> [UInt8] {
    let head = try Entry.Head(decoding: bytes)
    var ingest = try Entry.ingest(decoding: bytes, from: head.ingestOffset)
    switch forgery {
    case .unsortedSessions: ingest.sessions.reverse()
    case .nanWeight: ingest.sessions[0].sets[0].weightKg = .nan
    case .negativeStart: ingest.sessions[0].start = -1
    case .startAfter9999: ingest.sessions[0].start = 253_402_300_800
    case .hugeSessionCount:
      // No sessions, so the payload ends in the session count: 0 becomes 2^40.
      ingest.sessions = []
      ingest.unmappedExercises = [:]
    case .unmappedWithMuscleGroups:
      let index = Int(ingest.sessions[0].sets[0].exercise)
      #expect(!ingest.sessions[0].exercises[index].muscleGroupIds.isEmpty)
      ingest.sessions[0].exercises[index].isUnmapped = true
    case .exerciseOutsideTable, .unknownSetType, .tooManyRecords:
      // One set, so the payload ends in its exercise index, its type, its numbers and the
      // session's count of records.
      ingest.sessions = [ingest.sessions[ingest.sessions.count - 1]]
      ingest.sessions[0].sets.removeLast(ingest.sessions[0].sets.count - 1)
      ingest.unmappedExercises = [:]
    }
    var forged = Entry(
      user: head.user, key: head.key, inputs: head.inputs, stats: head.stats, racy: head.racy, ingest: ingest
    ).encoded()
    switch forgery {
    case .hugeSessionCount:
      #expect(forged.last == 0)
      forged.removeLast()
      forged += [0x80, 0x80, 0x80, 0x80, 0x80, 0x20]
    case .tooManyRecords:
      // A set makes at most three records (top set, e1RM, reps at a weight).
      #expect(forged.last == 0)
      forged[forged.count - 1] = 4
    case .exerciseOutsideTable, .unknownSetType:
      let set = ingest.sessions[0].sets[0]
      var numbers = CacheWriter()
      numbers.numbers(set.weightKg, set.reps, set.distanceMeters, set.seconds)
      let typeAt = forged.count - 1 - numbers.bytes.count - 1
      #expect(forged[typeAt] == 0 && forged[typeAt - 1] < 0x80)
      if forgery == .unknownSetType { forged[typeAt] = 4 } else { forged[typeAt - 1] = 127 }
    default: return forged
    }
    return SessionCache._resealed(forged)
  }
}

/// The cache key's digests of the catalog and the `source.csv` layout: pinned to the SHA-256
/// values the key had when `JSONEncoder` wrote these bytes, so a change of writer does not turn
/// every entry of an upgraded install into a miss.
@Suite struct SessionCacheKeyDigestTests {
  /// Pinned again whenever the built-in catalog changes, from its JSON written compact with keys
  /// sorted and `/` as `\/` by another program (Python's `json.dumps`, which gave the earlier
  /// catalog's pinned value too): the catalog of the third version, 569 exercises.
  @Test func builtInCatalog() {
    #expect(SessionCache.digest(Catalog.builtIn) == "66ed40184290d633ef6652178e4693f8a3a81ed8a81174ff0511f17076c34634")
  }

  @Test func catalogWithSlashesAndControls() {
    let catalog = Catalog(
      muscleGroups: [.init(id: 3, name: "a/b")],
      exercises: [.init(name: "x/\u{1}", aliases: ["y", "\u{7f}\u{2028}"], muscleGroupIds: [1, -2])])
    #expect(SessionCache.digest(catalog) == "eafa2436873de32ec1775178c257a8852e8218ca8d087753ab1faaf631c9cdc5")
  }

  @Test func layouts() {
    let layout = MappedCSVLayout(
      columns: .init(start: "day/time", exercise: "lift \"x\"\t", session: "s\u{8}\u{c}é", reps: "r\\"),
      delimiter: "\\t", decimalSeparator: ",", dateFormat: "dd/MM/yyyy", weightUnit: .pounds)
    #expect(SessionCache.digest(layout) == "9f3df4221a56b7fe4a83deb99d3b6ecf8f59543329eaec37246d966e806abfa0")
    #expect(
      SessionCache.digest(MappedCSVLayout(columns: .init(start: "a", exercise: "b")))
        == "a2eb6707f7a348dbc0a8137a455c2b0cb2cdaef5c855b2c1a05bc4877d05a150")
    #expect(SessionCache.digest(nil as MappedCSVLayout?) == "none")
  }
}
