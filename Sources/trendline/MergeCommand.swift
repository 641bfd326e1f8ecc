import Foundation
import TrendlineRunner
import TrendlineSupport

/// `trendline merge --output DIR PARTIAL_DIR...`: combines the shards of a sharded run.
enum MergeCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "merge"
  static let abstract = "Combine the shards of a sharded run into cohort outputs and one manifest."
  static let help = """
    OVERVIEW: \(abstract)

    USAGE: trendline merge --output DIR [--input DIR] [--listing DIR] [--log json]
                           [--remove-departed [--confirm-removal]] PARTIAL_DIR...

    ARGUMENTS:
      PARTIAL_DIR       A shard folder (OUT/shards/I-of-N) or a run's output folder holding
                        shards/. Only shards that finished (their _SUCCESS exists) count.

    OPTIONS:
      --output DIR      Where to write cohort/<chart>.json, manifest.json and _SUCCESS.
      --log json        Print one JSON object a line on stderr (failures too), for a log
                        collector, instead of text.
      --listing DIR     The night's listing the shards read ('trendline list'): their
                        users' files are the ones it names.
      --input DIR       The input folder the shards read, when it is mounted elsewhere now
                        (by default, the folder the shards recorded).
      --remove-departed Remove the folders and report pages in DIR of users that no shard ran
                        (no longer in the input). Without it they are kept, and the manifest's
                        "departed" lists them. Refused (exit 2, nothing written) when more
                        than half of the users with a folder in DIR would go at once.
      --confirm-removal With --remove-departed, remove them even so.
      -h, --help        Show this help.

    The partials must come from one pipeline file, one --as-of, one shard count (1 to
    10000), one build and one input folder, every shard 0..N-1 must be there exactly once, no
    partial or manifest may have been edited since its shard wrote it, and each shard's users'
    input must still be what the shard read: merge reads every export and users.csv row and
    compares them by content. Otherwise nothing is written and the message names the shard at
    fault. The output
    folder must not be, hold or be inside a shard folder (a run's output folder, which holds
    shards/, is fine).

    EXIT CODES:
      0   merged; every user succeeded
      1   merged; some users failed (manifest.json says which and why)
      2   bad arguments, or partials that do not belong together or are incomplete
      74  an output file could not be written

    """

  static func run(_ arguments: [String]) -> ExitCode {
    var output: String?
    var inputs: [String] = []
    var input: String?
    var listing: String?
    var logJSON = false
    var removeDeparted = false
    var confirmRemoval = false
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        printOutput(help)
        return .success
      case "--output":
        guard let value = remaining.popFirst() else {
          return usageFailure(UsageError("missing value for '--output'"), help: "trendline merge --help")
        }
        output = value
      case "--input":
        guard let value = remaining.popFirst() else {
          return usageFailure(UsageError("missing value for '--input'"), help: "trendline merge --help")
        }
        input = value
      case "--listing":
        guard let value = remaining.popFirst() else {
          return usageFailure(UsageError("missing value for '--listing'"), help: "trendline merge --help")
        }
        listing = value
      case "--log":
        guard remaining.popFirst() == "json" else {
          return usageFailure(UsageError("--log takes 'json'"), help: "trendline merge --help")
        }
        logJSON = true
      case "--remove-departed": removeDeparted = true
      case "--confirm-removal": confirmRemoval = true
      default:
        if argument.hasPrefix("-") {
          return usageFailure(UsageError("unknown option '\(argument)'"), help: "trendline merge --help")
        }
        inputs.append(argument)
      }
    }
    guard let output else { return usageFailure(UsageError("missing --output DIR"), help: "trendline merge --help") }
    if confirmRemoval && !removeDeparted {
      let problem = UsageError("--confirm-removal confirms --remove-departed; give both, or neither")
      return usageFailure(problem, help: "trendline merge --help")
    }
    guard !inputs.isEmpty else {
      return usageFailure(UsageError("missing PARTIAL_DIR"), help: "trendline merge --help")
    }
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    func url(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL }
    let environment = ProcessInfo.processInfo.environment
    let log = logJSON ? CommandLog(command: name, environment: environment) : nil
    do throws(Merger.Failure) {
      let manifest = try Merger.merge(
        inputs: inputs.map(url), output: url(output), toolVersion: toolVersion, input: input.map(url),
        removeDeparted: removeDeparted, confirmRemoval: confirmRemoval, listing: listing.map(url))
      let totals = manifest.totals
      if logJSON {
        let log = CommandLog(command: name, asOf: manifest.asOf, environment: environment)
        for user in manifest.users where user.status == .failed {
          printError(log.line(.error, "user", [("user", .text(user.user)), ("message", .text(user.message ?? ""))]))
        }
        for entry in manifest.faultyEntries {
          printError(log.line(.error, "entry", [("entry", .text(entry.entry)), ("message", .text(entry.message))]))
        }
        if let departed = manifest.departed {
          printError(
            log.line(
              .warning, "departed",
              [("users", .number(departed.users.count)), ("removed", .text(departed.removed ? "yes" : "no"))]))
        }
        let failed = totals.usersFailed > 0 || !manifest.faultyEntries.isEmpty
        printError(
          log.line(
            failed ? .warning : .info, "finish",
            [
              ("shards", .number(manifest.mergedShards ?? 0)), ("users", .number(totals.users)),
              ("usersOK", .number(totals.usersOK)), ("usersFailed", .number(totals.usersFailed)),
            ]))
      } else {
        for user in manifest.users where user.status == .failed {
          printError("\(Diagnostic(.error, "user '\(user.user)' failed: \(user.message ?? "")"))\n")
        }
        for entry in manifest.faultyEntries {
          printError("\(Diagnostic(.error, "input entry '\(entry.entry)' \(entry.message)"))\n")
        }
        if let departed = manifest.departed { printError("\(departedWarning(departed))\n") }
        printOutput(
          "merged \(manifest.mergedShards ?? 0) shards: \(totals.users) users, \(totals.usersOK) ok, "
            + "\(totals.usersFailed) failed\n"
        )
      }
      return totals.usersFailed > 0 || !manifest.faultyEntries.isEmpty ? .someFailed : .success
    } catch {
      if let log { log.fail(error.description) } else { printError("\(Diagnostic(.error, error.description))\n") }
      if case .output = error { return .ioError }
      return .usage
    }
  }
}
