import Foundation
import TrendlineIngest
import TrendlineSupport

/// `trendline parse FILE [--format F]`: reads one CSV or JSON file and prints what was read, as
/// JSON, so the conformance suites and a user with a suspicious export see exactly what the
/// readers see.
///
/// By default it prints compact JSON on one line and does not interpret the data (no units, no
/// dates): that is `run`'s job, and mixing the two would hide which layer got a file wrong.
/// With `--format export` (or an export format's name) it reads the file as `run` would and
/// prints the format it found and what became of every row, so a user can see why before
/// running a pipeline.
enum ParseCommand {
  static let subcommand = Subcommand(name: name, abstract: abstract, help: help, run: run)

  static let name = "parse"
  static let abstract = "Parse one CSV or JSON file and print what was read as JSON."
  /// The export formats `--format` takes by name, as the help lists them.
  private static let exportFormatNames = ExportFormat.allCases.filter { $0 != .mappedCSV }.map(\.rawValue)
    .joined(separator: ", ")
  static let help = """
    OVERVIEW: \(abstract)

    JSON input is printed re-serialized: numbers as written, members in file order,
    duplicate keys kept. CSV input is printed as an array of records, each an array of
    field strings.

    As an export (--format export, or an export format's name), FILE is read as `run`
    reads it and printed as one JSON object: the format found, the row counts, and every
    row with its line and outcome (accepted, rejected, duplicate, ignored, repaired,
    value-dropped), the reason, and for an accepted row the set that was read and the
    muscle groups the built-in catalog maps it to (null when it maps to none).

    USAGE: trendline parse FILE [--format json|csv|export|EXPORT-FORMAT]
                                [--time-zone ZONE] [--weight-unit kg|lb] [--date-order day-first|month-first]

    ARGUMENTS:
      FILE                  The file to read.

    OPTIONS:
      --format F            How to read FILE: json or csv (the raw readers; default: json
                            for names ending in .json, csv for anything else), export (an
                            export, its format sniffed), or one of \(exportFormatNames).
      --time-zone ZONE      As an export: the zone of local times the file does not place
                            (as users.csv gives it). Default: UTC.
      --weight-unit kg|lb   As an export: the unit of weights the file does not name.
                            Default: kg.
      --date-order ORDER    As an export: how to read nn/nn/yy dates. Default: inferred.
      -h, --help            Show this help.

    EXIT CODES:
      0   the file was read; its content is on stdout
      2   bad arguments
      65  malformed input; stderr says FILE:LINE:COLUMN: error: MESSAGE
      66  FILE does not exist, is a directory, or cannot be opened
      74  reading FILE or writing stdout failed part way

    """

  enum Format: String, CaseIterable, Equatable {
    case json, csv
  }

  struct Options: Equatable {
    var file: String
    /// `nil` means "decide by the file name".
    var format: Format?
    /// Read as an export, in this format (or sniffed), with these settings.
    var export: ExportReader.FormatChoice?
    var settings = ReadSettings()
  }

