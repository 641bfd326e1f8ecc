import Foundation
import TrendlineStages

/// What one shard gathered for the cohort outputs: `shards/<I>-of-<N>/cohort-partial.json`.
///
/// It holds the values the cohort statistics are computed from (one per user and bucket),
/// not the per-user files, so `trendline merge` needs memory for the cohort's values only.
public struct CohortPartial: Codable, Sendable, Equatable {
  public static let schemaID = "trendline/cohort-partial@1"

  public var schema = CohortPartial.schemaID
  public var pipeline: Manifest.PipelineRecord
  public var asOf: String
  public var shard: Manifest.ShardRecord
  /// The pipeline's `compare` settings, so merging needs no pipeline file.
  public var compare: Compare
  public var series: [String: Compare.SeriesPart]
  public var radar: [String: Compare.RadarPart]
  /// The pipeline's `output.formats`, so merging draws the cohort SVGs and the report index
  /// like a single run; absent in partials written before drawing existed (JSON only).
  public var formats: [String]? = nil

  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
