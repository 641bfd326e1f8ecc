import Foundation
import TrendlineIngest
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// Every problem found in a pipeline file, in file order; the pipeline is not run.
///
/// It holds all of them, not the first, so one edit of the file can fix everything (AP
/// validators collect them all).
public struct PipelineErrors: Error, Equatable, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]

  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  /// One diagnostic per line, as `trendline validate` prints them.
  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}

/// Reads and checks a pipeline file (SPEC 6) before any input is read.
///
/// It reports every problem it can find in one pass: unknown keys and stages (with a
/// did-you-mean), wrong types, values out of range, stages in an order that feeds one the wrong
/// kind of data, a catalog that cannot be read, and radars that leave a catalog id uncovered.
/// Each problem carries the file, line and column and the JSON path.
///
/// It deliberately does not look at `source.input` or `source.users`: those are the runner's,
/// which reports a missing input folder in the same breath as a user it cannot read. The
/// catalog is read here because radars are checked against it.
public enum PipelineLoader {
  /// The most users `compare.rank.top` may rank. An empirically sane ceiling: a ranking is
  /// read by a person. Merge holds decoded partials to it too.
  public static let maxRankTop = 1000

  /// The pipeline format version this build reads.
  public static let supportedVersion = 1

  /// Loads the pipeline file at `url`; paths in it are relative to its folder.
  ///
  /// Diagnostics name the file as `url.relativePath`, so a path typed relative to the current
  /// folder is reported as typed.
  ///
  /// - Complexity: O(*n* + *c*), where *n* is the size of the pipeline file and *c* the size of
  ///   the catalog.
  public static func load(_ url: URL) -> Result<Pipeline, PipelineErrors> {
    let display = url.relativePath
    let bytes: [UInt8]
    do throws(FileBytes.Failure) {
      bytes = try FileBytes.read(url.path, maximumBytes: maxPipelineBytes)
    } catch {
      return .failure(
        PipelineErrors([
          Diagnostic(.error, "cannot read pipeline file '\(display)': \(describe(error, limit: maxPipelineBytes))")
        ]))
    }
    return load(contents: bytes, of: url)
  }

  /// Why `name` cannot be a chart name (it becomes `<chart>.json`), or nil: the one rule for
  /// pipeline files and for the chart names a merge reads from partials.
  public static func chartNameProblem(_ name: String) -> String? { PipelineChecker.chartNameProblem(name) }

  /// A pipeline file is a few kilobytes; one of a megabyte is not a pipeline, and reading
  /// whatever size is named (a gigabyte file asked for a 13 GB parse) is refused first.
  public static let maxPipelineBytes = 1 << 20
  /// A catalog of every exercise of every app is a few hundred kilobytes.
  public static let maxCatalogBytes = 64 << 20

  /// Why a pipeline or catalog file could not be read, in the words after its name.
  static func describe(_ failure: FileBytes.Failure, limit: Int) -> String {
    switch failure {
    case .tooLarge(let size): return "it is \(size) bytes, over the limit of \(limit) bytes for such a file"
    case .unreadable(_, let code) where code == ENOENT: return "no such file"
    case .unreadable(_, let code) where code == EISDIR: return "it is a directory"
    case .unreadable(let reason, _): return reason.prefix(1).lowercased() + reason.dropFirst()
    case .notRegularFile: return "it is not a regular file (a folder, pipe, socket or device)"
    case .outsideInput(let failure): return failure.reason
    }
  }

  /// Checks `contents` as if it were the file at `url`, which need not exist: `url` gives the
  /// folder that relative paths start from and the name diagnostics use.
  ///
  /// - Complexity: as ``load(_:)``.
  public static func load(contents: [UInt8], of url: URL) -> Result<Pipeline, PipelineErrors> {
    let display = url.relativePath
    let document: JSONDocument
    do {
      document = try JSONReader().parseDocument(contents)
    } catch {
      return .failure(PipelineErrors([error.diagnostic(file: display)]))
    }
    let checker = PipelineChecker(document: document, file: url, display: display)
    let pipeline = checker.pipeline(contentHash: SHA256.hex(contents))
    let diagnostics = checker.sortedDiagnostics
    guard diagnostics.isEmpty, let pipeline else {
      precondition(!diagnostics.isEmpty, "a pipeline that did not load has a diagnostic saying why")
      return .failure(PipelineErrors(diagnostics))
    }
    return .success(pipeline)
  }
}

