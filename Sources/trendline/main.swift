import CommandArguments
import Foundation
import TrendlineSupport

#if canImport(Glibc)
  import Glibc
#endif

// The subcommands, in the order `--help` lists them. Adding a command is one line here plus its
// `<Name>Command.swift` providing a `Subcommand` value.
let subcommands: [Subcommand] = [
  RunCommand.subcommand,
  ValidateCommand.subcommand,
  MergeCommand.subcommand,
  ShardsCommand.subcommand,
  ListCommand.subcommand,
  PublishCommand.subcommand,
  GenerateCommand.subcommand,
  ParseCommand.subcommand,
]

#if canImport(Glibc)
  // Freed memory is kept for reuse rather than handed back: by default glibc maps every block
  // over 128 KiB on its own (an export's bytes, a user's sets) and unmaps it when freed, so the
  // next user's faulted in and zeroed the same pages again, 80,000 page faults for 500 users.
  // `mallopt` is in <malloc.h>, which the Glibc module leaves out, so it is looked up by name.
  if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
    let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
    _ = mallopt(-3, 64 << 20)  // M_MMAP_THRESHOLD
    _ = mallopt(-1, 128 << 20)  // M_TRIM_THRESHOLD
  }
#endif

exit(dispatch(Array(processArguments().dropFirst()), subcommands: subcommands).rawValue)

/// The process's arguments from the argv the C runtime gave it (``trendline_argument_vector``),
/// else `CommandLine.arguments`: Swift reads those from /proc/self/cmdline on Linux, and
/// without /proc they were empty, so every command printed its usage and exited 2.
func processArguments() -> [String] {
  let count = Int(trendline_argument_count())
  guard count > 0, let vector = trendline_argument_vector() else { return CommandLine.arguments }
  return (0..<count).map { vector[$0].map { String(cString: $0) } ?? "" }
}

// MARK: - Dispatch

/// A `trendline` subcommand. Each one parses its own arguments, so a command's options live in
/// one file with the command.
///
/// A plain value rather than a protocol of static members: a list of existential metatypes
/// crashed the Swift 6.3.1 compiler (signal 11), and a value is all the dispatcher needs.
struct Subcommand: Sendable {
  /// The word after `trendline`.
  var name: String
  /// One line for `trendline --help`.
  var abstract: String
  /// The full text of `trendline <name> --help`.
  var help: String
  /// Runs with the arguments after the command name and prints its own errors.
  var run: @Sendable ([String]) -> ExitCode
}

/// Process exit codes (SPEC §1); the data and I/O codes are the BSD `sysexits.h` values, which
/// scripts already know.
enum ExitCode: Int32, Sendable {
  case success = 0
  /// Some users failed; the others were written.
  case someFailed = 1
  /// Bad arguments or a bad pipeline file; nothing was done.
  case usage = 2
  /// Malformed input (`EX_DATAERR`).
  case dataError = 65
  /// The input file does not exist or cannot be opened (`EX_NOINPUT`).
  case noInput = 66
  /// Reading or writing failed part way (`EX_IOERR`).
  case ioError = 74
}

/// A problem with the command line, printed with a pointer to `--help` and exit code 2.
struct UsageError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}

func topLevelHelp(_ subcommands: [Subcommand]) -> String {
  let width = subcommands.map { $0.name.count }.max() ?? 0
  let lines = subcommands.map {
    "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.abstract
  }
  return """
    OVERVIEW: Turn workout-app exports into chart data.

    USAGE: trendline <command> [options]

    COMMANDS:
    \(lines.joined(separator: "\n"))

    See 'trendline <command> --help' for a command's options.

    """
}

/// Picks the subcommand named by the first argument and runs it.
///
/// - Complexity: O(*c*), where *c* is the number of subcommands, plus the command's own work.
func dispatch(_ arguments: [String], subcommands: [Subcommand]) -> ExitCode {
  guard let first = arguments.first else {
    printError(topLevelHelp(subcommands))
    return .usage
  }
  if first == "--help" || first == "-h" || first == "help" {
    if arguments.count > 1, let command = subcommands.first(where: { $0.name == arguments[1] }) {
      printOutput(command.help)
    } else {
      printOutput(topLevelHelp(subcommands))
    }
    return .success
  }
  guard let command = subcommands.first(where: { $0.name == first }) else {
    let names = subcommands.map { $0.name }
    var message = "unknown command '\(first)'"
    if let near = nearMiss(first, in: names) { message += ". Did you mean '\(near)'?" }
    return usageFailure(UsageError(message), help: "trendline --help")
  }
  return command.run(Array(arguments.dropFirst()))
}

/// Prints a usage error and returns the usage exit code.
func usageFailure(_ error: UsageError, help: String) -> ExitCode {
  printError("\(Diagnostic(.error, error.message))\nSee '\(help)'.\n")
  return .usage
}

/// What a command line comes to: the command's options, or the exit code once its help was
/// printed or its usage error reported.
enum Parsed<Options> {
  case options(Options)
  case exit(ExitCode)
}

/// Runs `parser` (nil meaning `--help`) and prints what the user must see: the help, or the
/// error with a pointer to `trendline <command> --help`.
func parse<Options>(
  _ arguments: [String], with parser: ([String]) throws(UsageError) -> Options?, help: String, command: String
) -> Parsed<Options> {
  do throws(UsageError) {
    guard let options = try parser(arguments) else {
      printOutput(help)
      return .exit(.success)
    }
    return .options(options)
  } catch {
    return .exit(usageFailure(error, help: "trendline \(command) --help"))
  }
}

/// Prints to stdout. Every line is passed through ``TerminalText``, so no character from the
/// input (a file name, a `users.csv` value, a rejected cell) can drive the terminal; the line
/// breaks are Trendline's own, and input strings reach a message on one line (a
/// ``Diagnostic`` escapes its parts).
func printOutput(_ text: String) {
  try? FileHandle.standardOutput.write(contentsOf: Data(terminalSafe(text).utf8))
}

/// Prints to stderr, each line escaped as ``printOutput(_:)`` does.
func printError(_ text: String) {
  try? FileHandle.standardError.write(contentsOf: Data(terminalSafe(text).utf8))
}

/// Prints Trendline's own control sequences (the progress line's carriage return and
/// erase-line) with nothing escaped; never give it text from the input.
func printControl(_ text: String) {
  try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}

private func terminalSafe(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
    .joined(separator: "\n")
}
