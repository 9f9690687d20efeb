/// The kinds of lexical tokens (spec 2.1.6, "Lexical Tokens").
///
/// `description` is how graphql-js names the kind in error messages: punctuators are
/// quoted (`"{"`), the others named (`Name`, `<EOF>`).
public enum TokenKind: Sendable, Hashable, CustomStringConvertible {
    /// The end of the document.
    case endOfFile
    /// `!`
    case bang
    /// `$`
    case dollar
    /// `&`
    case ampersand
    /// `(`
    case parenLeft
    /// `)`
    case parenRight
    /// `...`
    case spread
    /// `:`
    case colon
    /// `=`
    case equals
    /// `@`
    case at
    /// `[`
    case bracketLeft
    /// `]`
    case bracketRight
    /// `{`
    case braceLeft
    /// `|`
    case pipe
    /// `}`
    case braceRight
    /// A name.
    case name
    /// An integer literal.
    case int
    /// A float literal.
    case float
    /// A `"…"` string literal.
    case string
    /// A `"""…"""` block string literal.
    case blockString

    /// Whether the kind is a punctuator.
    public var isPunctuator: Bool {
        switch self {
        case .endOfFile, .name, .int, .float, .string, .blockString: false
        default: true
        }
    }

    /// The kind as graphql-js prints it in error messages.
    public var description: String {
        switch self {
        case .endOfFile: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .ampersand: "\"&\""
        case .parenLeft: "\"(\""
        case .parenRight: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketLeft: "\"[\""
        case .bracketRight: "\"]\""
        case .braceLeft: "\"{\""
        case .pipe: "\"|\""
        case .braceRight: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }
}

/// A lexical token: its kind, where it lies, and its value for names, numbers and strings.
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The token's kind.
    public let kind: TokenKind
    /// Where the token lies.
    public let location: Location
    /// The name, the number's text, or the string's value (escapes processed, block strings
    /// dedented); `nil` for punctuators and the end of the document.
    public let value: String?

    /// Creates a token.
    public init(kind: TokenKind, location: Location, value: String? = nil) {
        self.kind = kind
        self.location = location
        self.value = value
    }

    /// The token as graphql-js describes it in errors, e.g. `Name "foo"` or `"{"`.
    public var description: String {
        guard let value else { return kind.description }
        return "\(kind) \"\(value)\""
    }
}
