import Foundation
import TrendlineSchema
import TrendlineSupport

/// Narrows a user's sessions to what one question is about: one exercise, the legs, the push
/// days, working sets only. Sessions → sessions; several filters in a chain narrow further.
///
/// Within one filter every criterion given must hold, and within a list any entry may match
/// ("Bench Press or Squat, and only working sets"). Set criteria (`exercises`,
/// `muscleGroupIds`, `setTypes`) keep the matching sets of each session; `workouts` keeps or
/// drops whole sessions by name. A session left with no set is dropped, so it counts nowhere.
/// A kept session keeps its duration, the whole workout's: an exercise's share of a workout is
/// not recorded by any app.
///
/// Exercise names are resolved through the catalog when the pipeline is loaded (a name or an
/// alias, any case), so a typo is an error before any input is read rather than an empty chart.
/// Workout names match in any case; `*` and `?` make a pattern (`"Leg*"`). Patterns are globs,
/// not regular expressions, so matching is linear in the name whatever the pattern.
public struct Filter: Sendable, Equatable {
  /// Catalog names.
  public var exercises: [String]?
  public var muscleGroupIds: [Int]?
  /// Exact names or glob patterns, matched in any case.
  public var workouts: [String]?
  public var setTypes: [SetType]?

  public init(
    exercises: [String]? = nil, muscleGroupIds: [Int]? = nil, workouts: [String]? = nil, setTypes: [SetType]? = nil
  ) {
    self.exercises = exercises
    self.muscleGroupIds = muscleGroupIds
    self.workouts = workouts
    self.setTypes = setTypes
  }

  /// The sessions that match, each with only its matching sets.
  ///
  /// - Complexity: O(*n* × (*s* × *c* + *w* × *l*)) for *n* sessions of *s* sets, *c* criteria
  ///   entries, *w* workout names of length *l*.
  public func apply(_ sessions: [Session]) -> [Session] {
    let exercises = self.exercises.map(Set.init)
    let groups = self.muscleGroupIds.map(Set.init)
    let types = self.setTypes.map(Set.init)
    let workouts = self.workouts?.map { Array($0.lowercased().unicodeScalars) }
    var kept: [Session] = []
    kept.reserveCapacity(sessions.count)
    // Whether each exercise of a table matches, decided once per table: an ingest's sessions
    // share one, so a name is hashed once per user, not once per set.
    var table: [TrainedExercise] = []
    var matches: [Bool] = []
    for var session in sessions {
      if let workouts {
        let name = Array(session.name.lowercased().unicodeScalars)
        guard workouts.contains(where: { Self.glob($0, matches: name) }) else { continue }
      }
      if exercises != nil || groups != nil || types != nil {
        if !session.sharesExercises(table) {
          table = session.exercises
          matches = table.map { exercise in
            (exercises?.contains(exercise.name) ?? true)
              && (groups.map { !$0.isDisjoint(with: exercise.muscleGroupIds) } ?? true)
          }
        }
        session.sets = session.sets.filter { set in
          matches[Int(set.exercise)] && (types?.contains(set.type) ?? true)
        }
      }
      if !session.sets.isEmpty { kept.append(session) }
    }
    return kept
  }

