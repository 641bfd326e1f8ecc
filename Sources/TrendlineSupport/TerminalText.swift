/// Text from the input made safe to print on a terminal.
///
/// A file name, a `users.csv` value or a rejected cell can hold bytes a terminal acts on: ESC
/// and C1 CSI (U+009B) start sequences that move the cursor, retitle the window or, with OSC
/// 52, write the clipboard; BEL rings; a newline forges a line such as `error: user 'zed'
/// failed`. Each such character is written as `\u{…}`, which a terminal only prints.
public enum TerminalText {
  /// Whether a terminal could act on `scalar`: C0 controls (tab and newline included), DEL,
  /// C1 controls, the line and paragraph separators, the bidirectional marks, embeddings and
  /// isolates, which can make a name read backwards, and the invisible word joiner and
  /// operators (U+2060–2064).
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x2069:
      return true
    default: return false
    }
  }

  /// `text` with every unsafe character written as `\u{…}`.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isUnsafe(scalar) {
        out.append(contentsOf: ("\\u{" + String(scalar.value, radix: 16) + "}").unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// A name read as raw bytes (a directory entry need not be UTF-8), escaped: unsafe
  /// characters as `\u{…}` and each byte that is not UTF-8 as `\x{ff}`.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func escaped(bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return escaped(text) }
    var out = ""
    var start = 0
    while start < bytes.count {
      // The longest valid run from `start`, then one invalid byte.
      var end = bytes.count
      while end > start, String(validating: bytes[start..<end], as: UTF8.self) == nil { end -= 1 }
      if end > start {
        out += escaped(String(decoding: bytes[start..<end], as: UTF8.self))
        start = end
      } else {
        out += "\\x{" + String(bytes[start], radix: 16) + "}"
        start += 1
      }
    }
    return out
  }

  /// JSON text with every unsafe character inside its strings written as `\uXXXX`, which
  /// means the same character to a JSON reader and only prints on a terminal. JSON escapes C0
  /// itself, but not DEL, C1 or the bidirectional marks; those can stand only inside strings.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes; no copy when nothing is unsafe.
  public static func escapedJSON(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var copied = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      // Only DEL and scalars of two or three bytes led by 0xC2, 0xD8 or 0xE2 can be unsafe.
      guard byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 else {
        index += 1
        continue
      }
      let length = byte == 0x7F ? 1 : byte == 0xE2 ? 3 : 2
      guard index + length <= bytes.count,
        let scalar = String(validating: bytes[index..<index + length], as: UTF8.self)?.unicodeScalars.first,
        isUnsafe(scalar)
      else {
        index += 1
        continue
      }
      if out.isEmpty { out.reserveCapacity(bytes.count + 16) }
      out += bytes[copied..<index]
      let hex = String(scalar.value, radix: 16)
      out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
      index += length
      copied = index
    }
    if copied == 0 { return bytes }
    return out + bytes[copied...]
  }
}
