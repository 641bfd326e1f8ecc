import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport

/// `trendline generate`: a deterministic synthetic corpus in every supported format, for
/// benchmarks and tests (SPEC 1). The same arguments give the same bytes on every machine.
///
/// Users rotate through the formats — Strong (comma, unit-less, `1h 5m` durations), Strong
/// (semicolon, fully quoted, `Duration (sec)`, `Weight (kg)`), Hevy, FitNotes, Fitbod, native
/// JSON and NDJSON — and through time zones, weight units and week starts, written to
/// `users.csv`. Sessions are spread back from the end date every one to four days, with
/// warm-ups and exercises named as in the built-in catalog. The files are well formed: the
/// corpus measures speed and agreement, not error handling (the hostile-input corpus does that).
struct CorpusGenerator: Sendable {
  var users: Int
  var seed: UInt64
  var sessionsPerUser: Int
  /// The day the newest session may fall on (local).
  var endDate: CivilDate

  struct CivilDate: Sendable, Equatable {
    var year: Int
    var month: Int
    var day: Int
  }

  init(
    users: Int, seed: UInt64, sessionsPerUser: Int = 100, endDate: CivilDate = .init(year: 2026, month: 11, day: 28)
  ) {
    self.users = users
    self.seed = seed
    self.sessionsPerUser = sessionsPerUser
    self.endDate = endDate
  }

  enum Format: CaseIterable { case strongComma, strongQuoted, hevy, fitNotes, fitbod, native, ndjson }

  static let zones = [
    "Europe/Oslo", "America/New_York", "Asia/Tokyo", "America/Santiago", "Australia/Sydney", "UTC",
    "Europe/London",
  ]
  static let exercises = [
    "Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)",
    "Bent Over Row (Barbell)", "Pull Up", "Bicep Curl (Barbell)", "Triceps Pushdown (Cable - Straight Bar)",
    "Lat Pulldown (Cable)", "Romanian Deadlift (Barbell)", "Hip Thrust (Barbell)", "Leg Press",
  ]
  static let workoutNames = ["Push", "Pull", "Legs", "Upper", "Lower", "Full Body"]

  /// The header of the `users.csv` the generator writes.
  static let settingsHeader = "user,timeZone,weightUnit,distanceUnit,firstWeekday\n"

