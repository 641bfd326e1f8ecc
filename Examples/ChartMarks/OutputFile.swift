import Foundation
import TrendlineSchema

/// One of Trendline's output files decoded, whichever schema it holds: a user's chart
/// (`users/<user>/<chart>.json`) or a cohort's (`cohort/<chart>.json`).
///
/// `TrendlineSchema` decodes each schema into its own type, and `ChartOutput` and `CohortChart`
/// name them all, but neither is `Decodable`: an app reads `schema` first and decodes the type
/// it names. It never tries each type in turn, since a wrong guess fails for a reason that
/// says nothing about the file.
enum OutputFile: Sendable, Equatable {
  case user(ChartOutput)
  case cohort(CohortChart)

  /// A `schema` this app does not know: a newer Trendline's output, or not Trendline's.
  struct UnknownSchema: Error, CustomStringConvertible {
    var schema: String
    var description: String { "schema '\(schema)' is not one this app decodes" }
  }

  /// Only the `schema` field, read first to pick the type.
  private struct Head: Decodable {
    var schema: String
  }

  /// The decoder an app uses, and nothing of Trendline's: `JSONDecoder` with `.iso8601`.
  static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  /// Decodes `data` as the type its `schema` names.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the file: it is parsed twice.
  static func decode(_ data: Data) throws -> OutputFile {
    let decoder = makeDecoder()
    switch try decoder.decode(Head.self, from: data).schema {
    case SeriesOutput.schemaID: return .user(.series(try decoder.decode(SeriesOutput.self, from: data)))
    case RadarOutput.schemaID: return .user(.radar(try decoder.decode(RadarOutput.self, from: data)))
    case HeatmapOutput.schemaID: return .user(.heatmap(try decoder.decode(HeatmapOutput.self, from: data)))
    case SparklinesOutput.schemaID:
      return .user(.sparklines(try decoder.decode(SparklinesOutput.self, from: data)))
    case RecordsOutput.schemaID: return .user(.records(try decoder.decode(RecordsOutput.self, from: data)))
    case StreakOutput.schemaID: return .user(.streak(try decoder.decode(StreakOutput.self, from: data)))
    case CohortSeriesOutput.schemaID:
      return .cohort(.series(try decoder.decode(CohortSeriesOutput.self, from: data)))
    case CohortRadarOutput.schemaID: return .cohort(.radar(try decoder.decode(CohortRadarOutput.self, from: data)))
    case let other: throw UnknownSchema(schema: other)
    }
  }
}
