import Foundation
import TrendlineRunner
import TrendlineSchema
import TrendlineSupport

/// `trendline generate --users N --seed S --output DIR`: a deterministic synthetic corpus in
/// every supported format, for benchmarks and tests.
enum GenerateCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "generate"
  /// The most users one corpus may have: ten million, the largest night the project plans for.
  static let maximumUsers = 10_000_000
  /// The most sessions a user may have: one a day for 27 years.
  static let maximumSessions = 10_000
  static let abstract = "Write a deterministic synthetic corpus in every supported format."
  static let help = """
    OVERVIEW: \(abstract)

    USAGE: trendline generate --users N --seed S --output DIR [--sessions N]
                              [--layout partitioned]

    OPTIONS:
      --users N         Users to write, 1 to 10000000 (one export each, formats in turn:
                        Strong two ways, Hevy, FitNotes, Fitbod, native JSON, NDJSON) and
                        a users.csv.
      --seed S          The seed; the same arguments give the same bytes.
      --output DIR      Where to write (created if needed). A folder holding anything
                        generate does not write (real exports, another users.csv) is
                        refused, exit 2; an earlier corpus is written over.
      --sessions N      Sessions per user, 1 to 10000 (default 100), ending 2026-11-28.
      --layout NAME     flat (the default) or partitioned: each user, and their row of
                        users.csv, in the folder 000 to fff of their partition, as a
                        pipeline with "layout": "partitioned" reads them. Partitioned
                        needs a new or empty folder.
      -h, --help        Show this help.

    """

  static func run(_ arguments: [String]) -> ExitCode {
    var users: Int?
    var seed: UInt64?
    var output: String?
    var sessions = 100
    var layout = UserLayout.flat
    var remaining = arguments[...]
    func fail(_ message: String) -> ExitCode { usageFailure(UsageError(message), help: "trendline generate --help") }
    while let argument = remaining.popFirst() {
      if argument == "-h" || argument == "--help" {
        printOutput(help)
        return .success
      }
      guard ["--users", "--seed", "--output", "--sessions", "--layout"].contains(argument) else {
        return fail("unknown argument '\(argument)'")
      }
      guard let value = remaining.popFirst() else { return fail("missing value for '\(argument)'") }
      switch argument {
      case "--users":
        // Bounded: a mistyped count (1e9) filled the disk, 16 GB a minute, before anyone noticed.
        guard let number = Int(value), (1...maximumUsers).contains(number) else {
          return fail("--users takes a whole number from 1 to \(maximumUsers)")
        }
        users = number
      case "--seed":
        guard let number = UInt64(value) else { return fail("--seed takes a whole number ≥ 0") }
        seed = number
      case "--sessions":
        guard let number = Int(value), (1...maximumSessions).contains(number) else {
          return fail("--sessions takes a whole number from 1 to \(maximumSessions)")
        }
        sessions = number
      case "--layout":
        guard let given = UserLayout(rawValue: value) else {
          return fail("--layout takes flat or partitioned, not '\(TerminalText.escaped(value))'")
        }
        layout = given
      default:
        output = value
      }
    }
    guard let users, let seed, let output else { return fail("give --users, --seed and --output") }
    var foreign = CorpusGenerator.foreignEntries(in: URL(fileURLWithPath: output))
    if layout == .partitioned {
      foreign = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter { !$0.hasPrefix(".") }
    }
    if !foreign.isEmpty {
      let shown = foreign.prefix(3).map { "'\(TerminalText.escaped($0))'" }.joined(separator: ", ")
      let more = foreign.count > 3 ? " and \(foreign.count - 3) more" : ""
      let message =
        "'\(TerminalText.escaped(output))' holds files generate did not write (\(shown)\(more)); "
        + "nothing was written. Give an empty or new folder"
      printError("\(Diagnostic(.error, message))\n")
      return .usage
    }
    do {
      try CorpusGenerator(users: users, seed: seed, sessionsPerUser: sessions)
        .write(to: URL(fileURLWithPath: output), layout: layout)
    } catch {
      printError("\(Diagnostic(.error, "cannot write '\(output)': \(error.localizedDescription)"))\n")
      return .ioError
    }
    return .success
  }
}
