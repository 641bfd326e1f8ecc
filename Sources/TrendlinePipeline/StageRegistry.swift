import TrendlineSchema
import TrendlineStages

/// Every stage a pipeline file may name, in the order the guide and `validate --stages` list
/// them: what narrows sessions, what buckets them, what reshapes a series, what makes a chart.
///
/// The loader knows stages only through this list and what each declares, so adding one is
/// its file, its test, its guide and a line here.
public enum StageRegistry {
  public static let units: [any StageUnit.Type] = [
    Filter.self,
    Bucket.self,
    FillGaps.self,
    Smooth.self,
    ValueBands.self,
    Streak.self,
    Radar.self,
    Heatmap.self,
    Sparkline.self,
    Records.self,
  ]

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
