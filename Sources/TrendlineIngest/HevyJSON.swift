import Foundation
import TrendlineSchema
import TrendlineSupport

/// Hevy's JSON, as its workouts API returns it (SPEC 11.3, EXPORT-FORMATS §10.3): one page
///
///     {"page": 1, "page_count": 2, "workouts": [{"id": "…", "title": "Push",
///       "start_time": "2026-06-23T07:52:37+00:00", "end_time": "2026-06-23T08:40:02+00:00",
///       "exercises": [{"index": 0, "title": "Bench Press (Barbell)", "superset_id": null,
///         "sets": [{"index": 0, "type": "warmup", "weight_kg": 40, "reps": 10,
///                   "distance_meters": null, "duration_seconds": null, "rpe": null}]}]}]}
///
/// per file, or the workouts alone: an array of them, or one workout object. A row, for the
/// accounting, is one set, as in native JSON (SPEC 9.12); a workout or an exercise with no set
/// holds no row.
///
/// The API writes kilograms, metres and seconds whatever the user's settings, so the file
/// states no unit the user reads (SPEC 10.8), and instants with an offset, so no zone is
/// applied. A session is keyed as a Hevy CSV export keys it — the start, to the minute, and
/// the title — so that a workout in a JSON page and in a CSV export of the same user is one
/// session, taken whole from the newer file (SPEC 3); pages of one history meet the same way.
/// Two different workouts of one title started within one minute are therefore one session,
/// as the CSV export can only make them: all their sets are read, the session has the first
/// one's start and length. Keyed apart, a CSV export newer than the JSON would count the
/// second workout twice (in the CSV's session and in the JSON's own).
///
/// What it deliberately does not read: `rpe`, `superset_id`, notes and `custom_metric`, which
/// no output uses. The workout's `id`, which a CSV export does not carry, only tells a workout
/// written twice in one file.
enum HevyJSON {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    let reader = JSONReader(maxDepth: limits.maxJSONDepth, maxStringBytes: limits.maxFieldBytes)
    // Workouts are decoded one at a time as the parser completes them, as native sessions are:
    // the tree of a whole page is many times its size.
    let shape = documentShape(bytes, reader: reader)
    var result = FileIngest(file: file, format: .hevyJSON)
    let decoder = Decoder(settings: settings)
    let document: JSONDocument
    do {
      switch shape {
      case .page(let offset), .array(let offset):
        document = try reader.parseDocument(bytes, streamingElementsAt: offset) { workout in
          decoder.readWorkout(workout, into: &result)
        }
      case .other:
        document = try reader.parseDocument(bytes)
      }
    } catch {
      throw ExportError(file: file, line: error.line, column: error.column, message: limitHint(error))
    }
    switch shape {
    case .page, .array:
      break
    case .other:
      // One workout object (a single `GET /v1/workouts/{id}`), read whole.
      guard document.value.objectMembers != nil, document.value["exercises"] != nil else {
        throw ExportError(file: file, message: shapeMessage)
      }
      decoder.readWorkout(document, into: &result)
    }
    return result
  }

  static let shapeMessage =
    "a Hevy JSON export is an object with a \"workouts\" array (a page of the workouts API), "
    + "an array of workouts, or one workout object with \"exercises\""

  private enum Shape {
    /// `{"workouts": [...]}`: the array's first byte.
    case page(Int)
    /// `[...]` at the root.
    case array(Int)
    case other
  }

  /// Where the workouts are, found by a scan of the top level (brackets and strings only).
  private static func documentShape(_ bytes: [UInt8], reader: JSONReader) -> Shape {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, bytes[start] <= ASCII.space { start += 1 }
    if start < bytes.count && bytes[start] == UInt8(ascii: "[") { return .array(start) }
    // The last `workouts` member is the one read, as a lookup reads a repeated key; one that
    // is no array is reported by the check below as a file of another shape.
    if let members = reader.topLevelMembers(bytes), let range = members.last(where: { $0.key == "workouts" })?.value,
      bytes[range.lowerBound] == UInt8(ascii: "[")
    {
      return .page(range.lowerBound)
    }
    return .other
  }

  /// Turns workouts into sets, remembering across workouts which sessions the file has read.
  final class Decoder {
    let resolver: ZoneResolver
    /// Workouts already read from this file, with the line each starts on, by `id` and by
    /// what they hold: a workout written twice in one file (pages joined by hand) is read once.
    private var seenIDs: [String: Int] = [:]
    private var seenContents: [Content: (any: Int, withoutID: Int?)] = [:]
    private var duplicates = DuplicateSetFilter()
    /// The last exercise title, as written and normalized: an exercise's sets share one.
    private var lastExercise: (text: String, name: String)?

    init(settings: ReadSettings) {
      resolver = ZoneResolver(timeZone: settings.timeZone)
    }

    /// A value at fault, by its key: the native JSON reader's, whose rejects read alike.
    typealias Problem = NativeSetDecoder.Problem

    /// What a workout holds: its start to the second, its title and a digest of its sets.
    struct Content: Hashable {
      var start: Int64
      var name: String
      var sets: Int
    }

    /// A workout's session key, title, start and length: what a native JSON session states.
    typealias Header = NativeSetDecoder.SessionHeader

    /// Reads one workout (the root of `document`): each of its sets accepted, rejected (at the
    /// key at fault) or a duplicate.
    func readWorkout(_ document: JSONDocument, into result: inout FileIngest) {
      let workoutNode = document.root
      let workout = workoutNode.value
      func place(_ node: JSONDocument.Node, _ key: String) -> (line: Int, column: Int) {
        document.location(of: document.member(key, of: node) ?? node)
      }
      // A workout that is not an object, or whose exercises are not an array, holds no set to
      // count; it is one rejected row all the same, so that it cannot vanish unaccounted.
      let exercisesValue = workout.objectMembers == nil ? nil : workout["exercises"]
      guard workout.objectMembers != nil, let exercises = exercisesValue?.arrayValue else {
        let isObject = workout.objectMembers != nil
        let at = isObject ? place(workoutNode, "exercises") : document.location(of: workoutNode)
        result.counts.read += 1
        result.note(
          .rejected, line: at.line, column: at.column, field: isObject ? "exercises" : "",
          reason: isObject ? "exercises must be an array of exercises" : "a workout must be an object")
        return
      }
      let exerciseNodes = document.member("exercises", of: workoutNode).map(document.elements) ?? []
      // Each exercise's sets, or nil for an exercise that is no object with a `sets` array.
      var setNodes: [[JSONDocument.Node]?] = []
      setNodes.reserveCapacity(exercises.count)
      for node in exerciseNodes {
        guard node.value.objectMembers != nil, let sets = document.member("sets", of: node),
          sets.value.arrayValue != nil
        else {
          setNodes.append(nil)
          continue
        }
        setNodes.append(document.elements(of: sets))
      }

      let header: Header
      do throws(Problem) {
        header = try self.header(workout)
      } catch {
        // Every set of an unreadable workout is a rejected row, at the key at fault.
        let at = place(workoutNode, error.key)
        // An exercise that is no object with a `sets` array is one row, as below.
        for sets in setNodes {
          for _ in 0..<(sets?.count ?? 1) {
            result.counts.read += 1
            result.note(.rejected, line: at.line, column: at.column, field: error.key, reason: error.reason)
          }
        }
        return
      }
      let firstLine = document.location(of: workoutNode).line
      let repeated = repeatedWorkout(workout, header: header, exercises: exercises, line: firstLine)
      // A block of sets is one workout's: two workouts of one session (one title, one minute)
      // that hold equal sets are two workouts, not a set written twice.
      duplicates = DuplicateSetFilter()
      let droppedAt = header.droppedDuration.map { _ in place(workoutNode, "end_time") }

      for (exerciseIndex, exerciseNode) in exerciseNodes.enumerated() {
        guard let sets = setNodes[exerciseIndex] else {
          let isObject = exerciseNode.value.objectMembers != nil
          let at = isObject ? place(exerciseNode, "sets") : document.location(of: exerciseNode)
          result.counts.read += 1
          result.note(
            .rejected, line: at.line, column: at.column, field: isObject ? "sets" : "",
            reason: isObject ? "sets must be an array of sets" : "an exercise must be an object")
          continue
        }
        var exercise = ""
        var exerciseProblem: Problem?
        do throws(Problem) {
          exercise = try exerciseName(exerciseNode.value)
        } catch {
          exerciseProblem = error
        }
        for setNode in sets {
          result.counts.read += 1
          let line = document.location(of: setNode).line
          if let exerciseProblem {
            let at = place(exerciseNode, exerciseProblem.key)
            result.note(
              .rejected, line: at.line, column: at.column, field: exerciseProblem.key, reason: exerciseProblem.reason)
            continue
          }
          if let repeated {
            result.note(
              .duplicate, line: line, column: 1, field: "",
              reason: "repeats the workout at line \(repeated.line): the same workout (\(repeated.same)) is written "
                + "twice in the file")
            continue
          }
          do throws(Problem) {
            var (set, assistance) = try self.set(setNode.value, header: header, exercise: exercise, line: line)
            // A repaired set is listed at its weight, and carries that line, by which the merge
            // withdraws the note if the set turns out a duplicate of a newer export.
            let assisted = assistance.map { _ in place(setNode, "weight_kg") }
            if let assisted { set.line = assisted.line }
            if let original = duplicates.original(of: set) {
              result.note(.duplicate, line: line, column: 1, field: "", reason: DuplicateSetFilter.reason(original))
              continue
            }
            if let assistance, let at = assisted {
              result.note(.repaired, line: at.line, column: at.column, field: "weight_kg", reason: assistance)
            }
            if let dropped = header.droppedDuration, let at = droppedAt {
              result.note(.valueDropped, line: at.line, column: at.column, field: "end_time", reason: dropped)
              set.droppedValueLine = Int32(clamping: at.line)
            }
            result.sets.append(set)
          } catch {
            let at = place(setNode, error.key)
            result.note(.rejected, line: at.line, column: at.column, field: error.key, reason: error.reason)
          }
        }
      }
    }

    /// The workout at whose line `workout` is a repeat, and what they share; nil for a
    /// workout of its own, which is remembered. A repeat is the same workout: the same `id`
    /// when both have one; else the same start to the second, title and sets (their values
    /// as written: exercise titles, and each set's index, type, weight, reps, distance and
    /// time). Two workouts with different ids, or different sets, are two workouts, read both.
    ///
    /// Sets are compared by a 64-bit digest, so that what a file's workouts hold is not kept
    /// twice: two different workouts of one start second and title are taken for one only if
    /// their digests collide, about one chance in 2⁶⁴.
    ///
    /// - Complexity: O(*s*) for a workout of *s* sets.
    private func repeatedWorkout(_ workout: JSONValue, header: Header, exercises: [JSONValue], line: Int)
      -> (line: Int, same: String)?
    {
      let id = workout["id"].flatMap { $0.stringValue ?? $0.numberText }.flatMap { $0.isEmpty ? nil : $0 }
      if let id, let first = seenIDs[id] { return (first, "the same id") }
      let content = Content(start: header.start, name: header.name, sets: Self.digest(exercises))
      let earlier = seenContents[content]
      // A workout with an id repeats one with the same content only when that one had no id.
      if let first = id == nil ? earlier?.any : earlier?.withoutID {
        if let id { seenIDs[id] = first }
        return (first, "the same start, title and sets")
      }
      if let id { seenIDs[id] = line }
      seenContents[content] = (earlier?.any ?? line, id == nil ? line : earlier?.withoutID)
      return nil
    }

    /// Keys of a set whose values make it the set it is.
    private static let setKeys = [
      "index", "type", "indicator", "weight_kg", "reps", "distance_meters", "duration_seconds",
    ]

    /// A digest of `exercises`' titles and their sets' values (``setKeys``), as written.
    private static func digest(_ exercises: [JSONValue]) -> Int {
      var hasher = Hasher()
      hasher.combine(exercises.count)
      for exercise in exercises {
        guard exercise.objectMembers != nil else {
          combine(exercise, into: &hasher)
          continue
        }
        combine(exercise["title"], into: &hasher)
        let sets = exercise["sets"]?.arrayValue
        guard let sets else {
          combine(exercise["sets"], into: &hasher)
          continue
        }
        hasher.combine(sets.count)
        for set in sets {
          guard set.objectMembers != nil else {
            combine(set, into: &hasher)
            continue
          }
          for key in setKeys { combine(set[key], into: &hasher) }
        }
      }
      return hasher.finalize()
    }

    /// `value` as written, into `hasher`: absent, null and each kind of value told apart.
    private static func combine(_ value: JSONValue?, into hasher: inout Hasher) {
      switch value {
      case nil: hasher.combine(0)
      case .null: hasher.combine(1)
      case .bool(let flag):
        hasher.combine(2)
        hasher.combine(flag)
      case .number(let text):
        hasher.combine(3)
        hasher.combine(text)
      case .string(let text):
        hasher.combine(4)
        hasher.combine(text)
      case .array(let elements):
        hasher.combine(5)
        hasher.combine(elements.count)
        for element in elements { combine(element, into: &hasher) }
      case .object(let members):
        hasher.combine(6)
        hasher.combine(members.count)
        for member in members {
          hasher.combine(member.key)
          combine(member.value, into: &hasher)
        }
      }
    }

    /// The workout's session: start, length and name.
    func header(_ workout: JSONValue) throws(Problem) -> Header {
      let start = try instant(workout, "start_time")
      var duration: Int64?
      var dropped: String?
      if let value = workout["end_time"], !value.isNull {
        let end: Int64
        if let seconds = try Self.unixSeconds(value, "end_time") {
          end = seconds
        } else {
          guard let text = value.stringValue, let parsed = TimestampParser.parse(text) else {
            throw Problem(key: "end_time", reason: "end_time is not a date and time")
          }
          // A local end (the API writes offsets) is placed after the start (SPEC 9.6).
          end =
            parsed.offsetSeconds.map { parsed.civil.localSeconds - Int64($0) }
            ?? resolver.instant(localSeconds: parsed.civil.localSeconds, notBefore: start)
        }
        let text = value.stringValue ?? value.numberText ?? ""
        // Subtracted in Double: two instants a year apart each way cannot overflow it.
        let seconds = Double(end) - Double(start)
        if seconds < 0 {
          dropped = "end_time '\(text)' is before start_time; the duration is dropped, the sets kept"
        } else if seconds > WorkoutLength.maximumSeconds {
          dropped =
            "end_time '\(text)' is more than 24 hours after start_time (a timer left running); "
            + "the duration is dropped, the sets kept"
        } else {
          duration = end - start
        }
      }
      var name = ""
      // The app's own feed names a workout `name` where the public API writes `title`.
      let nameKey = workout["title"] == nil && workout["name"] != nil ? "name" : "title"
      if let value = workout[nameKey], !value.isNull {
        guard let text = value.stringValue else { throw Problem(key: nameKey, reason: "\(nameKey) is not a string") }
        name = normalizedName(text)
        if let problem = NameLimit.problem(name) { throw Problem(key: nameKey, reason: problem) }
      }
      // To the minute, as Hevy's CSV writes `start_time`: the same workout in both is one key.
      let minute = start - ((start % 60) + 60) % 60
      return Header(
        key: sessionKey(start: minute, name: name), name: name, start: start, durationSeconds: duration,
        droppedDuration: dropped)
    }

    private func instant(_ object: JSONValue, _ key: String) throws(Problem) -> Int64 {
      if let value = object[key], let seconds = try Self.unixSeconds(value, key) {
        if let problem = StartLimits.problem(seconds, text: value.numberText ?? "") {
          throw Problem(key: key, reason: problem)
        }
        return seconds
      }
      guard let text = object[key]?.stringValue else {
        throw Problem(key: key, reason: "\(key) is missing or not a date and time")
      }
      guard let parsed = TimestampParser.parse(text) else {
        throw Problem(key: key, reason: "'\(text)' is not a date and time")
      }
      let value =
        parsed.offsetSeconds.map { parsed.civil.localSeconds - Int64($0) }
        ?? resolver.instant(localSeconds: parsed.civil.localSeconds)
      if let problem = StartLimits.problem(value, text: text) { throw Problem(key: key, reason: problem) }
      return value
    }

    /// A time written as a number: Unix seconds, as the app's own feed writes `start_time`
    /// (`1786529006`); nil for a value that is no number.
    private static func unixSeconds(_ value: JSONValue, _ key: String) throws(Problem) -> Int64? {
      guard value.numberText != nil else { return nil }
      // Bounded before the conversion, which would trap on 1e300.
      guard let seconds = value.doubleValue, seconds == seconds.rounded(),
        abs(seconds) <= Double(StartLimits.range.upperBound)
      else {
        throw Problem(key: key, reason: "\(key) \(value.numberText ?? "") is not a whole number of Unix seconds")
      }
      return Int64(seconds)
    }

    private func exerciseName(_ exercise: JSONValue) throws(Problem) -> String {
      guard let text = exercise["title"]?.stringValue else {
        throw Problem(key: "title", reason: "the exercise title is missing or not a string")
      }
      if let last = lastExercise, last.text == text { return last.name }
      let name = normalizedName(text)
      guard !name.isEmpty else { throw Problem(key: "title", reason: "the exercise title is empty") }
      if let problem = NameLimit.problem(name) { throw Problem(key: "title", reason: problem) }
      lastExercise = (text, name)
      return name
    }

    /// One set. `null` or a missing value is empty: 0, as an empty cell of Hevy's CSV export
    /// (SPEC 9.5) — a body-weight set has `"weight_kg": null`, a weight set
    /// `"distance_meters": null` — and a set's numbers have no unknown of their own to keep.
    /// A negative weight on an assisted exercise is its assistance: no load, and the reason to
    /// list the set as repaired, as every reader does (``AssistedExercise``, SPEC 11.3).
    func set(_ object: JSONValue, header: Header, exercise: String, line: Int) throws(Problem)
      -> (set: ExportSet, assistance: String?)
    {
      guard object.objectMembers != nil else { throw Problem(key: "", reason: "a set must be an object") }
      func number(_ key: String) throws(Problem) -> (value: Double, text: String) {
        guard let value = object[key], !value.isNull else { return (0, "") }
        guard let text = value.numberText else {
          throw Problem(key: key, reason: "\(key) must be a number, found \(Self.describe(value))")
        }
        guard let number = value.doubleValue else { throw Problem(key: key, reason: "\(key) is not a finite number") }
        return (number, text)
      }
      // The limits every format checks, with their words (`weight '-5' is negative`).
      func check(_ key: String, _ body: () throws(FieldProblem) -> Void) throws(Problem) {
        do throws(FieldProblem) { try body() } catch { throw Problem(key: key, reason: error.reason) }
      }
      let weight = try number("weight_kg")
      var load: (kilograms: Double, assistance: FieldProblem?) = (0, nil)
      try check("weight_kg") { () throws(FieldProblem) in
        load = try AssistedExercise.load(weight.value, exercise: exercise, index: 0, text: weight.text)
      }
      let reps = try number("reps")
      try check("reps") { () throws(FieldProblem) in try SetLimits.checkReps(reps.value, index: 0, text: reps.text) }
      let meters = try number("distance_meters")
      try check("distance_meters") { () throws(FieldProblem) in
        try SetLimits.checkDistance(meters.value, index: 0, text: meters.text)
      }
      let seconds = try number("duration_seconds")
      // A set's time, as a CSV's `duration_seconds`: 0 to 24 hours.
      guard seconds.value >= 0 else {
        throw Problem(key: "duration_seconds", reason: "duration '\(seconds.text)' is negative")
      }
      guard seconds.value <= WorkoutLength.maximumSeconds else {
        throw Problem(key: "duration_seconds", reason: "duration '\(seconds.text)' is longer than 24 hours")
      }
      var type = SetType.normal
      // The app's own feed writes the set type as `indicator`.
      let typeKey = object["type"] == nil && object["indicator"] != nil ? "indicator" : "type"
      if let value = object[typeKey], !value.isNull {
        guard let text = value.stringValue, let known = Self.setType(text) else {
          throw Problem(key: typeKey, reason: "\(typeKey) must be normal, warmup, dropset or failure")
        }
        type = known
      }
      var index: Int?
      if let value = object["index"], !value.isNull {
        // The bound of a CSV's `set_index`: a set number beyond a million is no set number.
        guard let number = value.int64Value, number >= 0, number <= 1_000_000 else {
          throw Problem(key: "index", reason: "index must be a whole number from 0 to 1000000")
        }
        index = Int(number)
      }
      let set = ExportSet(
        line: line, sessionKey: header.key, sessionName: header.name, start: header.start,
        durationSeconds: header.durationSeconds, exercise: exercise, setIndex: index, type: type,
        weightKg: load.kilograms, reps: reps.value, distanceMeters: meters.value, seconds: seconds.value)
      return (set, load.assistance?.reason)
    }

    /// Hevy's set types, as its CSV export's `set_type` is read (any case).
    static func setType(_ text: String) -> SetType? {
      switch text.trimmingCharacters(in: .whitespaces).lowercased() {
      case "normal": return .normal
      case "warmup", "warm_up", "warm-up": return .warmup
      case "dropset", "drop_set", "drop-set": return .dropset
      case "failure": return .failure
      default: return nil
      }
    }

    private static func describe(_ value: JSONValue) -> String {
      if let text = value.stringValue { return "the string '\(text.prefix(40))'" }
      if value.boolValue != nil { return "true or false" }
      if value.arrayValue != nil { return "an array" }
      return "an object"
    }
  }
}

