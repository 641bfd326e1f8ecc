import Foundation
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

// `charts`: names, stage chains, and each stage's parameters.
extension PipelineChecker {
  /// A chart name becomes `<chart>.json`, so it must be a plain file name everywhere.
  static let maxChartNameLength = 64

  func charts(_ value: JSONValue, at path: JSONPath, catalog: Catalog?) -> [Chart] {
    guard let members = value.objectMembers else {
      report(path, "expected an object, found \(kind(of: value))")
      return []
    }
    if members.isEmpty {
      report(path, .noCharts)
    }
    var charts: [Chart] = []
    var seen: [String: String] = [:]  // lowercased name → name
    // Each name's members, counted once: scanning the members again for each chart was
    // quadratic in the charts, and a pipeline file of 1 MiB can name tens of thousands.
    var last: [String: (index: Int, count: Int)] = [:]
    for (index, member) in members.enumerated() {
      last[member.key] = (index, (last[member.key]?.count ?? 0) + 1)
    }
    for (index, member) in members.enumerated() {
      let chartPath = path.appending(member.key)
      guard let named = last[member.key], named.index == index else {
        // Only the last of a repeated key can be located; report it there, once.
        continue
      }
      if named.count > 1 {
        report(chartPath, .chartDefinedTwice(member.key), atKey: true)
      }
      if let earlier = seen[member.key.lowercased()] {
        report(chartPath, .chartsDifferInCase(earlier, member.key), atKey: true)
      }
      seen[member.key.lowercased()] = member.key
      if let problem = Self.chartNameProblem(member.key) {
        report(chartPath, .chartName(problem), atKey: true)
      }
      if let chart = self.chart(member.key, member.value, at: chartPath, catalog: catalog) {
        charts.append(chart)
      }
    }
    return charts
  }

  /// Why `name` cannot name a chart, or `nil` when it can.
  static func chartNameProblem(_ name: String) -> String? {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".unicodeScalars)
    if name.isEmpty { return "a chart name cannot be empty" }
    if name.unicodeScalars.count > maxChartNameLength {
      return "chart name '\(name)' is longer than \(maxChartNameLength) characters"
    }
    if !name.unicodeScalars.allSatisfy(allowed.contains) {
      return "chart name '\(name)' is not a plain file name"
    }
    // A leading dot would make a hidden `<chart>.json` that `ls` and Finder do not show.
    if name.hasPrefix(".") { return "chart name '\(name)' starts with '.'" }
    if name.hasSuffix(".") { return "chart name '\(name)' ends with '.', which Windows drops from file names" }
    // Windows refuses these as the part of a file name before its first dot, in any case, so
    // an output folder holding `con.json` could not be copied there.
    let base = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0].uppercased()
    if windowsReservedNames.contains(base) {
      return "chart name '\(name)' is a device name on Windows (\(base)), so its files could not be copied there"
    }
    return nil
  }

  /// CON, PRN, AUX, NUL, COM1–COM9 and LPT1–LPT9.
  static let windowsReservedNames: Set<String> = Set(
    ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

  /// One chart's stage chain: each element read by its stage's unit, and each stage checked to
  /// read what the stage before it produces.
  ///
  /// A stage in the wrong place is reported and then passed over, so the stages after it are
  /// judged by what the chain really holds and one misplaced stage is one diagnostic.
  func chart(_ name: String, _ value: JSONValue, at path: JSONPath, catalog: Catalog?) -> Chart? {
    guard let elements = value.arrayValue else {
      report(path, .notAStageArray(found: kind(of: value)))
      return nil
    }
    guard !elements.isEmpty else {
      let starters = StageRegistry.units.filter { $0.reads.contains(.sessions) }.map { $0.key }
      report(path, .noStages(chart: name, starters: starters))
      return nil
    }
    var stages: [any StageUnit] = []
    var valid = true
    // What the chain holds before each stage that was accepted in place, with that stage's key.
    var chain: [(key: String, holding: StageData)] = []
    var holding = StageData.sessions
    var measures: [Measure]?

    for (index, element) in elements.enumerated() {
      let elementPath = path.appending(index)
      guard let members = element.objectMembers else {
        report(elementPath, .notAStageObject(found: kind(of: element)))
        valid = false
        continue
      }
      guard members.count == 1, let stage = members.first else {
        report(elementPath, .notOneStage(keys: members.map(\.key)))
        valid = false
        continue
      }
      guard let unit = StageRegistry.unit(stage.key) else {
        report(elementPath, .unknownStage(stage.key, known: StageRegistry.keys))
        valid = false
        continue
      }
      if !unit.repeatable && chain.contains(where: { $0.key == unit.key }) {
        report(elementPath, .repeated(stage: unit.key, chart: name))
        valid = false
      } else if unit.reads.contains(holding) {
        chain.append((unit.key, holding))
        holding = unit.produces
      } else {
        report(elementPath, misplaced(unit, holding: holding, chain: chain))
        valid = false
      }
      // Parameters are checked wherever the stage stands, so one run reports everything.
      let context = StageReadContext(reader: self, catalog: catalog, measures: measures)
      guard let read = unit.read(stage.value, at: elementPath.appending(stage.key), in: context) else {
        valid = false
        continue
      }
      if let bucket = read as? Bucket { measures = bucket.measures }
      stages.append(read)
    }
    guard valid else { return nil }
    guard holding.endsAChart else {
      let enders = StageRegistry.units.filter { $0.reads.contains(.sessions) && $0.produces != .sessions }
      report(path, .endsWithSessions(chart: name, enders: enders.map { $0.key }))
      return nil
    }
    return Chart(name: name, stages: stages)
  }

  /// Why `unit` cannot stand where the chain holds `holding`, with the fix: the stage that
  /// makes what it reads, or the place further up where the chain held it.
  func misplaced(_ unit: any StageUnit.Type, holding: StageData, chain: [(key: String, holding: StageData)])
    -> PipelineProblem
  {
    if holding == .chart, let last = chain.last {
      return .followsChart(stage: unit.key, chartStage: last.key)
    }
    var fix: PipelineProblem.Fix?
    if let maker = StageRegistry.units.first(where: { $0.reads.contains(holding) && unit.reads.contains($0.produces) })
    {
      fix = .add(maker.key)
    } else if let place = chain.lastIndex(where: { unit.reads.contains($0.holding) }) {
      fix = .moveBefore(chain[place].key, orOwnChart: unit.produces == .chart)
    }
    return .misplaced(stage: unit.key, reads: unit.reads, holding: holding, fix: fix)
  }

  func report(_ path: JSONPath, _ problem: PipelineProblem, atKey: Bool = false) {
    report(path, problem.message, hint: problem.hint, atKey: atKey)
  }
}