// MARK: - The checker

/// Walks one pipeline document, building the model and collecting diagnostics as it goes.
///
/// Where a value is wrong it records the problem and carries on with a placeholder, so the rest
/// of the file is still checked; a pipeline with any diagnostic is never returned, so a
/// placeholder never runs.
final class PipelineChecker: ParameterReader {
  let file: URL

  init(document: JSONDocument, file: URL, display: String) {
    self.file = file.standardizedFileURL
    super.init(document: document, display: display)
  }

  // MARK: The whole file

  static let rootKeys = ["version", "name", "asOf", "layout", "source", "charts", "compare", "output"]

  func pipeline(contentHash: String) -> Pipeline? {
    let root = JSONPath()
    // A file of another version may use keys this build has never heard of; listing them as
    // unknown would bury the one problem that matters, so that is the only one reported.
    if let version = document.value["version"]?.int64Value, version != Int64(PipelineLoader.supportedVersion) {
      report(root.appending("version"), .unsupportedVersion(version, supported: PipelineLoader.supportedVersion))
      return nil
    }
    guard
      let members = object(document.value, at: root, keys: Self.rootKeys, required: ["version", "source", "charts"])
    else { return nil }
    if let version = members["version"] {
      _ = integer(version, at: root.appending("version"), in: 1...1, what: "version")
    }

    var name = file.deletingPathExtension().lastPathComponent
    if let value = members["name"], let given = string(value, at: root.appending("name"), nonEmpty: true) {
      name = given
    }
    var asOf: String?
    if let value = members["asOf"], let text = string(value, at: root.appending("asOf"), nonEmpty: true) {
      do throws(AsOf.Invalid) {
        _ = try AsOf(reading: text)
        asOf = text
      } catch {
        report(root.appending("asOf"), .asOf(error.description))
      }
    }
    let layout =
      members["layout"].flatMap { choice($0, at: root.appending("layout"), what: "layout") }
      ?? UserLayout.flat
    let source = members["source"].flatMap { self.source($0, at: root.appending("source")) }
    let charts = members["charts"].map { self.charts($0, at: root.appending("charts"), catalog: source?.catalog) } ?? []
    let compare = members["compare"].flatMap { self.compare($0, at: root.appending("compare"), charts: charts) }
    var output = Pipeline.Output(formats: [.json])
    if let value = members["output"], let given = self.output(value, at: root.appending("output")) {
      output = given
    }
    guard let source else { return nil }
    var pipeline = Pipeline(
      version: PipelineLoader.supportedVersion, name: name, file: file, contentHash: contentHash, source: source,
      charts: charts, compare: compare, output: output)
    pipeline.asOf = asOf
    pipeline.layout = layout
    return pipeline
  }

  // MARK: source

  static let sourceKeys = ["input", "catalog", "format", "defaults", "normalize", "users", "csv", "limits"]
  static let limitsKeys = [
    "maxFileMB", "maxFieldKB", "maxColumns", "maxJSONDepth", "maxFilesPerUser", "maxRejectedShare",
  ]
  static let defaultsKeys = ["timeZone", "weightUnit", "distanceUnit", "firstWeekday", "dateOrder"]

