import Foundation
import Testing
import TrendlineSchema

/// Every chart kind as a unit: listed once, decoded by its schema, round-tripped, and its
/// table's rows in its header's columns.
@Suite struct ChartKindTests {
  /// Every kind's own example, then the fixtures' harder outputs (awkward text, a DST change,
  /// extreme numbers, empty periods) of the kinds that have them.
  static let outputs: [ChartOutput] =
    ChartKinds.all.map { example(of: $0) } + [
      ChartOutput(OutputFixtures.series), ChartOutput(OutputFixtures.radar), ChartOutput(OutputFixtures.heatmap),
      ChartOutput(OutputFixtures.sparklines), ChartOutput(OutputFixtures.records), ChartOutput(OutputFixtures.streak),
    ]

  static func example(of kind: any ChartKind.Type) -> ChartOutput {
    func wrapped<Kind: ChartKind>(_: Kind.Type) -> ChartOutput { ChartOutput(Kind.example) }
    return wrapped(kind)
  }

  @Test func everyKindHasOneSchemaAndNameAndItsOwnExample() {
    let kinds = ChartKinds.all.map { $0.schemaID }
    #expect(ChartKinds.all.map { type(of: Self.example(of: $0).content).schemaID } == kinds)
    #expect(ChartKinds.all.map { Self.example(of: $0).content.schema } == kinds)
    #expect(Set(kinds).count == kinds.count)
    #expect(Set(ChartKinds.all.map { $0.kindName }).count == kinds.count)
    #expect(ChartOutput.schemaIDs == kinds)
  }

  /// A kind's cohort role names a cohort schema `CohortChart` decodes, each kind its own: the
  /// series and the radar, which `validate` lets a pipeline compare, and no other.
  @Test func aComparedKindNamesTheCohortSchemaItReducesTo() {
    let roles = ChartKinds.all.compactMap { kind in kind.cohortSchemaID.map { (kind.kindName, $0) } }
    #expect(roles.map(\.0) == ["series", "radar"])
    #expect(roles.map(\.1) == CohortChart.schemaIDs)
  }

  /// Written by the run's writer and read back by `ChartOutput`, each output is what it was, in
  /// a zone with a DST change and in UTC.
  @Test(arguments: ["Europe/Oslo", "UTC"])
  func everyKindRoundTripsThroughChartOutput(zone: String) throws {
    let decoder = OutputWriter.makeDecoder()
    for output in Self.outputs {
      let data = try output.encoded(timeZone: TimeZone(identifier: zone)!)
      #expect(try decoder.decode(ChartOutput.self, from: data) == output, "\(output.name)")
    }
  }

  /// Stating units keeps the kind and the numbers, and only the units change for a kind whose
  /// words hold no value.
  @Test func statingUnitsKeepsTheKind() {
    let pounds = Units(weight: .lb, distance: .mi)
    for output in Self.outputs {
      let stated = output.with(units: pounds)
      #expect(type(of: stated.content) == type(of: output.content))
      #expect(stated.units == pounds)
      #expect(stated.with(units: output.units).units == output.units)
    }
    #expect(ChartOutput(OutputFixtures.radar).with(units: pounds) != ChartOutput(OutputFixtures.radar))
  }

  /// Every row of a kind's table has as many fields as its header names: a kind whose rows and
  /// columns disagree (a header looked up by a wrong name) fails here.
  @Test func everyTableRowHasItsHeadersColumns() {
    for output in Self.outputs {
      let series = output.content as? SeriesOutput
      for trend in [false, true] {
        let columns = type(of: output.content).tableColumns(measures: series?.measures ?? [], trend: trend)
        let rows = Self.fieldCounts(output.tableRows(trend: trend))
        #expect(!rows.isEmpty, "\(output.name)")
        #expect(rows.allSatisfy { $0 == columns.count }, "\(output.name): \(rows) fields, \(columns.count) columns")
        #expect(columns.first == "user", "\(output.name)")
      }
    }
  }

  /// A radar's rows, worked out by hand: a row per period and axis, instants in UTC (the
  /// fixture's periods start at 18:45Z), the scale in its shortest form; a period whose counts a
  /// decoded file left out has empty cells, never 0 and never a trap.
  @Test func aRadarTableAsWritten() {
    let rows = String(decoding: ChartOutput(OutputFixtures.radar).tableRows(trend: false), as: UTF8.self)
    #expect(
      rows == """
        ada,2025-10-01,2025-09-30T18:45:00+00:00,2025-10-31T18:45:00+00:00,false,7,back,4,0.6666666666666666
        ada,2025-10-01,2025-09-30T18:45:00+00:00,2025-10-31T18:45:00+00:00,false,7,legs,0,0
        ada,2025-11-01,2025-10-31T18:45:00+00:00,2025-11-30T18:45:00+00:00,true,0,back,,
        ada,2025-11-01,2025-10-31T18:45:00+00:00,2025-11-30T18:45:00+00:00,true,0,legs,,

        """)
  }

  /// The number of fields of each CSV record of `bytes`: commas and line ends inside quotes are
  /// a field's text.
  static func fieldCounts(_ bytes: [UInt8]) -> [Int] {
    var counts: [Int] = []
    var quoted = false
    var fields = 1
    for byte in bytes {
      if byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if !quoted, byte == UInt8(ascii: ",") {
        fields += 1
      } else if !quoted, byte == 0x0A {
        counts.append(fields)
        fields = 1
      }
    }
    return counts
  }
}
