import Foundation
import TrendlineSchema

/// Colours chosen for red-green colour blindness (Okabe–Ito blue and vermillion) and for
/// grayscale printing, where the trend keeps its dash.
enum Palette {
  static let bar = "#0072B2"
  static let barLight = "#9CC3E4"
  static let trend = "#D55E00"
  static let ink = "#1F2328"
  static let muted = "#57606A"
  static let grid = "#D8DEE4"
  static let band = "#F3F5F7"
  static let older = "#8C959F"
}

/// A small string builder for SVG: attributes are escaped, numbers formatted, in the order
/// given, so output bytes depend only on the input.
struct SVGBuilder {
  private(set) var text = ""

  mutating func raw(_ s: String) { text += s }

  mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
    text += "<" + name + Self.attributes(attributes) + ">"
  }

  mutating func close(_ name: String) { text += "</" + name + ">" }

  mutating func element(_ name: String, _ attributes: [(String, String)], content: String? = nil) {
    if let content {
      text += "<" + name + Self.attributes(attributes) + ">" + XMLEscape.escape(content) + "</" + name + ">"
    } else {
      text += "<" + name + Self.attributes(attributes) + "/>"
    }
  }

  mutating func newline() { text += "\n" }

  static func attributes(_ list: [(String, String)]) -> String {
    var out = ""
    for (key, value) in list { out += " " + key + "=\"" + XMLEscape.escape(value) + "\"" }
    return out
  }
}

/// `n` formatted for an attribute.
func f(_ x: Double) -> String { ShownNumber.format(x) }

/// An id-safe prefix from a chart name, so several SVGs inlined in one HTML page never share an
/// id (a hatch pattern of one chart must not fill another's bars).
func idSafe(_ text: String) -> String {
  String(text.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" })
}
