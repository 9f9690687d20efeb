/// The text of a GraphQL document together with a name used in error messages.
///
/// The lexer works on the UTF-8 bytes, so a `Source` stores them directly: a body that
/// arrives as bytes (an HTTP request, a file) is never transcoded, and invalid UTF-8 is
/// reported as a syntax error instead of being silently repaired the way `String` would.
public struct Source: Sendable {
    /// The UTF-8 encoded text of the document.
    public let bytes: [UInt8]
    /// A name for the document, such as a file name; `"GraphQL request"` by default.
    public let name: String

    /// Creates a source from text.
    public init(body: String, name: String = "GraphQL request") {
        self.bytes = Array(body.utf8)
        self.name = name
    }

    /// Creates a source from raw bytes, which are expected (and checked while lexing) to be UTF-8.
    public init(bytes: [UInt8], name: String = "GraphQL request") {
        self.bytes = bytes
        self.name = name
    }

    /// The text of the document; invalid UTF-8 sequences appear as U+FFFD.
    public var body: String { String(decoding: bytes, as: UTF8.self) }
}

/// A position in a source as people count it: both numbers start at 1.
///
/// `column` counts Unicode scalars from the start of the line (like graphql-core; graphql-js
/// counts UTF-16 code units, which differs only after astral characters on the same line).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, starting at 1.
    public let line: Int
    /// The column, starting at 1, in Unicode scalars.
    public let column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
