/// Writes a `JSONValue` as RFC 8259 JSON, byte for byte the same for the same value.
///
/// Numbers are written as their source text and members in their stored order, so a parsed
/// file re-serializes without rounding `1e400` to infinity or merging duplicate keys.
/// Strings escape only what RFC 8259 requires (`"`, `\`, and control characters), using the
/// short forms where they exist; everything else, including non-ASCII, is written as UTF-8.
///
/// The writer does not check that a `.number` holds valid number text: values built by the
/// reader always do, and code that builds values by hand is expected to write numbers with
/// Swift's own formatting (`String(describing: 1.5)`).
public struct JSONWriter: Sendable {
  public enum Style: Sendable {
    /// No whitespace at all: one line, smallest output.
    case compact
    /// Two-space indentation, one element or member per line, `"key": value`.
    case pretty
  }

  public var style: Style

  public init(style: Style = .compact) {
    self.style = style
  }

  /// The value serialized as UTF-8 bytes, without a trailing newline.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  public func bytes(_ value: JSONValue) -> [UInt8] {
    var output: [UInt8] = []
    write(value, into: &output)
    return output
  }

  /// The value serialized as a string, without a trailing newline.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  public func string(_ value: JSONValue) -> String {
    String(decoding: bytes(value), as: UTF8.self)
  }

  /// Appends the serialized value to `output`, for callers that batch many values into one
  /// buffer.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the output.
  public func write(_ value: JSONValue, into output: inout [UInt8]) {
    write(value, indent: 0, into: &output)
  }

  private func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
    switch value {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .number(let text): output.append(contentsOf: text.utf8)
    case .string(let text): Self.writeString(text, into: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output.append(contentsOf: "[]".utf8)
        return
      }
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        newline(indent + 1, into: &output)
        write(element, indent: indent + 1, into: &output)
      }
      newline(indent, into: &output)
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else {
        output.append(contentsOf: "{}".utf8)
        return
      }
      output.append(UInt8(ascii: "{"))
      for (position, member) in members.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        newline(indent + 1, into: &output)
        Self.writeString(member.key, into: &output)
        output.append(UInt8(ascii: ":"))
        if style == .pretty { output.append(UInt8(ascii: " ")) }
        write(member.value, indent: indent + 1, into: &output)
      }
      newline(indent, into: &output)
      output.append(UInt8(ascii: "}"))
    }
  }

  @inline(__always) private func newline(_ indent: Int, into output: inout [UInt8]) {
    guard style == .pretty else { return }
    output.append(UInt8(ascii: "\n"))
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
  }

  /// Writes `text` quoted, copying runs that need no escape in one step.
  ///
  /// - Complexity: O(*n*), where *n* is the number of UTF-8 bytes in `text`.
  public static func writeString(_ text: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    // Native strings are contiguous already; this only copies bridged or lazy ones.
    text.withUTF8 { bytes in
      var runStart = 0
      for index in bytes.indices {
        let byte = bytes[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        runStart = index + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
          let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
          output.append(contentsOf: "u00".utf8)
          output.append(hexDigits[Int(byte >> 4)])
          output.append(hexDigits[Int(byte & 0x0F)])
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    output.append(UInt8(ascii: "\""))
  }
}
