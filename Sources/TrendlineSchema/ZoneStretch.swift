import Foundation

/// One stretch of a zone's clock between two of its transitions, as a cursor: the offset in
/// force on it, where it ends and the offset after. The one place Trendline asks a zone about
/// its transitions: `RFC3339.Formatter` (the offset of rising instants) and the stages' local
/// midnights (the instant each day starts) both walk a zone's stretches with it.
///
/// A zone look-up takes a lock that workers on other users wait for, and a zone only names
/// its *next* transition, so the cursor is moved forward (``advance()``), or placed again at
/// an instant outside its stretch (``offset(at:)``).
package struct ZoneStretch: Sendable {
  package let timeZone: TimeZone
  /// The offset in force on the stretch, in seconds ahead of UTC.
  package private(set) var offset: Int64
  /// The earliest instant the stretch is known to hold: where it was placed, or the
  /// transition it was moved to.
  package private(set) var start: Int64
  /// The instant the stretch ends (`Int64.max` if it never does).
  package private(set) var end: Int64
  /// The offset after ``end``, once asked for: writing instants never needs it, and looking it
  /// up on every placing was a third more zone look-ups there.
  private var knownOffsetAfter: Int64?
  /// The transition as the zone gave it, which the offset after it is asked at.
  private var transition: Date?

  /// The stretch holding `instant`.
  ///
  /// - Complexity: O(1); two time-zone look-ups (a third when ``offsetAfter()`` is asked for).
  package init(timeZone: TimeZone, holding instant: Int64) {
    self.timeZone = timeZone
    offset = Int64(timeZone.secondsFromGMT(for: Date(epochSeconds: instant)))
    (start, end) = (instant, Int64.max)
    findEnd()
  }

  /// The offset after ``end`` (the same offset when the stretch never ends).
  ///
  /// - Complexity: O(1); one time-zone look-up the first time it is asked for per stretch.
  package mutating func offsetAfter() -> Int64 {
    if let known = knownOffsetAfter { return known }
    let after = transition.map { Int64(timeZone.secondsFromGMT(for: $0)) } ?? offset
    knownOffsetAfter = after
    return after
  }

  /// Moves to the stretch after this one; the last stretch stays where it is.
  ///
  /// - Complexity: O(1); two time-zone look-ups.
  package mutating func advance() {
    guard end != Int64.max else { return }
    (start, offset) = (end, offsetAfter())
    findEnd()
  }

  /// The offset at `instant`, the cursor moved to the stretch holding it.
  ///
  /// - Complexity: O(1) amortized over rising instants; two time-zone look-ups when placed
  ///   again.
  package mutating func offset(at instant: Int64) -> Int64 {
    if instant < start || instant >= end { self = ZoneStretch(timeZone: timeZone, holding: instant) }
    return offset
  }

  private mutating func findEnd() {
    knownOffsetAfter = nil
    transition = timeZone.nextDaylightSavingTimeTransition(after: Date(epochSeconds: start))
    end = transition?.epochSeconds ?? Int64.max
  }
}
