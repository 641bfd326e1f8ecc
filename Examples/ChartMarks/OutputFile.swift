import Foundation
import TrendlineSchema

/// One of Trendline's output files decoded, whichever schema it holds: a user's chart
/// (`users/<user>/<chart>.json`) or a cohort's (`cohort/<chart>.json`).
///
/// `ChartOutput` and `CohortChart` decode any output of their kind by its `schema`, so an app
/// lists a folder and decodes each file without knowing which chart it holds; a `ChartOutput`'s
/// `content` is then cast to the kinds the app draws (`case let series as SeriesOutput`).
enum OutputFile: Sendable, Equatable {
  case user(ChartOutput)
  case cohort(CohortChart)

  /// The decoder an app uses, and nothing of Trendline's: `JSONDecoder` with `.iso8601`.
  static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  /// Decodes `data`, a cohort file when its schema is a cohort schema.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the file.
  static func decode(_ data: Data, cohort: Bool) throws -> OutputFile {
    let decoder = makeDecoder()
    return cohort
      ? .cohort(try decoder.decode(CohortChart.self, from: data))
      : .user(try decoder.decode(ChartOutput.self, from: data))
  }
}
