import Foundation
import Testing
import TrendlineSchema

@Suite struct OutputWriterTests {
  /// What `write` puts in a writer in `zone`, without the final newline `encode` adds.
  func written(zone: String = "UTC", _ write: (inout OutputWriter) throws -> Void) rethrows
    -> String
  {
    var writer = OutputWriter(timeZone: TimeZone(identifier: zone)!)
    try write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test(arguments: [
    (0.0, "0"),
    (-0.0, "0"),
    (3, "3"),
    (-3, "-3"),
    (4524, "4524"),
    (2.5, "2.5"),
    (-1.5, "-1.5"),
    (0.1, "0.1"),
    (1e-7, "1e-07"),
    (2.0 / 3.0, "0.6666666666666666"),
    (1234.5678, "1234.5678"),
    (1e300, "1e+300"),
    (5e-324, "5e-324"),
    (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    // 2⁵³ − 1 is the largest whole number written without a fraction; 2⁵³ and beyond are
    // written as Swift describes them.
    (9_007_199_254_740_991, "9007199254740991"),
    (-9_007_199_254_740_991, "-9007199254740991"),
    (9_007_199_254_740_992, "9007199254740992.0"),
    (-1e16, "-1e+16"),
  ])
  func number(value: Double, expected: String) throws {
    #expect(try written { try $0.number(value) } == expected)
  }

  @Test(arguments: [
    (0, "0"),
    (-7, "-7"),
    (1_000_000, "1000000"),
    (Int.max, "9223372036854775807"),
    (Int.min, "-9223372036854775808"),
  ])
  func integer(value: Int, expected: String) {
    #expect(written { $0.number(value) } == expected)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aNumberJSONCannotHoldIsRejected(value: Double) {
    #expect(throws: OutputWriter.NonFiniteNumber.self) {
      try written {
        $0.beginObject()
        try $0.member("v", value)
      }
    }
  }

  @Test(arguments: [
    ("plain", #""plain""#),
    ("", #""""#),
    // Quote, backslash, the three named escapes, other control characters as \u00xx.
    ("say \"hi\"", #""say \"hi\"""#),
    ("C:\\temp", #""C:\\temp""#),
    ("a\nb\rc\td", #""a\nb\rc\td""#),
    ("\u{00}\u{01}\u{1F}", #""\u0000\u0001\u001f""#),
    // Everything else as UTF-8: the slash, DEL, and non-ASCII text, line separator included.
    ("a/b\u{7F}", "\"a/b\u{7F}\""),
    ("Überzug 😀 \u{2028}", "\"Überzug 😀 \u{2028}\""),
  ])
  func string(text: String, expected: String) {
    #expect(written { $0.string(text) } == expected)
  }

  /// Strings are scanned for escapes eight bytes at a time, then byte by byte: a byte that
  /// needs one is found at every place of a 17-byte string, in the words and in the tail, and
  /// the bytes around it (0x1F's and 0x5C's neighbours, 0x80 and above) are copied as they are.
  @Test(arguments: [
    ("\"", #"\""#), ("\\", #"\\"#), ("\u{1F}", #"\u001f"#), ("\n", #"\n"#), ("\u{00}", #"\u0000"#),
    (" ", " "), ("!", "!"), ("[", "["), ("]", "]"), ("/", "/"), ("é", "é"), ("\u{7F}", "\u{7F}"),
  ])
  func escapesAreFoundAtEveryPlace(inserted: String, escaped: String) {
    for place in 0...16 {
      let before = String(repeating: "a", count: place)
      let after = String(repeating: "b", count: 16 - place)
      #expect(written { $0.string(before + inserted + after) } == "\"" + before + escaped + after + "\"")
    }
  }

  /// The writer spells the measure names itself, in byte order: they must be `Measure`'s raw
  /// values, every one of them, each written once.
  @Test func measureKeysAreInByteOrder() {
    let values = Dictionary(uniqueKeysWithValues: Measure.allCases.enumerated().map { ($1, $0) })
    let text = written { w in w.object(values) { $0.number($1) } }
    let names = Measure.allCases.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let expected =
      "{\n" + names.map { "  \"\($0)\": \(values[Measure(rawValue: $0)!]!)" }.joined(separator: ",\n") + "\n}"
    #expect(text == expected)
  }

  @Test func keysAreEscapedLikeStrings() {
    let text = written {
      $0.beginObject()
      $0.key(escaping: "a\"b")
      $0.number(1)
      $0.endObject()
    }
    #expect(text == "{\n  \"a\\\"b\": 1\n}")
  }

  @Test func nestingAndEmptyContainers() {
    let text = written { w in
      w.beginObject()
      w.key("a")
      w.beginArray()
      w.number(1)
      w.beginArray()
      w.endArray()
      w.beginObject()
      w.endObject()
      w.beginArray()
      w.null()
      w.bool(true)
      w.endArray()
      w.endArray()
      w.member("b", false)
      w.key("c")
      w.beginObject()
      w.member("d", "e")
      w.endObject()
      w.key("f")
      w.beginObject()
      w.endObject()
      w.endObject()
    }
    #expect(
      text == """
        {
          "a": [
            1,
            [],
            {},
            [
              null,
              true
            ]
          ],
          "b": false,
          "c": {
            "d": "e"
          },
          "f": {}
        }
        """)
    let emptyArray = written {
      $0.beginArray()
      $0.endArray()
    }
    #expect(emptyArray == "[]")
  }

  @Test func measureKeysAreSortedByTheirBytes() throws {
    // Whatever order the dictionary holds them in, which changes with the hash seed.
    let values: [Measure: Double] = [.volumeKg: 1, .sets: 2, .sessions: 3, .durationSeconds: 4]
    let text = try written { try $0.object(values) { try $0.number($1) } }
    #expect(
      text == """
        {
          "durationSeconds": 4,
          "sessions": 3,
          "sets": 2,
          "volumeKg": 1
        }
        """)
    #expect(try written { try $0.object([Measure: Double]()) { try $0.number($1) } } == "{}")
  }

  @Test(arguments: [
    // A fraction of a second is dropped, also before 1970: −0.5 s is 23:59:59 the day before.
    (1.9, "UTC", #""1970-01-01T00:00:01+00:00""#),
    (-0.5, "UTC", #""1969-12-31T23:59:59+00:00""#),
    // 2025-01-15T12:00:00Z = 1 736 942 400: 08:30 in St. John's (−03:30).
    (1_736_942_400, "America/St_Johns", #""2025-01-15T08:30:00-03:30""#),
    // The Oslo fall-back, 2025-10-26T01:00:00Z = 1 761 440 400: the second before it is
    // still summer time.
    (1_761_440_399, "Europe/Oslo", #""2025-10-26T02:59:59+02:00""#),
    (1_761_440_400, "Europe/Oslo", #""2025-10-26T02:00:00+01:00""#),
  ])
  func instant(seconds: Double, zone: String, expected: String) {
    #expect(written(zone: zone) { $0.instant(Date(timeIntervalSince1970: seconds)) } == expected)
  }

  @Test func encodeEndsWithANewline() throws {
    let extent = Extent(start: Date(epochSeconds: 0), end: Date(epochSeconds: 60))
    let data = try OutputWriter.encode(extent, timeZone: TimeZone(identifier: "UTC")!)
    #expect(
      String(decoding: data, as: UTF8.self) == """
        {
          "start": "1970-01-01T00:00:00+00:00",
          "end": "1970-01-01T00:01:00+00:00"
        }

        """)
  }
}

/// The layouts of the files whose bytes were fixed by Foundation's writers before
/// `OutputWriter` wrote them: the manifest, cohort partials, cache keys and `--log json` lines.
@Suite struct OutputWriterLayoutTests {
  struct Sample: OutputWritable {
    func write(to writer: inout OutputWriter) throws {
      writer.beginObject()
      writer.key("a")
      writer.array([Int]()) { $0.number($1) }
      writer.key("n")
      try writer.array([1.0, -0.0, 0.1, 9_007_199_254_740_992, 1e20]) { try $0.number($1) }
      writer.key("o")
      writer.object(sortingKeys: ["é": 1, "f": 2, "B": 3, "e\u{301}x": 4]) { $0.number($1) }
      writer.member("s", "a/b\u{8}\u{c}\u{1}")
      writer.endObject()
    }
  }

  @Test(arguments: [
    (
      "foundation", OutputWriter.Layout(spacing: .foundation),
      "{\n  \"a\" : [\n\n  ],\n  \"n\" : [\n    1,\n    -0,\n    0.1,\n    9007199254740992,\n    1e+20\n  ],\n"
        + "  \"o\" : {\n    \"B\" : 3,\n    \"e\u{301}x\" : 4,\n    \"f\" : 2,\n    \"é\" : 1\n  },\n"
        + "  \"s\" : \"a/b\\b\\f\\u0001\"\n}\n"
    ),
    (
      "compact, slashes escaped", OutputWriter.Layout(spacing: .compact, escapesSlashes: true),
      "{\"a\":[],\"n\":[1,-0,0.1,9007199254740992,1e+20],\"o\":{\"B\":3,\"e\u{301}x\":4,\"f\":2,\"é\":1},"
        + "\"s\":\"a\\/b\\b\\f\\u0001\"}\n"
    ),
    (
      "outputs", OutputWriter.Layout.outputs,
      "{\n  \"a\": [],\n  \"n\": [\n    1,\n    0,\n    0.1,\n    9007199254740992.0,\n    1e+20\n  ],\n"
        + "  \"o\": {\n    \"B\": 3,\n    \"e\u{301}x\": 4,\n    \"f\": 2,\n    \"é\": 1\n  },\n"
        + "  \"s\": \"a/b\\u0008\\u000c\\u0001\"\n}\n"
    ),
  ])
  func layout(id: String, layout: OutputWriter.Layout, expected: String) throws {
    let bytes = try OutputWriter.encode(Sample(), layout: layout)
    #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(id)")
  }
}

@Suite struct InlineLayoutTests {
  @Test func inlineIsOneLineWithASpaceAfterEachCommaAndColon() {
    var writer = OutputWriter(layout: OutputWriter.Layout(spacing: .inline))
    writer.beginObject()
    writer.member("format", "csv")
    writer.key("columns")
    writer.beginArray()
    writer.number(1)
    writer.number(2)
    writer.endArray()
    writer.key("empty")
    writer.beginObject()
    writer.endObject()
    writer.endObject()
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"format": "csv", "columns": [1, 2], "empty": {}}"#)
  }
}
