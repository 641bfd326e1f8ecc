import Foundation
import TrendlineSchema

/// Turns wall-clock times into instants in one time zone, by the SPEC's rules for the two
/// hours a year when the wall clock lies.
///
/// - A time in the spring-forward gap (02:30 in Oslo on 2025-03-30) does not exist: it is
///   read with the offset in force before the gap, which moves it forward by the gap's length
///   (to 03:30 local, 01:30Z).
/// - A time in the fall-back overlap (02:30 in Oslo on 2025-10-26) happens twice: the earlier
///   instant is taken (00:30Z, still summer time).
///
/// The offset is worked out once per local day and cached, so a file of 100,000 rows costs a
/// few hundred `TimeZone` calls, not 100,000. Days with a transition, a few a year, take the
/// careful path on every row.
///
/// A resolver is not thread-safe: each user's reader owns one.
public final class ZoneResolver {
  public let timeZone: TimeZone
  /// Offset in seconds per local day (days since 1970); `nil` marks a day with a transition.
  /// Unchecked for exclusivity: looked up once per row, by the one thread that owns the resolver.
  @exclusivity(unchecked) private var offsetByDay: [Int64: Int?] = [:]

  public init(timeZone: TimeZone) {
    self.timeZone = timeZone
  }

  /// The instant of a wall-clock time given as seconds since 1970 on the wall clock.
  ///
  /// - Complexity: O(1) amortized: a dictionary lookup, plus a few `TimeZone` calls the first
  ///   time a day is seen and on transition days.
  public func instant(localSeconds: Int64) -> Int64 {
    let day = LocalDay(localSeconds: localSeconds).number
    let cached: Int?
    if let known = offsetByDay[day] {
      cached = known
    } else {
      cached = steadyOffset(day: day)
      offsetByDay[day] = .some(cached)
    }
    if let offset = cached { return localSeconds - Int64(offset) }
    return resolveNearTransition(localSeconds)
  }

  /// The earliest instant with this wall time that is not before `notBefore` (SPEC 9.6: a
  /// workout's end over the fall-back hour keeps its real length); the usual instant when
  /// no such instant exists, so a caller can see the end is before the start.
  ///
  /// - Complexity: O(1) amortized.
  public func instant(localSeconds: Int64, notBefore: Int64) -> Int64 {
    let usual = instant(localSeconds: localSeconds)
    if usual >= notBefore { return usual }
    // In an overlap the same wall time comes again one offset change later.
    let later = localSeconds - Int64(offset(at: localSeconds + 86_400))
    if later >= notBefore && Int64(offset(at: later)) == localSeconds - later { return later }
    return usual
  }

  /// The one offset in force all through a local day and the hours around it, or nil when it
  /// changes. Wall times of day *d* are instants within [d − 14 h, d + 38 h] for any real
  /// zone, so equal offsets a day before and two days after mean no transition in between
  /// (no zone changes its offset twice within three days).
  private func steadyOffset(day: Int64) -> Int? {
    let dayStart = day * 86_400
    let before = offset(at: dayStart - 86_400)
    let after = offset(at: dayStart + 2 * 86_400)
    return before == after ? before : nil
  }

  private func resolveNearTransition(_ local: Int64) -> Int64 {
    // Offsets a day either side bracket the transition; try both.
    let before = Int64(offset(at: local - 86_400))
    let after = Int64(offset(at: local + 86_400))
    let withBefore = local - before
    let withAfter = local - after
    let beforeFits = Int64(offset(at: withBefore)) == before
    let afterFits = Int64(offset(at: withAfter)) == after
    switch (beforeFits, afterFits) {
    case (true, true): return min(withBefore, withAfter)  // overlap: the earlier instant
    case (true, false): return withBefore
    case (false, true): return withAfter
    case (false, false): return withBefore  // gap: the offset before it, moving forward
    }
  }

  private func offset(at instant: Int64) -> Int {
    timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
  }
}
