import TrendlineSchema
import TrendlineStages

/// Every stage a pipeline file may name, in the order the guide and `validate --stages` list
/// them: what narrows sessions, what buckets them, what reshapes a series, what makes a chart.
///
/// The loader knows stages only through this list and what each declares, so adding one is
/// its file, its test, its guide and a line here; a stage that makes a chart kind of its own is
/// reached through that kind's line in ``ChartKinds/all`` instead (``StagedChartKind``).
public enum StageRegistry {
  /// What shapes sessions and series, then the stage of each chart kind in ``ChartKinds/all``'s order.
  public static let units: [any StageUnit.Type] =
    [
      Filter.self,
      Bucket.self,
      FillGaps.self,
      Smooth.self,
      ValueBands.self,
    ] + chartKinds.map { $0.stage }

  /// Every chart kind a stage makes, in ``ChartKinds/all``'s order: all but the series.
  public static let chartKinds: [any StagedChartKind.Type] = ChartKinds.all.compactMap {
    $0 as? any StagedChartKind.Type
  }

  /// The kind of chart `stage` makes, when it makes one.
  ///
  /// - Complexity: O(*k*) for *k* kinds.
  public static func kind(madeBy stage: any StageUnit.Type) -> (any ChartKind.Type)? {
    chartKinds.first { $0.stage == stage }
  }

  /// The unit whose key is `key`, exactly as written.
  ///
  /// - Complexity: O(*s*) for *s* stages.
  public static func unit(_ key: String) -> (any StageUnit.Type)? {
    units.first { $0.key == key }
  }

  public static var keys: [String] { units.map { $0.key } }

  /// Every stage with what it reads and produces and its summary, as `validate --stages`
  /// prints it and `Guides/PipelineFile.md` quotes it (a test keeps the two the same).
  ///
  /// - Complexity: O(*s*) for *s* stages.
  public static var reference: String {
    // Not padded to the longest key: a stage with a longer key would change every line, and the
    // guide's copy with it.
    units.map { unit in
      let reads = unit.reads.map(\.rawValue).joined(separator: "|")
      return "\(unit.key): \(reads) → \(unit.produces.rawValue)\(unit.repeatable ? ", repeatable" : "")\n"
        + "  " + unit.summary
    }.joined(separator: "\n") + "\n"
  }
}