  func source(_ value: JSONValue, at path: JSONPath) -> Pipeline.Source? {
    guard let members = object(value, at: path, keys: Self.sourceKeys, required: ["input"]) else {
      return nil
    }
    let input = members["input"].flatMap { string($0, at: path.appending("input"), nonEmpty: true) }
    let users = members["users"].flatMap { string($0, at: path.appending("users"), nonEmpty: true) }

    var format = ExportReader.FormatChoice.auto
    if let value = members["format"],
      let name = choice(value, at: path.appending("format"), ExportFormat.pipelineNames, what: "format")
    {
      format = ExportFormat(rawValue: name).map { .fixed($0) } ?? .auto
    }

    var defaults = UserSettings()
    if let value = members["defaults"] {
      defaults = self.defaults(value, at: path.appending("defaults"))
    }

    var warmupSets = WarmupPolicy.exclude
    if let value = members["normalize"] {
      let normalizePath = path.appending("normalize")
      if let normalize = object(value, at: normalizePath, keys: ["warmupSets"]), let policy = normalize["warmupSets"] {
        warmupSets =
          choice(
            policy, at: normalizePath.appending("warmupSets"), WarmupPolicy.allCases.map(\.rawValue), what: "warmupSets"
          )
          .flatMap(WarmupPolicy.init(rawValue:)) ?? .exclude
      }
    }

    var csv: MappedCSVLayout?
    if let value = members["csv"] {
      csv = layout(value, at: path.appending("csv"))
      if format != .fixed(.mappedCSV) {
        // Other formats bring their own columns; a mapping they ignore is a mapping someone
        // believes is in effect.
        report(path.appending("csv"), .csvWithoutCSVFormat, atKey: true)
      }
    } else if format == .fixed(.mappedCSV) {
      report(path.appending("format"), .csvFormatWithoutMapping)
    }

    // Without `source.catalog` the built-in catalog maps the exercises; a pipeline's own
    // catalog replaces it whole, so what a radar counts never mixes two sources.
    let catalogPath = path.appending("catalog")
    var loaded: (url: URL?, catalog: Catalog)? = (nil, Catalog.builtIn)
    if let value = members["catalog"] {
      loaded = string(value, at: catalogPath, nonEmpty: true).flatMap { catalog($0, at: catalogPath) }
    }

    var limits = ReadLimits()
    if let value = members["limits"] {
      limits = self.limits(value, at: path.appending("limits"))
    }

    guard let input, let loaded else { return nil }
    return Pipeline.Source(
      input: resolve(input), catalogFile: loaded.url, catalog: loaded.catalog, format: format, defaults: defaults,
      warmupSets: warmupSets, csv: csv, users: users.map(resolve), limits: limits)
  }

  /// `source.limits`: each bound in the unit a person thinks in (MB, KB), with a range that
  /// keeps a typo from turning a limit off (a 64-bit byte count cannot overflow here).
  func limits(_ value: JSONValue, at path: JSONPath) -> ReadLimits {
    var limits = ReadLimits()
    guard let members = object(value, at: path, keys: Self.limitsKeys) else { return limits }
    if let value = members["maxFileMB"],
      let megabytes = integer(
        value, at: path.appending("maxFileMB"), in: 1...ReadLimits.largestFileMB, what: "maxFileMB")
    {
      limits.maxFileBytes = megabytes << 20
    }
    if let value = members["maxFieldKB"],
      let kilobytes = integer(value, at: path.appending("maxFieldKB"), in: 1...1_048_576, what: "maxFieldKB")
    {
      limits.maxFieldBytes = kilobytes << 10
    }
    if let value = members["maxColumns"],
      let columns = integer(value, at: path.appending("maxColumns"), in: 1...1_000_000, what: "maxColumns")
    {
      limits.maxColumns = columns
    }
    // Values are released recursively after reading: far above the default, the stack of a
    // worker thread (512 KiB) becomes the limit instead.
    if let value = members["maxJSONDepth"],
      let depth = integer(value, at: path.appending("maxJSONDepth"), in: 1...10_000, what: "maxJSONDepth")
    {
      limits.maxJSONDepth = depth
    }
    if let value = members["maxFilesPerUser"],
      let count = integer(value, at: path.appending("maxFilesPerUser"), in: 1...1_000_000, what: "maxFilesPerUser")
    {
      limits.maxFilesPerUser = count
    }
    if let value = members["maxRejectedShare"], let share = number(value, at: path.appending("maxRejectedShare")) {
      if (0...1).contains(share) {
        limits.maxRejectedShare = share
      } else {
        report(
          path.appending("maxRejectedShare"),
          "maxRejectedShare must be a share between 0 and 1 (0.05 is one row in twenty), found \(text(of: value))")
      }
    }
    return limits
  }

  func defaults(_ value: JSONValue, at path: JSONPath) -> UserSettings {
    var settings = UserSettings()
    guard let members = object(value, at: path, keys: Self.defaultsKeys) else { return settings }
    if let value = members["timeZone"], let zone = timeZone(value, at: path.appending("timeZone")) {
      settings.read.timeZone = zone
    }
    if let value = members["weightUnit"], let unit = weightUnit(value, at: path.appending("weightUnit")) {
      settings.read.weightUnit = unit
    }
    if let value = members["distanceUnit"], let unit = distanceUnit(value, at: path.appending("distanceUnit")) {
      settings.read.distanceUnit = unit
    }
    if let value = members["firstWeekday"] {
      let dayPath = path.appending("firstWeekday")
      if let text = string(value, at: dayPath) {
        if let day = Weekday(name: text) {
          settings.firstWeekday = day
        } else {
          report(dayPath, .unknownWeekday(text))
        }
      }
    }
    if let value = members["dateOrder"] {
      let orderPath = path.appending("dateOrder")
      // Any case, as users.csv reads it.
      if let text = string(value, at: orderPath) {
        if let order = DateOrder(rawValue: text.lowercased()) {
          settings.read.dateOrder = order
        } else {
          report(orderPath, .unknownDateOrder(text))
        }
      }
    }
    return settings
  }

