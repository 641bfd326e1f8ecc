import Foundation

/// The one way Trendline writes an output: the same value gives the same bytes on every run.
///
/// Keys are sorted (`.sortedKeys`) because Foundation's `JSONEncoder` on Linux writes keyed
/// containers in hash order, which changes from process to process; sorting is the only stable
/// order it offers, so `schema` is not the first key in the file even though it is the first
/// property of every output type. Instants go through ``RFC3339`` in the user's zone. The output
/// ends with a newline so that files concatenate and diff cleanly.
///
/// An app does not need this type to read an output: `JSONDecoder` with `.iso8601` decodes
/// every file written here (see ``OutputEncoder/makeDecoder()``).
public enum OutputEncoder {
  /// Encodes `value` as pretty-printed JSON with sorted keys, instants in `timeZone`'s offset.
  ///
  /// Throws `EncodingError.invalidValue` for a NaN or infinite number, which JSON cannot
  /// hold: a stage that produced one has a bug, and a file with `null` in its place would hide it.
  ///
  /// - Complexity: O(*n* log *k*), where *n* is the size of the output and *k* the largest
  ///   number of keys in one object.
  public static func encode<T: Encodable>(_ value: T, timeZone: TimeZone) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(RFC3339.format(seconds: date.epochSeconds, timeZone: timeZone))
    }
    var data = try encoder.encode(value)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// A decoder for outputs: `JSONDecoder` with `.iso8601` dates, exactly what an app would set up.
  ///
  /// - Complexity: O(1).
  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
