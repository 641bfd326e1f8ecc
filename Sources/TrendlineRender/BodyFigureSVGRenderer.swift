import Foundation
import TrendlineSchema

/// Draws a `trendline/heatmap@1` output on a body: a stylized front and back figure whose
/// regions are the built-in catalog's muscle groups, each shaded by its intensity on the heat
/// map's own scale, because "where" is answered by the body, not by a grid.
///
/// Every period is drawn, each in a group of its own (`tl-body-period`); the newest with a
/// session is shown (on the first of a month, the month so far is empty, and a blank figure
/// would look like no data) and the report's period buttons show another (``HTMLReport``), so the standalone drawing
/// needs no script. The grid (``HeatmapSVGRenderer``) stays beside it as the accessible table.
///
/// Regions are found by the group's name, not its id: a pipeline's own catalog may number its
/// groups otherwise, and a group the figure has no place for ("Cardiovascular system", "Full
/// body", any name of a custom catalog) is listed under the figure with its count instead.
/// The figure is one size, 340 px wide, which fits a phone and a page column alike.
public struct BodyFigureSVGRenderer: Sendable {
  public var output: HeatmapOutput
  public var idPrefix: String
  /// The user's last session up to as-of, for a figure with none in its periods to name.
  public var lastSession: Date?

  public init(_ output: HeatmapOutput, idPrefix: String? = nil, lastSession: Date? = nil) {
    self.output = output
    self.lastSession = lastSession
    self.idPrefix = (idPrefix ?? "tl-" + idSafe(output.chart)) + "-body"
  }

  static let width = 340.0
  /// Where the two figures start: the front one, and the back one beside it.
  static let origins = (front: (x: 30.0, y: 64.0), back: (x: 190.0, y: 64.0))
  /// The figures' own height, head to feet.
  static let figureHeight = 270.0
  /// The silhouette's fill, under the regions: a neutral the dark scheme repaints.
  static let silhouette = "#E1E6EB"

  /// One shape of the figure, in a figure's own coordinates (120 × 270, centre line x = 60).
  enum Shape: Equatable {
    case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
    case rect(x: Double, y: Double, width: Double, height: Double, radius: Double)
    case path(String)

    /// The same shape mirrored across the centre line, for the body's other side.
    var mirrored: Shape {
      switch self {
      case .ellipse(let cx, let cy, let rx, let ry): return .ellipse(cx: 120 - cx, cy: cy, rx: rx, ry: ry)
      case .rect(let x, let y, let width, let height, let radius):
        return .rect(x: 120 - x - width, y: y, width: width, height: height, radius: radius)
      case .path(let d): return .path(d)
      }
    }
  }

  enum View: CaseIterable { case front, back }

  /// A muscle group's place on the figure: a shape for the left side, mirrored for the right
  /// unless `paired` is false (a shape on the centre line).
  struct Region {
    var view: View
    var shape: Shape
    var paired = true
  }

  /// The body without muscles, in the figure's coordinates: head, trunk and hips on the centre
  /// line, then one side's limbs, which are mirrored for the other.
  static let outline: (centre: [Shape], side: [Shape]) = (
    [
      .ellipse(cx: 60, cy: 18, rx: 12, ry: 15),
      .rect(x: 36, y: 42, width: 48, height: 86, radius: 14),
      .rect(x: 37, y: 118, width: 46, height: 24, radius: 8),
    ],
    [
      .rect(x: 18, y: 48, width: 17, height: 58, radius: 8),
      .rect(x: 13, y: 100, width: 15, height: 52, radius: 7),
      .ellipse(cx: 20, cy: 160, rx: 6, ry: 9),
      .rect(x: 37, y: 134, width: 22, height: 124, radius: 9),
      .ellipse(cx: 48, cy: 262, rx: 9, ry: 5),
    ]
  )

