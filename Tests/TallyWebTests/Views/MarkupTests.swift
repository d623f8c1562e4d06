import Testing

@testable import TallyWeb

/// The builder the Swift-drawn markup goes through (issue 60): text is escaped however it is
/// put in, markup is kept as it is, and the two never mix up.
@Suite struct MarkupTests {
  @Test func textIsEscapedInElementsAndAttributesAndMarkupIsKept() {
    let name = #""><img src=x onerror=f()> & 'Tom' <3"#
    let icon: Markup = #"<span aria-hidden="true">\#("★")</span>"#
    let card: Markup = #"<h3 title="\#(name)">\#(icon)\#(name)</h3>"#
    let escaped = "&quot;&gt;&lt;img src=x onerror=f()&gt; &amp; &#39;Tom&#39; &lt;3"
    #expect(card.html == #"<h3 title="\#(escaped)"><span aria-hidden="true">★</span>\#(escaped)</h3>"#)
    // Markup put into markup is not escaped twice.
    let wrapped: Markup = "<li>\(card)</li>"
    #expect(wrapped.html == "<li>" + card.html + "</li>")
  }

  @Test func numbersFlagsAndJoinsAreWrittenAsThemselves() {
    let row: Markup = #"<g tabindex="\#(-1)" aria-selected="\#(true)">"#
    #expect(row.html == #"<g tabindex="-1" aria-selected="true">"#)
    let parts: [Markup] = ["<i></i>", "<b>\("<")</b>"]
    #expect(parts.joined(separator: "\("&")").html == "<i></i>&amp;<b>&lt;</b>")
    #expect(Markup.repeating("<i></i>", count: 3).html == "<i></i><i></i><i></i>")
    #expect(Markup.empty.isEmpty && !row.isEmpty)
  }

  /// A template's output cut where a placeholder stood takes a text, escaped, in its place.
  @Test func aSplitTemplateTakesTextEscaped() {
    let pieces: Markup = #"<path stroke="COLOR"/><circle fill="COLOR"/>"#
    let joined = pieces.split(at: "COLOR").joined(separator: "\(#"red" onload="f()"#)")
    #expect(joined.html == #"<path stroke="red&quot; onload=&quot;f()"/><circle fill="red&quot; onload=&quot;f()"/>"#)
  }
}
