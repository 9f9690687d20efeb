import Support

/// A fragment of HTML in which only markup written in this module's source is markup: every
/// `String` interpolated into an `HTML` literal is escaped (``HTMLEscaping``), every `HTML`
/// value is inserted as it is. A household named `<script>` therefore renders as text, and no
/// page can forget to escape a value, since the unescaped path needs a value of this type.
///
/// ```swift
/// let name = "<b>Ana</b>"
/// let fragment: HTML = "<p>Hello \(name)</p>"   // <p>Hello &lt;b&gt;Ana&lt;/b&gt;</p>
/// ```
///
/// Interpolated strings may sit in element content or inside a double-quoted attribute value,
/// never in an unquoted attribute, a URL's scheme, a `<script>` or a `<style>`.
struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup.
    let description: String

    /// A literal written in the source: trusted markup.
    init(stringLiteral literal: String) {
        description = literal
    }

    /// A literal with interpolations, each escaped or inserted per ``Interpolation``.
    init(stringInterpolation interpolation: Interpolation) {
        description = interpolation.markup
    }

    /// Nothing.
    static let empty: HTML = ""

    /// Builds an ``HTML`` literal: literal segments as written, values by type.
    struct Interpolation: StringInterpolationProtocol {
        fileprivate var markup = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text: escaped.
        mutating func appendInterpolation(_ text: String) {
            markup += HTMLEscaping.escape(text)
        }

        /// Markup: inserted as it is.
        mutating func appendInterpolation(_ fragment: HTML) {
            markup += fragment.description
        }

        /// Markup fragments, one after the other.
        mutating func appendInterpolation(_ fragments: [HTML]) {
            for fragment in fragments { markup += fragment.description }
        }
    }
}
