import Foundation
import Synchronization
import TrendlinePipeline
import TrendlineRender
import TrendlineSchema
import TrendlineStages
import TrendlineSupport

/// Stamps each compared series chart of every user with what only the whole cohort knows, once
/// it is reduced: at the end of a run, and at `merge` for a sharded one, whose shards cannot
/// know the cohort.
///
/// - the cohort's shared axis (``SeriesOutput/cohortYAxis``);
/// - the user's percentile rank in each bucket's cohort row (``SeriesOutput/cohortRank``) and,
///   with `compare.groupBy`, in their segment (``SeriesOutput/segmentRank``), from
///   ``CohortRanks``;
/// - with `"html"`, the user's line drawn over the cohort's band on their page, in the place
///   the page left after the chart (``HTMLReport/placing(_:in:)``).
///
/// Users' files are written as each user finishes, so a run holds no user's output in memory. A
/// compared series is written under a staged name (``stagedName(_:)``) and stamped into its final
/// name here (read, its values taken, spliced, atomic write): a file under a final name is
/// always whole and final, even in a run killed before its cohort, and a shard's compared series
/// wait, staged, for the merge.
enum CohortStamp {
  /// `.staged-<chart>.json`: hidden, so no reader of the output takes it for a chart.
  static func stagedName(_ chart: String) -> String { stagedPrefix + chart + ".json" }
  static let stagedPrefix = ".staged-"

  /// A user to stamp, and their `compare.groupBy` segment (nil: the "unknown" one).
  struct User: Sendable {
    var id: String
    var segment: String?
    /// Per compared chart, what its ranks need, when the run still holds it (a run); nil to read
    /// it from the written file (a merge).
    var values: [String: CohortRanks.Buckets] = [:]
  }

  /// One compared series chart's stamp, shared by every user.
  private struct Chart: Sendable {
    var cohort: CohortSeriesOutput
    var axis: [UInt8]
    var ranks: CohortRanks
    /// Per segment key (``CohortGatherer/unknownSegment`` for the users with none).
    var segmentRanks: [String: CohortRanks]
  }

