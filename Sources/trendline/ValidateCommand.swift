import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// `trendline validate PIPELINE`: loads and checks a pipeline file and prints the effective
/// pipeline, every default filled in and every `auto` resolved, so a user sees what `run`
/// would do before it reads a single export.
///
/// It does not read the input folder: a pipeline is checked on its own, and `run` reports a
/// missing or unreadable input where it reports every other per-user problem.
enum ValidateCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "validate"
  static let abstract = "Check a pipeline file and print what it would do."
  static let help = """
    OVERVIEW: \(abstract)

    Reads PIPELINE and its catalog, checks every key, type, value and stage order,
    and prints the effective pipeline: paths resolved, defaults filled in, 'auto'
    granularities resolved. The input folder is not read.

    USAGE: trendline validate PIPELINE
           trendline validate --stages

    ARGUMENTS:
      PIPELINE              The pipeline file (JSON, version 1).

    OPTIONS:
      --stages              List every stage: what it reads, what it produces, what
                            it does.
      -h, --help            Show this help.

    EXIT CODES:
      0   the pipeline is valid; the effective pipeline is on stdout
      2   bad arguments, or the pipeline has errors; each is on stderr as
          FILE:LINE:COLUMN: error: MESSAGE at JSON.PATH. HINT

    """

  /// What the command line asks for.
  enum Request: Equatable {
    case help
    case stages
    case pipeline(String)
  }

  /// Reads the command line.
  ///
  /// - Complexity: O(*a*), where *a* is the number of arguments.
  static func parseArguments(_ arguments: [String]) throws(UsageError) -> Request {
    var file: String?
    var stages = false
    var optionsEnded = false
    for argument in arguments {
      if !optionsEnded && argument.hasPrefix("-") && argument != "-" {
        if argument == "--" {
          optionsEnded = true
        } else if argument == "--help" || argument == "-h" {
          return .help
        } else if argument == "--stages" {
          stages = true
        } else {
          throw UsageError("unknown option '\(argument)'")
        }
      } else if file == nil {
        file = argument
      } else {
        throw UsageError("unexpected argument '\(argument)'; validate reads one pipeline file")
      }
    }
    if stages {
      guard file == nil else { throw UsageError("--stages lists the stages; give it no PIPELINE") }
      return .stages
    }
    guard let file else { throw UsageError("missing PIPELINE") }
    return .pipeline(file)
  }

  static func run(_ arguments: [String]) -> ExitCode {
    let file: String
    do {
      switch try parseArguments(arguments) {
      case .help:
        printOutput(help)
        return .success
      case .stages:
        printOutput(StageRegistry.reference)
        return .success
      case .pipeline(let given):
        file = given
      }
    } catch {
      return usageFailure(error, help: "trendline validate --help")
    }
    switch PipelineLoader.load(URL(fileURLWithPath: file)) {
    case .success(let pipeline):
      printOutput(describe(pipeline))
      return .success
    case .failure(let errors):
      printError(errors.diagnostics.map { "\($0)\n" }.joined())
      return .usage
    }
  }

  // MARK: - The effective pipeline

  /// The effective pipeline as `validate` prints it: one section per part of the file, every
  /// value as `run` will use it.
  ///
  /// - Complexity: O(*c* + *a*), where *c* is the number of charts and *a* of radar axis ids.
  static func describe(_ pipeline: Pipeline, currentDirectory: String = FileManager.default.currentDirectoryPath)
    -> String
  {
    func path(_ url: URL) -> String { shown(url, from: currentDirectory) }
    let source = pipeline.source
    let defaults = source.defaults
    var lines: [String] = []
    lines.append("pipeline '\(pipeline.name)' (version \(pipeline.version))")
    lines.append("  file: \(path(pipeline.file))")
    lines.append("  sha256: \(pipeline.contentHash)")
    lines.append("source")
    lines.append("  input: \(path(source.input)) (read by 'run')")
    lines.append(
      "  catalog: \(source.catalogFile.map(path) ?? "built-in"): \(source.catalog.muscleGroups.count) muscle groups, "
        + "\(source.catalog.exercises.count) exercises")
    switch source.format {
    case .auto: lines.append("  format: auto (detected per file)")
    case .fixed(let format): lines.append("  format: \(format.rawValue)")
    }
    lines.append(
      "  defaults: timeZone \(defaults.calendar.timeZoneName), weightUnit \(defaults.read.weightUnit.rawValue), "
        + "distanceUnit \(defaults.read.distanceUnit.rawValue), firstWeekday \(defaults.firstWeekday.rawValue), "
        + "dateOrder \(defaults.read.dateOrder?.rawValue ?? "inferred per file")")
    if let users = source.users {
      lines.append("  users: \(path(users))")
    } else {
      lines.append("  users: users.csv in the input folder, if present")
    }
    lines.append("  warmupSets: \(source.warmupSets.rawValue)")
    if let csv = source.csv { lines.append(contentsOf: describe(csv)) }

    lines.append("charts (\(pipeline.charts.count))")
    for chart in pipeline.charts {
      lines.append(contentsOf: describe(chart))
    }

    if let compare = pipeline.compare {
      lines.append("compare")
      lines.append("  charts: \(compare.charts.joined(separator: ", "))")
      lines.append("  quantiles: \(compare.quantiles.map(NumberText.text).joined(separator: ", "))")
      if let measure = compare.rankMeasure {
        lines.append("  rank: top \(compare.rankTop) users by \(measure.rawValue)")
      } else {
        lines.append("  rank: none")
      }
      if let groupBy = compare.groupBy {
        lines.append("  segments: by the users.csv column '\(TerminalText.escaped(groupBy))', and unknown")
      }
      if let weekStart = compare.weekStart {
        lines.append("  weeks: every user's weeks bucketed again to start on \(weekStart.rawValue)")
      } else {
        lines.append("  weeks: each user's week joins the row of the Monday week holding its start")
      }
    } else {
      lines.append("compare: none")
    }
    lines.append("output")
    lines.append("  formats: \(pipeline.output.formats.map(\.rawValue).joined(separator: ", "))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A chart's header line, then each stage as its unit describes itself, with the kinds it
  /// reads and produces, so any chain reads as what flows through it.
  static func describe(_ chart: Chart) -> [String] {
    var lines = ["  \(chart.name): \(chart.outputName) → \(chart.name).json"]
    for stage in chart.stages {
      let unit = type(of: stage)
      var settings = stage.settings
      let first = settings.isEmpty ? "" : settings.removeFirst()
      lines.append("    \(unit.key): \(first)")
      lines.append(contentsOf: settings.map { "      " + $0 })
    }
    return lines
  }

  static func describe(_ csv: MappedCSVLayout) -> [String] {
    let c = csv.columns
    let named: [(String, String?)] = [
      ("start", c.start), ("exercise", c.exercise), ("session", c.session), ("end", c.end), ("duration", c.duration),
      ("weight", c.weight), ("reps", c.reps), ("setType", c.setType), ("setIndex", c.setIndex),
      ("distance", c.distance), ("seconds", c.seconds),
    ]
    let columns = named.compactMap { key, column in column.map { "\(key) '\($0)'" } }
    let delimiter: String
    switch csv.delimiter {
    case nil: delimiter = "detected from the header"
    case "\t", "\\t": delimiter = "tab"
    case let other?: delimiter = "'\(other)'"
    }
    return [
      "  csv:",
      "    columns: \(columns.joined(separator: ", "))",
      "    delimiter: \(delimiter), decimalSeparator '\(csv.decimalSeparator ?? ".")'",
      "    dateFormat: \(csv.dateFormat.map { "'\($0)'" } ?? "ISO 8601 / common export formats")",
      "    weightUnit: \(csv.weightUnit?.rawValue ?? "from the user's settings"), "
        + "distanceUnit: \(csv.distanceUnit?.rawValue ?? "from the user's settings")",
    ]
  }

  /// `url` relative to the current folder when it is inside it, so output is the same on every
  /// checkout; otherwise absolute.
  static func shown(_ url: URL, from directory: String) -> String {
    let path = url.standardizedFileURL.path
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }
}
