import Foundation
import TrendlineSchema
import TrendlineSupport

/// Trendline's own JSON export (SPEC 2):
///
///     {"weightUnit": "kg", "timeZone": "Europe/Oslo",
///      "sessions": [{"id": "a1", "start": "2026-11-20T18:00:00+01:00", "durationSeconds": 3600,
///                    "name": "Push", "sets": [{"exercise": "Bench Press (Barbell)",
///                    "weight": 80, "reps": 5, "type": "warmup", "index": 0}]}]}
///
/// A row, for the accounting, is one set. `start` is RFC 3339 with an offset, or a local
/// `YYYY-MM-DDTHH:MM:SS` read in the file's `timeZone` (else the user's). `weight` and
/// `distance` are in the file's `weightUnit`/`distanceUnit` (else the user's); `seconds` is
/// seconds. A session's sets are rejected together when the session itself is unreadable.
enum NativeJSON {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    let reader = JSONReader(maxDepth: limits.maxJSONDepth, maxStringBytes: limits.maxFieldBytes)
    // The file's units and zone may be written after its sessions, yet every set needs them:
    // a scan of the top level finds them first, so that each session can be decoded as soon
    // as it is parsed and dropped. The whole tree of a large file costs many times its size
    // (a 250 MB file of tiny sets took 4.9 GB); a session at a time costs a session.
    let members = reader.topLevelMembers(bytes) ?? []
    var settings = settings
    var stated = StatedUnits()
    var settingsProblem: SettingProblem?
    do throws(SettingProblem) {
      try applyFileSettings(members, bytes: bytes, reader: reader, to: &settings, stated: &stated)
    } catch {
      settingsProblem = error
    }