  /// Stamps `users/<user>/<chart>.json` for every cohort series of `whole` and every user of
  /// `users`, from the staged file (removed after) or, when a merge runs again, from the final
  /// one, over `jobs` workers; returns how many files were stamped. The first error stops the
  /// workers taking more files, and is thrown.
  ///
  /// A run stamps staged files it wrote itself (`ownStaged`) in place, freeing no disk blocks: a
  /// series whose values it still holds by writing the stamp over the file's closing `\n}\n`
  /// (``AtomicFile/extend(_:replacing:with:renamingTo:)``), reading nothing; a page, or a
  /// series whose figure the page needs, by overwriting it
  /// (``AtomicFile/overwrite(_:with:renamingTo:)``). A run killed on the way writes them again
  /// when it runs again. A merge's come from shards and are its only copy, so it writes the
  /// final file beside each and removes the staged one after.
  ///
  /// - Parameters:
  ///   - segments: per segment value, its series' ranks; `groupBy` names the `users.csv` column
  ///     they are of (nil without segments).
  /// - Complexity: O(*c* × *u* × *s*) for *c* compared series charts, *u* users and files of *s*
  ///   bytes, divided over the workers.
  @discardableResult
  static func stamp(
    _ whole: CohortGatherer.Reduction, segments: [String: [String: CohortRanks]], groupBy: String?, users: [User],
    output: URL, layout: UserLayout, formats: [Pipeline.Output.Format], ownStaged: Bool, jobs: Int = 1
  ) throws -> Int {
    var charts: [Chart] = []
    for chart in whole.charts {
      guard case .series(let cohort) = chart, let ranks = whole.ranks[cohort.chart] else { continue }
      let segmentRanks = segments.compactMapValues { $0[cohort.chart] }
      // The axis is encoded once per chart: the same bytes go into every user's file.
      charts.append(
        Chart(
          cohort: cohort, axis: try SeriesOutput.cohortYAxisMember(cohort.yAxis), ranks: ranks,
          segmentRanks: segmentRanks))
    }
    // A user is one piece of work: their page takes every compared chart's place at once.
    let workers = max(1, min(jobs, users.count))
    let state = Mutex<(stamped: Int, failure: (any Error)?)>((0, nil))
    let chartsToStamp = charts
    let html = formats.contains(.html)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in stride(from: worker, to: users.count, by: workers) {
        if state.withLock({ $0.failure != nil }) { return }
        do {
          let user = users[index]
          var places: [(chart: String, html: String)] = []
          for chart in chartsToStamp {
            let result = try stamp(
              chart, user: user, groupBy: groupBy, output: output, layout: layout, ownStaged: ownStaged,
              decode: html)
            guard result.stamped else { continue }
            state.withLock { $0.stamped += 1 }
            if let series = result.series {
              places.append((chart.cohort.chart, HTMLReport.cohortPlace(chart.cohort, user: series)))
            }
          }
          if html { try place(places, user: user.id, output: output, layout: layout, ownStaged: ownStaged) }
        } catch {
          state.withLock { if $0.failure == nil { $0.failure = error } }
        }
      }
    }
    let result = state.withLock { $0 }
    if let failure = result.failure { throw failure }
    return result.stamped
  }

  /// `report/users/.staged-<user>.html`: a page with compared charts waits there, as their JSON
  /// does, until their places are filled, so a page under its final name is always final.
  static func stagedPage(_ user: String, output: URL, layout: UserLayout) -> String {
    output.path + "/" + layout.pageFolder(of: user) + stagedPrefix + user + ".html"
  }

  /// Writes the user's final page: the staged one (or, when a merge runs again, the final one)
  /// with each chart's place filled.
  private static func place(
    _ places: [(chart: String, html: String)], user: String, output: URL, layout: UserLayout, ownStaged: Bool
  ) throws {
    let path = output.path + "/" + layout.userPage(user)
    let staged = stagedPage(user, output: output, layout: layout)
    guard let data = FileManager.default.contents(atPath: staged) ?? FileManager.default.contents(atPath: path)
    else { return }
    try replace(staged, with: HTMLReport.placing(places, in: [UInt8](data)), at: path, ownStaged: ownStaged)
  }

  /// Puts `bytes` under `path` and the staged file at `staged` out of the way: overwritten and
  /// renamed when it is the run's own, else written anew and the staged one removed.
  private static func replace(_ staged: String, with bytes: [UInt8], at path: String, ownStaged: Bool) throws {
    if ownStaged, try AtomicFile.overwrite(staged, with: bytes, renamingTo: path) { return }
    try AtomicFile.write(Data(bytes), to: path)
    try AtomicFile.remove(staged)
  }

  /// Stamps one user's file of `chart`; returns whether there was one (nil: the user failed),
  /// and with `decode` the series as stamped, for the page's figure.
  ///
  /// The ranks need only the bucket ids and values: a run hands them over from the chart it
  /// computed, and a merge reads them with ``JSONReader``. Decoding every file with `JSONDecoder`
  /// cost more than a millisecond each and tripled a weekly backfill; parsing it cost half that.
  private static func stamp(
    _ chart: Chart, user: User, groupBy: String?, output: URL, layout: UserLayout, ownStaged: Bool, decode: Bool
  ) throws -> (stamped: Bool, series: SeriesOutput?) {
    // Paths as strings: URL's path building cost more than the splice.
    let folder = output.path + "/" + layout.userFolder(user.id)
    let path = folder + "/" + chart.cohort.chart + ".json"
    let staged = folder + "/" + stagedName(chart.cohort.chart)
    // A run's own staged file, whose values it holds and whose page needs no figure drawn from
    // it: the stamp is written over its closing bytes, and the file is never read.
    if ownStaged, !decode, let written = user.values[chart.cohort.chart] {
      let stamp = try self.stamp(chart, of: written, user: user, groupBy: groupBy)
      let closing = SeriesOutput.closing
      if try AtomicFile.extend(staged, replacing: closing, with: stamp.member + closing, renamingTo: path) {
        return (true, nil)
      }
    }
    guard let data = FileManager.default.contents(atPath: staged) ?? FileManager.default.contents(atPath: path)
    else { return (false, nil) }
    let bytes = [UInt8](data)
    guard let written = user.values[chart.cohort.chart] ?? Self.buckets(bytes) else { return (false, nil) }
    let (member, rank, segment, rows) = try stamp(chart, of: written, user: user, groupBy: groupBy)
    guard let stamped = SeriesOutput.stamping(member: member, into: bytes) else { return (false, nil) }
    try replace(staged, with: stamped, at: path, ownStaged: ownStaged)
    guard decode else { return (true, nil) }
    var series = try OutputWriter.makeDecoder().decode(SeriesOutput.self, from: data)
    series.cohortYAxis = chart.cohort.yAxis
    series.cohortRank = rank
    series.segmentRank = segment
    series.cohortRows = rows
    return (true, series)
  }

  /// The user's stamp of `chart`: the encoded member (the cohort's axis, then the ranks and the
  /// cohort row of each bucket), and the ranks and rows themselves.
  private static func stamp(_ chart: Chart, of written: CohortRanks.Buckets, user: User, groupBy: String?) throws
    -> (member: [UInt8], rank: [Measure: [Double?]], segment: SeriesOutput.SegmentRank?, rows: [String?])
  {
    let rank = chart.ranks.ranks(of: written)
    let segment = groupBy.map { groupBy in
      let key = user.segment ?? CohortGatherer.unknownSegment
      return SeriesOutput.SegmentRank(
        groupBy: groupBy, value: user.segment,
        rank: chart.segmentRanks[key]?.ranks(of: written)
          ?? rank.mapValues { Array(repeating: nil, count: $0.count) })
    }
    let rows = chart.ranks.rows(of: written)
    let member =
      try chart.axis + SeriesOutput.cohortRankMember(rank, segment: segment, rows: rows, measures: written.measures)
    return (member, rank, segment, rows)
  }

  /// What the ranks need of a written series (its measures, and each bucket's id and values),
  /// read with ``JSONReader``; nil for bytes that are not a series output.
  private static func buckets(_ bytes: [UInt8]) -> CohortRanks.Buckets? {
    guard let root = try? JSONReader().parse(bytes), let buckets = root["buckets"]?.arrayValue,
      let listed = root["measures"]?.arrayValue
    else { return nil }
    return CohortRanks.Buckets(
      measures: listed.compactMap { $0.stringValue.flatMap(Measure.init(rawValue:)) },
      ids: buckets.map { $0["id"]?.stringValue ?? "" }
    ) { bucket, measure in buckets[bucket]["values"]?[measure.rawValue]?.doubleValue }
  }
}
