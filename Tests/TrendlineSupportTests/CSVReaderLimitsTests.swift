import Testing

@testable import TrendlineSupport

/// Line endings the reader must not misread, and the bounds on what one record may cost.
@Suite struct CSVReaderLimitsTests {
  static func records(_ text: String, maximumFields: Int = .max) -> [String] {
    let reader = CSVReader(bytes: Array(text.utf8), maximumFields: maximumFields)
    var out: [String] = []
    while true {
      switch reader.next() {
      case .end: return out
      case .blankLine(let line): out.append("\(line): blank")
      case .malformed(let bad): out.append("\(bad.line):\(bad.column): \(bad.message)")
      case .record(let line):
        out.append("\(line):" + (0..<reader.fieldCount).map { "[\(reader.string($0))]" }.joined())
      }
    }
  }

  @Test(arguments: [
    ("lf", "a,b\n1,2\n", ["1:[a][b]", "2:[1][2]"]),
    ("crlf", "a,b\r\n1,2\r\n", ["1:[a][b]", "2:[1][2]"]),
    ("cr only", "a,b\r1,2\r", ["1:[a][b]", "2:[1][2]"]),
    ("cr only, quoted last field", "a,\"b\"\r1,\"2\"\r", ["1:[a][b]", "2:[1][2]"]),
    ("cr only, blank line", "a,b\r\r1,2", ["1:[a][b]", "2: blank", "3:[1][2]"]),
    ("cr inside quotes is kept and counted", "a,\"x\ry\"\r1,2\r", ["1:[a][x\ry]", "3:[1][2]"]),
    (
      "recovery after a bad quote stops at a cr", "a,b\r1,x\"y\r2,3\r",
      ["1:[a][b]", "2:4: quote inside an unquoted field; quote the whole field and double the quote", "3:[2][3]"]
    ),
    (
      "recovery keeps crlf whole", "a,b\r\n1,x\"y\r\n2,3\r\n",
      ["1:[a][b]", "2:4: quote inside an unquoted field; quote the whole field and double the quote", "3:[2][3]"]
    ),
  ])
  func lineEndings(id: String, text: String, expected: [String]) {
    #expect(Self.records(text) == expected, "\(id)")
  }

  @Test func recordOverTheFieldLimitIsMalformedAndReadingGoesOn() {
    #expect(
      Self.records("a,b,c\n1,2,3,4,5\n6,7,8\n", maximumFields: 3)
        == ["1:[a][b][c]", "2:7: a record has more than 3 fields", "3:[6][7][8]"])
    #expect(
      Self.records("a,b,c\n1,2,\"3\",\"4\"\n", maximumFields: 3) == [
        "1:[a][b][c]", "2:9: a record has more than 3 fields",
      ])
  }

  /// A quote that never closes is abandoned at the field limit, not scanned to the end.
  @Test func unclosedQuoteStopsAtTheFieldLimit() {
    let reader = CSVReader(
      bytes: Array(("a\n\"" + String(repeating: "x", count: 100) + "\n1\n").utf8), maximumFieldBytes: 8)
    _ = reader.next()
    #expect(
      reader.next()
        == .malformed(.init(recordLine: 2, line: 2, column: 1, message: "field is longer than the limit of 8 bytes")))
    #expect(reader.next() == .record(line: 3))
  }
}