  /// Reads the command line; `nil` means help was asked for.
  ///
  /// - Complexity: O(*a*), where *a* is the number of arguments.
  static func parseArguments(_ arguments: [String]) throws(UsageError) -> Options? {
    var file: String?
    var format: Format?
    var export: ExportReader.FormatChoice?
    var settings = ReadSettings()
    var remaining = arguments[...]
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if !optionsEnded && argument.hasPrefix("-") && argument != "-" {
        if argument == "--" {
          optionsEnded = true
        } else if argument == "--help" || argument == "-h" {
          return nil
        } else if argument == "--format" || argument.hasPrefix("--format=") {
          let value: String
          if argument == "--format" {
            guard let next = remaining.popFirst() else {
              let exports = ExportFormat.allCases.filter { $0 != .mappedCSV }.map(\.rawValue)
              throw UsageError(
                "missing value for '--format'. Please provide one of: "
                  + "\((["json", "csv", "export"] + exports).joined(separator: ", "))"
              )
            }
            value = next
          } else {
            value = String(argument.dropFirst("--format=".count))
          }
          let exports = ExportFormat.allCases.filter { $0 != .mappedCSV }
          if value == "export" {
            export = .auto
          } else if let chosen = ExportFormat(rawValue: value), exports.contains(chosen) {
            export = .fixed(chosen)
          } else if let chosen = Format(rawValue: value) {
            format = chosen
          } else {
            let names = Format.allCases.map(\.rawValue) + ["export"] + exports.map(\.rawValue)
            var message = "unknown format '\(value)'"
            if let near = nearMiss(value, in: names) { message += ". Did you mean '\(near)'?" }
            throw UsageError(message + " Please provide one of: \(names.joined(separator: ", "))")
          }
        } else if ["--time-zone", "--weight-unit", "--date-order"].contains(argument) {
          guard let value = remaining.popFirst() else { throw UsageError("missing value for '\(argument)'") }
          switch argument {
          case "--time-zone":
            guard let zone = TimeZone(identifier: value) else {
              throw UsageError("unknown time zone '\(value)'; use an IANA name such as Europe/Oslo")
            }
            settings.timeZone = zone
          case "--weight-unit":
            guard let unit = WeightUnit(spelling: value) else {
              throw UsageError("unknown weight unit '\(value)'; use kg or lb")
            }
            settings.weightUnit = unit
          default:
            guard let order = DateOrder(rawValue: value) else {
              throw UsageError("unknown date order '\(value)'; use day-first or month-first")
            }
            settings.dateOrder = order
          }
        } else {
          throw UsageError("unknown option '\(argument)'")
        }
      } else if file == nil {
        file = argument
      } else {
        throw UsageError("unexpected argument '\(argument)'; parse reads one file")
      }
    }
    guard let file else { throw UsageError("missing FILE") }
    return Options(file: file, format: format, export: export, settings: settings)
  }

  /// The format used for `options`: the flag if given, else the file's extension.
  ///
  /// - Complexity: O(*n*), where *n* is the length of the file name.
  static func resolvedFormat(_ options: Options) -> Format {
    if let format = options.format { return format }
    // Anything that is not `.json` is read as CSV (SPEC §1): exports come as `.csv`, `.txt`
    // or with no extension at all, and all of them are CSV.
    return options.file.lowercased().hasSuffix(".json") ? .json : .csv
  }

  static func run(_ arguments: [String]) -> ExitCode {
    let options: Options
    switch parse(arguments, with: parseArguments, help: help, command: name) {
    case .options(let parsed): options = parsed
    case .exit(let code): return code
    }

    let data: Data
    switch readFile(options.file) {
    case .success(let contents): data = contents
    case .failure(let failure):
      printError("\(failure.diagnostic)\n")
      return failure.code
    }

    var output: [UInt8]
    do {
      if let export = options.export {
        output = try renderExport(data, file: options.file, format: export, settings: options.settings)
      } else {
        output = try render(data, file: options.file, format: resolvedFormat(options))
      }
    } catch {
      printError("\(error)\n")
      return .dataError
    }
    output.append(UInt8(ascii: "\n"))
    do {
      // Cells are the input's: what a terminal could act on is written as JSON escapes.
      try FileHandle.standardOutput.write(contentsOf: Data(TerminalText.escapedJSON(output)))
    } catch {
      printError("\(Diagnostic(.error, "could not write output: \(error.localizedDescription)"))\n")
      return .ioError
    }
    return .success
  }

  struct ReadFailure: Error {
    var diagnostic: Diagnostic
    var code: ExitCode
  }

  /// Reads the whole file, telling "not there / not openable" (66) from "failed while
  /// reading" (74), because the first is a typo the user fixes and the second is a disk or
  /// network problem.
  static func readFile(_ path: String) -> Result<Data, ReadFailure> {
    do throws(FileBytes.Failure) {
      return .success(Data(try FileBytes.read(path, maximumBytes: maximumBytes)))
    } catch {
      let reason: String
      var code = ExitCode.noInput
      switch error {
      case .unreadable(_, let errno) where errno == ENOENT: reason = "no such file"
      case .unreadable(_, let errno) where errno == EISDIR: reason = "it is a directory"
      case .unreadable(_, let errno) where errno == EACCES || errno == EPERM: reason = "permission denied"
      case .unreadable(let text, _):
        reason = text
        code = .ioError
      case .notRegularFile: reason = "it is not a regular file (a folder, pipe, socket or device); parse reads files"
      case .tooLarge(let size):
        reason =
          "it is \(size) bytes, over the limit of \(maximumBytes >> 20) MB that parse reads "
          + "(source.limits.maxFileMB's default)"
      case .outsideInput(let failure): reason = failure.reason
      }
      return .failure(ReadFailure(diagnostic: Diagnostic(.error, "cannot read '\(path)': \(reason)"), code: code))
    }
  }

  /// The most `parse` reads: the default file limit of a run.
  static let maximumBytes = ReadLimits.defaultMaxFileBytes

  /// What `parse` prints for `data`, without the trailing newline.
  ///
  /// - Throws: `Diagnostic` with the file's line and column when the input is malformed.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  static func render(_ data: Data, file: String, format: Format) throws -> [UInt8] {
    switch format {
    case .json:
      // Parse straight from the file's buffer: a 50 MB export is not copied into an array.
      let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
        do throws(JSONSyntaxError) {
          return .success(try JSONReader().parse(raw.bindMemory(to: UInt8.self)))
        } catch {
          return .failure(error)
        }
      }
      switch result {
      case .success(let value): return value.serialized()
      case .failure(let error): throw error.diagnostic(file: file)
      }
    case .csv:
      let records = try parseCSVForPrinting(bytes: [UInt8](data), file: file)
      return JSONValue.array(records.map { .array($0.map(JSONValue.string)) }).serialized()
    }
  }
}

/// The CSV records of `bytes`, one array of field strings per record; a blank line is an
/// empty record.
///
/// - Throws: the first malformed record as a `Diagnostic` with its line and column; every
///   malformed record is printed to stderr, so one run shows them all.
/// - Complexity: O(*n*), where *n* is the number of bytes.
func parseCSVForPrinting(bytes: [UInt8], file: String) throws -> [[String]] {
  let reader = CSVReader(bytes: bytes)
  var records: [[String]] = []
  var problems: [Diagnostic] = []
  while true {
    switch reader.next() {
    case .end:
      if let first = problems.first {
        for later in problems.dropFirst() { printError("\(later)\n") }
        throw first
      }
      return records
    case .blankLine: records.append([])
    case .record: records.append((0..<reader.fieldCount).map(reader.string))
    case .malformed(let bad):
      problems.append(
        Diagnostic(at: SourceLocation(file: file, line: bad.line, column: bad.column), bad.message))
    }
  }
}
