import Foundation
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

// `charts`: names, stage chains, and each stage's parameters.
extension PipelineChecker {
  /// Stage names in the order a series runs them, then the stages that make a chart alone.
  ///
  /// `bands` is not a stage (it computes nothing), but it is written like one, last in a series,
  /// so a chart reads top to bottom in the order its data is made and then drawn.
  static let stageNames = ["bucket", "fillGaps", "smooth", "bands", "radar", "heatmap", "sparkline"]
  /// Enough levels for any scale a person reads at a glance.
  static let maxBandLevels = 12
  /// Where a band level may start: far beyond any measure (a billion kilograms a week), near
  /// enough that every coordinate drawn from it stays an ordinary number.
  static let bandLevelRange: ClosedRange<Double> = -1_000_000_000...1_000_000_000
  /// A smoothing window of more than a year of days smooths nothing a person reads, and the
  /// centred mean costs the window for each value.
  static let maxSmoothWindow = 366
  /// Periods a radar or heat map may show: ten years of months, and enough days or weeks for
  /// any chart a person reads.
  static let maxPeriods = 120
  /// Ten years: a sparkline wider than the history Trendline reads is a typo.
  static let maxWindowDays = 3660
  /// A chart name becomes `<chart>.json`, so it must be a plain file name everywhere.
  static let maxChartNameLength = 64

  func charts(_ value: JSONValue, at path: JSONPath, catalog: Catalog?) -> [Chart] {
    guard let members = value.objectMembers else {
      report(path, "expected an object, found \(kind(of: value))")
      return []
    }
    if members.isEmpty {
      report(path, "the pipeline has no charts", hint: "Add one, e.g. \"volume\": [{\"bucket\": {…}}]")
    }
    var charts: [Chart] = []
    var seen: [String: String] = [:]  // lowercased name → name
    for (index, member) in members.enumerated() {
      let chartPath = path.appending(member.key)
      let isLast = !members[(index + 1)...].contains { $0.key == member.key }
      guard isLast else {
        // Only the last of a repeated key can be located; report it there, once.
        continue
      }
      if members.filter({ $0.key == member.key }).count > 1 {
        report(
          chartPath, "chart '\(member.key)' is defined more than once", hint: "Give each chart its own name",
          atKey: true)
      }
      if let earlier = seen[member.key.lowercased()] {
        report(
          chartPath, "charts '\(earlier)' and '\(member.key)' differ only in case",
          hint: "Rename one: their files would be the same file on macOS and Windows", atKey: true)
      }
      seen[member.key.lowercased()] = member.key
      if let problem = Self.chartNameProblem(member.key) {
        report(chartPath, problem, hint: "Use letters, digits, '.', '_' and '-'", atKey: true)
      }
      if let chart = self.chart(member.key, member.value, at: chartPath, catalog: catalog) {
        charts.append(chart)
      }
    }
    return charts
  }

