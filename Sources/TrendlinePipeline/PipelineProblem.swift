import TrendlineIngest
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// What the pipeline loader can find wrong with a pipeline file, as data: the checker finds a
/// case, and its words are written here, once, so tests pin them and every chart says them
/// alike. A stage's own checks are ``StageProblem``s, and what any object can get wrong (an
/// unknown key, a wrong type, a number out of range) is ``ParameterReader``'s.
enum PipelineProblem: Equatable {
  // MARK: The file
  case unsupportedVersion(Int64, supported: Int)
  /// `asOf` that ``AsOf/init(reading:)`` refuses, with its words.
  case asOf(String)
  // MARK: source
  case csvWithoutCSVFormat
  case csvFormatWithoutMapping
  case unknownWeekday(String)
  case unknownDateOrder(String)
  case unknownDelimiter(String)
  /// `DatePattern.problem`'s words: the reader's own rule, so `validate` and `run` agree.
  case dateFormat(String)
  case catalogMissing(shown: String)
  case catalogUnreadable(shown: String, reason: String)
  // MARK: charts
  case noCharts
  case chartDefinedTwice(String)
  case chartsDifferInCase(String, String)
  /// ``PipelineLoader/chartNameProblem(_:)``'s words, shared with `merge`.
  case chartName(String)
  case notAStageArray(found: String)
  case notAStageObject(found: String)
  // MARK: compare and output
  case comparedTwice(String)
  case compareUnknownChart(String, defined: [String])
  case notComparable(chart: String, kind: String)
  case quantileOutOfRange(found: String)
  case quantilesNotIncreasing
  case rankByBest(Measure)
  case rankMeasureNotCompared(Measure)
  case badGroupColumn(String)
  case formatListedTwice(String)
  // MARK: A chart's chain
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
    case .unsupportedVersion(let version, let supported):
      return "pipeline version \(version) is not supported; this trendline reads version \(supported)"
    case .csvWithoutCSVFormat: return "source.csv is only read with format 'csv'"
    case .csvFormatWithoutMapping: return "format 'csv' needs a column mapping in source.csv"
    case .unknownWeekday(let text): return "unknown firstWeekday '\(text)'"
    case .unknownDateOrder(let text): return "unknown dateOrder '\(text)'"
    case .unknownDelimiter(let text): return "unknown delimiter '\(text)'"
    case .dateFormat(let problem): return problem
    case .asOf(let problem): return problem
    case .catalogMissing(let shown): return "cannot read catalog '\(shown)': no such file"
    case .catalogUnreadable(let shown, let reason): return "cannot read catalog '\(shown)': \(reason)"
    case .noCharts: return "the pipeline has no charts"
    case .chartDefinedTwice(let name): return "chart '\(name)' is defined more than once"
    case .chartsDifferInCase(let earlier, let name): return "charts '\(earlier)' and '\(name)' differ only in case"
    case .chartName(let problem): return problem
    case .notAStageArray(let found): return "expected an array of stages, found \(found)"
    case .notAStageObject(let found): return "expected a stage object such as {\"bucket\": {…}}, found \(found)"
    case .comparedTwice(let name): return "chart '\(name)' is compared twice"
    case .compareUnknownChart(let name, _): return "compare names chart '\(name)', which this pipeline does not define"
    case .notComparable(let chart, let kind):
      let comparable = ChartKinds.all.filter { $0.cohortSchemaID != nil }.map { $0.kindName }
      return "chart '\(chart)' is a \(kind); only \(comparable.joined(separator: " and ")) charts can be compared"
    case .quantileOutOfRange(let found): return "a quantile is between 0 and 1, found \(found)"
    case .quantilesNotIncreasing: return "quantiles must be in increasing order, each once"
    case .badGroupColumn(let column):
      return "groupBy names a column of users.csv, 1 to 64 bytes of text other than 'user', not "
        + "'\(TerminalText.escaped(column))'"
    case .rankByBest(let measure):
      return "rank measure '\(measure.rawValue)' is a best, which does not add up over a window"
    case .rankMeasureNotCompared(let measure):
      return "rank measure '\(measure.rawValue)' is not a measure of any compared series chart"
    case .formatListedTwice(let name): return "output format '\(name)' is listed twice"
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
    case .unsupportedVersion(let version, let supported):
      return version > supported ? "Use a newer trendline, or rewrite the file for version \(supported)" : nil
    case .csvWithoutCSVFormat: return "Set \"format\": \"csv\", or remove source.csv"
    case .csvFormatWithoutMapping: return "Add \"csv\": {\"columns\": {\"start\": …, \"exercise\": …}} to source"
    case .unknownWeekday(let text): return suggestion(text, in: Weekday.allCases.map(\.rawValue), noun: "weekdays")
    case .unknownDateOrder(let text): return suggestion(text, in: DateOrder.allCases.map(\.rawValue), noun: "values")
    case .unknownDelimiter:
      return "Valid delimiters: \",\", \";\", \"\\t\" (tab); leave it out to detect it from the header"
    case .dateFormat: return "Use letters yyyy (or yy) MM dd HH mm ss, e.g. \"dd.MM.yyyy HH:mm\" or \"dd/MM/yy\""
    case .catalogMissing: return "Paths are relative to the pipeline file's folder"
    case .asOf:
      return "Give a date such as \"2026-11-29\" or an instant such as \"2026-11-29T18:00:00Z\", or leave it out"
    case .catalogUnreadable, .notAStageArray, .notAStageObject: return nil
    case .noCharts: return "Add one, e.g. \"volume\": [{\"bucket\": {…}}]"
    case .chartDefinedTwice: return "Give each chart its own name"
    case .chartsDifferInCase: return "Rename one: their files would be the same file on macOS and Windows"
    case .chartName: return "Use letters, digits, '.', '_' and '-'"
    case .comparedTwice: return "List each chart once"
    case .compareUnknownChart(let name, let defined): return suggestion(name, in: defined, noun: "charts")
    case .notComparable: return "Remove it from compare.charts"
    case .quantileOutOfRange: return "Write the median as 0.5"
    case .quantilesNotIncreasing: return "Sort them and remove repeats"
    case .badGroupColumn: return "Name a column such as \"plan\""
    case .rankByBest: return "Rank by a total such as volumeKg, sessions or reps"
    case .rankMeasureNotCompared: return "Add it to a compared chart's bucket measures, or rank by one of them"
    case .formatListedTwice: return "List each format once"
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
