import TrendlineSchema

/// A series between `bucket` and `emit`: the value `Bucket` makes and `FillGaps` and `Smooth`
/// pass along, in integer seconds so no geometry has been rounded yet.
///
/// It keeps every period of the window (`periods`) even when `buckets` holds only those with
/// sessions, so that `FillGaps` can put the empty ones back without calling the calendar again.
public struct BucketedSeries: Sendable, Equatable {
  public struct Bucket: Sendable, Equatable {
    public var start: Int64
    /// The next period's start.
    public var end: Int64
    /// True for the period containing as-of.
    public var partial: Bool
    /// The sessions in the period, up to as-of: what makes a user active in it.
    public var sessions: Int
    public var values: MeasureValues
    /// Set by `Smooth`; nil before it.
    public var trend: MeasureValues?

    public init(
      start: Int64, end: Int64, partial: Bool, sessions: Int = 0, values: MeasureValues,
      trend: MeasureValues? = nil
    ) {
      self.start = start
      self.end = end
      self.partial = partial
      self.sessions = sessions
      self.values = values
      self.trend = trend
    }
  }

  public var range: BucketRange
  /// Resolved: never `auto`.
  public var granularity: Granularity
  public var measures: [Measure]
  public var asOf: Int64
  /// Every period of the window, with or without sessions; nil when there is no window
  /// (`range: all` and no session up to as-of).
  public var periods: Periods?
  /// Oldest first.
  public var buckets: [Bucket]
  /// Totals that none of the user's sessions up to as-of records (an export with no duration):
  /// unknown in every period, the empty ones too (SPEC 10.3). A 0 for the weeks without
  /// training beside unknown weeks with it would be the only number the chart, its average and
  /// the cohort see of such a user, and would pull them all down.
  public var unrecorded: Set<Measure>
  /// Per best measure, the best before the window (sessions up to as-of that start before its
  /// first period); absent when there is none. A bucket is a record when it beats this and
  /// every bucket before it (SPEC 11.8), which the window alone cannot tell.
  public var bestBefore: MeasureValues = [:]

  public init(
    range: BucketRange, granularity: Granularity, measures: [Measure], asOf: Int64,
    periods: Periods?,
    buckets: [Bucket], unrecorded: Set<Measure> = []
  ) {
    self.range = range
    self.granularity = granularity
    self.measures = measures
    self.asOf = asOf
    self.periods = periods
    self.buckets = buckets
    self.unrecorded = unrecorded
  }
}