  /// Why `name` cannot name a chart, or `nil` when it can.
  static func chartNameProblem(_ name: String) -> String? {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".unicodeScalars)
    if name.isEmpty { return "a chart name cannot be empty" }
    if name.unicodeScalars.count > maxChartNameLength {
      return "chart name '\(name)' is longer than \(maxChartNameLength) characters"
    }
    if !name.unicodeScalars.allSatisfy(allowed.contains) {
      return "chart name '\(name)' is not a plain file name"
    }
    // A leading dot would make a hidden `<chart>.json` that `ls` and Finder do not show.
    if name.hasPrefix(".") { return "chart name '\(name)' starts with '.'" }
    if name.hasSuffix(".") { return "chart name '\(name)' ends with '.', which Windows drops from file names" }
    // Windows refuses these as the part of a file name before its first dot, in any case, so
    // an output folder holding `con.json` could not be copied there.
    let base = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0].uppercased()
    if windowsReservedNames.contains(base) {
      return "chart name '\(name)' is a device name on Windows (\(base)), so its files could not be copied there"
    }
    return nil
  }

  /// CON, PRN, AUX, NUL, COM1–COM9 and LPT1–LPT9.
  static let windowsReservedNames: Set<String> = Set(
    ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

  /// One chart's stage chain, checked element by element and then for order.
  func chart(_ name: String, _ value: JSONValue, at path: JSONPath, catalog: Catalog?) -> Chart? {
    guard let elements = value.arrayValue else {
      report(path, "expected an array of stages, found \(kind(of: value))")
      return nil
    }
    guard !elements.isEmpty else {
      report(path, "chart '\(name)' has no stages", hint: "Start it with 'bucket', 'radar', 'heatmap' or 'sparkline'")
      return nil
    }
    var bucket: Bucket?
    var fillGaps: FillGaps?
    var smooth: Smooth?
    var bands: ValueBands?
    var alone: Chart.Kind?
    var valid = true
    // Stage names seen so far, for the order checks.
    var earlier: [String] = []

    for (index, element) in elements.enumerated() {
      let elementPath = path.appending(index)
      guard let members = element.objectMembers else {
        report(elementPath, "expected a stage object such as {\"bucket\": {…}}, found \(kind(of: element))")
        valid = false
        continue
      }
      guard members.count == 1, let stage = members.first else {
        let names = members.map { "'\($0.key)'" }.joined(separator: ", ")
        report(
          elementPath,
          members.isEmpty
            ? "a stage is an object with one key, the stage's name; found none"
            : "a stage is an object with one key, the stage's name; found \(members.count): \(names)",
          hint: "Put each stage in its own {…} in the chart's array")
        valid = false
        continue
      }
      guard Self.stageNames.contains(stage.key) else {
        report(
          elementPath, "unknown stage '\(stage.key)'", hint: suggestion(stage.key, in: Self.stageNames, noun: "stages"))
        valid = false
        continue
      }
      let stagePath = elementPath.appending(stage.key)
      if earlier.contains(stage.key) {
        report(elementPath, "stage '\(stage.key)' appears twice in chart '\(name)'", hint: "Keep one")
        valid = false
      } else if !orderAllows(stage.key, after: earlier, chart: name, elementCount: elements.count, at: elementPath) {
        valid = false
      }
      earlier.append(stage.key)

      switch stage.key {
      case "bucket": bucket = self.bucket(stage.value, at: stagePath)
      case "fillGaps": fillGaps = self.fillGaps(stage.value, at: stagePath)
      case "smooth": smooth = self.smooth(stage.value, at: stagePath)
      case "bands": bands = self.bands(stage.value, at: stagePath, measures: bucket?.measures)
      case "radar": alone = self.radar(stage.value, at: stagePath, catalog: catalog).map { .radar($0) }
      case "heatmap": alone = self.heatmap(stage.value, at: stagePath).map { .heatmap($0) }
      default: alone = self.sparkline(stage.value, at: stagePath).map { .sparkline($0) }
      }
      if stage.key == "fillGaps" && fillGaps == nil || stage.key == "smooth" && smooth == nil
        || stage.key == "bands" && bands == nil
      {
        valid = false
      }
    }
    guard valid else { return nil }
    if let alone { return Chart(name: name, kind: alone) }
    guard let bucket else { return nil }
    return Chart(name: name, kind: .series(bucket, fillGaps: fillGaps, smooth: smooth), bands: bands)
  }

  /// Whether `stage` may follow `earlier` in a chart; reports why not.
  ///
  /// A series is `bucket`, then `fillGaps`, then `smooth`, the last two optional: `fillGaps` and
  /// `smooth` read buckets, and smoothing before filling would average across the missing
  /// periods the fill is there to show. `radar`, `heatmap` and `sparkline` read sessions and
  /// end a chart, so each is a chart alone.
  func orderAllows(_ stage: String, after earlier: [String], chart: String, elementCount: Int, at path: JSONPath)
    -> Bool
  {
    switch stage {
    case "radar", "heatmap", "sparkline":
      guard elementCount == 1 else {
        report(
          path, "'\(stage)' must be the only stage of its chart",
          hint: "It reads sessions and ends a chart; move it to a chart of its own")
        return false
      }
      return true
    case "bucket":
      // Whatever came before it has already been reported, with the fix: move the bucket up.
      return earlier.isEmpty
    case "bands":
      guard earlier.contains("bucket") else {
        if earlier.contains(where: { ["radar", "heatmap", "sparkline"].contains($0) }) {
          return true  // Reported at that stage: it must be alone.
        }
        report(path, "'bands' labels a series", hint: "Add a 'bucket' stage before it")
        return false
      }
      return true
    default:  // fillGaps, smooth
      guard earlier.contains("bucket") else {
        if earlier.contains(where: { ["radar", "heatmap", "sparkline"].contains($0) }) {
          return true  // Reported at that stage: it must be alone.
        }
        report(path, "'\(stage)' needs bucketed data", hint: "Add a 'bucket' stage before it")
        return false
      }
      if earlier.contains("bands") {
        report(
          path, "'\(stage)' must come before 'bands'",
          hint: "Move 'bands' to the end: it labels the finished chart")
        return false
      }
      if stage == "fillGaps" && earlier.contains("smooth") {
        report(
          path, "'fillGaps' must come before 'smooth'",
          hint: "Move it up: a trend smoothed before the gaps are filled runs across the missing periods")
        return false
      }
      return true
    }
  }

  // MARK: Stages

  static let bucketKeys = ["range", "granularity", "measures"]

  func bucket(_ value: JSONValue, at path: JSONPath) -> Bucket? {
    guard let members = object(value, at: path, keys: Self.bucketKeys, required: ["range", "measures"]) else {
      return nil
    }
    let range = members["range"].flatMap {
      choice($0, at: path.appending("range"), BucketRange.allCases.map(\.rawValue), what: "range")
        .flatMap(BucketRange.init(rawValue:))
    }
    var granularity = Bucket.GranularitySetting.auto
    var granularityValid = true
    if let value = members["granularity"] {
      let given = choice(
        value, at: path.appending("granularity"), Bucket.GranularitySetting.allCases.map(\.rawValue),
        what: "granularity"
      ).flatMap(Bucket.GranularitySetting.init(rawValue:))
      granularityValid = given != nil
      granularity = given ?? .auto
    }
    var measures: [Measure] = []
    var measuresValid = false
    if let value = members["measures"], let elements = array(value, at: path.appending("measures"), nonEmpty: true) {
      measuresValid = true
      for (index, element) in elements.enumerated() {
        let elementPath = path.appending("measures").appending(index)
        guard let measure = measure(element, at: elementPath) else {
          measuresValid = false
          continue
        }
        if measures.contains(measure) {
          report(elementPath, "measure '\(measure.rawValue)' is listed twice", hint: "List each measure once")
          measuresValid = false
        } else {
          measures.append(measure)
        }
      }
    }
    guard let range, granularityValid, measuresValid else { return nil }
    return Bucket(range: range, granularity: granularity, measures: measures)
  }

  /// `{"measure": "sessions", "levels": [[0, "Rest"], [1, "Light"], …]}`.
  ///
  /// `measures` is the bucket's, when it was valid: a band on a measure the chart does not
  /// draw would silently never show.
  func bands(_ value: JSONValue, at path: JSONPath, measures: [Measure]?) -> ValueBands? {
    guard let members = object(value, at: path, keys: ["measure", "levels"], required: ["measure", "levels"]) else {
      return nil
    }
    var measure = members["measure"].flatMap { self.measure($0, at: path.appending("measure")) }
    if let given = measure, let measures, !measures.contains(given) {
      report(
        path.appending("measure"), "bands name measure '\(given.rawValue)', which this chart's bucket does not have",
        hint: "Use one of: \(measures.map(\.rawValue).joined(separator: ", "))")
      measure = nil
    }
    var levels: [ValueBands.Level] = []
    var levelsValid = false
    let levelsPath = path.appending("levels")
    if let value = members["levels"], let elements = array(value, at: levelsPath, nonEmpty: true) {
      levelsValid = true
      if elements.count > Self.maxBandLevels {
        report(levelsPath, "at most \(Self.maxBandLevels) levels, found \(elements.count)")
        levelsValid = false
      }
      for (index, element) in elements.enumerated() {
        let levelPath = levelsPath.appending(index)
        guard let pair = element.arrayValue, pair.count == 2 else {
          report(
            levelPath, "a level is [from, \"label\"], found \(kind(of: element))",
            hint: "Write it as e.g. [3, \"Regular\"]")
          levelsValid = false
          continue
        }
        let from = number(pair[0], at: levelPath.appending(0))
        let label = string(pair[1], at: levelPath.appending(1), nonEmpty: true)
        guard let from, let label else {
          levelsValid = false
          continue
        }
        guard Self.bandLevelRange.contains(from) else {
          report(
            levelPath.appending(0),
            "a level starts between -1000000000 and 1000000000, found \(text(of: pair[0]))",
            hint: "Give the measure's value where the band begins")
          levelsValid = false
          continue
        }
        if let previous = levels.last, from <= previous.from {
          report(
            levelPath.appending(0),
            "levels must rise: \(text(of: pair[0])) does not come after \(text(of: elements[index - 1].arrayValue?.first ?? pair[0]))",
            hint: "List levels from the lowest value up")
          levelsValid = false
        }
        levels.append(ValueBands.Level(from: from, label: label))
      }
    }
    guard let measure, levelsValid else { return nil }
    return ValueBands(measure: measure, levels: levels)
  }

  func fillGaps(_ value: JSONValue, at path: JSONPath) -> FillGaps? {
    guard let members = object(value, at: path, keys: ["with"]) else { return nil }
    guard let value = members["with"] else { return FillGaps() }
    return choice(value, at: path.appending("with"), FillGaps.Fill.allCases.map(\.rawValue), what: "fill")
      .flatMap(FillGaps.Fill.init(rawValue:)).map { FillGaps(with: $0) }
  }

  static let smoothMethods = ["centered-mean", "trailing-mean", "ewma"]

  func smooth(_ value: JSONValue, at path: JSONPath) -> Smooth? {
    guard let members = object(value, at: path, keys: ["method", "window", "alpha"]) else { return nil }
    var method = "centered-mean"
    if let value = members["method"] {
      guard let given = choice(value, at: path.appending("method"), Self.smoothMethods, what: "smoothing method") else {
        // Still check the window, so one run reports both.
        _ = members["window"].map {
          integer($0, at: path.appending("window"), in: 1...Self.maxSmoothWindow, what: "window")
        }
        return nil
      }
      method = given
    }
    var valid = true
    var window = 5
    if let value = members["window"] {
      if method == "ewma" {
        report(
          path.appending("window"), "'window' is not used by method 'ewma'",
          hint: "Remove it; ewma is shaped by 'alpha'", atKey: true, shownPath: path)
        valid = false
      } else if let given = integer(value, at: path.appending("window"), in: 1...Self.maxSmoothWindow, what: "window") {
        window = given
      } else {
        valid = false
      }
    }
    switch method {
    case "ewma":
      guard let value = members["alpha"] else {
        report(path, "method 'ewma' needs 'alpha'", hint: "Add \"alpha\": a number in (0, 1], e.g. 0.3")
        return nil
      }
      let alphaPath = path.appending("alpha")
      guard let alpha = number(value, at: alphaPath) else { return nil }
      guard alpha > 0 && alpha <= 1 else {
        report(alphaPath, "alpha must be greater than 0 and at most 1, found \(text(of: value))")
        return nil
      }
      return valid ? Smooth(method: .ewma(alpha: alpha), window: window) : nil
    default:
      if members["alpha"] != nil {
        report(
          path.appending("alpha"), "'alpha' is only used by method 'ewma'",
          hint: "Remove it, or set \"method\": \"ewma\"",
          atKey: true, shownPath: path)
        valid = false
      }
      guard valid else { return nil }
      return Smooth(method: method == "trailing-mean" ? .trailingMean : .centeredMean, window: window)
    }
  }

  static let radarKeys = ["period", "periods", "axes", "excluded"]
  static let axisKeys = ["id", "label", "muscleGroupIds"]

  func radar(_ value: JSONValue, at path: JSONPath, catalog: Catalog?) -> Radar? {
    guard let members = object(value, at: path, keys: Self.radarKeys, required: ["period", "periods", "axes"]) else {
      return nil
    }
    let period = members["period"].flatMap { granularity($0, at: path.appending("period"), what: "period") }
    let periods = members["periods"].flatMap {
      integer($0, at: path.appending("periods"), in: 1...Self.maxPeriods, what: "periods")
    }
    var axes: [Radar.Axis] = []
    var axesValid = false
    if let value = members["axes"], let elements = array(value, at: path.appending("axes"), nonEmpty: true) {
      axesValid = true
      for (index, element) in elements.enumerated() {
        let axisPath = path.appending("axes").appending(index)
        guard let axis = object(element, at: axisPath, keys: Self.axisKeys, required: Self.axisKeys) else {
          axesValid = false
          continue
        }
        let id = axis["id"].flatMap { string($0, at: axisPath.appending("id"), nonEmpty: true) }
        let label = axis["label"].flatMap { string($0, at: axisPath.appending("label"), nonEmpty: true) }
        let groupIds = axis["muscleGroupIds"].flatMap { self.ids($0, at: axisPath.appending("muscleGroupIds")) }
        if let id, let label, let groupIds {
          axes.append(Radar.Axis(id: id, label: label, muscleGroupIds: groupIds))
        } else {
          axesValid = false
        }
      }
    }
    var excluded: [Int]? = []
    if let value = members["excluded"] {
      excluded = ids(value, at: path.appending("excluded"))
    }
    guard let period, let periods, axesValid, let excluded else { return nil }
    let radar = Radar(period: period, periods: periods, axes: axes, excluded: excluded)
    guard let catalog else { return radar }  // The catalog's own problem is reported.
    let location = document.sourceLocation(of: path, file: display)
    let problems = AxisCoverageValidator(catalog: catalog).validate(radar, path: path.description)
    for var problem in problems {
      problem.location = location
      report(problem, sortedAt: path)
    }
    return problems.isEmpty ? radar : nil
  }

  /// An array of muscle-group ids.
  func ids(_ value: JSONValue, at path: JSONPath) -> [Int]? {
    guard let elements = array(value, at: path) else { return nil }
    var ids: [Int] = []
    var valid = true
    for (index, element) in elements.enumerated() {
      if let id = integer(element, at: path.appending(index), in: 0...Int.max, what: "a muscle-group id") {
        ids.append(id)
      } else {
        valid = false
      }
    }
    return valid ? ids : nil
  }

  func heatmap(_ value: JSONValue, at path: JSONPath) -> Heatmap? {
    guard let members = object(value, at: path, keys: ["period", "periods"], required: ["period", "periods"]) else {
      return nil
    }
    let period = members["period"].flatMap { granularity($0, at: path.appending("period"), what: "period") }
    let periods = members["periods"].flatMap {
      integer($0, at: path.appending("periods"), in: 1...Self.maxPeriods, what: "periods")
    }
    guard let period, let periods else { return nil }
    return Heatmap(period: period, periods: periods)
  }

  func sparkline(_ value: JSONValue, at path: JSONPath) -> Sparkline? {
    guard let members = object(value, at: path, keys: ["windowDays", "value"], required: ["value"]) else {
      return nil
    }
    var windowDays: Int? = 91
    if let value = members["windowDays"] {
      windowDays = integer(value, at: path.appending("windowDays"), in: 1...Self.maxWindowDays, what: "windowDays")
    }
    let kind = members["value"].flatMap {
      choice($0, at: path.appending("value"), Sparkline.Value.allCases.map(\.rawValue), what: "sparkline value")
        .flatMap(Sparkline.Value.init(rawValue:))
    }
    guard let windowDays, let kind else { return nil }
    return Sparkline(windowDays: windowDays, value: kind)
  }
}
