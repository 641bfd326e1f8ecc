/// Text from the input made safe to print on a terminal.
///
/// A file name, a `users.csv` value or a rejected cell can hold bytes a terminal acts on: ESC
/// and C1 CSI (U+009B) start sequences that move the cursor, retitle the window or, with OSC
/// 52, write the clipboard; BEL rings; a newline forges a line such as `error: user 'zed'
/// failed`. Each such character is written as `\u{…}`, which a terminal only prints.
public enum TerminalText {
  /// Whether a terminal could act on `scalar`: C0 controls (tab and newline included), DEL,
  /// C1 controls, the line and paragraph separators and the bidirectional embeddings and
  /// isolates, which can make a name read backwards.
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
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
}
