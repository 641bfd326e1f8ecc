import Foundation
import TrendlineSchema

/// The numbers behind each chart as an HTML table, placed under the chart in the report: a
/// screen reader cannot read bars, and a person who wants the exact value should not have to
/// hover.
enum DataTable {
  static func html(_ chart: ChartDocument) -> String {
    switch chart {
    case .user(let output): return (output.content as? any DrawnChartKind)?.dataTable() ?? ""
    case .cohort(.series(let o), _): return cohortSeries(o)
    case .cohort(.radar(let o), _): return cohortRadar(o)
    }
  }

  static func table(caption: String, header: [String], rows: [[String]], rowHeaders: Bool = true) -> String {
    // In a scroller of its own: a wide table scrolls inside its card instead of running out of it.
    var out =
      "<div class=\"scroll\"><table class=\"data\"><caption>" + XMLEscape.escape(caption) + "</caption>\n<thead><tr>"
    for cell in header { out += "<th scope=\"col\">" + XMLEscape.escape(cell) + "</th>" }
    out += "</tr></thead>\n<tbody>\n"
    for row in rows {
      out += "<tr>"
      for (index, cell) in row.enumerated() {
        if index == 0 && rowHeaders {
          out += "<th scope=\"row\">" + XMLEscape.escape(cell) + "</th>"
        } else {
          out += "<td>" + XMLEscape.escape(cell) + "</td>"
        }
      }
      out += "</tr>\n"
    }
    return out + "</tbody></table></div>\n"
  }

  static func series(_ o: SeriesOutput) -> String {
    let zone = SVGFrame.zone(o.timeZone)
    let hasTrend = o.buckets.contains { $0.trend != nil }
    var header = [o.granularity.rawValue.capitalized]
    for m in o.measures {
      header.append(MeasureDisplay.short(m))
      if hasTrend { header.append(MeasureDisplay.short(m) + " trend") }
    }
    var rows = o.buckets.map { bucket -> [String] in
      var row = [
        PeriodName.long(LocalDate(bucket.start, in: zone), o.granularity) + (bucket.partial ? " (so far)" : "")
      ]
      for m in o.measures {
        // A best without a value is shown as a dash, never as 0.
        row.append(bucket.values[m].map { MeasureDisplay.text($0, m, o.units) } ?? "–")
        if hasTrend { row.append(bucket.trend?[m].map { MeasureDisplay.text($0, m, o.units) } ?? "") }
      }
      return row
    }
    var average = ["Average"]
    for m in o.measures {
      average.append(o.average[m].map { MeasureDisplay.text($0, m, o.units) } ?? "–")
      if hasTrend { average.append("") }
    }
    rows.append(average)
    return table(caption: "\(o.chart): values per \(o.granularity.rawValue)", header: header, rows: rows)
  }

  static func radar(_ o: RadarOutput) -> String {
    let zone = SVGFrame.zone(o.timeZone)
    let granularity = o.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .month
    let header =
      ["Area"]
      + o.periods.map { PeriodName.long(LocalDate($0.start, in: zone), granularity) + ($0.partial ? " (so far)" : "") }
    var rows = o.axes.enumerated().map { i, axis in
      [axis.label] + o.periods.map { i < $0.counts.count ? String($0.counts[i]) : "" }
    }
    rows.append(["All sessions"] + o.periods.map { String($0.sessions) })
    var out = table(caption: "\(o.chart): sessions per area", header: header, rows: rows)
    if !o.unmappedExercises.isEmpty {
      out += table(
        caption: "\(o.chart): exercises no area counts (no muscle groups)", header: ["Exercise", "Sessions"],
        rows: o.unmappedExercises.map { [$0.name, String($0.sessions)] })
    }
    return out
  }

  static func heatmap(_ o: HeatmapOutput) -> String {
    let zone = SVGFrame.zone(o.timeZone)
    let granularity = o.periods.first.map { PeriodName.granularity(start: $0.start, end: $0.end) } ?? .week
    let header =
      ["Muscle group"]
      + o.periods.map { PeriodName.long(LocalDate($0.start, in: zone), granularity) + ($0.partial ? " (so far)" : "") }
    let groups = o.periods.first?.groups ?? []
    let rows = groups.enumerated().map { i, group in
      [group.name] + o.periods.map { i < $0.groups.count ? String($0.groups[i].sessions) : "" }
    }
    return table(caption: "\(o.chart): sessions per muscle group", header: header, rows: rows)
  }

