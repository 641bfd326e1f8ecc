import TrendlineStages
import TrendlineSupport

/// What can be wrong with a chart's chain of stages, as data: the checker finds a case, and its
/// words are written here, once, so tests pin them and every chart says them alike.
enum ChainProblem: Equatable {
  /// The chart's array is empty; `starters` are the stages that read sessions.
  case noStages(chart: String, starters: [String])
  /// An element is an object of zero or several keys, not one stage.
  case notOneStage(keys: [String])
  case unknownStage(String, known: [String])
  /// A stage that may appear once appears again.
  case repeated(stage: String, chart: String)
  /// A stage after one that made a finished chart.
  case followsChart(stage: String, chartStage: String)
  /// A stage that does not read what the chain holds where it stands, with the fix.
  case misplaced(stage: String, reads: [StageData], holding: StageData, fix: Fix?)
  /// The chain ends holding sessions; `enders` are the stages that make something of them.
  case endsWithSessions(chart: String, enders: [String])

  enum Fix: Equatable {
    /// Add the stage that makes what this one reads.
    case add(String)
    /// Move it up, before the stage after which the chain no longer held what it reads.
    case moveBefore(String, orOwnChart: Bool)
  }

  var message: String {
    switch self {
    case .noStages(let chart, _): return "chart '\(chart)' has no stages"
    case .notOneStage(let keys) where keys.isEmpty:
      return "a stage is an object with one key, the stage's name; found none"
    case .notOneStage(let keys):
      let names = keys.map { "'\($0)'" }.joined(separator: ", ")
      return "a stage is an object with one key, the stage's name; found \(keys.count): \(names)"
    case .unknownStage(let stage, _): return "unknown stage '\(stage)'"
    case .repeated(let stage, let chart): return "stage '\(stage)' appears twice in chart '\(chart)'"
    case .followsChart(let stage, let chartStage): return "'\(stage)' follows '\(chartStage)', which ends the chart"
    case .misplaced(let stage, let reads, let holding, _):
      return
        "'\(stage)' reads \(reads.map(\.phrase).joined(separator: " or ")), but the chart holds \(holding.phrase) here"
    case .endsWithSessions(let chart, _): return "chart '\(chart)' ends with sessions, not a chart"
    }
  }

  var hint: String? {
    func quoted(_ keys: [String]) -> String { keys.map { "'\($0)'" }.joined(separator: ", ") }
    switch self {
    case .noStages(_, let starters): return "Start it with one of: \(quoted(starters))"
    case .notOneStage: return "Put each stage in its own {…} in the chart's array"
    case .unknownStage(let stage, let known): return suggestion(stage, in: known, noun: "stages")
    case .repeated: return "Keep one"
    case .followsChart(let stage, let chartStage):
      return "'\(chartStage)' makes a finished chart; put '\(stage)' in a chart of its own"
    case .misplaced(_, _, _, .add(let maker)?): return "Add a '\(maker)' stage before it"
    case .misplaced(_, _, _, .moveBefore(let stage, let ownChart)?):
      return "Move it up, before '\(stage)'" + (ownChart ? ", or to a chart of its own" : "")
    case .misplaced(_, _, _, nil): return nil
    case .endsWithSessions(_, let enders): return "End it with one of: \(quoted(enders))"
    }
  }
}
