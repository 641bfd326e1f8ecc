import TrendlinePipeline

extension CohortGatherer {
  /// Adds what one shard gathered.
  ///
  /// - Complexity: that of ``CohortGatherer/merge(series:radar:)``.
  mutating func merge(_ partial: CohortPartial) {
    merge(series: partial.series, radar: partial.radar, segments: partial.segments ?? [:])
  }
}
