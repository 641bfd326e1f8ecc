import Testing
import TrendlineRender

@Test func inputStringsAreEscaped() {
  #expect(XMLEscape.escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
  #expect(XMLEscape.escape("a & \"b\" 'c'") == "a &amp; &quot;b&quot; &#39;c&#39;")
  #expect(XMLEscape.escape("bell\u{07}") == "bell\u{FFFD}")
  #expect(XMLEscape.escape("Søndagsøkt 💪") == "Søndagsøkt 💪")
}
