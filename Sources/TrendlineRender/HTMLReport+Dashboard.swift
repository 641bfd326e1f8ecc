import Foundation
import TrendlineSchema

extension HTMLReport {
  /// The index's users as a dashboard, the page people open first: per user when they last
  /// trained, their streak, their sessions and records in the last four weeks with the change
  /// against the four before, and their weeks as a sparkline, in a table sorted by any column
  /// (a button per header; `aria-sort` says which). A total of sessions since the first export,
  /// all the index had, read the same for a user training today and one gone since June.
  ///
  /// The sparklines share one scale, the most sessions any user had in a week, so rows compare;
  /// they are bars from 0 (a count: "how much"), the week under way lighter.
  ///
  /// On a page of many (``indexPages(_:)``), `scale` is every page's, and `pager` links them.
  ///
  /// - Complexity: O(*u* × *w*) for *u* users and *w* weeks.
  static func dashboard(
    _ users: [UserEntry], asOf: String, scale: Int, layout: UserLayout = .flat, pager: String? = nil
  ) -> String {
    let headers = [
      ("User", "text"), ("Last session", "number"), ("Week streak", "number"),
      ("Sessions, last 4 weeks", "number"), ("Change", "number"), ("Records, last 4 weeks", "number"),
      ("Sessions a week, last 12", "number"), ("Status", "text"), ("Rejected rows", "number"),
    ]
    var out = "<section><h2>Users</h2>\n"
    out +=
      "<p class=\"meta\">As of \(XMLEscape.escape(asOf)). Last 4 weeks: the 28 days up to as-of; the change is "
      + "against the 28 days before. A week streak counts weeks with a session back from as-of's week. "
      + "Sort by any column with its button.</p>\n"
    if let pager { out += pager }
    out += "<div class=\"scroll\"><table class=\"users sortable\"><thead><tr>"
    for (label, kind) in headers {
      out += "<th scope=\"col\" data-kind=\"\(kind)\"><button type=\"button\">\(label)</button></th>"
    }
    out += "</tr></thead>\n<tbody>\n"
    for entry in users {
      // From the index, in `report/`, to the page in `report/users/`.
      let link =
        UserLayout.usersFolder + "/" + layout.folderPrefix(of: entry.user) + pathComponent(entry.user) + ".html"
      let user = XMLEscape.escape(entry.user)
      out +=
        "<tr><th scope=\"row\" data-sort=\"\(user)\"><a href=\"" + XMLEscape.escape(link) + "\">" + user + "</a></th>"
      if let glance = entry.glance {
        out += lastSessionCell(glance)
        out += cell(glance.weekStreak, glance.weekStreak == 0 ? "–" : weeks(glance.weekStreak))
        out += cell(glance.sessions, String(glance.sessions))
        out += changeCell(glance)
        out += cell(glance.records, String(glance.records))
        out += "<td data-sort=\"\(glance.weekly.reduce(0, +))\">" + sparkline(glance, scale: scale) + "</td>"
      } else {
        // A failed user's numbers are not shown: sorted after every user who has them.
        for _ in 0..<6 { out += "<td data-sort=\"-1\">–</td>" }
      }
      out +=
        entry.ok
        ? "<td class=\"ok\" data-sort=\"ok\">ok</td>"
        : "<td class=\"failed\" data-sort=\"failed\">failed: " + XMLEscape.escape(entry.message ?? "") + "</td>"
      out += cell(entry.rowsRejected, String(entry.rowsRejected)) + "</tr>\n"
    }
    return out + "</tbody></table></div></section>\n"
  }

  private static func cell(_ sort: Int, _ text: String) -> String { "<td data-sort=\"\(sort)\">\(text)</td>" }

  private static func weeks(_ count: Int) -> String { count == 1 ? "1 week" : "\(count) weeks" }

  /// `27 Nov 2026`, and under it how long ago: sorted by the days since, a user without a
  /// session last.
  private static func lastSessionCell(_ glance: Glance) -> String {
    guard let key = glance.lastSession, let date = LocalDate(key: key), let days = glance.daysSinceLastSession else {
      return "<td data-sort=\"\(Int32.max)\">none</td>"
    }
    let ago = days == 0 ? "today" : days == 1 ? "yesterday" : "\(days) days ago"
    return "<td data-sort=\"\(days)\">\(date.long)<br><span class=\"meta\">\(ago)</span></td>"
  }

  /// The change in sessions against the previous 28 days, signed (`+2`, `−3`, `±0`) with an
  /// arrow, and said in words for a screen reader.
  private static func changeCell(_ glance: Glance) -> String {
    let change = glance.sessions - glance.previousSessions
    let shown = change > 0 ? "▲ +\(change)" : change < 0 ? "▼ \u{2212}\(-change)" : "±0"
    let said =
      change == 0
      ? "as many sessions as the 28 days before (\(glance.previousSessions))"
      : "\(abs(change)) \(change > 0 ? "more" : "fewer") than the 28 days before (\(glance.previousSessions))"
    let tone = change > 0 ? " class=\"up\"" : change < 0 ? " class=\"down\"" : ""
    return "<td data-sort=\"\(change)\"\(tone)><span aria-label=\"\(said)\" title=\"\(said)\">\(shown)</span></td>"
  }

  /// Twelve weekly bars from 0 on the dashboard's shared `scale`, 20 px at most, the week under
  /// way lighter; its label says every count.
  static func sparkline(_ glance: Glance, scale: Int) -> String {
    let (bar, gap, height) = (5.0, 2.0, 20.0)
    let counts = glance.weekly.map(String.init).joined(separator: ", ")
    let label =
      "Sessions a week, the last \(glance.weekly.count) weeks, oldest first: \(counts)"
      + (glance.lastWeekPartial ? " (the last week so far)" : "")
    var b = SVGBuilder()
    let width = Double(glance.weekly.count) * (bar + gap) - gap
    b.open(
      "svg",
      [
        ("class", "tl-chart tl-spark"), ("viewBox", "0 0 \(f(width)) \(f(height + 1))"), ("width", f(width)),
        ("height", f(height + 1)), ("role", "img"), ("aria-label", label),
      ])
    b.element(
      "line",
      [("x1", "0"), ("x2", f(width)), ("y1", f(height + 0.5)), ("y2", f(height + 0.5)), ("stroke", Palette.grid)])
    for (index, count) in glance.weekly.enumerated() where count > 0 {
      let tall = height * Double(count) / Double(scale)
      let last = index == glance.weekly.count - 1
      b.element(
        "rect",
        [
          ("x", f(Double(index) * (bar + gap))), ("y", f(height - tall)), ("width", f(bar)), ("height", f(tall)),
          ("fill", last && glance.lastWeekPartial ? Palette.barLight : Palette.bar),
        ])
    }
    b.close("svg")
    return b.text
  }
}
