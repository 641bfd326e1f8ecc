import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// Which units a user reads (SPEC 10.8): their `users.csv` row, else the unit their exports
/// stated for most of their sets, else the pipeline's defaults. Weight and distance are decided
/// each on its own.
@Suite struct UserUnitsTests {
  static let lookup = ExerciseLookup(catalog: Catalog(muscleGroups: [], exercises: []))

  static func ingest(_ files: [(String, String)], settings: ReadSettings = ReadSettings()) throws -> UserIngest {
    let read = try files.map { name, text in
      try ExportReader.read(file: name, bytes: Array(text.utf8), settings: settings)
    }
    return Normalize.merge(read, lookup: lookup)
  }

  /// Three sets, the first a warm-up, in Hevy's pound-and-mile header.
  static let hevyPounds = """
    "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index",\
    "set_type","weight_lbs","reps","distance_miles","duration_seconds","rpe"
    "Legs","28 Nov 2026, 08:40","28 Nov 2026, 09:45","","Squat (Barbell)",,"",0,"warmup",135,5,,,
    "Legs","28 Nov 2026, 08:40","28 Nov 2026, 09:45","","Squat (Barbell)",,"",1,"normal",275,5,,,
    "Legs","28 Nov 2026, 08:40","28 Nov 2026, 09:45","","Running",,"",0,"normal",,,2,1200,
    """

