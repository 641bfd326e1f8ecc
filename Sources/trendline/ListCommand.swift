import Foundation
import TrendlineRunner
import TrendlineSchema
import TrendlineSupport

/// `trendline list --input DIR --shards N --listing DIR`: a night's input, frozen before its
/// shards run (``InputListing``).
enum ListCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "list"
  static let abstract = "Freeze a night's input: list its users and files for the shards to read."
  static let help = """
    OVERVIEW: \(abstract)

    USAGE: trendline list (--pipeline FILE | --input DIR) --shards N --listing DIR
                          [--input DIR] [--layout partitioned]

    Lists the input folder once, split into N shards, into the new folder given with
    --listing. Every task of the night, its retries, 'trendline shards' and 'trendline
    merge' given the same --listing read the users and files it names: exports that arrive
    while the night runs wait for the next night, and each shard reads only its own slice.
    The files' contents are still read when a shard runs, and judged by content: an export
    corrected during the night runs its user's shard again.

    OPTIONS:
      --pipeline FILE   The night's pipeline file: its layout, and its source.input unless
                        --input is given. Checked first: a mistake in it stops the listing
                        before the input is read.
      --input DIR       The input folder.
      --shards N        The night's shard count, 1 to \(Shard.counts.upperBound).
      --listing DIR     Where to write the listing: a folder that must not exist yet (a
                        night's listing is never replaced, as its shards may have run from it).
      --layout NAME     The input's layout, without --pipeline: flat (the default) or
                        partitioned (users in folders 000 to fff by the hash of
                        their id; N must divide 4096, and each slice is listed from its own
                        partitions alone).
      -h, --help        Show this help.

    EXIT CODES:
      0   listed; the totals are on stdout
      2   bad arguments, the listing exists, or the input folder cannot be read
      74  the listing could not be written

    """

  static func run(_ arguments: [String]) -> ExitCode {
    var input: String?
    var listing: String?
    var shards: Int?
    var layout: UserLayout?
    var pipelineFile: String?
    var remaining = arguments[...]
    func fail(_ message: String) -> ExitCode { usageFailure(UsageError(message), help: "trendline list --help") }
    while let argument = remaining.popFirst() {
      if argument == "-h" || argument == "--help" {
        printOutput(help)
        return .success
      }
      let known = ["--pipeline", "--input", "--shards", "--listing", "--layout"]
      guard known.contains(argument) else {
        var message = "unknown argument '\(argument)'"
        if let near = nearMiss(argument, in: known + ["--help"]) { message += ". Did you mean '\(near)'?" }
        return fail(message)
      }
      guard let value = remaining.popFirst() else { return fail("missing value for '\(argument)'") }
      switch argument {
      case "--input": input = value
      case "--listing": listing = value
      case "--pipeline": pipelineFile = value
      case "--layout":
        guard let given = UserLayout(rawValue: value) else {
          return fail("--layout takes flat or partitioned, not '\(TerminalText.escaped(value))'")
        }
        layout = given
      default:
        guard let count = Int(value), Shard.counts.contains(count) else {
          return fail("--shards takes a whole number from 1 to \(Shard.counts.upperBound), not '\(value)'")
        }
        shards = count
      }
    }
    if let pipelineFile {
      guard layout == nil else { return fail("give --layout or --pipeline, not both: the pipeline names its layout") }
      guard let pipeline = loadPipelineOrReport(pipelineFile) else { return .usage }
      layout = pipeline.layout
      input = input ?? pipeline.source.input.path
    }
    guard let input, let shards, let listing else {
      return fail("give --shards, --listing, and --input or --pipeline")
    }
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    func url(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL }
    do throws(InputListing.Failure) {
      let header = try InputListing.write(input: url(input), shards: shards, to: url(listing), layout: layout ?? .flat)
      printOutput(
        "listed \(header.users) users, \(header.files) files, \(header.skipped) entries not read, "
          + "in \(shards) shard\(shards == 1 ? "" : "s"): \(url(listing).path)\n")
      return .success
    } catch {
      printError(error.description + "\n")
      return error.isWrite ? .ioError : .usage
    }
  }
}