    var result = FileIngest(file: file, format: .nativeJSON)
    if settingsProblem == nil, members.contains(where: { $0.key == "timeZone" }) {
      result.statedTimeZone = settings.timeZone
    }
    let decoder = NativeSetDecoder(settings: settings, stated: stated)
    var duplicates = DuplicateSetFilter()
    // The last `sessions` member is the one read, as a lookup reads a repeated key.
    let sessionsOffset = members.last(where: { $0.key == "sessions" })?.value.lowerBound ?? -1
    let document: JSONDocument
    do {
      document = try reader.parseDocument(bytes, streamingElementsAt: sessionsOffset) { session in
        readSession(session, decoder: decoder, duplicates: &duplicates, into: &result)
      }
    } catch {
      throw ExportError(file: file, line: error.line, column: error.column, message: limitHint(error))
    }
    let root = document.value
    guard root.objectMembers != nil, root["sessions"]?.arrayValue != nil else {
      throw ExportError(
        file: file, message: "a native JSON export is an object with a \"sessions\" array")
    }
    if let settingsProblem {
      let place = document.location(of: JSONPath([.key(settingsProblem.key)])) ?? (1, 1)
      throw ExportError(file: file, line: place.line, column: place.column, message: settingsProblem.message)
    }
    return result
  }

  /// Reads one session (the root of `document`) into `result`: its sets, or one rejected row
  /// per set when the session itself is unreadable.
  private static func readSession(
    _ document: JSONDocument, decoder: NativeSetDecoder, duplicates: inout DuplicateSetFilter,
    into result: inout FileIngest
  ) {
    // Places are found by walking down from the session's node, never from the file's root:
    // a file of rejected sets stays linear (SPEC 10.4 lists each with its line).
    let sessionNode = document.root
    let session = sessionNode.value
    func place(_ node: JSONDocument.Node, _ key: String) -> (line: Int, column: Int) {
      document.location(of: document.member(key, of: node) ?? node)
    }
    // A session that is not an object, or whose `sets` is not an array, holds no set to
    // count; it is one rejected row all the same, so that it cannot vanish unaccounted.
    let setsValue = session.objectMembers == nil ? nil : session["sets"]
    guard session.objectMembers != nil, setsValue == nil || setsValue?.arrayValue != nil else {
      let isObject = session.objectMembers != nil
      let place = isObject ? place(sessionNode, "sets") : document.location(of: sessionNode)
      result.counts.read += 1
      result.note(
        .rejected, line: place.line, column: place.column, field: isObject ? "sets" : "",
        reason: isObject ? "sets must be an array of sets" : "a session must be an object")
      return
    }
    let sets = setsValue?.arrayValue ?? []
    let header: NativeSetDecoder.SessionHeader
    do throws(NativeSetDecoder.Problem) {
      header = try decoder.sessionHeader(session, idKey: "id")
    } catch {
      // Every set of an unreadable session is a rejected row.
      let place = place(sessionNode, error.key)
      for _ in sets {
        result.counts.read += 1
        result.note(.rejected, line: place.line, column: place.column, field: error.key, reason: error.reason)
      }
      return
    }
    // A dropped duration is listed on every set of its session, at the one place it is
    // written, looked up once per such session.
    let droppedAt = header.droppedDuration.map { _ in place(sessionNode, "durationSeconds") }
    // The sets' nodes, made when the first of them is rejected: once per session at most.
    var setNodes: [JSONDocument.Node]?
    for (setIndex, set) in sets.enumerated() {
      result.counts.read += 1
      do throws(NativeSetDecoder.Problem) {
        // An accepted set's line is not looked up: only a rejected set, whose line a person
        // needs, pays for finding it.
        var (parsed, assistance) = try decoder.set(set, session: header, line: 0)
        if let original = duplicates.original(of: parsed) {
          result.note(.duplicate, line: 0, column: 1, field: "", reason: DuplicateSetFilter.reason(original))
        } else {
          if let assistance {
            // A repaired set is listed at its weight, so it is placed (rare: assisted sets only),
            // and keeps that line, by which the merge withdraws the note if the set turns out a
            // duplicate of a newer export.
            if setNodes == nil { setNodes = document.member("sets", of: sessionNode).map(document.elements) ?? [] }
            let place = place(setNodes![setIndex], "weight")
            result.note(.repaired, line: place.line, column: place.column, field: "weight", reason: assistance)
            parsed.line = place.line
          }
          if let dropped = header.droppedDuration, let place = droppedAt {
            result.note(
              .valueDropped, line: place.line, column: place.column, field: "durationSeconds", reason: dropped)
            parsed.droppedValueLine = Int32(clamping: place.line)
          }
          result.sets.append(parsed)
        }
      } catch {
        if setNodes == nil { setNodes = document.member("sets", of: sessionNode).map(document.elements) ?? [] }
        let place = place(setNodes![setIndex], error.key)
        result.note(.rejected, line: place.line, column: place.column, field: error.key, reason: error.reason)
      }
    }
  }

  /// A file-level setting that cannot be used, by its key.
  struct SettingProblem: Error {
    var key: String
    var message: String
  }

  /// A file's own `weightUnit`, `distanceUnit` and `timeZone` win over the user's (SPEC 9.4);
  /// the units it names are `stated` for every set (SPEC 10.8).
  private static func applyFileSettings(
    _ members: [(key: String, value: Range<Int>)], bytes: [UInt8], reader: JSONReader,
    to settings: inout ReadSettings, stated: inout StatedUnits
  ) throws(SettingProblem) {
    func value(_ key: String) -> JSONValue? {
      guard let range = members.last(where: { $0.key == key })?.value else { return nil }
      // A value that does not parse is reported by the parse of the whole file, with its place.
      return try? bytes[range].withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try reader.parse(buffer) }
    }
    if let value = value("weightUnit") {
      guard let text = value.stringValue, let unit = WeightUnit(spelling: text) else {
        throw SettingProblem(key: "weightUnit", message: "weightUnit must be \"kg\" or \"lb\"")
      }
      settings.weightUnit = unit
      stated.weight = unit
    }
    if let value = value("distanceUnit") {
      guard let text = value.stringValue, let unit = DistanceUnit(spelling: text) else {
        throw SettingProblem(key: "distanceUnit", message: "distanceUnit must be \"km\", \"mi\" or \"m\"")
      }
      settings.distanceUnit = unit
      stated.distance = unit
    }
    if let value = value("timeZone") {
      guard let text = value.stringValue, let zone = TimeZone(identifier: text) else {
        throw SettingProblem(key: "timeZone", message: "timeZone must be an IANA zone name such as \"Europe/Oslo\"")
      }
      settings.timeZone = zone
    }
  }
}

