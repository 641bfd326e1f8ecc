import Foundation
import TrendlineIngest
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// What one shard gathered for the cohort outputs: `shards/<I>-of-<N>/cohort-partial.json`.
///
/// It holds the values the cohort statistics are computed from (one per user and bucket),
/// not the per-user files, so `trendline merge` needs memory for the cohort's values only.
///
/// It also records what it was computed from (pipeline, as-of, shard count, its users' input
/// by content) and checksums of itself and of its shard's manifest, so that merge refuses
/// partials of different runs, and partials or manifests edited after the shard wrote them,
/// instead of adding them up into plausible numbers. The checksums catch mistakes (a copied
/// or hand-edited file), not an attacker: anyone can compute a SHA-256.
public struct CohortPartial: Decodable, Sendable, Equatable {
  /// 2: the as-of as resolved, the corpus fingerprint, the manifest's SHA-256 and the
  /// partial's own checksum.
  /// 3: a series part counts each row's users apart from its known values, and lists its
  /// partial rows (SPEC 10.3 and 10.6).
  /// 4: a series part counts each row's active users (those with a session in it).
  /// 5: `input`, the shard's users' input by content (``InputIdentity``), for `corpus`, which
  /// knew every user's file names and sizes only.
  public static let schemaID = "trendline/cohort-partial@5"

  public var schema = CohortPartial.schemaID
  public var pipeline: Manifest.PipelineRecord
  public var asOf: String
  /// What the as-of meant when the shard ran (``AsOf/text``, an instant in UTC): two shards
  /// run without `--as-of` on different days resolved different dates and do not belong together.
  public var resolvedAsOf: String
  public var shard: Manifest.ShardRecord
  /// What the shard's users were read from, by content.
  public var input: InputRecord
  /// The pipeline's `compare` settings, so merging needs no pipeline file.
  public var compare: Compare
  public var series: [String: Compare.SeriesPart]
  public var radar: [String: Compare.RadarPart]
  /// The pipeline's `output.formats`, so merging draws the cohort SVGs and the report index
  /// like a single run.
  public var formats: [String]? = nil
  /// `compare.groupBy`, and per segment value the same parts as `series` and `radar`; both nil
  /// without segments.
  public var groupBy: String? = nil
  public var segments: [String: CohortGatherer.Parts]? = nil
  /// SHA-256 (hex) of the shard's `manifest.json` bytes as written beside this file.
  public var manifestSHA256: String = ""
  /// ``contentChecksum()`` when the shard wrote it; nil only before ``sealed(manifest:)``.
  public var checksum: String? = nil

  /// Where a shard read its users from and what it found there, so that `trendline merge` can
  /// check that the input is still what every shard read (SPEC 11.5).
  public struct InputRecord: Decodable, Sendable, Equatable {
    /// The input folder, an absolute path as the shard resolved it.
    public var folder: String
    /// The settings file the pipeline names (`source.users`), absolute; nil for the input
    /// folder's own `users.csv`.
    public var usersFile: String?
    /// `source.limits.maxFileBytes`: a file over it is identified by its size, not read.
    public var maxFileBytes: Int
    /// ``InputIdentity/runKey(pipeline:toolVersion:strict:)``: what every user shares.
    public var runKey: String
    /// ``InputIdentity`` of the shard's slice: its users' exports and settings, by content.
    public var identity: String
    /// The pipeline's `layout`, for merge, which reads no pipeline: where users are in the
    /// input and the output. Absent (flat) in a flat run's partial.
    public var layout: UserLayout

    public init(
      folder: String, usersFile: String?, maxFileBytes: Int, runKey: String, identity: String,
      layout: UserLayout = .flat
    ) {
      self.layout = layout
      self.folder = folder
      self.usersFile = usersFile
      self.maxFileBytes = maxFileBytes
      self.runKey = runKey
      self.identity = identity
    }