  static let csvKeys = ["columns", "delimiter", "decimalSeparator", "dateFormat", "weightUnit", "distanceUnit"]
  static let columnKeys = [
    "start", "exercise", "session", "end", "duration", "weight", "reps", "setType", "setIndex", "distance", "seconds",
  ]
  /// What `delimiter` may be: a tab may be written as the character or as `\t`.
  static let delimiters = [",", ";", "\t", "\\t"]

  func layout(_ value: JSONValue, at path: JSONPath) -> MappedCSVLayout? {
    guard let members = object(value, at: path, keys: Self.csvKeys, required: ["columns"]) else { return nil }
    var columns: [String: String] = [:]
    if let value = members["columns"] {
      let columnsPath = path.appending("columns")
      if let given = object(value, at: columnsPath, keys: Self.columnKeys, required: ["start", "exercise"]) {
        for (key, value) in given {
          if let name = string(value, at: columnsPath.appending(key), nonEmpty: true) { columns[key] = name }
        }
      }
    }
    var delimiter: String?
    if let value = members["delimiter"], let text = string(value, at: path.appending("delimiter")) {
      if Self.delimiters.contains(text) {
        delimiter = text
      } else {
        report(path.appending("delimiter"), .unknownDelimiter(text))
      }
    }
    var decimalSeparator: String?
    if let value = members["decimalSeparator"] {
      decimalSeparator = choice(value, at: path.appending("decimalSeparator"), [".", ","], what: "decimalSeparator")
    }
    var dateFormat: String?
    if let value = members["dateFormat"], let text = string(value, at: path.appending("dateFormat"), nonEmpty: true) {
      // A pattern without a year, month or day would read every row's date as something else;
      // the reader's own rule decides, so validate and run never disagree.
      if let problem = DatePattern.problem(text) {
        report(path.appending("dateFormat"), .dateFormat(problem))
      } else {
        dateFormat = text
      }
    }
    let weightUnit = members["weightUnit"].flatMap { self.weightUnit($0, at: path.appending("weightUnit")) }
    let distanceUnit = members["distanceUnit"].flatMap { self.distanceUnit($0, at: path.appending("distanceUnit")) }
    guard let start = columns["start"], let exercise = columns["exercise"] else { return nil }
    return MappedCSVLayout(
      columns: MappedCSVLayout.Columns(
        start: start, exercise: exercise, session: columns["session"], end: columns["end"],
        duration: columns["duration"], weight: columns["weight"], reps: columns["reps"], setType: columns["setType"],
        setIndex: columns["setIndex"], distance: columns["distance"], seconds: columns["seconds"]),
      delimiter: delimiter, decimalSeparator: decimalSeparator, dateFormat: dateFormat, weightUnit: weightUnit,
      distanceUnit: distanceUnit)
  }

  // MARK: compare and output

  static let compareKeys = ["charts", "quantiles", "rank", "weekStart", "groupBy"]
  /// The quantiles compared when `compare` gives none: those of the SPEC 6 example.
  static let defaultQuantiles = Compare.defaultQuantiles
  /// Users in a ranking when `rank` gives no `top`.
  static let defaultRankTop = Compare.defaultRankTop
  static let maxRankTop = PipelineLoader.maxRankTop

