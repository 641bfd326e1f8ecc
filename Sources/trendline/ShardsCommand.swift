import Foundation
import TrendlineRunner
import TrendlineStages
import TrendlineSupport

/// `trendline shards PIPELINE --output DIR --as-of WHEN --shards N`: which shards of a sharded
/// run are complete, read from the output folder, for a driver that re-runs exactly the others.
enum ShardsCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "shards"
  static let abstract = "Tell which shards of a sharded run are complete and which must run again."
  static let help = """
    OVERVIEW: \(abstract)

    USAGE: trendline shards PIPELINE --output DIR --as-of WHEN --shards N [--input DIR] [--listing DIR] [--to-run]

    Give the pipeline, folders, as-of and shard count every task of the run was given. A
    shard is complete when 'trendline merge' would take its folder DIR/shards/I-of-N: it
    finished (_SUCCESS), nothing in it was edited, what it lists is written, and it ran this
    build, this pipeline file, this as-of and its own users' input as it is now, by content:
    every export of the shard's users is read and hashed, with their users.csv rows. Every
    other shard must run (again): it never ran, was killed, is another night's, ran another
    pipeline or build, or ran before one of its users' exports or settings changed, or a user
    of its arrived or left. A change touches only the shard of the user it is about. Nothing
    is written.

    OPTIONS:
      --output DIR      The run's output folder.
      --as-of WHEN      The as-of every task was given (a date or an RFC 3339 instant).
      --shards N        The shard count, 1 to \(Shard.counts.upperBound).
      --input DIR       The input folder, when the tasks were given --input.
      --listing DIR     The night's listing, when the tasks were given --listing: the
                        users and files it names are the night's, whatever arrived since.
      --strict          The tasks were given --strict (a shard run without it, or with it
                        when this is not given, must run again).
      --to-run          Print only the shards to run, as a comma-separated list of indices
                        for 'sbatch --array=' (an empty line when every shard is complete).
      -h, --help        Show this help.

    Without --to-run, one line per shard that must run, with the reason, then a summary.

    EXIT CODES:
      0   checked; the shards to run (if any) are on stdout
      2   bad arguments or pipeline file, or the input folder cannot be read

    """

  struct Options: Equatable {
    var pipeline: String
    var output: String
    var asOf: String
    var count: Int
    var input: String?
    var toRunOnly = false
    var strict = false
    var listing: String?
  }

  /// Reads the command line; nil means help was asked for.
  ///
  /// - Complexity: O(*a*), where *a* is the number of arguments.
  static func parseArguments(_ arguments: [String]) throws(UsageError) -> Options? {
    var pipeline: String?
    var output: String?
    var asOf: String?
    var count: Int?
    var input: String?
    var listing: String?
    var toRunOnly = false
    var strict = false
    var remaining = arguments[...]
    func value(_ option: String) throws(UsageError) -> String {
      guard let next = remaining.popFirst() else { throw UsageError("missing value for '\(option)'") }
      return next
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help": return nil
      case "--output": output = try value(argument)
      case "--input": input = try value(argument)
      case "--listing": listing = try value(argument)
      case "--to-run": toRunOnly = true
      case "--strict": strict = true
      case "--as-of":
        let text = try value(argument)
        do throws(AsOf.Invalid) {
          _ = try AsOf(reading: text)
        } catch {
          throw UsageError(error.description)
        }
        asOf = text
      case "--shards":
        let text = try value(argument)
        guard let given = Int(text), Shard.counts.contains(given) else {
          throw UsageError("--shards takes a whole number from 1 to \(Shard.counts.upperBound), not '\(text)'")
        }
        count = given
      default:
        if argument.hasPrefix("-") {
          var message = "unknown option '\(argument)'"
          let known = ["--output", "--input", "--as-of", "--shards", "--to-run", "--strict", "--listing", "--help"]
          if let near = nearMiss(argument, in: known) { message += ". Did you mean '\(near)'?" }
          throw UsageError(message)
        }
        guard pipeline == nil else { throw UsageError("unexpected argument '\(argument)'; shards takes one pipeline") }
        pipeline = argument
      }
    }
    guard let pipeline else { throw UsageError("missing PIPELINE") }
    guard let output else { throw UsageError("missing --output DIR") }
    // Without the as-of every task was given, "complete" would mean "of some night".
    guard let asOf else { throw UsageError("missing --as-of WHEN: give the as-of every task was given") }
    guard let count else { throw UsageError("missing --shards N") }
    return Options(
      pipeline: pipeline, output: output, asOf: asOf, count: count, input: input, toRunOnly: toRunOnly, strict: strict,
      listing: listing)
  }

  static func run(_ arguments: [String]) -> ExitCode {
    let options: Options
    switch parse(arguments, with: parseArguments, help: help, command: name) {
    case .options(let parsed): options = parsed
    case .exit(let code): return code
    }
    guard let pipeline = loadPipelineOrReport(options.pipeline) else { return .usage }
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    func url(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL }
    let states: [ShardStatus.State]
    do throws(RunFailure) {
      states = try ShardStatus.check(
        .init(
          pipeline: pipeline, input: options.input.map(url), output: url(options.output), asOfText: options.asOf,
          count: options.count, toolVersion: toolVersion, strict: options.strict,
          listing: options.listing.map(url)))
    } catch {
      printError(error.diagnostic + "\n")
      return .usage
    }
    var toRun: [Int] = []
    var users = 0
    var failedUsers = 0
    var lines = ""
    for (index, state) in states.enumerated() {
      switch state {
      case .complete(let shardUsers, let failed):
        users += shardUsers
        failedUsers += failed
      case .toRun(let reason):
        toRun.append(index)
        lines += "shard \(index)-of-\(options.count) \(reason)\n"
      }
    }
    let list = toRun.map(String.init).joined(separator: ",")
    if options.toRunOnly {
      printOutput(list + "\n")
    } else {
      let complete = options.count - toRun.count
      var summary = "\(complete) of \(options.count) shards complete for \(options.asOf)"
      summary += " (\(users) user\(users == 1 ? "" : "s"), \(failedUsers) failed on their data)"
      summary += toRun.isEmpty ? "; ready to merge\n" : "; to run: \(list)\n"
      printOutput(lines + summary)
    }
    return .success
  }
}
