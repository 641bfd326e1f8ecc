import Testing
import TrendlineSupport

/// Removes the `1️⃣` marker from `text` and returns the bytes with the marker's line and byte
/// column, so an expected error position is written where it points, not counted by hand.
private func marked(_ text: String) -> (bytes: [UInt8], line: Int, column: Int) {
  let marker = Array("1️⃣".utf8)
  var bytes = Array(text.utf8)
  guard
    let start = (0...(bytes.count - marker.count)).first(where: {
      Array(bytes[$0..<($0 + marker.count)]) == marker
    })
  else { preconditionFailure("test input has no 1️⃣ marker: \(text)") }
  bytes.removeSubrange(start..<(start + marker.count))
  let before = bytes[..<start]
  let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
  let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
  return (bytes, line, start - lineStart + 1)
}

private func parse(_ text: String) throws -> JSONValue {
  try JSONReader().parse(Array(text.utf8))
}

@Suite struct JSONReaderValueTests {
  @Test func scalarsAtTopLevel() throws {
    #expect(try parse("42") == .number("42"))
    #expect(try parse(" true ") == .bool(true))
    #expect(try parse("null\n") == .null)
    #expect(try parse(#""x""#) == .string("x"))
  }

  @Test func containersKeepOrderAndDuplicates() throws {
    let value = try parse(#"{"b": [1, {}, []], "a": 1, "a": 2}"#)
    #expect(
      value
        == .object([
          (key: "b", value: .array([.number("1"), .object([]), .array([])])),
          (key: "a", value: .number("1")),
          (key: "a", value: .number("2")),
        ]))
    #expect(value["a"] == .number("2"))
    #expect(value["b"]?[0] == .number("1"))
    #expect(value["missing"] == nil)
    #expect(value.objectMembers?.map(\.key) == ["b", "a", "a"])
  }

  @Test func numbersKeepTheirSourceText() throws {
    let value = try parse("[1e400, -0, 123456789012345678901234567890, 1.50, 2E-3]")
    #expect(
      value.arrayValue == [
        .number("1e400"), .number("-0"), .number("123456789012345678901234567890"),
        .number("1.50"), .number("2E-3"),
      ])
  }

  @Test func numericAccessors() {
    #expect(JSONValue.number("1.5").doubleValue == 1.5)
    #expect(JSONValue.number("1e400").doubleValue == nil)
    #expect(JSONValue.number("-1e400").doubleValue == nil)
    #expect(JSONValue.number("1e-400").doubleValue == 0)
    #expect(JSONValue.number("-9223372036854775808").int64Value == Int64.min)
    #expect(JSONValue.number("9223372036854775808").int64Value == nil)
    #expect(JSONValue.number("5.0").int64Value == nil)
    #expect(JSONValue.number("5").doubleValue == 5)
    #expect(JSONValue.string("5").int64Value == nil)
    #expect(JSONValue.string("5").stringValue == "5")
    #expect(JSONValue.bool(false).boolValue == false)
    #expect(JSONValue.null.isNull)
  }

  @Test func escapesDecode() throws {
    #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
    #expect(try parse(#""\u00e9\u20AC""#) == .string("é€"))
    #expect(try parse(#""\uD834\uDD1E""#) == .string("𝄞"))
    #expect(try parse("\"é€𝄞\"") == .string("é€𝄞"))
  }

  @Test func utf8ByteOrderMarkIsSkipped() throws {
    #expect(try JSONReader().parse([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) == .object([]))
  }

  @Test func parsesFromABufferPointer() throws {
    let bytes = Array(#"[true]"#.utf8)
    let value = try bytes.withUnsafeBufferPointer { try JSONReader().parse($0) }
    #expect(value == .array([.bool(true)]))
  }

  @Test func nestingUpToTheLimitIsAccepted() throws {
    let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(throws: Never.self) { try parse(deepest) }
    let tooDeep = "[" + deepest + "]"
    #expect(throws: JSONSyntaxError(.nestingTooDeep(limit: 512), offset: 512, line: 1, column: 513)) {
      try parse(tooDeep)
    }
  }

  @Test func nestingLimitIsConfigurable() throws {
    let reader = JSONReader(maxDepth: 2)
    #expect(try reader.parse(Array(#"{"a":[1]}"#.utf8))["a"] == .array([.number("1")]))
    #expect(throws: JSONSyntaxError(.nestingTooDeep(limit: 2), offset: 6, line: 1, column: 7)) {
      try reader.parse(Array(#"{"a":[[1]]}"#.utf8))
    }
    #expect(try JSONReader(maxDepth: 0).parse(Array("7".utf8)) == .number("7"))
  }
}