  /// The entries of `folder` the generator would not write: anything but hidden entries,
  /// `g<5 digits>.csv`/`.json`/`.ndjson` files and a `users.csv` that starts with the
  /// generator's header. A corpus is written over only where it holds nothing else, so
  /// `generate --output` aimed at a folder of real exports cannot overwrite its `users.csv`
  /// (SPEC 11.7). Empty when the folder does not exist.
  ///
  /// - Complexity: O(*e*), where *e* is the number of entries of `folder`.
  static func foreignEntries(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { name in
      if name.hasPrefix(".") { return false }
      // A link is never generate's: writing its name would write its target, wherever that is.
      var status = stat()
      guard lstat(folder.path + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return true }
      if name == "users.csv" {
        let head = (try? FileHandle(forReadingFrom: folder.appendingPathComponent(name)))
          .flatMap { try? $0.read(upToCount: settingsHeader.utf8.count) }
        return head != Data(settingsHeader.utf8)
      }
      let parts = name.split(separator: ".", maxSplits: 1)
      guard parts.count == 2, ["csv", "json", "ndjson"].contains(parts[1]) else { return true }
      let id = parts[0].utf8
      return !(id.count == 6 && id.first == UInt8(ascii: "g") && id.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
    }.sorted()
  }

  /// Writes the corpus into `folder` (created if needed): `users.csv` and one export per user;
  /// with `layout` `partitioned`, each user in the folder of their partition, and each
  /// partition's `users.csv` there (``UserLayout``). The caller checks ``foreignEntries(in:)``
  /// first.
  ///
  /// - Complexity: O(*u* × *s*), users × sessions per user.
  func write(to folder: URL, layout: UserLayout = .flat) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var settings = Self.settingsHeader
    var partitionSettings: [String: String] = [:]
    for index in 0..<users {
      var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
      let id = "g" + String(format: "%05d", index + 1)
      let zone = Self.zones[index % Self.zones.count]
      let pounds = random.next() % 10 < 3
      let sunday = index % 3 == 1
      let row = "\(id),\(zone),\(pounds ? "lb" : "kg"),km,\(sunday ? "sunday" : "monday")\n"
      let format = Format.allCases[index % Format.allCases.count]
      let sessions = makeSessions(&random, pounds: pounds)
      let (name, text) = render(sessions, format: format, user: id, zone: zone, pounds: pounds)
      let prefix = layout.folderPrefix(of: id)
      if prefix.isEmpty {
        settings += row
      } else {
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent(prefix, isDirectory: true), withIntermediateDirectories: true)
        partitionSettings[prefix, default: Self.settingsHeader] += row
      }
      try Data(text.utf8).write(to: folder.appendingPathComponent(prefix + id + name))
    }
    guard layout == .partitioned else {
      return try Data(settings.utf8).write(to: folder.appendingPathComponent("users.csv"))
    }
    for (prefix, rows) in partitionSettings {
      try Data(rows.utf8).write(to: folder.appendingPathComponent(prefix + "users.csv"))
    }
  }

  struct GeneratedSet {
    var exercise: String
    var weight: Double
    var reps: Int
    var warmup: Bool
  }

  struct GeneratedSession {
    var local: CivilDateTime
    var minutes: Int
    var name: String
    var sets: [GeneratedSet]
  }

  private func makeSessions(_ random: inout SplitMix64, pounds: Bool) -> [GeneratedSession] {
    var day = RFC3339.days(fromCivil: Int64(endDate.year), month: Int64(endDate.month), day: Int64(endDate.day))
    var sessions: [GeneratedSession] = []
    // No session before 2000: a long history steps back a day at a time instead, several
    // sessions a day, so every row stays a valid one.
    let floor = RFC3339.days(fromCivil: 2000, month: 1, day: 1)
    let spread = Int64(sessionsPerUser) * 5 / 2 > day - floor
    for _ in 0..<sessionsPerUser {
      let (y, m, d) = RFC3339.civilDate(fromDays: day)
      let hour = 6 + Int(random.next() % 15)
      let local = CivilDateTime(year: Int(y), month: Int(m), day: Int(d), hour: hour, minute: Int(random.next() % 60))
      var sets: [GeneratedSet] = []
      let exerciseCount = 3 + Int(random.next() % 3)
      for _ in 0..<exerciseCount {
        let exercise = Self.exercises[Int(random.next() % UInt64(Self.exercises.count))]
        // Whole kilograms, or whole pounds written in the user's unit.
        let base = Double(20 + random.next() % 100)
        sets.append(GeneratedSet(exercise: exercise, weight: (base / 2).rounded(), reps: 10, warmup: true))
        for _ in 0..<(2 + Int(random.next() % 3)) {
          sets.append(GeneratedSet(exercise: exercise, weight: base, reps: 3 + Int(random.next() % 10), warmup: false))
        }
      }
      sessions.append(
        GeneratedSession(
          local: local, minutes: 30 + Int(random.next() % 60),
          name: Self.workoutNames[Int(random.next() % UInt64(Self.workoutNames.count))], sets: sets))
      day -= spread ? Int64(random.next() % 2) : 1 + Int64(random.next() % 4)
      if day < floor { day = floor }
    }
    return sessions.reversed()
  }

  private func render(_ sessions: [GeneratedSession], format: Format, user: String, zone: String, pounds: Bool)
    -> (suffix: String, text: String)
  {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    func stamp(_ t: CivilDateTime) -> String {
      "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute)):00"
    }
    let number = NumberText.text
    /// A local start without an offset, as the native format's `start` may be written.
    func localStart(_ t: CivilDateTime) -> String {
      "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):00"
    }
    /// Strong's `Set Order`: `W` for a warm-up, else the working sets counted from 1.
    func setOrders(_ sets: [GeneratedSet]) -> [String] {
      var order = 0
      return sets.map { set in
        guard !set.warmup else { return "W" }
        order += 1
        return String(order)
      }
    }
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    var out = ""
    switch format {
    case .strongComma:
      out = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
      for session in sessions {
        for (set, setOrder) in zip(session.sets, setOrders(session.sets)) {
          out += "\(stamp(session.local)),\"\(session.name)\",\(session.minutes)m,\"\(set.exercise)\",\(setOrder),"
          out += "\(number(set.weight)).0,\(set.reps),0,0,,,\n"
        }
      }
      return (".csv", out)
    case .strongQuoted:
      out =
        "\"Workout #\";\"Date\";\"Workout Name\";\"Duration (sec)\";\"Exercise Name\";\"Set Order\";\"Weight (kg)\";"
        + "\"Reps\";\"RPE\";\"Distance (meters)\";\"Seconds\";\"Notes\";\"Workout Notes\"\n"
      for (ordinal, session) in sessions.enumerated() {
        for (set, setOrder) in zip(session.sets, setOrders(session.sets)) {
          out += "\"\(ordinal + 1)\";\"\(stamp(session.local))\";\"\(session.name)\";\"\(session.minutes * 60)\";"
          out += "\"\(set.exercise)\";\"\(setOrder)\";\"\(set.weight)\";\"\(set.reps)\";\"\";\"\";\"\";\"\";\"\"\n"
        }
      }
      return (".csv", out)
    case .hevy:
      let unit = pounds ? "weight_lbs" : "weight_kg"
      out =
        "\"title\",\"start_time\",\"end_time\",\"description\",\"exercise_title\",\"superset_id\",\"exercise_notes\","
        + "\"set_index\",\"set_type\",\"\(unit)\",\"reps\",\"distance_km\",\"duration_seconds\",\"rpe\"\n"
      for session in sessions.reversed() {
        let t = session.local
        let endMinutes = t.hour * 60 + t.minute + session.minutes
        let start = "\(t.day) \(months[t.month - 1]) \(t.year), \(two(t.hour)):\(two(t.minute))"
        let end = "\(t.day) \(months[t.month - 1]) \(t.year), \(two(endMinutes / 60)):\(two(endMinutes % 60))"
        var index: [String: Int] = [:]
        for set in session.sets {
          let i = index[set.exercise, default: 0]
          index[set.exercise] = i + 1
          out += "\"\(session.name)\",\"\(start)\",\"\(end)\",\"\",\"\(set.exercise)\",,\"\",\(i),"
          out += "\"\(set.warmup ? "warmup" : "normal")\",\(number(set.weight)),\(set.reps),,0,\n"
        }
      }
      return (".csv", String(out.dropLast()))
    case .fitNotes:
      out = "Date,Exercise,Category,Weight (\(pounds ? "lbs" : "kgs")),Reps,Distance,Distance Unit,Time\n"
      for session in sessions {
        let t = session.local
        for set in session.sets where !set.warmup {
          out += "\(t.year)-\(two(t.month))-\(two(t.day)),\(set.exercise),Strength,\(set.weight),\(set.reps),,,\n"
        }
      }
      return (".csv", out)
    case .fitbod:
      out = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier\n"
      for session in sessions.reversed() {
        for set in session.sets {
          // Fitbod writes UTC with an offset; the local time is read as if in UTC here.
          out += "\(stamp(session.local)) +0000,\(set.exercise), \(set.reps),\(set.weight),0.0,0.0,0.0,0.0,"
          out += "\(set.warmup),, 1.0\n"
        }
      }
      return (".csv", out)
    case .native:
      // Both JSON formats are written by the one JSON writer, one line as a person writes
      // JSON inline; NDJSON one set per line.
      var writer = OutputWriter(layout: OutputWriter.Layout(spacing: .inline))
      writer.beginObject()
      writer.member("weightUnit", pounds ? "lb" : "kg")
      writer.key("sessions")
      writer.beginArray()
      for (ordinal, session) in sessions.enumerated() {
        writer.beginObject()
        writer.member("id", "s\(ordinal + 1)")
        writer.member("start", localStart(session.local))
        writer.member("durationSeconds", session.minutes * 60)
        writer.member("name", session.name)
        writer.key("sets")
        writer.beginArray()
        for set in session.sets {
          writer.beginObject()
          writer.member("exercise", set.exercise)
          writer.key("weight")
          writer.number(text: number(set.weight))
          writer.member("reps", set.reps)
          if set.warmup { writer.member("type", "warmup") }
          writer.endObject()
        }
        writer.endArray()
        writer.endObject()
      }
      writer.endArray()
      writer.endObject()
      return (".json", String(decoding: writer.bytes, as: UTF8.self) + "\n")
    case .ndjson:
      for (ordinal, session) in sessions.enumerated() {
        for (index, set) in session.sets.enumerated() {
          var writer = OutputWriter(layout: OutputWriter.Layout(spacing: .inline))
          writer.beginObject()
          writer.member("session", "s\(ordinal + 1)")
          writer.member("start", localStart(session.local))
          writer.member("durationSeconds", session.minutes * 60)
          writer.member("exercise", set.exercise)
          writer.key("weight")
          writer.number(text: number(set.weight))
          writer.member("reps", set.reps)
          writer.member("index", index)
          if set.warmup { writer.member("type", "warmup") }
          writer.endObject()
          out += String(decoding: writer.bytes, as: UTF8.self) + "\n"
        }
      }
      return (".ndjson", out)
    }
  }
}