  /// The built-in catalog's groups by their case-folded names. Left out on purpose:
  /// "Cardiovascular system" and "Full body", which are not places.
  static let regions: [String: [Region]] = [
    "neck": [
      Region(view: .front, shape: .rect(x: 54, y: 31, width: 12, height: 12, radius: 3), paired: false),
      Region(view: .back, shape: .rect(x: 54, y: 31, width: 12, height: 12, radius: 3), paired: false),
    ],
    "anterior deltoids": [Region(view: .front, shape: .ellipse(cx: 34, cy: 53, rx: 8, ry: 9))],
    "lateral deltoids": [
      Region(view: .front, shape: .ellipse(cx: 24, cy: 57, rx: 5, ry: 9)),
      Region(view: .back, shape: .ellipse(cx: 24, cy: 57, rx: 5, ry: 9)),
    ],
    "posterior deltoids": [Region(view: .back, shape: .ellipse(cx: 33, cy: 54, rx: 8, ry: 8))],
    "chest": [Region(view: .front, shape: .ellipse(cx: 49, cy: 62, rx: 11, ry: 9))],
    "serratus anterior": [Region(view: .front, shape: .rect(x: 38, y: 74, width: 6, height: 14, radius: 3))],
    "biceps": [Region(view: .front, shape: .ellipse(cx: 26, cy: 82, rx: 6, ry: 14))],
    "triceps": [Region(view: .back, shape: .ellipse(cx: 26, cy: 82, rx: 6, ry: 14))],
    "forearms": [
      Region(view: .front, shape: .ellipse(cx: 20, cy: 124, rx: 6, ry: 18)),
      Region(view: .back, shape: .ellipse(cx: 20, cy: 124, rx: 6, ry: 18)),
    ],
    "abdominals": [
      Region(view: .front, shape: .rect(x: 53, y: 74, width: 14, height: 42, radius: 5), paired: false)
    ],
    "obliques": [Region(view: .front, shape: .rect(x: 45, y: 80, width: 7, height: 32, radius: 3))],
    "hip flexors": [Region(view: .front, shape: .ellipse(cx: 49, cy: 125, rx: 6, ry: 5))],
    "adductors": [Region(view: .front, shape: .ellipse(cx: 56, cy: 154, rx: 3.5, ry: 16))],
    "quadriceps": [Region(view: .front, shape: .ellipse(cx: 47, cy: 170, rx: 8, ry: 28))],
    "tibialis anterior": [Region(view: .front, shape: .ellipse(cx: 46, cy: 222, rx: 4.5, ry: 20))],
    "calves": [
      Region(view: .front, shape: .ellipse(cx: 53.5, cy: 220, rx: 3, ry: 14)),
      Region(view: .back, shape: .ellipse(cx: 48, cy: 220, rx: 7, ry: 18)),
    ],
    "trapezius": [
      Region(view: .back, shape: .path("M50,38L70,38L86,50L64,84L56,84L34,50Z"), paired: false)
    ],
    "rotator cuff": [Region(view: .back, shape: .ellipse(cx: 41, cy: 66, rx: 5, ry: 5))],
    "teres major": [Region(view: .back, shape: .ellipse(cx: 42, cy: 78, rx: 5, ry: 3.5))],
    "latissimus dorsi": [
      Region(view: .back, shape: .path("M38,82L52,88L54,112L42,104Z"), paired: false),
      Region(view: .back, shape: .path("M82,82L68,88L66,112L78,104Z"), paired: false),
    ],
    "middle back": [
      Region(view: .back, shape: .rect(x: 56, y: 86, width: 8, height: 21, radius: 2), paired: false)
    ],
    "lower back": [
      Region(view: .back, shape: .rect(x: 50, y: 108, width: 20, height: 14, radius: 4), paired: false)
    ],
    "gluteus medius": [Region(view: .back, shape: .ellipse(cx: 47, cy: 126, rx: 7, ry: 5))],
    "gluteus maximus": [Region(view: .back, shape: .ellipse(cx: 50, cy: 139, rx: 10, ry: 10))],
    "hamstrings": [Region(view: .back, shape: .ellipse(cx: 48, cy: 178, rx: 8, ry: 26))],
  ]

  /// The figure's regions of a group, or nil when the figure has no place for it.
  static func regions(of name: String) -> [Region]? {
    regions[name.trimmingCharacters(in: .whitespaces).lowercased()]
  }

  /// The index of the period shown first: the newest with a session, else the newest.
  public var shownPeriod: Int? {
    output.periods.lastIndex { $0.groups.contains { $0.sessions > 0 } } ?? output.periods.indices.last
  }

  /// The groups of the output that the figure has no place for, in catalog order.
  var unplaced: [HeatmapOutput.Group] {
    (shownPeriod.map { output.periods[$0].groups } ?? []).filter { Self.regions(of: $0.name) == nil }
  }

  /// How high the drawing is: the figures, their labels, the unplaced groups' line and the legend.
  var height: Double { Self.origins.front.y + Self.figureHeight + 20 + (unplaced.isEmpty ? 0 : 18) + 52 }

