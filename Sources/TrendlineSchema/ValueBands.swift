/// Named value levels of one measure of a series, drawn as labelled bands inside the plot, the
/// way a weather app labels UV levels (`{"bands": {"measure": "sessions", "levels": [[0,
/// "Rest"], [1, "Light"], [3, "Regular"], [5, "Heavy"]]}}` in a pipeline file).
///
/// A series output states its chart's bands (`bands`: `{"measure": "sessions", "levels":
/// [{"from": 0, "label": "Rest"}, …]}`), so an app draws the same levels the SVG does.
public struct ValueBands: Decodable, Sendable, Equatable {
  /// A level starts at `from` (inclusive) and runs up to the next level's `from`.
  public struct Level: Decodable, Sendable, Equatable {
    public var from: Double
    public var label: String
    public init(from: Double, label: String) {
      self.from = from
      self.label = label
    }
  }

  public var measure: Measure
  /// Ascending by `from`, without repeats (the pipeline loader checks it).
  public var levels: [Level]

  public init(measure: Measure, levels: [Level]) {
    self.measure = measure
    self.levels = levels
  }
}

extension ValueBands: OutputWritable {
  /// Writes `measure, levels`, each level `from, label`.
  ///
  /// - Complexity: O(*l*) for *l* levels.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("measure", measure.rawValue)
    writer.key("levels")
    try writer.array(levels) { writer, level in
      writer.beginObject()
      try writer.member("from", level.from)
      writer.member("label", level.label)
      writer.endObject()
    }
    writer.endObject()
  }
}