  /// Whether `pattern` (`*` any run, `?` any one scalar, else itself) matches all of `text`.
  ///
  /// The classic greedy match with one backtrack point: a `*` remembers where it was, and a
  /// mismatch retries from one scalar further. O(*p* × *t*) at worst, no recursion.
  ///
  /// - Complexity: O(*p* × *t*) for a pattern of *p* and a text of *t* scalars.
  static func glob(_ pattern: [Unicode.Scalar], matches text: [Unicode.Scalar]) -> Bool {
    var p = 0
    var t = 0
    var star: (pattern: Int, text: Int)?
    while t < text.count {
      if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) && pattern[p] != "*" {
        p += 1
        t += 1
      } else if p < pattern.count && pattern[p] == "*" {
        star = (p, t)
        p += 1
      } else if let last = star {
        p = last.pattern + 1
        t = last.text + 1
        star = (last.pattern, last.text + 1)
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}

extension Filter: SessionStage {
  public static let key = "filter"
  public static let summary =
    "Keeps the sessions and sets of given exercises, muscle groups, workout names or set types."
  public static let reads: [StageData] = [.sessions]
  public static let produces = StageData.sessions
  public static let repeatable = true
  static let parameterKeys = ["exercises", "muscleGroupIds", "workouts", "setTypes"]
  /// Entries in one list: far more than any question names, few enough that matching every
  /// session against every pattern stays cheap.
  public static let maxEntries = 100
  /// A workout name or pattern, in characters: the longest name ingest keeps.
  public static let maxNameLength = 200

  /// `{"exercises": ["Bench Press"], "muscleGroupIds": [8, 10], "workouts": ["Leg*"],
  /// "setTypes": ["normal"]}`, at least one of them, no list empty.
  ///
  /// - Complexity: O(*e* × *c*) for *e* exercise names and a catalog of *c* names and aliases.
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> Filter? {
    let reader = context.reader
    guard let members = reader.object(value, at: path, keys: parameterKeys) else { return nil }
    guard !members.isEmpty else {
      context.report(path, .filterNeedsACriterion(keys: parameterKeys))
      return nil
    }
    var valid = true
    func names(_ key: String) -> [String]? {
      guard let value = members[key] else { return nil }
      guard let elements = reader.array(value, at: path.appending(key), nonEmpty: true) else {
        valid = false
        return nil
      }
      guard elements.count <= maxEntries else {
        context.report(path.appending(key), .tooMany(what: "entries", limit: maxEntries, found: elements.count))
        valid = false
        return nil
      }
      var names: [String] = []
      for (index, element) in elements.enumerated() {
        let elementPath = path.appending(key).appending(index)
        if let name = reader.string(element, at: elementPath, nonEmpty: true) {
          guard name.count <= maxNameLength else {
            context.report(elementPath, .nameTooLong(limit: maxNameLength, found: name.count))
            valid = false
            continue
          }
          names.append(name)
        } else {
          valid = false
        }
      }
      return names
    }
    var exercises = names("exercises")
    if let given = exercises, let catalog = context.catalog {
      exercises = []
      let index = CatalogNames(catalog)
      for (position, name) in given.enumerated() {
        if let found = index.name(for: name) {
          exercises!.append(found)
        } else {
          context.report(
            path.appending("exercises").appending(position),
            .exerciseNotInCatalog(name, nearest: nearMiss(name, in: index.all)))
          valid = false
        }
      }
    }
    let workouts = names("workouts")
    var groups: [Int]?
    if let value = members["muscleGroupIds"] {
      groups = reader.muscleGroupIds(value, at: path.appending("muscleGroupIds"), nonEmpty: true)
      if groups == nil {
        valid = false
      } else if let catalog = context.catalog {
        let known = Set(catalog.muscleGroups.map(\.id))
        for (position, id) in groups!.enumerated() where !known.contains(id) {
          context.report(path.appending("muscleGroupIds").appending(position), .muscleGroupNotInCatalog(id))
          valid = false
        }
      }
    }
    var types: [SetType]?
    if let value = members["setTypes"] {
      if let elements = reader.array(value, at: path.appending("setTypes"), nonEmpty: true) {
        types = []
        for (index, element) in elements.enumerated() {
          if let type: SetType = reader.choice(
            element, at: path.appending("setTypes").appending(index), what: "set type")
          {
            types!.append(type)
          } else {
            valid = false
          }
        }
      } else {
        valid = false
      }
    }
    guard valid else { return nil }
    return Filter(exercises: exercises, muscleGroupIds: groups, workouts: workouts, setTypes: types)
  }

  public var settings: [String] {
    var parts: [String] = []
    if let exercises { parts.append("exercises " + exercises.map { "'\($0)'" }.joined(separator: ", ")) }
    if let muscleGroupIds { parts.append("muscleGroupIds " + muscleGroupIds.map(String.init).joined(separator: ", ")) }
    if let workouts { parts.append("workouts " + workouts.map { "'\($0)'" }.joined(separator: ", ")) }
    if let setTypes { parts.append("setTypes " + setTypes.map(\.rawValue).joined(separator: ", ")) }
    return [parts.joined(separator: "; ")]
  }

  /// ``apply(_:)`` in a chart.
  ///
  /// - Complexity: that of ``apply(_:)``.
  public func apply(_ sessions: [Session], in context: ChartContext) -> [Session] { apply(sessions) }
}

/// The catalog's exercise names and aliases, looked up as normalization does: trimmed, NFC,
/// any case, to the catalog's name.
struct CatalogNames {
  private var byKey: [String: String] = [:]
  /// Every catalog name, for did-you-mean.
  let all: [String]

  init(_ catalog: Catalog) {
    all = catalog.exercises.map(\.name)
    for exercise in catalog.exercises {
      for name in [exercise.name] + exercise.aliases where byKey[Self.key(name)] == nil {
        byKey[Self.key(name)] = exercise.name
      }
    }
  }

  func name(for written: String) -> String? { byKey[Self.key(written)] }

  static func key(_ name: String) -> String {
    // Most catalog names are ASCII, and Foundation's NFC and trimming cost about 10 µs a name on
    // Linux: with 4,800 names and aliases that was 50 ms per filter. ASCII needs neither.
    if name.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 || $0 == 0x20 }), name.first != " ", name.last != " " {
      return name.lowercased()
    }
    return name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
  }
}