  static func sparklines(_ o: SparklinesOutput) -> String {
    let zone = SVGFrame.zone(o.timeZone)
    let unit = SparklinesSVGRenderer.unit(o.value, o.units)
    func shown(_ v: Double) -> String { ShownNumber.display(SparklinesSVGRenderer.shown(v, o)) + unit }
    let rows = o.lines.map { line -> [String] in
      let values = line.points.map(\.v)
      // No load recorded is unknown, a dash, never "0 kg" (SPEC 10.3), as the chart says it.
      if SparklinesSVGRenderer.unloaded(line, o) {
        return [
          line.exercise, String(line.points.count), "–", "–", "–",
          line.points.last.map { LocalDate($0.t, in: zone).long } ?? "",
        ]
      }
      return [
        line.exercise, String(line.points.count),
        line.points.first.map { shown($0.v) } ?? "",
        shown(values.max() ?? 0),
        line.points.last.map { shown($0.v) } ?? "",
        line.points.last.map { LocalDate($0.t, in: zone).long } ?? "",
      ]
    }
    return table(
      caption: "\(o.chart): \(SparklinesSVGRenderer.valueName(o.value)) over \(o.windowDays) days",
      header: ["Exercise", "Sessions", "First", "Best", "Latest", "Latest on"], rows: rows)
  }

  static func cohortSeries(_ o: CohortSeriesOutput) -> String {
    var header = ["Bucket", "Users", "Active"]
    for m in o.measures {
      header += [
        MeasureDisplay.short(m) + " p25", MeasureDisplay.short(m) + " median", MeasureDisplay.short(m) + " p75",
      ]
    }
    let rows = o.buckets.map { bucket -> [String] in
      let share = ShownNumber.format(bucket.activeShare * 100, decimals: 0)
      // No-break spaces: a narrow column must not wrap "12 (67 %)" into two lines.
      var row = [bucket.date, String(bucket.n), "\(bucket.active)\u{00A0}(\(share)\u{00A0}%)"]
      for m in o.measures {
        let s = bucket.values[m]
        for q in ["p25", "p50", "p75"] {
          row.append(s?.quantile(q).map { MeasureDisplay.text($0, m, CohortSeriesSVGRenderer.units) } ?? "")
        }
      }
      return row
    }
    var out = table(caption: "\(o.chart): cohort of \(o.users) users", header: header, rows: rows)
    if let rank = o.ranking {
      out += table(
        caption: "\(o.chart): top users by \(MeasureDisplay.short(rank.measure))", header: ["Rank", "User", "Value"],
        rows: rank.users.enumerated().map {
          [String($0 + 1), $1.user, MeasureDisplay.text($1.value, rank.measure, CohortSeriesSVGRenderer.units)]
        })
    }
    return out
  }

  static func cohortRadar(_ o: CohortRadarOutput) -> String {
    let rows = o.axes.map { axis -> [String] in
      [axis.label] + ["p25", "p50", "p75"].map { axis.counts.quantile($0).map { ShownNumber.display($0) } ?? "" }
        + [ShownNumber.display(axis.counts.mean), ShownNumber.display(axis.counts.max)]
    }
    return table(
      caption: "\(o.chart): sessions per area this \(o.period.rawValue), cohort of \(o.users) users",
      header: ["Area", "p25", "Median", "p75", "Mean", "Max"], rows: rows)
  }

  static func records(_ o: RecordsOutput) -> String {
    let zone = SVGFrame.zone(o.timeZone)
    func best(_ value: RecordsOutput.Best?) -> String {
      value.map { MeasureDisplay.text($0.value, .topSetKg, o.units) + ", " + LocalDate($0.at, in: zone).long } ?? "–"
    }
    let rows = RecordsSVGRenderer.ordered(o.exercises).map {
      [$0.exercise, best($0.topSetKg), best($0.e1rmKg), String($0.records.count)]
    }
    return table(
      caption: "\(o.chart): personal records", header: ["Exercise", "Top set", "e1RM", "Records"], rows: rows)
  }

  static func streak(_ o: StreakOutput) -> String {
    let zone = SVGFrame.zone(o.timeZone)
    let rows = o.periods.map { period -> [String] in
      [
        PeriodName.long(LocalDate(period.start, in: zone), o.granularity) + (period.partial ? " (so far)" : ""),
        period.value.map { MeasureDisplay.text($0, o.measure, o.units) } ?? "–",
        period.met ? "met" : (period.partial ? "not yet" : "missed"),
      ]
    }
    return table(
      caption:
        "\(o.chart): \(o.granularity.rawValue)s with at least \(MeasureDisplay.text(o.atLeast, o.measure, o.units)) "
        + MeasureDisplay.short(o.measure),
      header: [o.granularity.rawValue.capitalized, MeasureDisplay.short(o.measure), "Target"], rows: rows)
  }
}
