import TrendlineSchema
import TrendlineSupport

/// Checks that a radar's axes partition the catalog: every muscle-group id on exactly one axis
/// or in `excluded` (SPEC 5).
///
/// A new muscle group added to the catalog must fail the pipeline loudly, naming the id, rather
/// than vanish from every chart. The check reports every problem at once, so one edit of the
/// pipeline file can fix them all.
public struct AxisCoverageValidator: Sendable {
  /// One thing wrong with the axes, with the data to describe it; its text is written only in
  /// ``diagnostic``.
  public enum Problem: Sendable, Equatable {
    /// A catalog id on no axis and not excluded.
    case uncovered(id: Int, name: String)
    /// A catalog id on more than one axis, or on an axis and also excluded.
    case coveredTwice(id: Int, name: String, places: [String])
    /// An id on an axis or in `excluded` that the catalog does not have.
    case unknownId(id: Int, place: String)
    /// Two axes with one id.
    case duplicateAxis(id: String)
    /// An axis with no muscle groups, which would always read 0.
    case emptyAxis(id: String)
  }

  public var catalog: Catalog

  public init(catalog: Catalog) {
    self.catalog = catalog
  }

  /// Every problem with `radar`'s axes against the catalog, in catalog order then axis order;
  /// empty when the axes partition the catalog.
  ///
  /// - Complexity: O(*c* + *a*), where *c* is the number of catalog groups and *a* the number
  ///   of ids on axes and in `excluded`.
  public func problems(_ radar: Radar) -> [Problem] {
    var problems: [Problem] = []
    var seenAxes = Set<String>()
    for axis in radar.axes {
      if !seenAxes.insert(axis.id).inserted { problems.append(.duplicateAxis(id: axis.id)) }
      if axis.muscleGroupIds.isEmpty { problems.append(.emptyAxis(id: axis.id)) }
    }
    // Where each id appears, in axis order, "excluded" last.
    var places: [Int: [String]] = [:]
    var order: [(id: Int, place: String)] = []
    for axis in radar.axes {
      for id in axis.muscleGroupIds {
        places[id, default: []].append("axis '\(axis.id)'")
        order.append((id, "axis '\(axis.id)'"))
      }
    }
    for id in radar.excluded {
      places[id, default: []].append("excluded")
      order.append((id, "excluded"))
    }
    let known = Set(catalog.muscleGroups.map(\.id))
    for (id, place) in order where !known.contains(id) {
      problems.append(.unknownId(id: id, place: place))
    }
    for group in catalog.muscleGroups {
      let found = places[group.id] ?? []
      if found.isEmpty {
        problems.append(.uncovered(id: group.id, name: group.name))
      } else if found.count > 1 {
        problems.append(.coveredTwice(id: group.id, name: group.name, places: found))
      }
    }
    return problems
  }

  /// ``problems(_:)`` as errors, each with `path` (the radar stage's JSON path) attached.
  ///
  /// - Complexity: O(*c* + *a*), as ``problems(_:)``.
  public func validate(_ radar: Radar, path: String? = nil) -> [Diagnostic] {
    problems(radar).map { $0.diagnostic(path: path) }
  }
}

extension AxisCoverageValidator.Problem {
  /// The one place this problem's text is written, so tests can pin it.
  public func diagnostic(path: String? = nil) -> Diagnostic {
    switch self {
    case .uncovered(let id, let name):
      return Diagnostic(
        path: path, "radar: muscle group \(id) (\(name)) is on no axis and not excluded",
        hint: "Add \(id) to one axis's muscleGroupIds or to excluded")
    case .coveredTwice(let id, let name, let places):
      return Diagnostic(
        path: path,
        "radar: muscle group \(id) (\(name)) is counted more than once, on \(places.joined(separator: " and "))",
        hint: "Keep \(id) on exactly one axis, or only in excluded")
    case .unknownId(let id, let place):
      return Diagnostic(
        path: path, "radar: muscle group \(id) on \(place) is not in the catalog",
        hint: "Remove \(id), or add it to the catalog's muscleGroups")
    case .duplicateAxis(let id):
      return Diagnostic(
        path: path, "radar: axis id '\(id)' is used twice", hint: "Give each axis its own id")
    case .emptyAxis(let id):
      return Diagnostic(
        path: path, "radar: axis '\(id)' lists no muscle groups",
        hint: "Give it at least one muscle-group id, or remove it")
    }
  }
}