@Suite struct JSONReaderErrorTests {
  /// (id, input with a 1️⃣ at the offending byte, exact message).
  static let cases: [(String, String, String)] = [
    ("empty input", "1️⃣", "unexpected end of input, expected a value"),
    ("only whitespace", " \n 1️⃣", "unexpected end of input, expected a value"),
    ("trailing comma in array", "[1,1️⃣]", "unexpected character ']', expected a value"),
    ("trailing comma in object", "{\"a\":1,1️⃣}", "unexpected character '}', expected a string key"),
    ("missing comma", "[1 1️⃣2]", "unexpected character '2', expected ',' or ']'"),
    ("missing colon", "{\"a\" 1️⃣1}", "unexpected character '1', expected ':'"),
    ("unquoted key", "{1️⃣a:1}", "unexpected character 'a', expected a string key"),
    ("wrong closer", "{\"a\":11️⃣]", "unexpected character ']', expected ',' or '}'"),
    ("unclosed array", "[1, 2 1️⃣", "unexpected end of input, expected ',' or ']'"),
    ("second value", "{} 1️⃣{}", "unexpected character '{', expected end of input"),
    ("comment", "[1] 1️⃣// note", "unexpected character '/', expected end of input"),
    ("single quotes", "[1️⃣'a']", "unexpected character ''', expected a value"),
    ("NaN", "[1️⃣NaN]", "unexpected character 'N', expected a value"),
    ("misspelled literal", "[tr1️⃣e]", "unexpected character 'e', expected 'true'"),
    ("truncated literal", "[nul1️⃣", "unexpected end of input, expected 'null'"),
    ("leading zero", "[01️⃣1]", "leading zero in number"),
    ("leading plus", "[1️⃣+1]", "unexpected character '+', expected a value"),
    ("bare minus", "[-1️⃣]", "unexpected character ']', expected a digit"),
    ("no fraction digits", "[1.1️⃣]", "unexpected character ']', expected a digit"),
    ("no exponent digits", "[1e+1️⃣]", "unexpected character ']', expected a digit"),
    ("hex number", "[01️⃣x1]", "unexpected character 'x', expected ',' or ']'"),
    ("unterminated string", "[1️⃣\"abc", "unterminated string"),
    ("unterminated after escape", "[1️⃣\"abc\\", "unterminated string"),
    ("raw newline in string", "[\"a1️⃣\nb\"]", "unescaped control character 0x0A in string"),
    ("raw tab in string", "[\"a1️⃣\tb\"]", "unescaped control character 0x09 in string"),
    ("bad escape", "[\"a1️⃣\\x\"]", "invalid escape '\\x' in string"),
    ("short unicode escape", "[\"1️⃣\\u12\"]", "invalid \\u escape, expected 4 hex digits"),
    ("lone high surrogate", "[\"1️⃣\\uD800x\"]", "lone surrogate '\\uD800' in string"),
    ("lone low surrogate", "[\"a1️⃣\\uDC00\"]", "lone surrogate '\\uDC00' in string"),
    ("reversed surrogates", "[\"1️⃣\\uDD1E\\uD834\"]", "lone surrogate '\\uDD1E' in string"),
    ("error on a later line", "{\n  \"a\": [\n    1,\n    1️⃣]\n}", "unexpected character ']', expected a value"),
    ("column counts bytes", "[\"é\", 1️⃣x]", "unexpected character 'x', expected a value"),
    ("BOM alone", "\u{FEFF}1️⃣", "unexpected end of input, expected a value"),
  ]

  @Test(arguments: cases)
  func message(id: String, input: String, expected: String) {
    let (bytes, line, column) = marked(input)
    do {
      _ = try JSONReader().parse(bytes)
      Issue.record("\(id): accepted, expected \(line):\(column): \(expected)")
    } catch {
      #expect(error.description == "\(line):\(column): \(expected)", "\(id)")
    }
  }

  @Test func invalidUTF8PointsAtTheSequence() {
    // Latin-1 é (0xE9) after "ab": column 4, after the quote and two letters.
    #expect(throws: JSONSyntaxError(.invalidUTF8(0xE9), offset: 3, line: 1, column: 4)) {
      try JSONReader().parse([0x22, 0x61, 0x62, 0xE9, 0x22])
    }
    // An encoded surrogate (ED A0 80) is not well-formed UTF-8.
    #expect(throws: JSONSyntaxError(.invalidUTF8(0xED), offset: 1, line: 1, column: 2)) {
      try JSONReader().parse([0x22, 0xED, 0xA0, 0x80, 0x22])
    }
  }

  @Test func otherEncodingsAreNamed() {
    #expect(throws: JSONSyntaxError(.notUTF8("UTF-16LE"), offset: 0, line: 1, column: 1)) {
      try JSONReader().parse([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00])
    }
    #expect(throws: JSONSyntaxError(.notUTF8("UTF-16BE"), offset: 0, line: 1, column: 1)) {
      try JSONReader().parse([0x00, 0x5B, 0x00, 0x5D])
    }
  }

  @Test func diagnosticNamesTheFile() {
    let error = JSONSyntaxError(.unterminatedString, offset: 4, line: 2, column: 3)
    #expect(error.diagnostic(file: "a.json").description == "a.json:2:3: error: unterminated string")
  }
}

