import TrendlineSchema
import TrendlineSupport

/// `bands`: labelled value levels of one measure, stated in the series output (`bands`) and
/// drawn behind its bars (SVG and HTML).
///
/// It computes nothing, so it passes the series through unchanged; it is written like a stage,
/// last in a series, so a chart reads top to bottom in the order its data is made and then
/// drawn. It produces `banded`, which no computing stage reads, and that is what keeps it last.
/// The type is the schema's ``ValueBands``, because the renderer takes that and depends on the
/// schema alone.
extension ValueBands: SeriesStage {
  public static let key = "bands"
  public static let summary = "Labels value levels of one measure, e.g. Rest, Light, Regular, in the JSON and drawn."
  public static let reads: [StageData] = [.buckets, .trend]
  public static let produces = StageData.banded
  /// Enough levels for any scale a person reads at a glance.
  public static let maxLevels = 12
  /// Where a band level may start: far beyond any measure (a billion kilograms a week), near
  /// enough that every coordinate drawn from it stays an ordinary number.
  public static let levelRange: ClosedRange<Double> = -1_000_000_000...1_000_000_000

  /// `{"measure": "sessions", "levels": [[0, "Rest"], [1, "Light"], …]}`, levels rising; the
  /// measure must be one the chart's bucket counts, or the band would silently never show.
  ///
  /// - Complexity: O(*l*) for *l* levels.
  public static func read(_ value: JSONValue, at path: JSONPath, in context: StageReadContext) -> ValueBands? {
    let reader = context.reader
    guard let members = reader.object(value, at: path, keys: ["measure", "levels"], required: ["measure", "levels"])
    else {
      return nil
    }
    let measure = members["measure"].flatMap { context.bucketMeasure($0, at: path.appending("measure"), stage: key) }
    var levels: [Level] = []
    var levelsValid = false
    let levelsPath = path.appending("levels")
    if let value = members["levels"], let elements = reader.array(value, at: levelsPath, nonEmpty: true) {
      levelsValid = true
      if elements.count > maxLevels {
        context.report(levelsPath, .tooMany(what: "levels", limit: maxLevels, found: elements.count))
        levelsValid = false
      }
      for (index, element) in elements.enumerated() {
        let levelPath = levelsPath.appending(index)
        guard let pair = element.arrayValue, pair.count == 2 else {
          context.report(levelPath, .levelShape(found: reader.kind(of: element)))
          levelsValid = false
          continue
        }
        let from = reader.number(pair[0], at: levelPath.appending(0))
        let label = reader.string(pair[1], at: levelPath.appending(1), nonEmpty: true)
        guard let from, let label else {
          levelsValid = false
          continue
        }
        guard levelRange.contains(from) else {
          context.report(levelPath.appending(0), .levelOutOfRange(found: reader.text(of: pair[0])))
          levelsValid = false
          continue
        }
        if let previous = levels.last, from <= previous.from {
          let earlier = elements[index - 1].arrayValue?.first ?? pair[0]
          context.report(
            levelPath.appending(0), .levelsMustRise(found: reader.text(of: pair[0]), previous: reader.text(of: earlier))
          )
          levelsValid = false
        }
        levels.append(Level(from: from, label: label))
      }
    }
    guard let measure, levelsValid else { return nil }
    return ValueBands(measure: measure, levels: levels)
  }

  public var settings: [String] {
    ["\(measure.rawValue): " + levels.map { "\(NumberText.text($0.from)) \($0.label)" }.joined(separator: ", ")]
  }

  /// The series as it is: bands are drawn, not computed.
  ///
  /// - Complexity: O(1).
  public func apply(_ series: BucketedSeries) -> BucketedSeries { series }
}