    enum CodingKeys: String, CodingKey { case folder, usersFile, maxFileBytes, runKey, identity, layout }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      folder = try container.decode(String.self, forKey: .folder)
      usersFile = try container.decodeIfPresent(String.self, forKey: .usersFile)
      maxFileBytes = try container.decode(Int.self, forKey: .maxFileBytes)
      runKey = try container.decode(String.self, forKey: .runKey)
      identity = try container.decode(String.self, forKey: .identity)
      layout = try container.decodeIfPresent(UserLayout.self, forKey: .layout) ?? .flat
    }
  }

  /// The most users one shard may report: merge sums these over at most 10,000 shards, and
  /// this bound keeps the sum inside `Int` (no corpus comes near 10¹⁴ users).
  public static let maximumCount = Int.max / Shard.counts.upperBound

  /// SHA-256 (hex) of the partial's encoding without its `checksum`: keys are sorted, so
  /// decoding and encoding again gives the same bytes, and the check does not depend on
  /// whitespace.
  ///
  /// - Complexity: O(*v*), where *v* is the number of gathered values.
  public func contentChecksum() throws -> String {
    var unsealed = self
    unsealed.checksum = nil
    return SHA256.hex([UInt8](try unsealed.encoded()))
  }

  /// This partial with `manifest` (the bytes of the manifest written beside it) recorded and
  /// its checksum set: what a shard writes.
  ///
  /// - Complexity: O(*v* + *m*), where *m* is the manifest's size.
  public func sealed(manifest: Data) throws -> CohortPartial {
    var sealed = self
    sealed.manifestSHA256 = SHA256.hex([UInt8](manifest))
    sealed.checksum = try sealed.contentChecksum()
    return sealed
  }

  /// The partial's bytes: one line, keys sorted, no final newline, as partials have always
  /// been written (a shard of an older build merges with one of this build).
  ///
  /// - Throws: ``OutputWriter/NonFiniteNumber`` for a NaN or infinite value.
  /// - Complexity: O(*v*), where *v* is the number of gathered values.
  public func encoded() throws -> Data {
    var writer = OutputWriter(layout: OutputWriter.Layout(spacing: .compact))
    try write(to: &writer)
    return Data(writer.bytes)
  }

  /// What is out of range in a decoded partial, or nil: the values the merge indexes, sums or
  /// allocates by. A shard count of −1 trapped the merge; 1,000,000,000 made it allocate
  /// gigabytes; a quantile above 1 or a radar with fewer count lists than axes indexed past an
  /// array.
  ///
  /// - Complexity: O(*v*), where *v* is the number of gathered values.
  public func problem() -> String? {
    if let problem = Shard.problem(index: shard.index, count: shard.count) { return problem }
    // Merge reads the input the partial names, each file up to this many bytes.
    guard (1...(ReadLimits.largestFileMB << 20)).contains(input.maxFileBytes), input.folder.hasPrefix("/") else {
      return "the input it names is not an absolute folder with a file limit of at most \(ReadLimits.largestFileMB) MB"
    }
    if let quantile = compare.quantiles.first(where: { !(0...1).contains($0) }) {
      return "quantile \(quantile) is outside 0...1"
    }
    guard (0...PipelineLoader.maxRankTop).contains(compare.rankTop) else {
      return "rank top \(compare.rankTop) is outside 0...\(PipelineLoader.maxRankTop)"
    }
    // Chart names become file names (`cohort/<chart>.json`): held to the pipeline's rule, so a
    // forged `../../x` cannot write outside the output folder.
    var seen: Set<String> = []
    for name in Array(series.keys) + Array(radar.keys) {
      if let problem = PipelineLoader.chartNameProblem(name) { return TerminalText.escaped(problem) }
      guard seen.insert(name.lowercased()).inserted else {
        return
          "chart '\(TerminalText.escaped(name))' appears twice (names that differ only in case are one file on macOS "
          + "and Windows)"
      }
    }
    if let problem = CohortPartial.problem(series: series, radar: radar, compare: compare) { return problem }
    guard (groupBy == nil) == (segments == nil) else { return "segments and groupBy come together" }
    if let segments {
      guard segments.count <= UsersFile.maxGroups + 1 else { return "\(segments.count) segments, more than allowed" }
      let charts = (Set(series.keys), Set(radar.keys))
      for key in segments.keys.sorted() {
        let parts = segments[key]!
        let shown = TerminalText.escaped(key)
        guard key.utf8.count <= UsersFile.maxGroupBytes,
          !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return "segment '\(shown)' is not a value users.csv may hold" }
        // Reduced chart by chart beside the cohort of every user: the same charts, or none.
        guard (Set(parts.series.keys), Set(parts.radar.keys)) == charts else {
          return "segment '\(shown)' has other charts than the cohort"
        }
        if let problem = CohortPartial.problem(series: parts.series, radar: parts.radar, compare: compare) {
          return "segment '\(shown)': " + problem
        }
      }
    }
    return nil
  }

  /// What is out of range in one set of parts (the cohort's, or a segment's), or nil.
  static func problem(
    series: [String: Compare.SeriesPart], radar: [String: Compare.RadarPart], compare: Compare
  ) -> String? {
    let users = 0...CohortPartial.maximumCount
    for (name, part) in series {
      guard users.contains(part.users) else { return "chart '\(name)' counts \(part.users) users" }
      guard part.ranking.count <= compare.rankTop, part.ranking.allSatisfy({ $0.value.isFinite }) else {
        return "chart '\(name)' ranks \(part.ranking.count) users, more than \(compare.rankTop) or not finite"
      }
      // Rows in date order, so a partial with two bad rows names the same one on every run.
      // Each is a date (decoding refused any other text, the first in byte order, with
      // `RowIsNoDate`); here, one that starts a period.
      for row in part.counts.keys.sorted() + part.partial where !compare.isRow(row, granularity: part.granularity) {
        return "chart '\(name)' has a row '\(row.text)' that is not the YYYY-MM-DD start of a "
          + part.granularity.rawValue
      }
      // Every row's count, a row of unknown values only included: merge adds them up.
      for row in part.counts.keys.sorted() where !(1...part.users).contains(part.counts[row]!) {
        return "chart '\(name)' counts \(part.counts[row]!) users in row \(row.text) of \(part.users)"
      }
      for row in part.active.keys.sorted() {
        guard let count = part.counts[row], (1...count).contains(part.active[row]!) else {
          return "chart '\(name)' counts \(part.active[row]!) active users in row \(row.text) of "
            + "\(part.counts[row] ?? 0)"
        }
      }
      for row in part.buckets.keys.sorted() {
        guard let count = part.counts[row] else {
          return "chart '\(name)' holds values in row \(row.text), which it does not count"
        }
        for values in part.buckets[row]!.values {
          guard values.allSatisfy(\.isFinite) else { return "chart '\(name)' holds a value that is not finite" }
          guard values.count <= count else {
            return "chart '\(name)' holds \(values.count) values in row \(row.text) of \(count) users"
          }
        }
      }
      guard part.partial.allSatisfy({ part.counts[$0] != nil }) else {
        return "chart '\(name)' marks a row partial that it does not count"
      }
    }
    for (name, part) in radar {
      guard users.contains(part.users) else { return "chart '\(name)' counts \(part.users) users" }
      guard part.counts.count == part.axes.count else {
        return "chart '\(name)' has \(part.axes.count) axes and \(part.counts.count) count lists"
      }
      for counts in part.counts where !counts.allSatisfy(\.isFinite) {
        return "chart '\(name)' holds a count that is not finite"
      }
    }
    return nil
  }
}