@Suite struct JSONDocumentTests {
  static let text = """
    {
      "version": 1,
      "charts": {
        "training-volume": [
          {"stage": "bucket"},
          {"stage": "smoth", "window": [1, 2]}
        ]
      },
      "version": 2
    }
    """

  @Test func locationsOfValuesAndKeys() throws {
    let document = try JSONReader().parseDocument(Array(Self.text.utf8))
    let stage = JSONPath([.key("charts"), .key("training-volume"), .index(1), .key("stage")])
    #expect(document.value["charts"]?["training-volume"]?[1]?["stage"] == .string("smoth"))
    #expect(document.location(of: stage)! == (6, 17))
    #expect(document.keyLocation(of: stage)! == (6, 8))
    #expect(document.location(of: JSONPath())! == (1, 1))
    #expect(document.location(of: JSONPath([.key("charts"), .key("training-volume")]))! == (4, 24))
    let window = JSONPath([.key("charts"), .key("training-volume"), .index(1), .key("window"), .index(1)])
    #expect(document.location(of: window)! == (6, 40))
    #expect(
      document.sourceLocation(of: window, file: "p.json")
        == SourceLocation(file: "p.json", line: 6, column: 40))
  }

  @Test func duplicateKeyPathsFindTheLastMember() throws {
    let document = try JSONReader().parseDocument(Array(Self.text.utf8))
    #expect(document.location(of: JSONPath([.key("version")]))! == (9, 14))
    #expect(document.keyLocation(of: JSONPath([.key("version")]))! == (9, 3))
  }

  @Test func pathsThatLeadNowhere() throws {
    let document = try JSONReader().parseDocument(Array(Self.text.utf8))
    #expect(document.location(of: JSONPath([.key("nope")])) == nil)
    #expect(document.location(of: JSONPath([.index(0)])) == nil)
    #expect(document.location(of: JSONPath([.key("charts"), .key("training-volume"), .index(2)])) == nil)
  }

  @Test func pathDescription() {
    let path = JSONPath().appending("charts").appending("training-volume").appending(2)
    #expect(path.description == "charts.training-volume[2]")
    #expect(JSONPath().description == "(root)")
    #expect(JSONPath([.index(0), .key("a")]).description == "[0].a")
  }
}

/// `JSONValue` written through `OutputWriter`, as `trendline parse` prints it.
@Suite struct JSONValueWritingTests {
  @Test func compactIsDeterministicAndFaithful() throws {
    let value = try parse(#" { "n" : 1e400 , "a" : [ true , null , -0.50 ] , "n" : "x" } "#)
    #expect(String(decoding: value.serialized(), as: UTF8.self) == #"{"n":1e400,"a":[true,null,-0.50],"n":"x"}"#)
  }

  @Test(arguments: [
    ("\"", #""\"""#),
    ("\\", #""\\""#),
    ("/", #""/""#),
    ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
    ("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#),
    ("é€𝄞\u{7F}\u{2028}", "\"é€𝄞\u{7F}\u{2028}\""),
    ("", #""""#),
  ])
  func stringEscaping(input: String, expected: String) {
    #expect(String(decoding: JSONValue.string(input).serialized(), as: UTF8.self) == expected)
  }

  @Test func pretty() throws {
    let value = try parse(#"{"a":[1,{"b":null}],"c":{},"d":[]}"#)
    #expect(
      String(decoding: value.serialized(indented: true), as: UTF8.self) == """
        {
          "a": [
            1,
            {
              "b": null
            }
          ],
          "c": {},
          "d": []
        }
        """)
  }

  @Test func roundTripsThroughTheReader() throws {
    let text = #"{"s":"a\"\\\u0000\n\u00e9😀","k":[[],[{}],0,-1.5e-7,false]}"#
    let value = try parse(text)
    #expect(try JSONReader().parse(value.serialized()) == value)
    #expect(try JSONReader().parse(value.serialized(indented: true)) == value)
  }
}
