import Foundation
import Testing

@testable import TrendlineRender

/// `HTMLReport.placing`: every compared chart's place on a user's page filled in one pass. A
/// page holds all of its user's charts, and the places were once filled one chart at a time,
/// each a scan and a copy of the whole page: a run with 800 compared charts took 15 times as
/// long as one with 200. One call now takes all of a page's charts, and no call takes one chart;
/// these check that it places what filling them in turn did, byte for byte, which keeps the
/// reports of existing pipelines unchanged.
@Suite struct CohortPlacingTests {
  /// A page as `userPage` lays it out: text around each chart's place, `content` in each.
  static func page(_ charts: [String], content: (String) -> String = { _ in "" }) -> [UInt8] {
    var text = "<!DOCTYPE html>\n<main>\n"
    for chart in charts {
      text += "<section class=\"chart\" id=\"chart-\(idSafe(chart))\"><h2>\(chart)</h2><svg><g></g></svg></section>\n"
      text += HTMLReport.cohortSlot(chart, content: content(chart))
    }
    return Array((text + "</main>\n").utf8)
  }

  /// What placing the charts in turn gave: for each, the first place with its id, from the end
  /// of its opening comment to the first closing comment after it, in the page as placed so far.
  static func placedInTurn(_ places: [(chart: String, html: String)], in page: [UInt8]) -> [UInt8] {
    var page = page
    for place in places {
      let open = Array(("<!--cohort:" + idSafe(place.chart) + "-->").utf8)
      let close = Array(("<!--/cohort:" + idSafe(place.chart) + "-->").utf8)
      guard let start = firstRange(of: open, in: page, from: 0),
        let end = firstRange(of: close, in: page, from: start + open.count)
      else { continue }
      page = Array(page[..<(start + open.count)]) + Array(place.html.utf8) + Array(page[end...])
    }
    return page
  }

  static func firstRange(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
    return (from...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
  }

  @Test func everyChartOfALargePageIsPlacedInItsOwnPlace() {
    let charts = (0..<1000).map { "volume-\($0)" }
    // Handed over in another order than the page's, as the cohort's are (by name).
    let places = charts.reversed().map { (chart: $0, html: "<section>\($0) among 20 users</section>") }
    let placed = HTMLReport.placing(places, in: Self.page(charts))
    #expect(placed == Self.page(charts) { "<section>\($0) among 20 users</section>" })
  }

  @Test func aPageAlreadyPlacedIsPlacedAgainNotAppendedTo() {
    // A merge run again reads the final page, whose places are filled.
    let charts = ["sessions", "volume", "duration-"]
    let earlier = Self.page(charts) { "<p>earlier \($0)</p>" }
    let places = charts.map { (chart: $0, html: "<p>now \($0)</p>") }
    #expect(HTMLReport.placing(places, in: earlier) == Self.page(charts) { "<p>now \($0)</p>" })
  }

  @Test(arguments: [
    // A chart the page has no place for; a place no chart is given for.
    (["a", "b", "c"], ["b", "z"]),
    // Names that make one id: the first place takes the last chart's, as in turn.
    (["a.b", "a_b", "c"], ["a_b", "c", "a.b"]),
    // Ids that end in `-`, whose comments then end in `--->`.
    (["x-", "x--", "x"], ["x", "x--", "x-"]),
    ([], ["a"]),
  ])
  func placesAsPlacingInTurnDid(charts: [String], given: [String]) {
    let page = Self.page(charts) { "<i>\($0)</i>" }
    let places = given.enumerated().map { (chart: $1, html: "<b>\($1) \($0)</b>") }
    #expect(HTMLReport.placing(places, in: page) == Self.placedInTurn(places, in: page))
    #expect(HTMLReport.placing([], in: page) == page)
  }

  @Test func aPlaceWithoutItsClosingCommentIsLeftAsItIs() {
    // Only a page edited by hand lacks one; the places around it are still filled.
    let whole = String(decoding: Self.page(["a", "b", "c"]), as: UTF8.self)
    let page = Array(whole.replacingOccurrences(of: "<!--/cohort:b-->", with: "").utf8)
    let places = [(chart: "a", html: "A"), (chart: "b", html: "B"), (chart: "c", html: "C")]
    let placed = HTMLReport.placing(places, in: page)
    #expect(placed == Self.placedInTurn(places, in: page))
    #expect(String(decoding: placed, as: UTF8.self).contains("<!--cohort:a-->A<!--/cohort:a-->"))
    #expect(String(decoding: placed, as: UTF8.self).contains("<!--cohort:b-->\n<section"))
    #expect(String(decoding: placed, as: UTF8.self).contains("<!--cohort:c-->C<!--/cohort:c-->"))
  }
}
