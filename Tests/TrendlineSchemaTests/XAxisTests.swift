import Foundation
import Testing
import TrendlineSchema

/// The time axis's labels per label count (`xAxis`), worked out by hand.
@Suite struct XAxisTests {
  static let utc = TimeZone(identifier: "UTC")!

  func labels(_ axis: XAxis, _ count: Int) -> [String] { axis.ticks[count]?.map(\.label) ?? [] }

  /// Thirteen months, December 2025 … December 2026. Three labels: every month (13), every
  /// other (Jan, Mar, … Nov: 6) and quarters (Jan, Apr, Jul, Oct: 4) are too many; half years
  /// (Jan, Jul) fit. Four and five: quarters. Seven: every other month. January and the first
  /// label carry the year.
  @Test func monthsOnTheirOwnStrides() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = Self.utc
    let starts = (0..<13).map { calendar.date(from: DateComponents(year: 2025, month: 12 + $0, day: 1))! }
    let axis = XAxis(starts: starts, granularity: .month, zone: Self.utc)
    #expect(labels(axis, 3) == ["Jan 2026", "Jul"])
    #expect(labels(axis, 4) == ["Jan 2026", "Apr", "Jul", "Oct"])
    #expect(labels(axis, 5) == ["Jan 2026", "Apr", "Jul", "Oct"])
    #expect(labels(axis, 7) == ["Jan 2026", "Mar", "May", "Jul", "Sep", "Nov"])
    #expect(axis.ticks[3]?.first?.value == starts[1])
  }

  /// Fourteen Monday weeks from 31 August 2026 (indexes 0 … 13), counted back from the newest:
  /// three labels need every 8th week (13, 5), four and five every 4th (13, 9, 5, 1), seven
  /// every other (13, 11, … 1).
  @Test func weeksBackFromTheNewest() {
    let first = Date(timeIntervalSince1970: 1_788_134_400)  // 2026-08-31T00:00:00Z
    let starts = (0..<14).map { first.addingTimeInterval(Double($0) * 604_800) }
    let axis = XAxis(starts: starts, granularity: .week, zone: Self.utc)
    #expect(labels(axis, 3) == ["5 Oct 2026", "30 Nov"])
    #expect(labels(axis, 4) == ["7 Sep 2026", "5 Oct", "2 Nov", "30 Nov"])
    #expect(labels(axis, 7) == ["7 Sep 2026", "21 Sep", "5 Oct", "19 Oct", "2 Nov", "16 Nov", "30 Nov"])
  }

  /// Across New Year the first label of the new year carries it; in the user's zone, a week
  /// starting at midnight in Oslo is labelled with Oslo's date.
  @Test func theYearOnTheFirstLabelAndEachNewYear() {
    let oslo = TimeZone(identifier: "Europe/Oslo")!
    let first = Date(timeIntervalSince1970: 1_764_543_600)  // 2025-12-01T00:00:00+01:00
    let starts = (0..<6).map { first.addingTimeInterval(Double($0) * 604_800) }
    let axis = XAxis(starts: starts, granularity: .week, zone: oslo)
    #expect(labels(axis, 7) == ["1 Dec 2025", "8 Dec", "15 Dec", "22 Dec", "29 Dec", "5 Jan 2026"])
    #expect(XAxis(starts: [], granularity: .day, zone: oslo).ticks[3] == [])
  }
}