  /// - Complexity: O(*p* × *g*) for *p* periods and *g* groups.
  public func render() -> String {
    let zone = SVGFrame.zone(output.timeZone)
    let granularity = output.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .week
    let largest = output.periods.flatMap { $0.groups.map(\.sessions) }.max() ?? 0
    var b = SVGBuilder()
    SVGFrame.open(
      &b, width: Self.width, height: height, idPrefix: idPrefix, title: "\(output.chart) on the body — \(output.user)",
      desc: description(zone: zone, granularity: granularity, largest: largest), kind: "body")
    b.element("text", [("x", "16"), ("y", "20"), ("font-size", "14"), ("font-weight", "600")], content: output.chart)
    for view in View.allCases {
      let origin = view == .front ? Self.origins.front : Self.origins.back
      b.open("g", [("transform", "translate(\(f(origin.x)),\(f(origin.y)))"), ("fill", Self.silhouette)])
      for shape in Self.outline.centre + Self.outline.side + Self.outline.side.map(\.mirrored) {
        Self.draw(&b, shape, [])
      }
      b.close("g")
      b.element(
        "text",
        [
          ("x", f(origin.x + 60)), ("y", f(origin.y + Self.figureHeight + 14)), ("text-anchor", "middle"),
          ("fill", Palette.muted),
        ], content: view == .front ? "Front" : "Back")
    }
    b.newline()
    for (index, period) in output.periods.enumerated() {
      drawPeriod(&b, period, shown: index == shownPeriod, zone: zone, granularity: granularity)
    }
    var y = Self.origins.front.y + Self.figureHeight + 20
    if !unplaced.isEmpty {
      // Counts of the period the figure shows first; the grid has every period's.
      let said = unplaced.map { "\($0.name) \($0.sessions)" }.joined(separator: " · ")
      b.element(
        "text", [("x", "16"), ("y", f(y + 12)), ("fill", Palette.muted)],
        content: "Not on the figure: " + said)
      y += 18
    }
    if largest == 0 {
      SVGFrame.emptyPeriods(
        &b, output.periods.count, of: granularity, asOf: output.asOf, lastSession: lastSession, zone: zone,
        x: Self.width / 2, y: Self.origins.front.y + 120)
    }
    HeatmapSVGRenderer.legend(&b, largest: largest, y: y + 8, step: 46)
    b.close("svg")
    b.newline()
    return b.text
  }

  /// One period's shading of every region, with the period's name as the subtitle; hidden
  /// (`display="none"`) unless `shown`.
  func drawPeriod(
    _ b: inout SVGBuilder, _ period: HeatmapOutput.Period, shown: Bool, zone: TimeZone, granularity: Granularity
  ) {
    let name = PeriodName.long(LocalDate(period.start, in: zone), granularity) + (period.partial ? " (so far)" : "")
    var attributes = [("class", "tl-body-period"), ("data-period", period.id)]
    if !shown { attributes.append(("display", "none")) }
    b.open("g", attributes)
    b.element(
      "text", [("x", "16"), ("y", "38"), ("fill", Palette.muted)],
      content: output.user + " · sessions per muscle group")
    b.element("text", [("class", "tl-body-name"), ("x", "16"), ("y", "53"), ("font-weight", "600")], content: name)
    for group in period.groups {
      guard let regions = Self.regions(of: group.name) else { continue }
      let fill = HeatmapSVGRenderer.colour(group.intensity)
      let label = "\(group.name), \(name): " + SVGFrame.count(group.sessions, "session")
      for region in regions {
        let origin = region.view == .front ? Self.origins.front : Self.origins.back
        let shapes = region.paired ? [region.shape, region.shape.mirrored] : [region.shape]
        b.open("g", [("transform", "translate(\(f(origin.x)),\(f(origin.y)))"), ("data-id", String(group.id))])
        for shape in shapes {
          Self.draw(
            &b, shape, [("fill", fill), ("stroke", "#FFFFFF"), ("stroke-width", "1")] + SVGFrame.mark(label),
            title: label)
        }
        b.close("g")
      }
    }
    b.close("g")
    b.newline()
  }

  /// `shape` as an SVG element with `attributes`, and a `<title>` naming it where one is given
  /// (a pointer resting on a region shows its group and count).
  static func draw(_ b: inout SVGBuilder, _ shape: Shape, _ attributes: [(String, String)], title: String? = nil) {
    let (name, geometry): (String, [(String, String)])
    switch shape {
    case .ellipse(let cx, let cy, let rx, let ry):
      (name, geometry) = ("ellipse", [("cx", f(cx)), ("cy", f(cy)), ("rx", f(rx)), ("ry", f(ry))])
    case .rect(let x, let y, let width, let height, let radius):
      (name, geometry) = (
        "rect", [("x", f(x)), ("y", f(y)), ("width", f(width)), ("height", f(height)), ("rx", f(radius))]
      )
    case .path(let d): (name, geometry) = ("path", [("d", d)])
    }
    guard let title else {
      b.element(name, geometry + attributes)
      return
    }
    b.open(name, geometry + attributes)
    b.element("title", [], content: title)
    b.close(name)
  }

  func description(zone: TimeZone, granularity: Granularity, largest: Int) -> String {
    guard let last = shownPeriod.map({ output.periods[$0] }) else { return "No periods for \(output.user)." }
    let trained = last.groups.filter { $0.sessions > 0 }.sorted { $0.sessions > $1.sessions }
    let said = trained.map { "\($0.name) \($0.sessions)" }.joined(separator: ", ")
    return
      "Front and back figures of \(output.user)'s muscle groups, darker for more sessions (most in one period: "
      + "\(largest)). \(PeriodName.long(LocalDate(last.start, in: zone), granularity))"
      + (last.partial ? " so far" : "") + ": " + (trained.isEmpty ? "nothing trained" : said) + "."
  }
}
