import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

@Test func rowCountsSumEveryCounter() {
  var counts = RowCounts(read: 10, accepted: 6, rejected: 1, duplicate: 2, ignored: 1, repaired: 1, valueDropped: 1)
  counts += RowCounts(read: 5, accepted: 4, rejected: 0, duplicate: 0, ignored: 1, repaired: 2, valueDropped: 3)
  #expect(
    counts == RowCounts(read: 15, accepted: 10, rejected: 1, duplicate: 2, ignored: 2, repaired: 3, valueDropped: 4))
  #expect(counts.balances)
}

/// Repaired rows and rows with a value dropped are accepted rows counted again, so they are not
/// in the identity.
@Test func rowCountsBalanceWithoutRepairedOrDropped() {
  #expect(RowCounts(read: 4, accepted: 2, rejected: 1, duplicate: 0, ignored: 1, repaired: 2, valueDropped: 2).balances)
  #expect(!RowCounts(read: 4, accepted: 2, rejected: 1).balances)
}

/// The session cache writes `values` and reads them back with `init(reading:)`: the two orders
/// must be the same one.
@Test func rowCountsReadBackInTheOrderOfValues() {
  let counts = RowCounts(read: 1, accepted: 2, rejected: 3, duplicate: 4, ignored: 5, repaired: 6, valueDropped: 7)
  #expect(counts.values == [1, 2, 3, 4, 5, 6, 7])
  var next = counts.values.makeIterator()
  #expect(RowCounts { next.next()! } == counts)
}

@Test func rowCountsAreWithinARangeOnlyWhenEveryCounterIs() {
  #expect(RowCounts(read: 3, accepted: 3).isWithin(0...3))
  #expect(!RowCounts(read: 3, accepted: 3, valueDropped: 4).isWithin(0...3))
  #expect(!RowCounts(repaired: -1).isWithin(0...3))
}

/// The counters are members of their holder's object under the manifest's names, not an object
/// of their own.
@Test func rowCountsWriteTheManifestsFlatMembers() throws {
  var writer = OutputWriter(timeZone: TimeZone(secondsFromGMT: 0)!)
  writer.beginObject()
  RowCounts(read: 1, accepted: 2, rejected: 3, duplicate: 4, ignored: 5, repaired: 6, valueDropped: 7)
    .writeMembers(to: &writer)
  writer.endObject()
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == """
      {
        "rowsAccepted": 2,
        "rowsDuplicate": 4,
        "rowsIgnored": 5,
        "rowsRead": 1,
        "rowsRejected": 3,
        "rowsRepaired": 6,
        "rowsValueDropped": 7
      }
      """)
}

/// `FileAccounting` keeps the flat `Codable` form it had before its counters became one value.
@Test func fileAccountingCodesItsCountersFlat() throws {
  let json = #"""
    {"file": "a.csv", "format": "strong-csv", "ignoredByReason": {"blank line": 1}, "rowsAccepted": 2,
     "rowsDuplicate": 0, "rowsIgnored": 1, "rowsRead": 4, "rowsRejected": 1, "rowsRepaired": 1, "rowsValueDropped": 0}
    """#
  let accounting = try JSONDecoder().decode(FileAccounting.self, from: Data(json.utf8))
  #expect(
    accounting
      == FileAccounting(
        file: "a.csv", format: "strong-csv",
        rows: RowCounts(read: 4, accepted: 2, rejected: 1, ignored: 1, repaired: 1),
        ignoredByReason: ["blank line": 1]))
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  #expect(
    String(decoding: try encoder.encode(accounting), as: UTF8.self)
      == #"{"file":"a.csv","format":"strong-csv","ignoredByReason":{"blank line":1},"rowsAccepted":2,"#
      + #""rowsDuplicate":0,"rowsIgnored":1,"rowsRead":4,"rowsRejected":1,"rowsRepaired":1,"rowsValueDropped":0}"#
  )
}