/// NDJSON: one set per line, each a native set plus its session's `session` (id), `start`,
/// `durationSeconds` and optional `name`. Blank lines are ignored; a line that is not a JSON
/// object is rejected and the next line read.
enum NDJSON {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    var result = FileIngest(file: file, format: .ndjson)
    let decoder = NativeSetDecoder(settings: settings)
    var duplicates = DuplicateSetFilter()
    var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var lineNumber = 1
    let reader = JSONReader(maxDepth: limits.maxJSONDepth, maxStringBytes: limits.maxFieldBytes)
    while lineStart < bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count && bytes[lineEnd] != ASCII.newline { lineEnd += 1 }
      defer {
        lineStart = lineEnd + 1
        lineNumber += 1
      }
      var contentEnd = lineEnd
      if contentEnd > lineStart && bytes[contentEnd - 1] == ASCII.carriageReturn { contentEnd -= 1 }
      let line = bytes[lineStart..<contentEnd]
      result.counts.read += 1
      if line.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) {
        result.ignoreBlankLine()
        continue
      }
      let value: JSONValue
      do {
        value = try line.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
          try reader.parse(buffer)
        }
      } catch {
        result.note(.rejected, line: lineNumber, column: error.column, field: "", reason: limitHint(error))
        continue
      }
      do throws(NativeSetDecoder.Problem) {
        guard value.objectMembers != nil else {
          throw NativeSetDecoder.Problem(key: "", reason: "a line must be one JSON object (a set)")
        }
        let header = try decoder.sessionHeader(value, idKey: "session")
        var (set, assistance) = try decoder.set(value, session: header, line: lineNumber)
        if let original = duplicates.original(of: set) {
          result.note(.duplicate, line: lineNumber, column: 1, field: "", reason: DuplicateSetFilter.reason(original))
        } else {
          if let assistance {
            result.note(.repaired, line: lineNumber, column: 1, field: "weight", reason: assistance)
          }
          if let dropped = header.droppedDuration {
            result.note(.valueDropped, line: lineNumber, column: 1, field: "durationSeconds", reason: dropped)
            set.droppedValueLine = Int32(clamping: lineNumber)
          }
          result.sets.append(set)
        }
      } catch {
        result.note(.rejected, line: lineNumber, column: 1, field: error.key, reason: error.reason)
      }
    }
    return result
  }
}

/// Reads the session and set fields that native JSON and NDJSON share.
final class NativeSetDecoder {
  struct Problem: Error {
    var key: String
    var reason: String
  }

  struct SessionHeader {
    var key: String
    var name: String
    var start: Int64
    var durationSeconds: Int64?
    /// Why a stated duration was dropped (SPEC 10.2), listed on each of the session's sets.
    var droppedDuration: String?
  }

  let settings: ReadSettings
  /// The units the file names at its top level; NDJSON names none.
  let stated: StatedUnits
  let resolver: ZoneResolver
  /// The last exercise name read, as written and normalized.
  private var lastExercise: (text: String, name: String)?

  init(settings: ReadSettings, stated: StatedUnits = StatedUnits()) {
    self.settings = settings
    self.stated = stated
    resolver = ZoneResolver(timeZone: settings.timeZone)
  }

  func sessionHeader(_ object: JSONValue, idKey: String) throws(Problem) -> SessionHeader {
    guard let startText = object["start"]?.stringValue else {
      throw Problem(key: "start", reason: "start is missing or not a string")
    }
    guard let parsed = TimestampParser.parse(startText) else {
      throw Problem(key: "start", reason: "'\(startText)' is not a date and time")
    }
    let start: Int64
    if let offset = parsed.offsetSeconds {
      start = parsed.civil.localSeconds - Int64(offset)
    } else {
      start = resolver.instant(localSeconds: parsed.civil.localSeconds)
    }
    if let problem = StartLimits.problem(start, text: startText) {
      throw Problem(key: "start", reason: problem)
    }
    var duration: Int64?
    var dropped: String?
    if let value = object["durationSeconds"], !value.isNull {
      guard let seconds = value.doubleValue else {
        throw Problem(key: "durationSeconds", reason: "durationSeconds is not a number")
      }
      dropped = WorkoutLength.problem(seconds, text: value.numberText ?? "")
      if dropped == nil { duration = Int64(seconds.rounded(.down)) }
    }
    let name = normalizedName(object["name"]?.stringValue ?? "")
    if let problem = NameLimit.problem(name) { throw Problem(key: "name", reason: problem) }
    let key: String
    switch object[idKey] {
    case .string(let id)?: key = "id:" + id
    case .number(let id)?: key = "id:" + id
    default: key = sessionKey(start: start, name: name)
    }
    return SessionHeader(key: key, name: name, start: start, durationSeconds: duration, droppedDuration: dropped)
  }