  func compare(_ value: JSONValue, at path: JSONPath, charts: [Chart]) -> Pipeline.Compare? {
    guard let members = object(value, at: path, keys: Self.compareKeys, required: ["charts"]) else { return nil }
    var names: [String] = []
    // Sets beside the lists, so each compared chart is one look-up, not a scan of every chart.
    var named: Set<String> = []
    var compared: [Chart] = []
    // False when a named chart is missing or broken: its measures are unknown, and a rank
    // measure it would have provided must not be reported as a second problem.
    var allCompared = true
    if let value = members["charts"], let elements = array(value, at: path.appending("charts"), nonEmpty: true) {
      let byName = Dictionary(charts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
      let definedNames = document.value["charts"]?.objectMembers?.map(\.key) ?? []
      let defined = Set(definedNames)
      for (index, element) in elements.enumerated() {
        let elementPath = path.appending("charts").appending(index)
        guard let name = string(element, at: elementPath) else { continue }
        guard named.insert(name).inserted else {
          report(elementPath, .comparedTwice(name))
          continue
        }
        names.append(name)
        guard defined.contains(name) else {
          allCompared = false
          report(elementPath, .compareUnknownChart(name, defined: definedNames))
          continue
        }
        guard let chart = byName[name] else {
          allCompared = false  // Defined but broken: reported there.
          continue
        }
        if chart.outputKind.cohortSchemaID != nil {
          compared.append(chart)
        } else {
          report(elementPath, .notComparable(chart: name, kind: chart.outputName))
        }
      }
    }

    var quantiles = Self.defaultQuantiles
    if let value = members["quantiles"] {
      let quantilesPath = path.appending("quantiles")
      if let elements = array(value, at: quantilesPath, nonEmpty: true) {
        var read: [Double] = []
        for (index, element) in elements.enumerated() {
          let elementPath = quantilesPath.appending(index)
          guard let q = number(element, at: elementPath) else { continue }
          guard q >= 0 && q <= 1 else {
            report(elementPath, .quantileOutOfRange(found: text(of: element)))
            continue
          }
          if let last = read.last, q <= last {
            report(elementPath, .quantilesNotIncreasing)
          }
          read.append(q)
        }
        quantiles = read
      }
    }

    var rankMeasure: Measure?
    var rankTop = Self.defaultRankTop
    if let value = members["rank"] {
      let rankPath = path.appending("rank")
      if let rank = object(value, at: rankPath, keys: ["measure", "top"], required: ["measure"]) {
        if let value = rank["measure"] {
          rankMeasure = choice(value, at: rankPath.appending("measure"), what: "measure")
          if let best = rankMeasure, best.isBest {
            // A ranking sums the measure over the window; a sum of weekly bests is no one's number.
            report(rankPath.appending("measure"), .rankByBest(best))
            rankMeasure = nil
          }
          let measured = Set(
            compared.flatMap { chart in chart.isSeries ? chart.bucket?.measures ?? [] : [] })
          if let rankMeasure, allCompared, !compared.isEmpty, !measured.contains(rankMeasure) {
            report(rankPath.appending("measure"), .rankMeasureNotCompared(rankMeasure))
          }
        }
        if let value = rank["top"],
          let top = integer(value, at: rankPath.appending("top"), in: 1...Self.maxRankTop, what: "top")
        {
          rankTop = top
        }
      }
    }
    let weekStart: Weekday? = members["weekStart"].flatMap {
      choice($0, at: path.appending("weekStart"), what: "weekday")
    }
    var groupBy: String?
    if let value = members["groupBy"], let column = string(value, at: path.appending("groupBy")) {
      // A column name as a header spells it: printable, short, and not the id column itself.
      if column.isEmpty || column.utf8.count > 64 || column.lowercased() == "user"
        || column.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      {
        report(path.appending("groupBy"), .badGroupColumn(column))
      } else {
        groupBy = column
      }
    }
    return Pipeline.Compare(
      charts: names, quantiles: quantiles, rankMeasure: rankMeasure, rankTop: rankTop, weekStart: weekStart,
      groupBy: groupBy)
  }

  func output(_ value: JSONValue, at path: JSONPath) -> Pipeline.Output? {
    guard let members = object(value, at: path, keys: ["formats"]) else { return nil }
    guard let value = members["formats"] else { return Pipeline.Output(formats: [.json]) }
    let formatsPath = path.appending("formats")
    guard let elements = array(value, at: formatsPath, nonEmpty: true) else { return nil }
    var formats: [Pipeline.Output.Format] = []
    for (index, element) in elements.enumerated() {
      let elementPath = formatsPath.appending(index)
      guard
        let name = choice(
          element, at: elementPath, Pipeline.Output.Format.allCases.map(\.rawValue), what: "output format"),
        let format = Pipeline.Output.Format(rawValue: name)
      else { continue }
      if formats.contains(format) {
        report(elementPath, .formatListedTwice(name))
      } else {
        formats.append(format)
      }
    }
    return Pipeline.Output(formats: formats)
  }

  // MARK: Paths and the catalog

  /// `relative` against the pipeline file's folder; an absolute path stays as it is.
  func resolve(_ relative: String) -> URL {
    URL(fileURLWithPath: relative, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
  }

  /// `relative` as it would be typed from where the pipeline file was named, for messages:
  /// `Pipelines/` + `../SampleData/catalog.json` is `SampleData/catalog.json`.
  func displayPath(_ relative: String) -> String {
    if relative.hasPrefix("/") { return relative }
    var parts = (display as NSString).deletingLastPathComponent.split(separator: "/", omittingEmptySubsequences: false)
      .map(String.init)
    if parts == [""] { parts = [] }
    let absolute = display.hasPrefix("/")
    for part in relative.split(separator: "/").map(String.init) {
      switch part {
      case ".": continue
      case "..":
        if let last = parts.last, last != "..", !(absolute && parts.count == 1) {
          parts.removeLast()
        } else {
          parts.append(part)
        }
      default: parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return joined.isEmpty ? "." : joined
  }

  func catalog(_ relative: String, at path: JSONPath) -> (url: URL, catalog: Catalog)? {
    let url = resolve(relative)
    let shown = displayPath(relative)
    let bytes: [UInt8]
    do throws(FileBytes.Failure) {
      bytes = try FileBytes.read(url.path, maximumBytes: PipelineLoader.maxCatalogBytes)
    } catch {
      if case .unreadable(_, let code) = error, code == ENOENT {
        report(path, .catalogMissing(shown: shown))
      } else {
        report(
          path,
          .catalogUnreadable(
            shown: shown, reason: PipelineLoader.describe(error, limit: PipelineLoader.maxCatalogBytes)))
      }
      return nil
    }
    let catalogPlace = "the catalog named by source.catalog"
    let catalogDocument: JSONDocument
    do {
      catalogDocument = try JSONReader().parseDocument(bytes)
    } catch {
      var diagnostic = error.diagnostic(file: shown)
      diagnostic.message = "catalog: " + diagnostic.message
      diagnostic.hint = "In \(catalogPlace)"
      report(diagnostic, sortedAt: path)
      return nil
    }
    do {
      let catalog = try JSONDecoder().decode(Catalog.self, from: Data(bytes))
      var seen: Set<Int> = []
      var clean = true
      for (index, group) in catalog.muscleGroups.enumerated() where !seen.insert(group.id).inserted {
        let groupPath = JSONPath([.key("muscleGroups"), .index(index), .key("id")])
        report(
          Diagnostic(
            at: catalogDocument.sourceLocation(of: groupPath, file: shown), path: groupPath.description,
            "catalog: muscle group id \(group.id) is used twice", hint: "Give each muscle group its own id"),
          sortedAt: path)
        clean = false
      }
      return clean ? (url, catalog) : nil
    } catch let error as DecodingError {
      let (codingPath, message) = Self.describe(error)
      let jsonPath = JSONPath(codingPath.map { $0.intValue.map { .index($0) } ?? .key($0.stringValue) })
      // A missing key has no location of its own; point at the object that lacks it.
      var located = jsonPath
      while catalogDocument.location(of: located) == nil && !located.components.isEmpty {
        located.components.removeLast()
      }
      report(
        Diagnostic(
          at: catalogDocument.sourceLocation(of: located, file: shown), path: jsonPath.description,
          "catalog: \(message)", hint: "In \(catalogPlace)"),
        sortedAt: path)
      return nil
    } catch {
      report(path, .catalogUnreadable(shown: shown, reason: error.localizedDescription))
      return nil
    }
  }

  /// A decoding error in the catalog's words, and the path of the value at fault.
  static func describe(_ error: DecodingError) -> ([any CodingKey], String) {
    switch error {
    case .typeMismatch(let type, let context):
      return (context.codingPath, "expected \(typeName(type))")
    case .valueNotFound(let type, let context):
      return (context.codingPath, "expected \(typeName(type)), found null")
    case .keyNotFound(let key, let context):
      return (context.codingPath, "missing key '\(key.stringValue)'")
    case .dataCorrupted(let context):
      return (context.codingPath, context.debugDescription)
    @unknown default:
      return ([], "\(error)")
    }
  }

  static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type: return "a whole number"
    case is Double.Type: return "a number"
    case is [Any].Type: return "an array"
    default: return "an object"
    }
  }
}
