/// The string literals of a Swift source file, found by a small lexer that knows comments,
/// escapes, interpolations (whose own literals it reports too), multi-line and raw strings:
/// enough for ``SQLDialectCheck`` and ``ScopeFilterCheck`` to look at every SQL text without
/// reading the comments that talk about SQL.
struct SwiftStringLiterals {
    /// One literal: its text without the interpolated parts, and the line it starts on.
    struct Literal: Equatable {
        /// The text, each interpolation replaced by a space.
        var text: String
        /// The text, each interpolation replaced by ``interpolation``: where a check must know
        /// that a part of the text is not known before run time (a table named by a variable).
        var template: String
        var line: Int
    }

    /// What stands for an interpolation in ``Literal/template``.
    static let interpolation = "\\(…)"

    private let characters: [Character]
    private var index = 0
    private var line = 1
    private(set) var literals: [Literal] = []

    /// Lexes `source`.
    init(_ source: String) {
        characters = Array(source)
        lexCode(untilClosingParenthesis: false)
    }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func advance() {
        if characters[index] == "\n" { line += 1 }
        index += 1
    }

    /// Code outside literals; inside an interpolation, up to its closing parenthesis.
    private mutating func lexCode(untilClosingParenthesis: Bool) {
        var depth = 0
        while let character = peek() {
            if character == "/", peek(1) == "/" {
                while let next = peek(), next != "\n" { advance() }
            } else if character == "/", peek(1) == "*" {
                advance(); advance()
                while peek() != nil, !(peek() == "*" && peek(1) == "/") { advance() }
                if peek() != nil { advance(); advance() }
            } else if character == "\"" || (character == "#" && startsRawString()) {
                lexLiteral()
            } else {
                if untilClosingParenthesis {
                    if character == "(" { depth += 1 }
                    if character == ")" {
                        if depth == 0 { advance(); return }
                        depth -= 1
                    }
                }
                advance()
            }
        }
    }

    private func startsRawString() -> Bool {
        var offset = 0
        while peek(offset) == "#" { offset += 1 }
        return peek(offset) == "\""
    }

    /// A literal starting at the current `#` or `"`.
    private mutating func lexLiteral() {
        let startLine = line
        var hashes = 0
        while peek() == "#" { hashes += 1; advance() }
        let isMultiLine = peek(1) == "\"" && peek(2) == "\""
        let quotes = isMultiLine ? 3 : 1
        for _ in 0..<quotes { advance() }
        let delimiter = Array(repeating: Character("\""), count: quotes) + Array(repeating: Character("#"), count: hashes)
        var text = ""
        var template = ""
        while let character = peek() {
            if matches(delimiter) {
                for _ in delimiter { advance() }
                break
            }
            // An escape is a backslash followed by as many `#` as the literal's delimiter has.
            if character == "\\", (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                for _ in 0...hashes { advance() }
                if peek() == "(" {
                    advance()
                    lexCode(untilClosingParenthesis: true)
                    text.append(" ")
                    template.append(Self.interpolation)
                } else if let escaped = peek() {
                    text.append(escaped)
                    template.append(escaped)
                    advance()
                }
                continue
            }
            text.append(character)
            template.append(character)
            advance()
        }
        literals.append(Literal(text: text, template: template, line: startLine))
    }

    private func matches(_ delimiter: [Character]) -> Bool {
        delimiter.indices.allSatisfy { peek($0) == delimiter[$0] }
    }
}
