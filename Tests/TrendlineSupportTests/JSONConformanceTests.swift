import Foundation
import Testing
import TrendlineSupport
import _TrendlineTestSupport

/// JSONTestSuite (`../shared/conformance/json/`, see its README): `y_` files must parse, `n_`
/// files must be rejected with a position, and `i_` files must keep the outcome pinned below
/// and documented in `Guides/JSONReader.md`.
@Suite(TestPaths.needsShared("conformance/json")) struct JSONConformanceTests {
  static let folder = TestPaths.shared.appendingPathComponent("conformance/json")

  /// The suite's files with `prefix`, sorted; empty when the folder is missing, which
  /// `suiteIsPresent` reports (argument lists cannot fail on their own).
  static func files(_ prefix: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
  }

  static func read(_ name: String) throws(JSONSyntaxError) -> JSONValue {
    // Every name comes from listing the folder, so the file is there.
    try JSONReader().parse((try? TestPaths.bytes(folder.appendingPathComponent(name))) ?? [])
  }

  /// The project's choice for every implementation-defined file: `nil` accepts, a string is
  /// the exact `line:column: message` of the rejection. Same table as the guide.
  static let implementationDefined: [String: String?] = [
    // Numbers keep their source text, so no number is too large or too small to read.
    "i_number_double_huge_neg_exp.json": nil,
    "i_number_huge_exp.json": nil,
    "i_number_neg_int_huge_exp.json": nil,
    "i_number_pos_double_huge_exp.json": nil,
    "i_number_real_neg_overflow.json": nil,
    "i_number_real_pos_overflow.json": nil,
    "i_number_real_underflow.json": nil,
    "i_number_too_big_neg_int.json": nil,
    "i_number_too_big_pos_int.json": nil,
    "i_number_very_big_negative_int.json": nil,
    // Lone surrogate escapes cannot be held by a String; replacing them would change data.
    "i_object_key_lone_2nd_surrogate.json": "1:3: lone surrogate '\\uDFAA' in string",
    "i_string_1st_surrogate_but_2nd_missing.json": "1:3: lone surrogate '\\uDADA' in string",
    "i_string_1st_valid_surrogate_2nd_invalid.json": "1:3: lone surrogate '\\uD888' in string",
    "i_string_incomplete_surrogate_and_escape_valid.json": "1:3: lone surrogate '\\uD800' in string",
    "i_string_incomplete_surrogate_pair.json": "1:3: lone surrogate '\\uDD1E' in string",
    "i_string_incomplete_surrogates_escape_valid.json": "1:3: lone surrogate '\\uD800' in string",
    "i_string_invalid_lonely_surrogate.json": "1:3: lone surrogate '\\uD800' in string",
    "i_string_invalid_surrogate.json": "1:3: lone surrogate '\\uD800' in string",
    "i_string_inverted_surrogates_U+1D11E.json": "1:3: lone surrogate '\\uDD1E' in string",
    "i_string_lone_second_surrogate.json": "1:3: lone surrogate '\\uDFAA' in string",
    // Only well-formed UTF-8 is read (RFC 8259 §8.1).
    "i_string_UTF-8_invalid_sequence.json": "1:8: invalid UTF-8 byte 0xFA in string",
    "i_string_UTF8_surrogate_U+D800.json": "1:3: invalid UTF-8 byte 0xED in string",
    "i_string_invalid_utf-8.json": "1:3: invalid UTF-8 byte 0xFF in string",
    "i_string_iso_latin_1.json": "1:3: invalid UTF-8 byte 0xE9 in string",
    "i_string_lone_utf8_continuation_byte.json": "1:3: invalid UTF-8 byte 0x81 in string",
    "i_string_not_in_unicode_range.json": "1:3: invalid UTF-8 byte 0xF4 in string",
    "i_string_overlong_sequence_2_bytes.json": "1:3: invalid UTF-8 byte 0xC0 in string",
    "i_string_overlong_sequence_6_bytes.json": "1:3: invalid UTF-8 byte 0xFC in string",
    "i_string_overlong_sequence_6_bytes_null.json": "1:3: invalid UTF-8 byte 0xFC in string",
    "i_string_truncated-utf-8.json": "1:3: invalid UTF-8 byte 0xE0 in string",
    "i_string_UTF-16LE_with_BOM.json": "1:1: input is UTF-16LE, expected UTF-8",
    "i_string_utf16BE_no_BOM.json": "1:1: input is UTF-16BE, expected UTF-8",
    "i_string_utf16LE_no_BOM.json": "1:1: input is UTF-16LE, expected UTF-8",
    // Within the default depth of 512.
    "i_structure_500_nested_arrays.json": nil,
    // RFC 8259 §8.1 allows ignoring a UTF-8 byte order mark; Windows tools write one.
    "i_structure_UTF-8_BOM_empty_object.json": nil,
  ]

  @Test func suiteIsPresent() throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.folder.path),
      """
      JSONTestSuite not found at \(Self.folder.path): check out the shared folder beside the package \
      (../shared/conformance/json)
      """
    )
    #expect(Self.files("y_").count == 95)
    #expect(Self.files("n_").count == 188)
    #expect(Self.files("i_").count == 35)
    #expect(Set(Self.files("i_")) == Set(Self.implementationDefined.keys), "every i_ file has a pinned outcome")
  }

  @Test(arguments: files("y_"))
  func accepted(name: String) throws {
    let value = try Self.read(name)
    // What `trendline parse` prints must read back as the same value.
    #expect(try JSONReader().parse(value.serialized()) == value)
  }

  @Test(arguments: files("n_"))
  func rejected(name: String) {
    do throws(JSONSyntaxError) {
      let value = try Self.read(name)
      Issue.record("\(name) was accepted as \(String(decoding: value.serialized(), as: UTF8.self))")
    } catch {
      #expect(error.line >= 1 && error.column >= 1, "\(name): \(error)")
      #expect(!error.message.isEmpty)
    }
  }

  @Test(arguments: files("i_"))
  func implementationDefined(name: String) throws {
    let expected = try #require(Self.implementationDefined[name], "\(name) has no pinned outcome")
    let outcome: String?
    do throws(JSONSyntaxError) {
      _ = try Self.read(name)
      outcome = nil
    } catch {
      outcome = error.description
    }
    #expect(outcome == expected, "\(name)")
  }

  @Test func deepNestingIsRejectedAtTheLimit() throws {
    let arrays = #expect(throws: JSONSyntaxError.self) {
      try Self.read("n_structure_100000_opening_arrays.json")
    }
    #expect(arrays?.description == "1:513: nesting deeper than 512 levels")
    let objects = #expect(throws: JSONSyntaxError.self) {
      try Self.read("n_structure_open_array_object.json")
    }
    #expect(objects?.kind == .nestingTooDeep(limit: 512))
  }
}
