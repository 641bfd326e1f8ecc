import Foundation

/// A chart's result, one of the SPEC 7 schemas.
public enum ChartOutput: Sendable, Equatable {
  case series(SeriesOutput)
  case radar(RadarOutput)
  case heatmap(HeatmapOutput)
  case sparklines(SparklinesOutput)
  case records(RecordsOutput)
  case streak(StreakOutput)

  /// The JSON bytes written to `<chart>.json`.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the output.
  public func encoded(timeZone: TimeZone) throws -> Data {
    switch self {
    case .series(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .radar(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .heatmap(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .sparklines(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .records(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .streak(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    }
  }
}
