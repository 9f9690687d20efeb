@testable import HearthAPI
import Support
import Testing

/// Values placed in pages cannot become markup.
@Suite struct HTMLTests {
    @Test func interpolatedTextIsEscapedAndLiteralMarkupIsKept() {
        let name = "<script>alert(\"x\")</script> & 'friends'"
        let fragment: HTML = "<p title=\"\(name)\">\(name)</p>"
        #expect(fragment.description == """
            <p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;">\
            &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;</p>
            """)
    }

    @Test func fragmentsAreInsertedAsMarkupWithoutEscapingTwice() {
        let inner: HTML = "<b>\("a&b")</b>"
        let outer: HTML = "<p>\(inner)\([inner, inner])</p>"
        #expect(outer.description == "<p><b>a&amp;b</b><b>a&amp;b</b><b>a&amp;b</b></p>")
    }

    /// Escaping by grapheme cluster would miss a quote followed by a combining mark, which
    /// forms one `Character` that is not `"`: the attribute would end there.
    @Test func aQuoteCarryingACombiningMarkIsStillEscaped() {
        let sneaky = "\"\u{301} onmouseover=alert(1) x=\"\u{301}"
        let escaped = HTMLEscaping.escape(sneaky)
        #expect(!escaped.unicodeScalars.contains("\""))
        #expect(escaped == "&quot;\u{301} onmouseover=alert(1) x=&quot;\u{301}")
    }

    @Test func textWithoutSpecialCharactersIsUnchanged() {
        #expect(HTMLEscaping.escape("Ana’s home 🏠") == "Ana’s home 🏠")
    }
}