  /// One set, and why its weight was read other than as written (a negative weight on an
  /// assisted exercise: no load, SPEC 11.3), to list the set as repaired.
  func set(_ object: JSONValue, session: SessionHeader, line: Int) throws(Problem)
    -> (set: ExportSet, assistance: String?)
  {
    guard let exerciseText = object["exercise"]?.stringValue else {
      throw Problem(key: "exercise", reason: "exercise is missing or not a string")
    }
    // Consecutive sets nearly always name the same exercise: they share one String, not one
    // each, which for a file of tiny sets was a sixth of its memory.
    let exercise: String
    if let last = lastExercise, last.text == exerciseText {
      exercise = last.name
    } else {
      exercise = normalizedName(exerciseText)
      guard !exercise.isEmpty else { throw Problem(key: "exercise", reason: "the exercise name is empty") }
      if let problem = NameLimit.problem(exercise) { throw Problem(key: "exercise", reason: problem) }
      lastExercise = (exerciseText, exercise)
    }

    func number(_ key: String) throws(Problem) -> Double {
      guard let value = object[key], !value.isNull else { return 0 }  // SPEC 9.5
      if let text = value.stringValue {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return 0 }
        throw Problem(key: key, reason: "\(key) must be a number, found the string '\(text)'")
      }
      guard let number = value.doubleValue else {
        throw Problem(key: key, reason: "\(key) is not a finite number")
      }
      return number
    }
    var weightKg = settings.weightUnit.kilograms(try number("weight"))
    var assistance: String?
    if weightKg < 0, AssistedExercise.contains(exercise) {
      // The assistance's own size is range-checked below as a weight would be.
      assistance = AssistedExercise.reason(object["weight"]?.numberText ?? "")
      weightKg = -weightKg
    }
    guard weightKg >= 0 else { throw Problem(key: "weight", reason: "weight is negative") }
    guard weightKg <= SetLimits.maximumWeightKg else {
      throw Problem(key: "weight", reason: "weight is more than 1500 kg")
    }
    let reps = try number("reps")
    guard reps >= 0, reps <= SetLimits.maximumReps else {
      throw Problem(key: "reps", reason: "reps \(reps) is not between 0 and 1000")
    }
    let distance = try number("distance")
    guard distance >= 0 else { throw Problem(key: "distance", reason: "distance is negative") }
    let meters = settings.distanceUnit.meters(distance)
    // Bounded, not only finite (1e308 miles is no finite distance in metres): SetLimits says why.
    guard meters <= SetLimits.maximumDistanceMeters else {
      throw Problem(key: "distance", reason: "distance is more than 1000 km")
    }
    let seconds = try number("seconds")
    guard seconds >= 0 else { throw Problem(key: "seconds", reason: "seconds is negative") }
    guard seconds <= SetLimits.maximumSeconds else {
      throw Problem(key: "seconds", reason: "seconds is more than 86400 (24 hours)")
    }

    var type = SetType.normal
    if let value = object["type"], !value.isNull {
      guard let text = value.stringValue, let known = SetType(rawValue: text.lowercased()) else {
        throw Problem(key: "type", reason: "type must be normal, warmup, dropset or failure")
      }
      type = known
    }
    var index: Int?
    if let value = object["index"], !value.isNull {
      // A set number is kept in 32 bits (`FileSets`).
      guard let number = value.int64Value, number >= 0, number <= Int64(Int32.max) else {
        throw Problem(key: "index", reason: "index must be a whole number from 0 to 2147483647")
      }
      index = Int(number)
    }
    var muscleGroupIds: [Int]?
    if let value = object["muscleGroupIds"], !value.isNull {
      guard let ids = value.arrayValue?.compactMap({ $0.int64Value.map(Int.init) }),
        ids.count == value.arrayValue?.count
      else {
        throw Problem(key: "muscleGroupIds", reason: "muscleGroupIds must be an array of whole numbers")
      }
      muscleGroupIds = ids
    }
    let set = ExportSet(
      line: line, sessionKey: session.key, sessionName: session.name, start: session.start,
      durationSeconds: session.durationSeconds, exercise: exercise,
      muscleGroupIds: muscleGroupIds, setIndex: index, type: type, weightKg: assistance == nil ? weightKg : 0,
      reps: reps, distanceMeters: meters, seconds: seconds, stated: stated)
    return (set, assistance)
  }
}
