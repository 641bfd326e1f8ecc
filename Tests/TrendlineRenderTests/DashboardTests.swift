import Foundation
import Testing
import TrendlineSchema

@testable import TrendlineRender

/// The index's users as a dashboard: a row per user with their glance, every cell carrying the
/// value it sorts by, and the weekly sparklines on one scale.
@Suite struct DashboardTests {
  static let ada = HTMLReport.UserEntry(
    user: "ada", ok: true, rowsRejected: 1,
    glance: Glance(
      lastSession: "2026-11-27", daysSinceLastSession: 2, weekStreak: 3, sessions: 5, previousSessions: 7,
      records: 2, weekly: [0, 1, 2, 4], lastWeekPartial: true))
  static let bo = HTMLReport.UserEntry(user: "bo", ok: false, message: "no exports", rowsRejected: 0)

  @Test func aRowSaysEachFigureAndSortsByIt() {
    let html = HTMLReport.dashboard([Self.ada, Self.bo], asOf: "2026-11-29", scale: 4)
    #expect(html.contains(#"<table class="users sortable">"#))
    #expect(html.contains(#"<th scope="col" data-kind="number"><button type="button">Last session</button></th>"#))
    #expect(
      html.contains(
        #"<th scope="row" data-sort="ada"><a href="users/ada.html">ada</a></th>"#
          + #"<td data-sort="2">27 Nov 2026<br><span class="meta">2 days ago</span></td>"#
          + #"<td data-sort="3">3 weeks</td><td data-sort="5">5</td>"#))
    // 5 against 7: two fewer, with an arrow and in words.
    #expect(
      html.contains(
        #"<td data-sort="-2" class="down"><span aria-label="2 fewer than the 28 days before (7)" "#
          + #"title="2 fewer than the 28 days before (7)">▼ −2</span></td><td data-sort="2">2</td>"#))
    // A failed user has no figures: a dash, sorted after everyone's.
    #expect(html.contains(#"<td data-sort="-1">–</td>"#))
    #expect(html.contains(#"<td class="failed" data-sort="failed">failed: no exports</td>"#))
  }

  /// Four weeks, 0, 1, 2 and 4 sessions, on a shared scale of 4: bars 5 px wide every 7 px,
  /// 20 px for the largest; none for 0; the week under way lighter.
  @Test func theSparklineIsBarsFromZeroOnTheSharedScale() {
    let svg = HTMLReport.sparkline(Self.ada.glance!, scale: 4)
    #expect(svg.contains(#"viewBox="0 0 26 21""#))
    #expect(svg.contains(##"<rect x="7" y="15" width="5" height="5" fill="#0072B2"/>"##))
    #expect(svg.contains(##"<rect x="14" y="10" width="5" height="10" fill="#0072B2"/>"##))
    #expect(svg.contains(##"<rect x="21" y="0" width="5" height="20" fill="#9CC3E4"/>"##))
    #expect(svg.components(separatedBy: "<rect").count == 4)
    #expect(
      svg.contains(#"aria-label="Sessions a week, the last 4 weeks, oldest first: 0, 1, 2, 4 (the last week so far)""#))
  }

  /// 1,201 users are three pages of 500, 500 and 201, by id, each linking the first, the last
  /// and two on either side; the charts only on the first; every page's sparklines on the
  /// scale of all users (ada's 4 sessions, on page 1, sets bo's on page 3).
  @Test func aNightOfManyUsersIsPagedAndEveryPageSharesTheScale() {
    var users = (0..<1_201).map { HTMLReport.UserEntry(user: String(format: "u%04d", $0), ok: true, rowsRejected: 0) }
    users[0].glance = Self.ada.glance
    users[1_200].glance = Glance(
      lastSession: "2026-11-27", daysSinceLastSession: 2, weekStreak: 1, sessions: 1, previousSessions: 0,
      records: 0, weekly: [0, 0, 0, 2], lastWeekPartial: false)
    let index = HTMLReport.Index(pipeline: "night", asOf: "2026-11-29", charts: [], users: users)
    let pages = HTMLReport.indexPages(index)
    #expect(pages.map(\.name) == ["index.html", "index-2.html", "index-3.html"])
    #expect(pages[0].html == HTMLReport.index(index))
    #expect(pages[0].html.contains("The pipeline compares no charts across users."))
    #expect(!pages[1].html.contains("The pipeline compares no charts across users."))
    #expect(
      pages[1].html.contains(
        #"<nav class="meta pager" aria-label="Pages of users"><span>Users 501–1000 of 1201, by id; sorting "#
          + #"sorts this page.</span> <a href="index.html">1</a> <span aria-current="page">2</span> "#
          + #"<a href="index-3.html">3</a> </nav>"#))
    #expect(pages[0].html.contains(#"href="users/u0499.html""#) && !pages[0].html.contains(#"users/u0500.html""#))
    #expect(pages[2].html.contains(#"href="users/u1200.html""#))
    // bo's 2 sessions on ada's scale of 4: 10 px of 20.
    #expect(pages[2].html.contains(HTMLReport.sparkline(users[1_200].glance!, scale: 4)))
    // Page 10 of 20 links 1, 8–12 and 20, with the gaps marked.
    let pager = HTMLReport.pager(page: 10, of: 20, range: 4_500..<5_000, total: 9_600)
    let links = pager.matches(of: /href="index-(\d+)\.html"|href="index\.html"/).count
    #expect(links == 6 && pager.components(separatedBy: "<span>…</span>").count == 3, "\(pager)")
  }
}

/// Exercise names on a phone's sparklines: broken between words onto up to three lines of 16
/// characters, never cut while they fit.
@Suite struct SparklineNameTests {
  @Test(arguments: [
    ("Squat (Barbell)", ["Squat (Barbell)"]),
    ("Romanian Deadlift (Barbell)", ["Romanian", "Deadlift", "(Barbell)"]),
    ("Bicep Curl (Dumbbell)", ["Bicep Curl", "(Dumbbell)"]),
    ("Standing Calf Raise (Machine)", ["Standing Calf", "Raise (Machine)"]),
    ("Lat Pull-Downs al Cavo Alto a Presa Larga", ["Lat Pull-Downs", "al Cavo Alto a", "Presa Larga"]),
    ("Supercalifragilisticexpialidocious", ["Supercalifragili", "sticexpialidocio", "us"]),
    (
      "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z A B C D E F G H I J K L M N",
      [
        "A B C D E F G H", "I J K L M N O P", "Q R S T U V W X…",
      ]
    ),
  ])
  func brokenBetweenWords(name: String, lines: [String]) {
    #expect(SparklinesSVGRenderer.nameLines(name, length: 16) == lines)
  }
}
