import Foundation
import TrendlinePipeline
import TrendlineRender
import TrendlineSchema

/// The end of a whole snapshot, the same for one run over every user and for a merge of its
/// shards: the cohort reduced once, its files, the cohort's axis stamped on the compared users'
/// series, the cohort report and the index, the tables, the sweep of what no longer belongs,
/// the manifest, then `_SUCCESS`. Both write through this one sequence, so a merged night is
/// the very bytes of one run's and a step added to one cannot be missed by the other.
struct SnapshotFinish {
  /// The snapshot's folder, its path free of links.
  var output: URL
  var layout: UserLayout
  var formats: [Pipeline.Output.Format]
  /// The pipeline's name, for the report.
  var pipelineName: String
  /// The as-of as the snapshot states it.
  var asOf: String
  var gathered: CohortGatherer

  /// The reduced cohort: its outputs and their files under `cohort/`, encoded before anything
  /// is written, so values JSON cannot hold stop the snapshot before it touches the folder.
  struct Cohort {
    var whole: CohortGatherer.Reduction
    var segments: CohortGatherer.SegmentsReduction
    /// Each file's path under `cohort/` without `.json` (`training-volume`,
    /// `segments/training-volume`), and its bytes.
    var files: [(name: String, data: Data)]
  }

  /// `gathered`'s cohort as of `asOf`, reduced and encoded.
  ///
  /// - Complexity: that of ``CohortGatherer/reduce(asOf:)`` and of encoding the outputs.
  static func reduce(_ gathered: CohortGatherer, asOf: String) throws -> Cohort {
    let whole = gathered.reduce(asOf: asOf)
    let segments = gathered.reduceSegments(of: whole.charts, asOf: asOf)
    let files =
      try whole.charts.map { ($0.name, try $0.encoded()) }
      + segments.outputs.map { (OutputLayout.segments + "/" + $0.chart, try $0.encoded()) }
    return Cohort(whole: whole, segments: segments, files: files)
  }

  /// Writes everything after the users' own files, in order; the users the sweep finds
  /// departed are recorded in `manifest`.
  ///
  /// - Parameters:
  ///   - stamped: the compared users whose series get the cohort's axis; `ownStaged` when this
  ///     process wrote their staged files itself (a run), not its shards (a merge).
  ///   - index: the report index's users.
  ///   - swept: every user of the snapshot, ok or failed: whoever is not among them departed.
  ///   - userTables: writes the users' tables (a run from its spool, a merge from its shards')
  ///     and returns their paths; called only when the pipeline writes tables.
  ///   - beforeSuccess: what must be done between the manifest and `_SUCCESS`.
  func write(
    _ cohort: Cohort, stamped: [CohortStamp.User], ownStaged: Bool, stampers: Int, index: [HTMLReport.UserEntry],
    swept: [String], keepShards: Bool, removeDeparted: Bool, manifest: inout Manifest,
    userTables: () throws -> [String], beforeSuccess: () -> Void = {}
  ) throws {
    var written: [String] = []
    for (name, data) in cohort.files {
      try AtomicFile.write(data, to: output.appendingPathComponent(OutputLayout.cohortFile(name)).path)
      written.append(OutputLayout.cohortFile(name))
    }
    try CohortStamp.stamp(
      cohort.whole, segments: cohort.segments.ranks, groupBy: gathered.groupBy, users: stamped, output: output,
      layout: layout, formats: formats, ownStaged: ownStaged, jobs: stampers)
    written += try ReportWriter.writeCohortReport(
      cohort.whole.charts, segments: cohort.segments.outputs, pipeline: pipelineName, formats: formats,
      asOf: asOf, users: index, output: output, layout: layout)
    if formats.contains(.tables) {
      written += try userTables()
      written += try Tables.writeCohort(
        cohort.whole.charts, segments: cohort.segments.outputs, quantiles: gathered.compare.quantiles, to: output)
    }
    let departed = try OutputSweep.sweepRun(
      output: output.path, layout: layout, users: swept, written: written, keepShards: keepShards,
      removeDeparted: removeDeparted)
    if !departed.isEmpty { manifest.departed = .init(users: departed, removed: removeDeparted) }
    try AtomicFile.write(try manifest.encoded(), to: output.appendingPathComponent(OutputLayout.manifest).path)
    beforeSuccess()
    try AtomicFile.write(Data(), to: output.appendingPathComponent(OutputLayout.success).path)
  }
}
