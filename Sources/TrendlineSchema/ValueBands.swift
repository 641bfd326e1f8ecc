/// Named value levels of one measure of a series, drawn as labelled bands inside the plot, the
/// way a weather app labels UV levels (`{"bands": {"measure": "sessions", "levels": [[0,
/// "Rest"], [1, "Light"], [3, "Regular"], [5, "Heavy"]]}}` in a pipeline file).
///
/// Bands are a reading aid for the drawn chart only: they are not written into the series JSON,
/// whose schema stays `trendline/series@1`, because an app that draws its own chart decides
/// its own labels. They live in the schema module so the renderer, which depends on nothing
/// else, can take them.
public struct ValueBands: Sendable, Equatable {
  /// A level starts at `from` (inclusive) and runs up to the next level's `from`.
  public struct Level: Sendable, Equatable {
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
