import Foundation
import TrendlineRunner
import TrendlineSupport

/// `trendline publish ROOT --night NAME [--keep N]`: makes a finished night the one readers
/// see, by one rename (``Publisher``).
enum PublishCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "publish"
  static let abstract = "Make a finished night the published one, record it, and remove old nights."
  static let help = """
    OVERVIEW: \(abstract)

    USAGE: trendline publish ROOT --night NAME [--keep N] [--confirm-removal] [--log json]

    ROOT is a nightly root: each night's output in ROOT/nights/NAME (with its listing in
    ROOT/listings/NAME and logs in ROOT/logs/NAME). Publishing checks that the night
    finished (_SUCCESS) and then points the link ROOT/current at it in one rename: readers
    of ROOT/current always see the last night that finished, never one being written or
    one that failed. A night older (by name) than the one published is recorded, and
    ROOT/current stays on the newer one. One publish runs at a time (ROOT/.publish.lock).
    It adds the night's row to ROOT/nights.csv and writes its figures to
    ROOT/metrics/trendline.prom for a node exporter's textfile collector.

    OPTIONS:
      --night NAME      The night to publish: 1–64 of A–Z a–z 0–9 . _ -, starting with a
                        letter or digit (the nightly driver uses the as-of date).
      --keep N          Keep the newest N nights (1 to 10000) and remove the others with
                        their listings and logs; never the night published or the one it
                        replaces. Without it nothing is removed.
      --confirm-removal Publish a night with fewer than half of the users of the night it
                        replaces, which is otherwise refused (an empty or wrongly mounted input).
      --log json        Print one JSON object a line on stderr, failures too.
      -h, --help        Show this help.

    EXIT CODES:
      0   published
      2   bad arguments, or the night is not finished, damaged, or lost too many users;
          ROOT/current is unchanged
      74  a file could not be written; if that was after ROOT/current moved (the record
          or the metrics), the message says so

    """

  static func run(_ arguments: [String]) -> ExitCode {
    var root: String?
    var night: String?
    var keep: Int?
    var confirmRemoval = false
    var logJSON = false
    var remaining = arguments[...]
    func fail(_ message: String) -> ExitCode { usageFailure(UsageError(message), help: "trendline publish --help") }
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        printOutput(help)
        return .success
      case "--confirm-removal": confirmRemoval = true
      case "--log":
        guard remaining.popFirst() == "json" else { return fail("--log takes 'json'") }
        logJSON = true
      case "--night", "--keep":
        guard let value = remaining.popFirst() else { return fail("missing value for '\(argument)'") }
        if argument == "--night" {
          guard Publisher.isValidNight(value) else {
            return fail("--night takes 1–64 of A–Z a–z 0–9 . _ - starting with a letter or digit, not '\(value)'")
          }
          night = value
        } else {
          guard let count = Int(value), (1...10_000).contains(count) else {
            return fail("--keep takes a whole number from 1 to 10000, not '\(value)'")
          }
          keep = count
        }
      default:
        if argument.hasPrefix("-") {
          var message = "unknown option '\(argument)'"
          let known = ["--night", "--keep", "--confirm-removal", "--log", "--help"]
          if let near = nearMiss(argument, in: known) { message += ". Did you mean '\(near)'?" }
          return fail(message)
        }
        guard root == nil else { return fail("unexpected argument '\(argument)'; publish takes one ROOT") }
        root = argument
      }
    }
    guard let root else { return fail("missing ROOT") }
    guard let night else { return fail("missing --night NAME") }
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let rootURL = URL(fileURLWithPath: root, relativeTo: cwd).standardizedFileURL
    do throws(Publisher.Failure) {
      let published = try Publisher.publish(root: rootURL, night: night, keep: keep, confirmRemoval: confirmRemoval)
      let totals = published.manifest.totals
      if logJSON {
        let log = CommandLog(
          command: name, asOf: published.manifest.asOf, environment: ProcessInfo.processInfo.environment)
        var members: [(String, CommandLog.Value)] = [
          ("night", .text(night)), ("users", .number(totals.users)), ("usersFailed", .number(totals.usersFailed)),
          ("pruned", .text(published.pruned.joined(separator: ","))),
          ("current", .text(published.isCurrent ? "yes" : "no")),
        ]
        if let previous = published.previous { members.append(("previous", .text(previous))) }
        printError(log.line(.info, "published", members))
        return .success
      }
      var line = "published \(night) (\(totals.users) users, \(totals.usersOK) ok, \(totals.usersFailed) failed)"
      if let previous = published.previous, !published.isCurrent {
        line = "recorded \(night) (\(totals.users) users); it is older than \(previous), which current still names"
      } else if let previous = published.previous, previous != night {
        line += "; it replaces \(previous)"
      }
      if !published.pruned.isEmpty { line += "; removed \(published.pruned.joined(separator: ", "))" }
      printOutput(line + "\n")
      return .success
    } catch {
      if logJSON {
        CommandLog(command: name, environment: ProcessInfo.processInfo.environment).fail(error.message)
      } else {
        printError("\(Diagnostic(.error, error.message))\n")
      }
      return error.isWrite ? .ioError : .usage
    }
  }
}