// MARK: - Writing

// Keys in UTF-8 byte order, nil members left out.

extension CohortPartial: OutputWritable {
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("asOf", asOf)
    if let checksum { writer.member("checksum", checksum) }
    writer.key("compare")
    try CohortPartial.write(compare, to: &writer)
    if let formats {
      writer.key("formats")
      writer.array(formats) { $0.string($1) }
    }
    if let groupBy { writer.member("groupBy", groupBy) }
    writer.key("input")
    writer.beginObject()
    writer.member("folder", input.folder)
    writer.member("identity", input.identity)
    if input.layout != .flat { writer.member("layout", input.layout.rawValue) }
    writer.member("maxFileBytes", input.maxFileBytes)
    writer.member("runKey", input.runKey)
    if let usersFile = input.usersFile { writer.member("usersFile", usersFile) }
    writer.endObject()
    writer.member("manifestSHA256", manifestSHA256)
    writer.key("pipeline")
    pipeline.write(to: &writer)
    writer.key("radar")
    try writer.object(sortingKeys: radar) { try CohortPartial.write($1, to: &$0) }
    writer.member("resolvedAsOf", resolvedAsOf)
    writer.member("schema", schema)
    if let segments {
      writer.key("segments")
      try writer.object(sortingKeys: segments) { writer, parts in
        writer.beginObject()
        writer.key("radar")
        try writer.object(sortingKeys: parts.radar) { try CohortPartial.write($1, to: &$0) }
        writer.key("series")
        try writer.object(sortingKeys: parts.series) { try CohortPartial.write($1, to: &$0) }
        writer.endObject()
      }
    }
    writer.key("series")
    try writer.object(sortingKeys: series) { try CohortPartial.write($1, to: &$0) }
    writer.key("shard")
    shard.write(to: &writer)
    writer.endObject()
  }

  private static func write(_ compare: Compare, to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.key("quantiles")
    try writer.array(compare.quantiles) { try $0.number($1) }
    if let measure = compare.rankMeasure { writer.member("rankMeasure", measure.rawValue) }
    writer.member("rankTop", compare.rankTop)
    if let weekStart = compare.weekStart { writer.member("weekStart", weekStart.rawValue) }
    writer.endObject()
  }

  private static func write(_ part: Compare.SeriesPart, to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.key("active")
    writer.object(rows: part.active) { $0.number($1) }
    writer.key("buckets")
    try writer.object(rows: part.buckets) { writer, measures in
      try writer.object(measures) { writer, values in try writer.array(values) { try $0.number($1) } }
    }
    writer.key("counts")
    writer.object(rows: part.counts) { $0.number($1) }
    writer.member("granularity", part.granularity.rawValue)
    writer.key("measures")
    writer.array(part.measures) { $0.string($1.rawValue) }
    writer.key("partial")
    writer.array(part.partial) { $0.string($1.text) }
    writer.member("range", part.range.rawValue)
    writer.key("ranking")
    try writer.array(part.ranking) { writer, entry in
      writer.beginObject()
      writer.member("user", entry.user)
      try writer.member("value", entry.value)
      writer.endObject()
    }
    writer.member("users", part.users)
    writer.endObject()
  }

  private static func write(_ part: Compare.RadarPart, to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.key("axes")
    writer.array(part.axes) { writer, axis in
      writer.beginObject()
      writer.member("id", axis.id)
      writer.member("label", axis.label)
      writer.endObject()
    }
    writer.key("counts")
    try writer.array(part.counts) { writer, counts in try writer.array(counts) { try $0.number($1) } }
    writer.member("partial", part.partial)
    writer.member("period", part.period.rawValue)
    writer.member("users", part.users)
    writer.endObject()
  }
}
