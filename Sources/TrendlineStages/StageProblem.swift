import TrendlineSchema
import TrendlineSupport

/// What a stage's own checks can find wrong with its parameters, as data: each stage reports a
/// case, and the words are written here, once, so tests pin them and stages that check the same
/// thing (a measure the bucket does not count) say it alike. Problems every object can have
/// (an unknown key, a wrong type, a number out of range) are ``ParameterReader``'s.
public enum StageProblem: Equatable, Sendable {
  /// `bands` or `streak` names a measure the chart's bucket does not count.
  case measureNotInBucket(stage: String, measure: Measure, bucket: [Measure])
  case measureListedTwice(Measure)
  /// A list longer than the stage allows: `what` is its plural noun.
  case tooMany(what: String, limit: Int, found: Int)
  case levelShape(found: String)
  case levelOutOfRange(found: String)
  case levelsMustRise(found: String, previous: String)
  case filterNeedsACriterion(keys: [String])
  case nameTooLong(limit: Int, found: Int)
  case exerciseNotInCatalog(String, nearest: String?)
  case muscleGroupNotInCatalog(Int)
  case windowNotWithEwma
  case ewmaNeedsAlpha
  case alphaOutOfRange(found: String)
  case alphaOnlyWithEwma
  case atLeastOutOfRange(found: String)

  public var message: String {
    switch self {
    case .measureNotInBucket(let stage, let measure, _):
      return "'\(stage)' names measure '\(measure.rawValue)', which this chart's bucket does not have"
    case .measureListedTwice(let measure): return "measure '\(measure.rawValue)' is listed twice"
    case .tooMany(let what, let limit, let found): return "at most \(limit) \(what), found \(found)"
    case .levelShape(let found): return "a level is [from, \"label\"], found \(found)"
    case .levelOutOfRange(let found): return "a level starts between -1000000000 and 1000000000, found \(found)"
    case .levelsMustRise(let found, let previous): return "levels must rise: \(found) does not come after \(previous)"
    case .filterNeedsACriterion(let keys): return "a filter needs at least one of: \(keys.joined(separator: ", "))"
    case .nameTooLong(let limit, let found): return "a name is at most \(limit) characters, found \(found)"
    case .exerciseNotInCatalog(let name, _): return "exercise '\(name)' is not in the catalog"
    case .muscleGroupNotInCatalog(let id): return "muscle group \(id) is not in the catalog"
    case .windowNotWithEwma: return "'window' is not used by method 'ewma'"
    case .ewmaNeedsAlpha: return "method 'ewma' needs 'alpha'"
    case .alphaOutOfRange(let found): return "alpha must be greater than 0 and at most 1, found \(found)"
    case .alphaOnlyWithEwma: return "'alpha' is only used by method 'ewma'"
    case .atLeastOutOfRange(let found):
      return "atLeast must be greater than 0 and at most 1000000000, found \(found)"
    }
  }

  public var hint: String? {
    switch self {
    case .measureNotInBucket(_, _, let bucket): return "Use one of: \(bucket.map(\.rawValue).joined(separator: ", "))"
    case .measureListedTwice: return "List each measure once"
    case .tooMany, .nameTooLong, .alphaOutOfRange: return nil
    case .levelShape: return "Write it as e.g. [3, \"Regular\"]"
    case .levelOutOfRange: return "Give the measure's value where the band begins"
    case .levelsMustRise: return "List levels from the lowest value up"
    case .filterNeedsACriterion: return "Add e.g. \"exercises\": [\"Bench Press\"]"
    case .exerciseNotInCatalog(_, let nearest?): return "Did you mean '\(nearest)'?"
    case .exerciseNotInCatalog(_, nil): return "Use a catalog name or alias, or add the exercise to source.catalog"
    case .muscleGroupNotInCatalog: return "Use an id of source.catalog's muscleGroups"
    case .windowNotWithEwma: return "Remove it; ewma is shaped by 'alpha'"
    case .ewmaNeedsAlpha: return "Add \"alpha\": a number in (0, 1], e.g. 0.3"
    case .alphaOnlyWithEwma: return "Remove it, or set \"method\": \"ewma\""
    case .atLeastOutOfRange: return "Give the value a period must reach, e.g. 2 sessions"
    }
  }
}

extension StageReadContext {
  /// A measure the chart's bucket counts, for a stage after it that names one (`bands`,
  /// `streak`): a measure the chart does not count would silently never show.
  ///
  /// - Complexity: O(*m*) for *m* measures.
  public func bucketMeasure(_ value: JSONValue, at path: JSONPath, stage: String) -> Measure? {
    guard let measure: Measure = reader.choice(value, at: path, what: "measure") else { return nil }
    if let measures, !measures.contains(measure) {
      report(path, .measureNotInBucket(stage: stage, measure: measure, bucket: measures))
      return nil
    }
    return measure
  }

  /// Records `problem` at `path` (or at its member key, with `atKey`, named by `shownPath`).
  ///
  /// - Complexity: that of ``ParameterReader/report(_:_:hint:atKey:shownPath:)``.
  public func report(_ path: JSONPath, _ problem: StageProblem, atKey: Bool = false, shownPath: JSONPath? = nil) {
    reader.report(path, problem.message, hint: problem.hint, atKey: atKey, shownPath: shownPath)
  }
}