  /// Two sets, the unit not stated.
  static let strongUnstated = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2026-11-20 18:00:00,Push,1h,Bench Press (Barbell),1,100,5,0,0,,,
    2026-11-20 18:00:00,Push,1h,Bench Press (Barbell),2,100,5,0,0,,,
    """

  /// A Hevy export in pounds and miles, with no `users.csv` row: the user reads pounds and
  /// miles. Every set counts, the warm-up too: the unit is the person's.
  @Test func aHevyPoundExportWithoutAUsersRowIsAPoundUser() throws {
    let ingest = try Self.ingest([("hevy.csv", Self.hevyPounds)])
    #expect(ingest.statedUnits == UnitTally(pounds: 3, miles: 3))
    #expect(UserSettings().units(stated: ingest.statedUnits) == Units(weight: .lb, distance: .mi))
  }

  /// The same workout in two overlapping exports is counted once, as its sets are.
  @Test func duplicatesAreNotCounted() throws {
    let ingest = try Self.ingest([("hevy-1.csv", Self.hevyPounds), ("hevy-2.csv", Self.hevyPounds)])
    #expect(ingest.statedUnits == UnitTally(pounds: 3, miles: 3))
  }

  /// A unit assumed from the settings is not a statement: an unstated Strong export counts
  /// nothing, and the defaults decide.
  @Test func anUnstatedExportLeavesItToTheDefaults() throws {
    let ingest = try Self.ingest([("strong.csv", Self.strongUnstated)])
    #expect(ingest.statedUnits == UnitTally())
    #expect(UserSettings().units(stated: ingest.statedUnits) == .metric)
    let poundDefaults = UserSettings(read: ReadSettings(weightUnit: .pounds, distanceUnit: .miles))
    #expect(poundDefaults.units(stated: ingest.statedUnits) == Units(weight: .lb, distance: .mi))
  }

  /// Strong's `Weight Unit` column: two sets in lbs, one in kg, so pounds.
  @Test func theUnitOfMostSetsWins() throws {
    let strong = """
      Date,Workout Name,Exercise Name,Set Order,Weight,Weight Unit,Reps,Distance,Distance Unit,Seconds
      2026-11-20 18:00:00,Push,Bench Press (Barbell),1,225,lbs,5,,,
      2026-11-20 18:00:00,Push,Bench Press (Barbell),2,225,lbs,5,,,
      2026-11-21 18:00:00,Pull,Deadlift (Barbell),1,140,kg,5,,,
      """
    let ingest = try Self.ingest([("strong.csv", strong)])
    #expect(ingest.statedUnits == UnitTally(kilograms: 1, pounds: 2))
    // No distance was stated, so the defaults' kilometres.
    #expect(UserSettings().units(stated: ingest.statedUnits) == Units(weight: .lb, distance: .km))
  }

  /// One set in kilograms (a native file's `weightUnit`) and one in pounds: a tie, which the
  /// pipeline's defaults decide.
  @Test func aTieGoesToTheDefaults() throws {
    let native = """
      {"weightUnit": "kg", "sessions": [{"id": "a", "start": "2026-11-20T18:00:00Z", "name": "A",
       "sets": [{"exercise": "Squat", "weight": 100, "reps": 5}]}]}
      """
    let hevy = """
      title,start_time,end_time,exercise_title,set_index,set_type,weight_lbs,reps
      B,"21 Nov 2026, 08:40","21 Nov 2026, 09:40",Squat,0,normal,225,5
      """
    let ingest = try Self.ingest([("a.json", native), ("b.csv", hevy)])
    #expect(ingest.statedUnits == UnitTally(kilograms: 1, pounds: 1))
    #expect(UserSettings().units(stated: ingest.statedUnits).weight == .kg)
    let poundDefaults = UserSettings(read: ReadSettings(weightUnit: .pounds))
    #expect(poundDefaults.units(stated: ingest.statedUnits).weight == .lb)
  }

  /// `users.csv` names the units the person reads, over what the exports stated; a blank cell
  /// leaves that unit to the exports.
  @Test func theUsersRowWins() throws {
    let users = UsersFile(bytes: Array("user,weightUnit,distanceUnit\nethan,kg,\nmia,lb,mi\n".utf8))
    let pounds = try Self.ingest([("hevy.csv", Self.hevyPounds)]).statedUnits
    let ethan = try users.settings(for: "ethan", defaults: UserSettings())
    #expect(ethan.units(stated: pounds) == Units(weight: .kg, distance: .mi))
    let unstated = try Self.ingest([("strong.csv", Self.strongUnstated)]).statedUnits
    let mia = try users.settings(for: "mia", defaults: UserSettings())
    #expect(mia.units(stated: unstated) == Units(weight: .lb, distance: .mi))
    // No row: the exports, then the defaults.
    #expect(try users.settings(for: "noa", defaults: UserSettings()).units(stated: pounds).weight == .lb)
  }

  /// A shard keeps only its users' rows of the table, though it reads every line: a problem
  /// on another shard's line stops it as it stops that shard. A partition's table refuses a
  /// row of another partition's user (`anna` is partition 4bb, `ben` 92a).
  @Test func aShardKeepsItsOwnRowsAndAPartitionItsOwnUsers() {
    let text = "user,timeZone,plan\nanna,UTC,gold\nben,Asia/Tokyo,\u{07}\nanna,UTC,gold\nben,UTC,\u{07}\n"
    let kept = UsersFile(bytes: Array(text.utf8), groupBy: "plan", keeping: { $0 == "anna" })
    #expect(Array(kept.rows.keys) == ["anna"])
    #expect(kept.repeated == ["anna": [2, 4]])
    // Both of ben's bad segments, though ben is not kept: every shard stops on the same lines.
    #expect(kept.problems.map(\.line) == [3, 5])
    let other = UsersFile(bytes: Array(text.utf8), groupBy: "plan", keeping: { $0 == "ben" })
    #expect(other.problems.map(\.line) == [3, 5])
    let partition = UsersFile(
      bytes: Array("user,timeZone\nanna,UTC\nben,UTC\n".utf8), file: "4bb/users.csv", partition: 0x4bb)
    #expect(Array(partition.rows.keys) == ["anna"])
    #expect(partition.rows["anna"]?.file == "4bb/users.csv")
    #expect(
      partition.problems.map(\.description) == [
        "4bb/users.csv:3:1: error: user 'ben' belongs to partition 92a; move the row to its users.csv"
      ])
    // A row without a user is no one's, in a partition's table as in a flat one.
    #expect(UsersFile(bytes: Array("user,timeZone\n,,\n".utf8), partition: 0x4bb).problems.isEmpty)
  }

  /// Segments are counted over every partition's table: 60 in each of two is 120, more than
  /// the 100 a `compare.groupBy` column may hold, though each table alone has fewer.
  @Test func segmentsAreCountedOverEveryPartitionsTable() {
    func table(_ range: Range<Int>) -> UsersFile {
      let rows = range.map { "u\($0),p\($0)\n" }.joined()
      return UsersFile(bytes: Array(("user,plan\n" + rows).utf8), groupBy: "plan", keeping: { _ in false })
    }
    var first = table(0..<60)
    #expect(first.problems.isEmpty)
    first.add(table(60..<120))
    #expect(first.problems.isEmpty)
    first.checkSegmentCount(groupBy: "plan")
    #expect(first.problems.map(\.message).first?.contains("more values than the 100 segments") == true)
  }

  /// StrongLifts fills one weight column, or both: one states its unit, both state none.
  @Test func strongLiftsStatesTheColumnItFills() throws {
    let header =
      "Date,Note,Body Weight (KG),Body Weight (LB),Exercise 1,Weight (KG),Weight (LB),Set 1,Set 2,Set 3,Set 4,Set 5"
    let poundsOnly = try Self.ingest([("sl.csv", header + "\n13/02/26,,,183.4,Squat,,95,5,5,5,5,5\n")])
    #expect(poundsOnly.statedUnits == UnitTally(pounds: 5))
    let both = try Self.ingest([("sl.csv", header + "\n13/02/26,,,183.4,Squat,43,95,5,5,5,5,5\n")])
    #expect(both.statedUnits == UnitTally())
  }
}
