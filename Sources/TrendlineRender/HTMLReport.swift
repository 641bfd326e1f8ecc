import Foundation
import TrendlineSchema

/// The HTML report: `report/index.html` (cohort charts and the list of users) and
/// `report/users/<user>.html` (every chart of one user, with data tables, recent workouts and
/// rejected rows).
///
/// Pages are self-contained: inline SVG, inline CSS and a small inline script, nothing fetched
/// from a network, so a report opens from a folder, an archive or a mail attachment. They hold
/// no time of generation, so the same run gives the same bytes. Every string that came from
/// input goes through ``XMLEscape``, and the script writes only with `textContent`.
public enum HTMLReport {
  /// An input row that was not accepted exactly as written, as `row-outcomes.csv` lists it.
  public struct NotedRow: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var field: String
    /// `rejected`, `duplicate`, `ignored`, `repaired` or `value-dropped`.
    public var outcome: String
    public var reason: String
    public init(file: String, line: Int, column: Int, field: String, outcome: String = "rejected", reason: String) {
      self.file = file
      self.line = line
      self.column = column
      self.field = field
      self.outcome = outcome
      self.reason = reason
    }
  }

  /// Everything one user's page shows.
  public struct UserPage: Sendable {
    public var user: String
    /// `nil` when the user succeeded; the failure message otherwise.
    public var failure: String?
    public var timeZone: TimeZone
    public var asOf: Date
    /// The units the page shows weights and distances in (SPEC 10.8).
    public var units: Units
    public var charts: [ChartDocument]
    /// Sessions up to as-of, oldest first; the page lists the newest few.
    public var sessions: [Session]
    /// Rows not accepted as written, in the order read.
    public var notes: [NotedRow]
    /// The series charts the pipeline compares: each is followed by a place for the user's line
    /// over the cohort's band, filled once the cohort is known (``placing(_:in:)``).
    public var compared: Set<String>
    /// Where the page is, for its links.
    public var layout: UserLayout

    public init(
      user: String, failure: String? = nil, timeZone: TimeZone, asOf: Date, units: Units = .metric,
      charts: [ChartDocument], sessions: [Session], notes: [NotedRow], compared: Set<String> = [],
      layout: UserLayout = .flat
    ) {
      self.layout = layout
      self.compared = compared
      self.user = user
      self.failure = failure
      self.timeZone = timeZone
      self.asOf = asOf
      self.units = units
      self.charts = charts
      self.sessions = sessions
      self.notes = notes
    }
  }

  /// One line of the index's user list.
  public struct UserEntry: Sendable, Equatable {
    public var user: String
    public var ok: Bool
    public var message: String?
    public var rowsRejected: Int
    /// The user at a glance; nil for a user that failed.
    public var glance: Glance?
    public init(
      user: String, ok: Bool, message: String? = nil, rowsRejected: Int, glance: Glance? = nil
    ) {
      self.user = user
      self.ok = ok
      self.message = message
      self.rowsRejected = rowsRejected
      self.glance = glance
    }
  }

  /// The index page.
  public struct Index: Sendable {
    public var pipeline: String
    public var asOf: String
    public var charts: [ChartDocument]
    public var users: [UserEntry]
    /// Each compared chart's cohort per segment (`compare.groupBy`), drawn after the chart.
    public var segments: [CohortSegmentsOutput]
    /// Where the users' pages are.
    public var layout: UserLayout
    public init(
      pipeline: String, asOf: String, charts: [ChartDocument], users: [UserEntry],
      segments: [CohortSegmentsOutput] = [], layout: UserLayout = .flat
    ) {
      self.layout = layout
      self.pipeline = pipeline
      self.asOf = asOf
      self.charts = charts
      self.users = users
      self.segments = segments
    }
  }

  /// Workouts listed on a user page, newest first.
  static let recentSessions = 10
  /// Rows listed on a user page, rejected ones first; the rest are in `row-outcomes.csv`.
  static let listedNotes = 20

  /// `report/users/<user>.html` (``UserLayout/userPage(_:)``).
  ///
  /// - Complexity: linear in the size of the user's outputs.
  public static func userPage(_ page: UserPage) -> String {
    let user = XMLEscape.escape(page.user)
    var body = "<p class=\"nav\"><a href=\"\(page.layout.pageToIndex)\">← All users</a></p>\n"
    body += "<h1>" + user + "</h1>\n"
    let asOf = LocalDate(page.asOf, in: page.timeZone)
    let zoneName = page.timeZone.identifier == "GMT" ? "UTC" : page.timeZone.identifier
    body +=
      "<p class=\"meta\">As of " + asOf.long + " (" + XMLEscape.escape(zoneName) + ") · "
      + "\(page.sessions.count) session\(page.sessions.count == 1 ? "" : "s") up to as-of · "
      + "\(rejectedCount(page)) rejected row\(rejectedCount(page) == 1 ? "" : "s")"
      + (page.failure == nil
        ? " · weights in \(page.units.weight.rawValue), distances in \(page.units.distance.rawValue)" : "")
      + "</p>\n"
    if let failure = page.failure {
      body += "<p class=\"failed\" role=\"alert\">This user failed: " + XMLEscape.escape(failure) + "</p>\n"
    }
    let lastSession = page.sessions.last.map(\.start).map(Date.init(epochSeconds:))
    for chart in page.charts {
      body += figure(chart, lastSession: lastSession)
      if page.compared.contains(chart.name) { body += cohortSlot(chart.name, content: "") }
    }
    body += recent(page)
    body += notedRows(page)
    return document(
      title: "\(page.user) — Trendline", body: body,
      asOf: (page.asOf.epochSeconds, LocalDate(page.asOf, in: page.timeZone).utcMidnight.epochSeconds))
  }

  /// `report/index.html`.
  ///
  /// - Complexity: linear in the size of the cohort outputs and the number of users.
  public static func index(_ index: Index) -> String { indexPages(index)[0].html }

  /// The users a page of the index lists: a page stays a few hundred kilobytes however many
  /// users a night has (3,000 users made one page of 407 KB; ten million would make 1.3 GB).
  public static let usersPerPage = 500

  /// The index's pages: `index.html` with the cohort's charts and the first
  /// ``usersPerPage`` users, then `index-2.html`, `index-3.html`, … with the next, in the order
  /// given (by id). Each page links to the first, the last and the two on either side of it,
  /// never to all: twenty thousand pages each naming every other would be quadratic.
  ///
  /// - Complexity: O(*u* × *w* + *c*) for *u* users of *w* weeks and *c*, the charts' size.
  public static func indexPages(_ index: Index) -> [(name: String, html: String)] {
    let ok = index.users.filter(\.ok).count
    let pages = max(1, (index.users.count + usersPerPage - 1) / usersPerPage)
    // One sparkline scale for every page, so rows compare across them.
    let scale = max(1, index.users.lazy.compactMap(\.glance).flatMap(\.weekly).max() ?? 1)
    // The index's charts are the cohort's, whose rows are dates: none may start after as-of's.
    let day = LocalDate(key: String(index.asOf.prefix(10)))?.utcMidnight.epochSeconds
    return (1...pages).map { page in
      var body = "<h1>" + XMLEscape.escape(index.pipeline) + "</h1>\n"
      body +=
        "<p class=\"meta\">As of " + XMLEscape.escape(index.asOf) + " · \(index.users.count) users: \(ok) ok, "
        + "\(index.users.count - ok) failed</p>\n"
      if page == 1 {
        if index.charts.isEmpty {
          body += "<p class=\"meta\">The pipeline compares no charts across users.</p>\n"
        }
        // By chart, once: a search of the segments per chart was quadratic in the charts compared.
        let segments = Dictionary(index.segments.map { ($0.chart, $0) }, uniquingKeysWith: { first, _ in first })
        for chart in index.charts {
          body += figure(chart)
          if let segmented = segments[chart.name] { body += segmentsFigure(segmented) }
        }
      }
      let range = (page - 1) * usersPerPage..<min(index.users.count, page * usersPerPage)
      body += dashboard(
        Array(index.users[range]), asOf: index.asOf, scale: scale, layout: index.layout,
        pager: pages == 1 ? nil : pager(page: page, of: pages, range: range, total: index.users.count))
      let title = page == 1 ? "\(index.pipeline) — Trendline report" : "\(index.pipeline) — users, page \(page)"
      return (indexPageName(page), document(title: title, body: body, asOf: day.map { ($0 + 86_399, $0) }))
    }
  }

  /// `index.html` for page 1, `index-<n>.html` for the others.
  public static func indexPageName(_ page: Int) -> String { page == 1 ? "index.html" : "index-\(page).html" }

  /// The links between the index's pages: the first, the last, and up to two on each side of
  /// `page`; the page itself marked `aria-current`.
  static func pager(page: Int, of pages: Int, range: Range<Int>, total: Int) -> String {
    var shown = Set([1, pages])
    for near in max(1, page - 2)...min(pages, page + 2) { shown.insert(near) }
    var out =
      "<nav class=\"meta pager\" aria-label=\"Pages of users\"><span>Users \(range.lowerBound + 1)–\(range.upperBound) "
      + "of \(total), by id; sorting sorts this page.</span> "
    var last = 0
    for number in shown.sorted() {
      if number > last + 1 { out += "<span>…</span> " }
      out +=
        number == page
        ? "<span aria-current=\"page\">\(number)</span> "
        : "<a href=\"\(indexPageName(number))\">\(number)</a> "
      last = number
    }
    return out + "</nav>\n"
  }

  /// A user id as a URL path segment: ids are plain file names already (the input layout checks
  /// them), and anything else is percent-encoded rather than trusted.
  static func pathComponent(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "user"
  }

  /// `chart` drawn twice, for a page column and for a phone; the stylesheet shows the one that
  /// fits (``css``), so a phone's chart text stays 11 px instead of a wide chart scaled down.
  static func drawn(_ chart: ChartDocument, idPrefix: String? = nil, lastSession: Date? = nil) -> String {
    "<div class=\"tl-wide\">\n" + SVGRenderer.render(chart, idPrefix: idPrefix, lastSession: lastSession)
      + "</div><div class=\"tl-narrow\">\n"
      + SVGRenderer.render(chart, idPrefix: idPrefix, lastSession: lastSession, width: .compact) + "</div>\n"
  }

  /// A chart's card: its title, the drawing (and a heat map's body figure, a radar's bars), and
  /// its table folded under it, so a page is its charts first and numbers on demand (the tables
  /// made a user page 6,700 px of mostly rows).
  static func figure(_ chart: ChartDocument, lastSession: Date? = nil) -> String {
    let name = XMLEscape.escape(title(chart.name))
    var out =
      "<section class=\"chart\" id=\"chart-" + XMLEscape.escape(idSafe(chart.name)) + "\"><h2>" + name + "</h2>\n"
    let kind = chart.drawnKind
    out += kind?.figureBefore(lastSession: lastSession) ?? ""
    out += "<figure class=\"chart\">\n"
    out += drawn(chart, lastSession: lastSession)
    let hoverable: Bool
    switch chart {
    case .user: hoverable = kind?.isHoverable ?? false
    case .cohort(.series, _): hoverable = true
    case .cohort(.radar, _): hoverable = false
    }
    if hoverable {
      out +=
        "<figcaption class=\"readout\" aria-live=\"polite\">Hover over or touch the chart to read a "
        + "period's values.</figcaption>\n"
    }
    out += "</figure>\n"
    out += kind?.figureAfter() ?? ""
    out +=
      "<details class=\"values\"><summary>The numbers as a table</summary>\n" + DataTable.html(chart) + "</details>\n"
    return out + "</section>\n"
  }

  /// A chart's title from its name in the pipeline, as a person reads it: `training-volume` →
  /// "Training volume", `bench_e1rm` → "Bench e1rm". The name itself stays in the drawing's own
  /// title and in every file name.
  static func title(_ name: String) -> String {
    let words = name.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
    guard let first = words.first else { return name }
    return first.uppercased() + words.dropFirst()
  }

  /// A heat map drawn on the body, before its grid, with a button per period that shows the
  /// period on the figure (the newest with a session is shown first, and without a script).
  static func bodyFigure(_ output: HeatmapOutput, lastSession: Date?) -> String {
    var out = "<figure class=\"chart body\">\n"
    let figure = BodyFigureSVGRenderer(output, lastSession: lastSession)
    out += figure.render()
    if output.periods.count > 1 {
      let zone = SVGFrame.zone(output.timeZone)
      let granularity = output.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .week
      out += "<div class=\"periods\" role=\"group\" aria-label=\"Period shown on the figure\">"
      for (index, period) in output.periods.enumerated() {
        let name =
          PeriodName.short(LocalDate(period.start, in: zone), granularity) + (period.partial ? " (so far)" : "")
        let pressed = index == figure.shownPeriod
        out +=
          "<button type=\"button\" data-period=\"" + XMLEscape.escape(period.id) + "\" aria-pressed=\""
          + (pressed ? "true" : "false") + "\">" + XMLEscape.escape(name) + "</button>"
      }
      out += "</div>\n"
    }
    return out + "</figure>\n"
  }

  /// The place after a compared chart where the user's line over the cohort goes: `content`
  /// between two comments naming the chart, so stamping it again replaces it.
  static func cohortSlot(_ chart: String, content: String) -> String {
    let name = idSafe(chart)
    return "<!--cohort:" + name + "-->" + content + "<!--/cohort:" + name + "-->\n"
  }

  /// The user's line over the cohort's band of `cohort`, with the user's percentile rank in the
  /// latest bucket where it is known ("sessions, Week of 23 Nov 2026: percentile rank 25"), as a
  /// section of the user's page.
  public static func cohortPlace(_ cohort: CohortSeriesOutput, user: SeriesOutput) -> String {
    let name = XMLEscape.escape(title(cohort.chart))
    var out =
      "<section class=\"chart place\" id=\"place-" + XMLEscape.escape(idSafe(cohort.chart)) + "\"><h2>" + name
      + " among \(cohort.users) users</h2>\n<figure class=\"chart\">\n"
    out += drawn(.cohort(.series(cohort), user: user), idPrefix: "place-" + idSafe(cohort.chart) + "-")
    var said: [String] = []
    for measure in cohort.measures {
      // A rank past the user's buckets (a series not the one ranked) is not said, never a trap.
      guard let ranks = user.cohortRank?[measure],
        let index = ranks.indices.last(where: { ranks[$0] != nil }), let rank = ranks[index],
        user.buckets.indices.contains(index)
      else { continue }
      let when = PeriodName.long(
        LocalDate(user.buckets[index].start, in: TimeZone(identifier: user.timeZone) ?? .gmt),
        user.granularity)
      said.append(
        MeasureDisplay.short(measure) + ", " + when + ": percentile rank " + ShownNumber.format(rank, decimals: 1))
    }
    if !said.isEmpty {
      out += "<figcaption>" + XMLEscape.escape(said.joined(separator: " · ")) + "</figcaption>\n"
    }
    return out + "</figure>\n</section>\n"
  }

  /// `page` (a user page's bytes) with each chart's `html` in the place the page left after that
  /// chart (``cohortSlot(_:content:)``); a chart the page has no place for is left out. Names
  /// that differ only in `.`, `_` and `-` share one id, so the first place with that id takes
  /// the last of their `html`s, as when each chart was placed in turn.
  ///
  /// Every chart is placed in one pass over the page, and no call takes a single chart: a page
  /// holds every chart of its user, so placing them in turn (a scan and a copy of the page each)
  /// cost the compared charts times the page, quadratic in the charts: 800 compared charts made
  /// a 54 MB page scanned and copied 800 times for each user.
  ///
  /// - Complexity: O(*n* + *h*) for a page of *n* bytes and *h* bytes of `html`.
  public static func placing(_ places: [(chart: String, html: String)], in page: [UInt8]) -> [UInt8] {
    var html: [String: String] = [:]
    for place in places { html[idSafe(place.chart)] = place.html }
    // Each id's first place, from the end of its opening comment to the start of the closing
    // comment that follows it.
    var open: [String: (from: Int, html: String)] = [:]
    var fills: [(from: Int, to: Int, html: String)] = []
    var index = 0
    while index < page.count {
      guard page[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      if let comment = slotComment(openingMark, in: page, at: index), let text = html[comment.id] {
        html[comment.id] = nil
        open[comment.id] = (comment.end, text)
        index = comment.end
      } else if let comment = slotComment(closingMark, in: page, at: index), let opened = open[comment.id] {
        open[comment.id] = nil
        fills.append((opened.from, index, opened.html))
        index = comment.end
      } else {
        index += 1
      }
    }
    // In page order; a place that overlaps the one before (a page not written by
    // ``cohortSlot(_:content:)``) is left as it is.
    fills.sort { $0.from < $1.from }
    var out: [UInt8] = []
    out.reserveCapacity(page.count + fills.reduce(0) { $0 + $1.html.utf8.count })
    var copied = 0
    for fill in fills where fill.from >= copied {
      out.append(contentsOf: page[copied..<fill.from])
      out.append(contentsOf: fill.html.utf8)
      copied = fill.to
    }
    out.append(contentsOf: page[copied...])
    return out
  }

  private static let openingMark = Array("<!--cohort:".utf8)
  private static let closingMark = Array("<!--/cohort:".utf8)

  /// The id of the comment `mark` + id + `-->` at `start` of `page`, and the index after it; nil
  /// when there is none. An id is what ``idSafe(_:)`` makes: ASCII letters, digits and `-`.
  private static func slotComment(_ mark: [UInt8], in page: [UInt8], at start: Int) -> (id: String, end: Int)? {
    let idStart = start + mark.count
    guard idStart <= page.count, page[start..<idStart].elementsEqual(mark) else { return nil }
    var end = idStart
    while end < page.count, isIDByte(page[end]) { end += 1 }
    // The id's run of bytes ends with the comment's own `--`.
    guard end < page.count, page[end] == UInt8(ascii: ">"), end - idStart >= 2,
      page[end - 1] == UInt8(ascii: "-"), page[end - 2] == UInt8(ascii: "-")
    else { return nil }
    return (String(decoding: page[idStart..<(end - 2)], as: UTF8.self), end + 1)
  }

  private static func isIDByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  /// A chart's cohort per segment, side by side: each segment's chart drawn on the scale they
  /// share, titled by its value and its users, each with its table.
  static func segmentsFigure(_ segmented: CohortSegmentsOutput) -> String {
    var out =
      "<section class=\"chart segments\"><h2>" + XMLEscape.escape(segmented.chart) + " by "
      + XMLEscape.escape(segmented.groupBy) + "</h2>\n<div class=\"segments\">\n"
    for (index, segment) in segmented.segments.enumerated() {
      let users: Int
      switch segment.cohort {
      case .series(let output): users = output.users
      case .radar(let output): users = output.users
      }
      let title = (segment.value ?? "unknown") + " · \(users) user" + (users == 1 ? "" : "s")
      out += "<figure class=\"chart\"><figcaption>" + XMLEscape.escape(title) + "</figcaption>\n"
      // Drawn for a phone's width: side by side, each has a column about that wide. Each has
      // its own ids, or the segments' patterns would clash on one page.
      out += SVGRenderer.render(
        .cohort(segment.cohort), idPrefix: "segment-\(index)-" + idSafe(segmented.chart), width: .compact)
      out += "</figure>\n"
    }
    return out + "</div>\n</section>\n"
  }

  static func recent(_ page: UserPage) -> String {
    let recent = page.sessions.filter { $0.start <= page.asOf.epochSeconds }.suffix(recentSessions).reversed()
    guard !recent.isEmpty else { return "" }
    let rows = recent.map { session -> [String] in
      let date = Date(epochSeconds: session.start)
      let local = LocalDate(date, in: page.timeZone)
      let time = RFC3339.format(seconds: session.start, timeZone: page.timeZone)
      let clock = String(time.dropFirst(11).prefix(5))
      return [
        "\(LocalDate.weekdayNames[local.weekday]) \(local.long) \(clock)",
        session.name.isEmpty ? "(no name)" : session.name,
        session.durationSeconds.map { "\($0 / 60) min" } ?? "not recorded", String(session.setCount),
        ShownNumber.display(page.units.weight(fromKilograms: session.volumeKg), decimals: 0) + " "
          + page.units.weight.rawValue,
      ]
    }
    return "<section><h2>Recent workouts</h2>\n"
      + DataTable.table(
        caption: "The \(recent.count) most recent workouts up to as-of",
        header: ["Started", "Workout", "Duration", "Sets", "Volume"],
        rows: rows)
      + "</section>\n"
  }

  static func rejectedCount(_ page: UserPage) -> Int {
    page.notes.reduce(0) { $0 + ($1.outcome == "rejected" ? 1 : 0) }
  }

  /// The rows not accepted as written: how many of each outcome, and the first few, rejected
  /// rows first since those are the ones a person must act on.
  static func notedRows(_ page: UserPage) -> String {
    var out = "<section><h2>Rows not accepted as written</h2>\n"
    guard !page.notes.isEmpty else { return out + "<p>Every row was accepted as written.</p></section>\n" }
    var outcomes: [(String, Int)] = []
    for note in page.notes {
      if let i = outcomes.firstIndex(where: { $0.0 == note.outcome }) {
        outcomes[i].1 += 1
      } else {
        outcomes.append((note.outcome, 1))
      }
    }
    out +=
      "<p>" + outcomes.map { XMLEscape.escape($0.0) + " \($0.1)" }.joined(separator: ", ") + ". The full list is in "
      + "<a href=\"" + page.layout.pageToOutput + UserLayout.usersFolder + "/" + page.layout.folderPrefix(of: page.user)
      + XMLEscape.escape(pathComponent(page.user))
      + "/row-outcomes.csv\">row-outcomes.csv</a>.</p>\n"
    let ordered = page.notes.filter { $0.outcome == "rejected" } + page.notes.filter { $0.outcome != "rejected" }
    let listed = ordered.prefix(listedNotes)
    out += DataTable.table(
      caption: listed.count < page.notes.count ? "The first \(listed.count) rows" : "Rows not accepted as written",
      header: ["File", "Line", "Column", "Field", "Outcome", "Reason"],
      rows: listed.map { [$0.file, String($0.line), String($0.column), $0.field, $0.outcome, $0.reason] })
    return out + "</section>\n"
  }

  /// A report page. `asOf` is the page's as-of instant and the first second of its date in UTC
  /// (cohort rows are dates placed at UTC midnight), on `<main>`: the self-test checks that no
  /// chart shows a point after them (SPEC 11.9).
  static func document(title: String, body: String, asOf: (instant: Int64, day: Int64)? = nil) -> String {
    let bounds = asOf.map { " data-asof=\"\($0.instant)\" data-asof-day=\"\($0.day)\"" } ?? ""
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      + "<title>" + XMLEscape.escape(title) + "</title>\n<style>\n" + css + "</style>\n</head>\n"
      + "<body data-script=\"pending\">\n<main" + bounds + ">\n" + body + "</main>\n<script>\n" + script
      + "</script>\n</body>\n</html>\n"
  }

  /// Light by default, dark under `prefers-color-scheme: dark`: the page's colours, and the
  /// charts' through their presentation attributes, which CSS outranks (each colour of
  /// ``Palette`` is matched by value). A heat map's shades (cells, body regions, legend) and the
  /// counts on them are inverted in lightness with their hue kept (`invert(1) hue-rotate(180deg)`):
  /// the light ramp's untrained near-white was the brightest shape on a dark page; inverted, no
  /// training is dark and the most is light. The outlines keep the light scheme's white and grid
  /// colours, so that inverted they are dark too.
  /// Every pair is WCAG AA: 4.5:1 for text, 3:1 for marks. Tables scroll inside their card.
  ///
  /// The text is `Resources/report.css`, compiled in by `Scripts/embed-resources.sh`: in a file of
  /// its own an editor reads it as CSS, and no Swift escape stands between it and the page.
  static let css = ReportResources.css

  /// The read-out: the pointer's x, taken relative to the plot rectangle's on-screen box
  /// (`getBoundingClientRect`), becomes an instant between the plot's `data-t0` and `data-t1`,
  /// and the point nearest that instant is shown. Distance is measured in time, not pixels, and
  /// the plot's own box is used, so the width of the y-axis labels never shifts it. The read-out
  /// goes back to its hint when the pointer leaves.
  ///
  /// Keyboard: each plot is a tab stop; arrows move point by point (Home and End to the ends),
  /// the read-out (`aria-live`) saying each; Shift+arrows select a range, Escape clears it.
  /// Brushing: a drag across points selects a range, and the read-out summarizes it from the
  /// points' `data-v`: each measure's total (where one means something), mean and change.
  ///
  /// `#selftest` in the URL makes the page check itself once loaded, for the browser check in
  /// CI; the outcome goes on `<body data-selftest>` ("ok", or what failed):
  /// - pointing at each plot where its first and last points are shows those points;
  /// - every tick and ring label reads as its `data-value`;
  /// - no text is drawn under 11 px, and nothing runs out of its card;
  /// - arrow keys move the read-out, and a drag across a plot shows the range's summary;
  /// - each period button of a body figure shows that period, and only it;
  /// - no chart has a point after as-of (`<main data-asof>`), and every sortable table sorts
  ///   by each column both ways without losing a row;
  /// - every mark a screen reader stops at says something;
  /// - the page fetched nothing.
  ///
  /// The text is `Resources/report.js`, compiled in by `Scripts/embed-resources.sh` as the CSS is.
  static let script = ReportResources.script
}
