import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// A user's time zone (SPEC 11.9): their `users.csv` cell, else the zone their exports state (a
/// native file's `timeZone`, the one stated for most rows), else the pipeline's default. The
/// zone the user has reads every file that states none, and lays out their calendar.
@Suite final class UserZoneTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-zone-\(UUID().uuidString)")
  static let lookup = ExerciseLookup(catalog: Catalog(muscleGroups: [], exercises: []))

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// One session at 18:00 on `day`, local to the file (`YYYY-MM-DD`), stating `zone` if given.
  static func native(_ day: String, zone: String?) -> String {
    let stated = zone.map { #""timeZone": "\#($0)", "# } ?? ""
    return #"{\#(stated)"sessions": [{"id": "s-\#(day)", "start": "\#(day)T18:00:00", "durationSeconds": 3600, "#
      + #""sets": [{"exercise": "Squat (Barbell)", "weight": 100, "reps": 5}]}]}"#
  }

  /// One Strong session at 18:00 on `day`: wall time, no zone.
  static func strong(_ day: String) -> String {
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
      + "\(day) 18:00:00,Legs,1h,Squat (Barbell),1,100,5,0,0,,,\n"
  }

  func read(_ files: [(String, String)], listed zone: String? = nil) throws -> (UserIngest, UserSettings) {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let urls = try files.map { name, text in
      let url = folder.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      return url
    }
    var settings = UserSettings()
    if let zone {
      settings.read.timeZone = TimeZone(identifier: zone)!
      settings.listedTimeZone = settings.read.timeZone
    }
    let ingest = try UserReader.read(
      UserInput(id: "lena", files: urls), settings: settings, options: .init(lookup: Self.lookup)
    ).ingest
    return (ingest, settings.settlingZone(statedIn: ingest))
  }

  func starts(_ ingest: UserIngest) -> [String] {
    ingest.sessions.map { RFC3339.format(seconds: $0.start, timeZone: TimeZone(identifier: "UTC")!) }
  }

  /// A blank cell: her native export says Europe/Berlin, so her zone is Berlin, and her Strong
  /// export's 18:00 on 21 November is 18:00 in Berlin (17:00Z, winter time), not 18:00 UTC.
  @Test func theZoneHerExportStatesIsHers() throws {
    let (ingest, settings) = try read([
      ("a.json", Self.native("2026-11-20", zone: "Europe/Berlin")), ("b.csv", Self.strong("2026-11-21")),
    ])
    #expect(ingest.statedTimeZone?.identifier == "Europe/Berlin")
    #expect(settings.read.timeZone.identifier == "Europe/Berlin")
    #expect(starts(ingest) == ["2026-11-20T17:00:00+00:00", "2026-11-21T17:00:00+00:00"])
  }

  /// The cell wins: New York reads the Strong export (18:00 EST = 23:00Z); the native file
  /// still reads its own times in the zone it states (SPEC 9.4).
  @Test func aUsersCellWins() throws {
    let (ingest, settings) = try read(
      [("a.json", Self.native("2026-11-20", zone: "Europe/Berlin")), ("b.csv", Self.strong("2026-11-21"))],
      listed: "America/New_York")
    #expect(settings.read.timeZone.identifier == "America/New_York")
    #expect(starts(ingest) == ["2026-11-20T17:00:00+00:00", "2026-11-21T23:00:00+00:00"])
  }

  /// Two zones stated for as many rows: which is hers cannot be told, so the default (UTC) is.
  @Test func aTieLeavesItToTheDefault() throws {
    let (ingest, settings) = try read([
      ("a.json", Self.native("2026-11-20", zone: "Europe/Berlin")),
      ("b.json", Self.native("2026-11-22", zone: "Asia/Tokyo")), ("c.csv", Self.strong("2026-11-21")),
    ])
    #expect(ingest.statedTimeZone == nil)
    #expect(settings.read.timeZone == ReadSettings().timeZone)
    #expect(
      starts(ingest) == ["2026-11-20T17:00:00+00:00", "2026-11-21T18:00:00+00:00", "2026-11-22T09:00:00+00:00"])
  }

  /// No export states a zone: the default, as before.
  @Test func noStatedZoneIsTheDefault() throws {
    let (ingest, settings) = try read([("a.json", Self.native("2026-11-20", zone: nil))])
    #expect(ingest.statedTimeZone == nil)
    #expect(settings.read.timeZone == ReadSettings().timeZone)
    #expect(starts(ingest) == ["2026-11-20T18:00:00+00:00"])
  }
}
