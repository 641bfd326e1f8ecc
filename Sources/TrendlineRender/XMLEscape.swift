/// Escapes text for XML and HTML content and attribute values.
///
/// Every string that comes from input (user ids, workout and exercise names, file names) goes
/// through here before it reaches an SVG or HTML file, so `<script>` in a workout name is
/// shown as text, never run.
public enum XMLEscape {
  /// `&`, `<`, `>`, `"` and `'` as entities; control characters other than tab and newline,
  /// which XML 1.0 cannot hold, as U+FFFD.
  ///
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n": out.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value) {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