extension HevyJSON {
  /// How far into a JSON file the sniffer looks for Hevy's keys: a page's `workouts` key is
  /// within its first bytes, and a workout's `exercise_template_id` within its first exercise.
  /// An empirically generous bound: a workout's description before its exercises is a few
  /// hundred bytes.
  static let sniffWindow = 1 << 16

  /// Whether the JSON text starting at `start` is Hevy's: a root object with a `workouts`
  /// member, or workouts — objects with `start_time` and `exercises`, or any object with
  /// `exercise_template_id` — whatever the order of their keys and however the text is laid
  /// out over lines. Keys are told from string values by the `:` after them; a native JSON
  /// file (a root `sessions` member) is never taken.
  ///
  /// - Complexity: O(min(*n*, ``sniffWindow``)), where *n* is the number of bytes.
  static func sniff(_ bytes: [UInt8], from start: Int) -> Bool {
    let end = min(bytes.count, start + sniffWindow)
    guard start < end else { return false }
    let rootIsArray = bytes[start] == UInt8(ascii: "[")
    // The depth at which a workout's own keys sit: 1 in a root object, 2 in a root array.
    let workoutDepth = rootIsArray ? 2 : 1
    var depth = 0
    var index = start
    var hasStart = false
    var hasExercises = false
    func key(_ range: Range<Int>, is word: String) -> Bool { bytes[range].elementsEqual(word.utf8) }
    while index < end {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        index += 1
      case UInt8(ascii: "\""):
        let text = index + 1
        index = text
        while index < end && bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
        guard index < end else { return false }
        let range = text..<index
        index += 1
        var after = index
        while after < end && bytes[after] <= ASCII.space { after += 1 }
        guard after < end, bytes[after] == UInt8(ascii: ":") else { continue }
        if key(range, is: "exercise_template_id") { return true }
        if depth == 1 && !rootIsArray {
          if key(range, is: "workouts") { return true }
          if key(range, is: "sessions") { return false }
        }
        if depth == workoutDepth {
          if key(range, is: "start_time") { hasStart = true }
          if key(range, is: "exercises") { hasExercises = true }
          if hasStart && hasExercises { return true }
        }
      default:
        index += 1
      }
    }
    return false
  }
}
