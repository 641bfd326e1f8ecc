import Foundation
import TrendlineSchema

/// A cohort series as the marks an app draws: the p25–p75 band and the median per row on the
/// cohort's shared axis, and, when given a compared user's series, that user's line over it.
///
/// **The rule of ``SeedChartMarks``: no arithmetic beyond reading fields.** A user's bucket is
/// drawn at the row its `cohortRows` entry names (a Sunday week joins the Monday row holding its
/// start), looked up by the row's `date`: no calendar, no date arithmetic. Values are in the
/// JSON's units, on `yAxis[measure].ticks[k]` as a user's chart is.
struct CohortSeriesMarks: Sendable, Equatable {
  struct Row: Identifiable, Sendable, Equatable {
    var id: String
    var x: Date
    var p25: Double?
    var median: Double?
    var p75: Double?
    var partial: Bool
  }

  /// One bucket of the user's, at its cohort row.
  struct UserPoint: Identifiable, Sendable, Equatable {
    /// The user's bucket id.
    var id: String
    var row: String
    var x: Date
    var y: Double
  }

  var rows: [Row]
  var user: [UserPoint]
  var xDomain: ClosedRange<Date>?
  var yDomain: ClosedRange<Double>
  var ticks: [YAxis.Tick]

  /// The marks of `measure` with `labelCount` labels, and `user`'s line when the user's series
  /// was compared (it has `cohortRows`); nil without an axis for that measure and count.
  ///
  /// - Complexity: O(*b*) for *b* rows and buckets.
  init?(_ cohort: CohortSeriesOutput, user: SeriesOutput? = nil, measure: Measure, labelCount: Int) {
    guard let ticks = cohort.yAxis[measure]?.ticks[labelCount], let bottom = ticks.first, let top = ticks.last
    else { return nil }
    rows = cohort.buckets.map { row in
      let stats = row.values[measure]
      return Row(
        id: row.date, x: row.start, p25: stats?.quantile("p25"), median: stats?.quantile("p50"),
        p75: stats?.quantile("p75"), partial: row.partial)
    }
    let starts = Dictionary(cohort.buckets.map { ($0.date, $0.start) }) { first, _ in first }
    var line: [UserPoint] = []
    if let user, let rowKeys = user.cohortRows, rowKeys.count == user.buckets.count {
      for (bucket, key) in zip(user.buckets, rowKeys) {
        // Unknown is no point; a row the cohort lacks is no point either.
        guard let key, let x = starts[key], let value = bucket.values[measure] else { continue }
        line.append(UserPoint(id: bucket.id, row: key, x: x, y: value))
      }
    }
    self.user = line
    xDomain = cohort.domain.map { $0.start...$0.end }
    yDomain = bottom.value...top.value
    self.ticks = ticks
  }
}
