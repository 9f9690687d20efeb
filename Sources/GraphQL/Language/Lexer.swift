/// Splits a GraphQL source into tokens (spec 2.1), skipping ignored tokens (whitespace,
/// line terminators, commas, comments and byte order marks).
///
/// The lexer works on UTF-8 bytes, touches every byte a bounded number of times (lexing is
/// linear in the size of the input) and creates a `String` only for a token's value. Any
/// byte sequence that is not well-formed UTF-8 is a syntax error. Columns are counted in
/// Unicode scalars.
public struct Lexer: Sendable {
    /// The bytes being lexed.
    public let bytes: [UInt8]
    /// Offset of the next byte to read.
    private var position = 0
    /// The current line, starting at 1.
    private var line = 1
    /// Offset of the first byte of the current line.
    private var lineStart = 0
    /// UTF-8 continuation bytes consumed since `lineStart`: subtracted from byte distances
    /// so that columns count scalars.
    private var continuationBytes = 0

    /// Creates a lexer positioned at the start of `source`.
    public init(source: Source) {
        self.bytes = source.bytes
    }

    /// Reads the next token; at the end of the input, returns `.endOfFile` tokens forever.
    /// - Throws: A syntax `GraphQLError` naming the line and column of an invalid token.
    public mutating func next() throws(GraphQLError) -> Token {
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            switch byte {
            case 0x09, 0x20, 0x2C: // tab, space, comma
                position += 1
            case 0x0A:
                position += 1
                startLine()
            case 0x0D:
                position += peek(1) == 0x0A ? 2 : 1
                startLine()
            case 0xEF where peek(1) == 0xBB && peek(2) == 0xBF: // U+FEFF byte order mark
                position += 3
                continuationBytes += 2
            case 0x23: // #
                try skipComment()
            case 0x21: return punctuator(.bang)
            case 0x24: return punctuator(.dollar)
            case 0x26: return punctuator(.ampersand)
            case 0x28: return punctuator(.parenLeft)
            case 0x29: return punctuator(.parenRight)
            case 0x3A: return punctuator(.colon)
            case 0x3D: return punctuator(.equals)
            case 0x40: return punctuator(.at)
            case 0x5B: return punctuator(.bracketLeft)
            case 0x5D: return punctuator(.bracketRight)
            case 0x7B: return punctuator(.braceLeft)
            case 0x7C: return punctuator(.pipe)
            case 0x7D: return punctuator(.braceRight)
            case 0x2E where peek(1) == 0x2E && peek(2) == 0x2E:
                return punctuator(.spread, length: 3)
            case _ where Lexer.isNameStart(byte):
                return readName()
            case 0x2D, 0x30...0x39: // -, digits
                return try readNumber()
            case 0x22 where peek(1) == 0x22 && peek(2) == 0x22:
                return try readBlockString()
            case 0x22:
                return try readString()
            case 0x27:
                throw error(
                    "Unexpected single quote character ('), did you mean to use a double quote (\")?",
                    at: position)
            default:
                throw unexpectedCharacter(at: position)
            }
        }
        return Token(kind: .endOfFile, location: location(from: count, to: count))
    }

    /// The token `next()` would return, without consuming it.
    public func lookahead() throws(GraphQLError) -> Token {
        var copy = self
        return try copy.next()
    }

    /// Lexes a whole source.
    /// - Returns: Every token, ending with one `.endOfFile` token.
    public static func tokenize(_ source: Source) throws(GraphQLError) -> [Token] {
        var lexer = Lexer(source: source)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .endOfFile { return tokens }
        }
    }

    // MARK: - Positions and errors

    @inline(__always)
    private func peek(_ offset: Int) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func startLine() {
        line += 1
        lineStart = position
        continuationBytes = 0
    }

    /// The location of bytes `start..<end` on the current line, after the bytes before
    /// `start` have been consumed.
    private func location(from start: Int, to end: Int) -> Location {
        Location(start: start, end: end, line: line, column: start - lineStart - continuationBytes + 1)
    }

    private func error(_ description: String, at offset: Int) -> GraphQLError {
        let location = location(from: offset, to: offset)
        return GraphQLError(message: "Syntax Error: \(description)", locations: [location.sourceLocation])
    }

    private func unexpectedCharacter(at offset: Int) -> GraphQLError {
        guard let (scalar, _) = UTF8Decoding.decodeScalar(bytes, at: offset) else {
            return invalidUTF8(at: offset)
        }
        return error("Unexpected character: \(Lexer.printScalar(scalar)).", at: offset)
    }

    private func invalidUTF8(at offset: Int) -> GraphQLError {
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        return error("Invalid UTF-8 byte 0x\(hex.count == 1 ? "0" + hex : hex).", at: offset)
    }

    /// A scalar as graphql-js prints it in errors: `"a"` for printable ASCII, else `U+00E9`.
    static func printScalar(_ scalar: UInt32) -> String {
        if scalar >= 0x20 && scalar <= 0x7E {
            return scalar == 0x22 ? "'\"'" : "\"\(Character(Unicode.Scalar(UInt8(scalar))))\""
        }
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "<EOF>" }
        guard let (scalar, _) = UTF8Decoding.decodeScalar(bytes, at: offset) else { return "invalid UTF-8" }
        return Lexer.printScalar(scalar)
    }

    // MARK: - Tokens

    private mutating func punctuator(_ kind: TokenKind, length: Int = 1) -> Token {
        let token = Token(kind: kind, location: location(from: position, to: position + length))
        position += length
        return token
    }

    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F
    }

    @inline(__always)
    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    private mutating func readName() -> Token {
        let start = position
        position += 1
        while position < bytes.count && Lexer.isNameContinue(bytes[position]) { position += 1 }
        return Token(kind: .name, location: location(from: start, to: position), value: text(start, position))
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func skipComment() throws(GraphQLError) {
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A || byte == 0x0D { return }
            if byte < 0x80 {
                position += 1
            } else {
                try consumeMultibyteScalar()
            }
        }
    }

    /// Consumes one well-formed multi-byte UTF-8 sequence at `position`.
    private mutating func consumeMultibyteScalar() throws(GraphQLError) {
        guard let (_, length) = UTF8Decoding.decodeScalar(bytes, at: position) else { throw invalidUTF8(at: position) }
        position += length
        continuationBytes += length - 1
    }

    /// Spec 2.1.8 and 2.1.9: IntValue and FloatValue, including the rule that a number must
    /// not be followed by `.` or a name start (`1.`, `0x1`, `123abc` are errors).
    private mutating func readNumber() throws(GraphQLError) -> Token {
        let start = position
        var isFloat = false
        if bytes[position] == 0x2D { position += 1 }
        if peek(0) == 0x30 {
            position += 1
            if let next = peek(0), next >= 0x30 && next <= 0x39 {
                throw error("Invalid number, unexpected digit after 0: \(describe(at: position)).", at: position)
            }
        } else {
            try readDigits()
        }
        if peek(0) == 0x2E {
            isFloat = true
            position += 1
            try readDigits()
        }
        if let next = peek(0), next | 0x20 == 0x65 { // e or E
            isFloat = true
            position += 1
            if let sign = peek(0), sign == 0x2B || sign == 0x2D { position += 1 }
            try readDigits()
        }
        if let next = peek(0), next == 0x2E || Lexer.isNameStart(next) {
            throw error("Invalid number, expected digit but got: \(describe(at: position)).", at: position)
        }
        return Token(
            kind: isFloat ? .float : .int, location: location(from: start, to: position), value: text(start, position))
    }

    private mutating func readDigits() throws(GraphQLError) {
        guard let first = peek(0), first >= 0x30 && first <= 0x39 else {
            throw error("Invalid number, expected digit but got: \(describe(at: position)).", at: position)
        }
        position += 1
        while let next = peek(0), next >= 0x30 && next <= 0x39 { position += 1 }
    }

    /// Spec 2.1.10: a `"…"` string with escapes, including variable-width `\u{…}` and
    /// surrogate pairs written as two `\uXXXX` escapes.
    private mutating func readString() throws(GraphQLError) -> Token {
        let start = position
        position += 1
        var chunkStart = position
        var value: [UInt8] = []
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case 0x22:
                let result: String
                if escaped {
                    value.append(contentsOf: bytes[chunkStart..<position])
                    result = String(decoding: value, as: UTF8.self)
                } else {
                    result = text(chunkStart, position)
                }
                position += 1
                return Token(kind: .string, location: location(from: start, to: position), value: result)
            case 0x5C:
                if !escaped {
                    escaped = true
                    value.reserveCapacity(position - chunkStart + 16)
                }
                value.append(contentsOf: bytes[chunkStart..<position])
                try readEscape(into: &value)
                chunkStart = position
            case 0x0A, 0x0D:
                throw error("Unterminated string.", at: position)
            case 0x00...0x7F:
                position += 1
            default:
                try consumeMultibyteScalar()
            }
        }
        throw error("Unterminated string.", at: position)
    }

    private mutating func readEscape(into value: inout [UInt8]) throws(GraphQLError) {
        let escapeStart = position
        guard let code = peek(1) else { throw error("Unterminated string.", at: position + 1) }
        let simple: UInt8? = UTF8Decoding.simpleEscape(code)
        if let simple {
            value.append(simple)
            position += 2
            return
        }
        guard code == 0x75 else { // u
            throw error("Invalid character escape sequence: \(escapeText(escapeStart, length: 2)).", at: escapeStart)
        }
        let scalar: UInt32
        if peek(2) == 0x7B { // {
            scalar = try readVariableWidthEscape()
        } else {
            scalar = try readFixedWidthEscape()
        }
        guard let unicodeScalar = Unicode.Scalar(scalar) else {
            throw error("Invalid Unicode escape sequence: \(escapeText(escapeStart, length: 6)).", at: escapeStart)
        }
        value.append(contentsOf: UTF8.encode(unicodeScalar)!)
    }

    /// `\u{…}`: at most 8 hex digits, must be a Unicode scalar value.
    private mutating func readVariableWidthEscape() throws(GraphQLError) -> UInt32 {
        let escapeStart = position
        var scalar: UInt32 = 0
        var size = 3
        while size < 12 {
            guard let byte = peek(size) else { break }
            size += 1
            if byte == 0x7D { // }
                guard size >= 5, Lexer.isScalarValue(scalar) else { break }
                position += size
                return scalar
            }
            guard let digit = Lexer.hexValue(byte) else { break }
            scalar = scalar << 4 | digit
        }
        throw error("Invalid Unicode escape sequence: \(escapeText(escapeStart, length: size)).", at: escapeStart)
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00` combined into one scalar.
    private mutating func readFixedWidthEscape() throws(GraphQLError) -> UInt32 {
        let escapeStart = position
        if let code = hex4(at: position + 2) {
            if Lexer.isScalarValue(code) {
                position += 6
                return code
            }
            if code >= 0xD800 && code <= 0xDBFF && peek(6) == 0x5C && peek(7) == 0x75,
                let trailing = hex4(at: position + 8), trailing >= 0xDC00 && trailing <= 0xDFFF
            {
                position += 12
                return 0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00)
            }
        }
        throw error("Invalid Unicode escape sequence: \(escapeText(escapeStart, length: 6)).", at: escapeStart)
    }

    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            guard let digit = Lexer.hexValue(bytes[index]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// The source text of an escape for an error message, cut at the line's end.
    private func escapeText(_ start: Int, length: Int) -> String {
        var end = start
        while end < min(bytes.count, start + length), bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        return "\"\(text(start, end))\""
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    @inline(__always)
    static func isScalarValue(_ value: UInt32) -> Bool {
        value < 0xD800 || (value > 0xDFFF && value <= 0x10FFFF)
    }

    /// Spec 2.1.10: a block string, whose only escape is `\"""`, dedented by BlockStringValue().
    private mutating func readBlockString() throws(GraphQLError) -> Token {
        let start = position
        let startLocation = location(from: start, to: start)
        position += 3
        var raw: [UInt8] = []
        var chunkStart = position
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case 0x22 where peek(1) == 0x22 && peek(2) == 0x22:
                raw.append(contentsOf: bytes[chunkStart..<position])
                position += 3
                let location = Location(
                    start: start, end: position, line: startLocation.line, column: startLocation.column)
                return Token(kind: .blockString, location: location, value: BlockString.value(ofRaw: raw))
            case 0x5C where peek(1) == 0x22 && peek(2) == 0x22 && peek(3) == 0x22:
                raw.append(contentsOf: bytes[chunkStart..<position])
                raw.append(contentsOf: [0x22, 0x22, 0x22])
                position += 4
                chunkStart = position
            case 0x0A:
                position += 1
                startLine()
            case 0x0D:
                // Normalise \r\n and \r to \n: BlockStringValue splits on any LineTerminator.
                raw.append(contentsOf: bytes[chunkStart..<position])
                raw.append(0x0A)
                position += peek(1) == 0x0A ? 2 : 1
                chunkStart = position
                startLine()
            case 0x00...0x7F:
                position += 1
            default:
                try consumeMultibyteScalar()
            }
        }
        throw error("Unterminated string.", at: position)
    }
}
