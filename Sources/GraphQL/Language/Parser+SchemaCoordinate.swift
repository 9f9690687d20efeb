// Schema coordinates (September 2025 edition, 3.14): their own tiny lexical grammar, names
// and the punctuators `( ) . : @`, with no whitespace or other ignored tokens allowed.

extension Parser {
    /// Parses a schema coordinate such as `Type`, `Type.field`, `Type.field(arg:)`, `@dir`
    /// or `@dir(arg:)`.
    /// - Throws: A syntax `GraphQLError` locating the first unexpected character.
    public static func parseSchemaCoordinate(_ text: String) throws(GraphQLError) -> SchemaCoordinate {
        var reader = CoordinateReader(bytes: Array(text.utf8))
        let coordinate: SchemaCoordinate
        if try reader.consume(0x40) { // @
            let directive = try reader.name()
            if try reader.consume(0x28) { // (
                let argument = try reader.argumentTail()
                coordinate = .directiveArgument(directive: directive, argument: argument)
            } else {
                coordinate = .directive(directive)
            }
        } else {
            let type = try reader.name()
            if try reader.consume(0x2E) { // .
                let member = try reader.name()
                if try reader.consume(0x28) {
                    let argument = try reader.argumentTail()
                    coordinate = .argument(type: type, field: member, argument: argument)
                } else {
                    coordinate = .member(type: type, member: member)
                }
            } else {
                coordinate = .type(type)
            }
        }
        try reader.expectEnd()
        return coordinate
    }
}

/// Reads the bytes of a schema coordinate; errors use the line 1 column of the offending byte.
private struct CoordinateReader {
    let bytes: [UInt8]
    var position = 0

    func error(expected: String) -> GraphQLError {
        var found = "<EOF>"
        var column = position + 1
        if position < bytes.count {
            let prefix = bytes[..<position]
            column = prefix.count - prefix.filter { $0 & 0xC0 == 0x80 }.count + 1
            found = UTF8Decoding.decodeScalar(bytes, at: position).map { Lexer.printScalar($0.0) } ?? "invalid UTF-8"
        }
        return GraphQLError(
            message: "Syntax Error: Expected \(expected), found \(found).",
            locations: [SourceLocation(line: 1, column: column)])
    }

    mutating func consume(_ byte: UInt8) throws(GraphQLError) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func expect(_ byte: UInt8) throws(GraphQLError) {
        guard try consume(byte) else { throw error(expected: "\"\(Character(Unicode.Scalar(byte)))\"") }
    }

    mutating func name() throws(GraphQLError) -> String {
        guard position < bytes.count, Lexer.isNameStart(bytes[position]) else { throw error(expected: "Name") }
        let start = position
        position += 1
        while position < bytes.count && Lexer.isNameContinue(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `name:)` after an opening parenthesis.
    mutating func argumentTail() throws(GraphQLError) -> String {
        let argument = try name()
        try expect(0x3A)
        try expect(0x29)
        return argument
    }

    func expectEnd() throws(GraphQLError) {
        guard position == bytes.count else { throw error(expected: "<EOF>") }
    }
}
