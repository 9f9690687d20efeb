import Testing

@testable import GraphQL

/// The first token of `text`.
private func lexOne(_ text: String) throws -> Token {
    var lexer = Lexer(source: Source(body: text))
    return try lexer.next()
}

/// The error lexing `bytes` to the end raises, or `nil` if it lexes.
private func lexError(_ bytes: [UInt8]) -> GraphQLError? {
    do {
        _ = try Lexer.tokenize(Source(bytes: bytes))
        return nil
    } catch {
        return error
    }
}

private func lexError(_ text: String) -> GraphQLError? { lexError(Array(text.utf8)) }

/// Asserts that lexing fails with `message` (without the "Syntax Error: " prefix) at line:column.
private func expectLexError(
    _ text: String, _ message: String, _ line: Int, _ column: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let error = lexError(text)
    #expect(error?.message == "Syntax Error: " + message, sourceLocation: sourceLocation)
    #expect(error?.locations == [GraphQL.SourceLocation(line: line, column: column)], sourceLocation: sourceLocation)
}

struct LexerTests {
    @Test func lexesEveryPunctuator() throws {
        let tokens = try Lexer.tokenize(Source(body: "! $ & ( ) ... : = @ [ ] { | }"))
        #expect(tokens.map(\.kind) == [
            .bang, .dollar, .ampersand, .parenLeft, .parenRight, .spread, .colon, .equals, .at,
            .bracketLeft, .bracketRight, .braceLeft, .pipe, .braceRight, .endOfFile,
        ])
        #expect(tokens[5].location.start == 10 && tokens[5].location.end == 13)
    }

    @Test func lexesNamesWithTheirPositions() throws {
        let token = try lexOne("\n\n    _foo9Bar   ")
        #expect(token.kind == .name)
        #expect(token.value == "_foo9Bar")
        #expect(token.location.line == 3 && token.location.column == 5)
        #expect(token.location.start == 6 && token.location.end == 14)
    }

    @Test func skipsIgnoredTokens() throws {
        let tokens = try Lexer.tokenize(Source(body: "\u{FEFF} ,,\t# comment é\r\n\r# another\n  foo"))
        #expect(tokens.count == 2)
        #expect(tokens[0].value == "foo")
        #expect(tokens[0].location.line == 4 && tokens[0].location.column == 3)
    }

    @Test func countsColumnsInUnicodeScalarsAfterMultibyteCharacters() throws {
        let tokens = try Lexer.tokenize(Source(body: "\"é😀\" foo"))
        #expect(tokens[1].location.column == 6)
        #expect(tokens[1].location.start == 9)
        expectLexError("\u{FEFF}?", "Unexpected character: \"?\".", 1, 2)
    }

    @Test func treatsCarriageReturnsAsLineTerminators() throws {
        let tokens = try Lexer.tokenize(Source(body: "a\rb\r\nc\nd"))
        #expect(tokens.prefix(4).map(\.location.line) == [1, 2, 3, 4])
    }

    @Test(arguments: [
        ("4", TokenKind.int), ("-4", .int), ("0", .int), ("-0", .int), ("9", .int), ("4.123", .float),
        ("-4.123", .float), ("0.123", .float), ("123e4", .float), ("123E4", .float), ("123e-4", .float),
        ("123e+4", .float), ("-1.123e4", .float), ("-1.123E4", .float), ("-1.123e-4", .float),
        ("-1.123e+4", .float), ("-1.123e4567", .float),
    ])
    func lexesNumbers(text: String, kind: TokenKind) throws {
        let token = try lexOne(text)
        #expect(token.kind == kind)
        #expect(token.value == text)
    }

    @Test func rejectsMalformedNumbers() {
        expectLexError("00", "Invalid number, unexpected digit after 0: \"0\".", 1, 2)
        expectLexError("01", "Invalid number, unexpected digit after 0: \"1\".", 1, 2)
        expectLexError("+1", "Unexpected character: \"+\".", 1, 1)
        expectLexError("1.", "Invalid number, expected digit but got: <EOF>.", 1, 3)
        expectLexError("1e", "Invalid number, expected digit but got: <EOF>.", 1, 3)
        expectLexError("1E", "Invalid number, expected digit but got: <EOF>.", 1, 3)
        expectLexError(".123", "Unexpected character: \".\".", 1, 1)
        expectLexError("1.A", "Invalid number, expected digit but got: \"A\".", 1, 3)
        expectLexError("-A", "Invalid number, expected digit but got: \"A\".", 1, 2)
        expectLexError("1.0e", "Invalid number, expected digit but got: <EOF>.", 1, 5)
        expectLexError("1.0eA", "Invalid number, expected digit but got: \"A\".", 1, 5)
        expectLexError("1.2e3e", "Invalid number, expected digit but got: \"e\".", 1, 6)
        expectLexError("1.2e3.4", "Invalid number, expected digit but got: \".\".", 1, 6)
        expectLexError("1.23.4", "Invalid number, expected digit but got: \".\".", 1, 5)
        expectLexError("0x", "Invalid number, expected digit but got: \"x\".", 1, 2)
        expectLexError("0xF1", "Invalid number, expected digit but got: \"x\".", 1, 2)
        expectLexError("123abc", "Invalid number, expected digit but got: \"a\".", 1, 4)
        expectLexError("1_234", "Invalid number, expected digit but got: \"_\".", 1, 2)
        expectLexError("1\u{00DF}", "Unexpected character: U+00DF.", 1, 2)
    }

    @Test func lexesStringsWithEveryEscape() throws {
        #expect(try lexOne("\"\"").value == "")
        #expect(try lexOne("\"simple\"").value == "simple")
        #expect(try lexOne("\" white space \"").value == " white space ")
        #expect(try lexOne("\"quote \\\"\"").value == "quote \"")
        #expect(try lexOne("\"escaped \\n\\r\\b\\t\\f\\/\\\\\"").value == "escaped \n\r\u{8}\t\u{C}/\\")
        #expect(try lexOne("\"unicode \\u1234\\u5678\\u90AB\\uCDEF\"").value == "unicode \u{1234}\u{5678}\u{90AB}\u{CDEF}")
        #expect(try lexOne("\"unicode \\u{1234}\\u{5678}\\u{90AB}\\u{CDEF}\"").value == "unicode \u{1234}\u{5678}\u{90AB}\u{CDEF}")
        #expect(try lexOne("\"string with unicode escape outside BMP \\u{1F600}\"").value == "string with unicode escape outside BMP 😀")
        #expect(try lexOne("\"surrogate pair \\uD83D\\uDE00\"").value == "surrogate pair 😀")
        #expect(try lexOne("\"lower case \\ud83d\\ude00\"").value == "lower case 😀")
        #expect(try lexOne("\"unescaped control \u{7} and NUL \u{0}\"").value == "unescaped control \u{7} and NUL \u{0}")
        #expect(try lexOne("\"non-ASCII é 😀\"").value == "non-ASCII é 😀")
        let token = try lexOne("  \"x\"  ")
        #expect(token.kind == .string && token.location.start == 2 && token.location.end == 5)
    }

    @Test func rejectsInvalidStrings() {
        expectLexError("\"", "Unterminated string.", 1, 2)
        expectLexError("\"\"\"", "Unterminated string.", 1, 4)
        expectLexError("\"no end quote", "Unterminated string.", 1, 14)
        expectLexError("'single quotes'", "Unexpected single quote character ('), did you mean to use a double quote (\")?", 1, 1)
        expectLexError("\"multi\nline\"", "Unterminated string.", 1, 7)
        expectLexError("\"multi\rline\"", "Unterminated string.", 1, 7)
        expectLexError("\"bad \\z esc\"", "Invalid character escape sequence: \"\\z\".", 1, 6)
        expectLexError("\"bad \\x esc\"", "Invalid character escape sequence: \"\\x\".", 1, 6)
        expectLexError("\"bad \\u1 esc\"", "Invalid Unicode escape sequence: \"\\u1 es\".", 1, 6)
        expectLexError("\"bad \\u0XX1 esc\"", "Invalid Unicode escape sequence: \"\\u0XX1\".", 1, 6)
        expectLexError("\"bad \\uXXXX esc\"", "Invalid Unicode escape sequence: \"\\uXXXX\".", 1, 6)
        expectLexError("\"bad \\uFXXX esc\"", "Invalid Unicode escape sequence: \"\\uFXXX\".", 1, 6)
        expectLexError("\"bad \\u{} esc\"", "Invalid Unicode escape sequence: \"\\u{}\".", 1, 6)
        expectLexError("\"bad \\u{FXXX} esc\"", "Invalid Unicode escape sequence: \"\\u{FX\".", 1, 6)
        expectLexError("\"bad \\u{FFFF esc\"", "Invalid Unicode escape sequence: \"\\u{FFFF \".", 1, 6)
        expectLexError("\"bad \\u{FFFF\"", "Invalid Unicode escape sequence: \"\\u{FFFF\"\".", 1, 6)
        expectLexError("\"too high \\u{110000} esc\"", "Invalid Unicode escape sequence: \"\\u{110000}\".", 1, 11)
        expectLexError("\"way too high \\u{12345678} esc\"", "Invalid Unicode escape sequence: \"\\u{12345678}\".", 1, 15)
        expectLexError("\"too long \\u{000000000} esc\"", "Invalid Unicode escape sequence: \"\\u{000000000\".", 1, 11)
        expectLexError("\"bad surrogate \\uDEAD esc\"", "Invalid Unicode escape sequence: \"\\uDEAD\".", 1, 16)
        expectLexError("\"bad surrogate \\u{DEAD} esc\"", "Invalid Unicode escape sequence: \"\\u{DEAD}\".", 1, 16)
        expectLexError("\"cannot use braces for surrogate pair \\u{D83D}\\u{DE00} esc\"",
                       "Invalid Unicode escape sequence: \"\\u{D83D}\".", 1, 39)
        expectLexError("\"bad high surrogate pair \\uDEAD\\uDEAD esc\"", "Invalid Unicode escape sequence: \"\\uDEAD\".", 1, 26)
        expectLexError("\"bad low surrogate pair \\uD800\\uD800 esc\"", "Invalid Unicode escape sequence: \"\\uD800\".", 1, 25)
        expectLexError("\"cannot escape half a pair \\uD83D esc\"", "Invalid Unicode escape sequence: \"\\uD83D\".", 1, 28)
        expectLexError("\"lone trailing surrogate \\uDE00\"", "Invalid Unicode escape sequence: \"\\uDE00\".", 1, 26)
    }

    @Test func lexesBlockStringsWithDedent() throws {
        #expect(try lexOne("\"\"\"\"\"\"").value == "")
        #expect(try lexOne("\"\"\"simple\"\"\"").value == "simple")
        #expect(try lexOne("\"\"\" white space \"\"\"").value == " white space ")
        #expect(try lexOne("\"\"\"contains \" quote\"\"\"").value == "contains \" quote")
        #expect(try lexOne("\"\"\"contains \\\"\"\" triple quote\"\"\"").value == "contains \"\"\" triple quote")
        #expect(try lexOne("\"\"\"multi\nline\"\"\"").value == "multi\nline")
        #expect(try lexOne("\"\"\"multi\rline\r\nnormalized\"\"\"").value == "multi\nline\nnormalized")
        #expect(try lexOne("\"\"\"unescaped \\n\\r\\b\\t\\f\\u1234\"\"\"").value == "unescaped \\n\\r\\b\\t\\f\\u1234")
        #expect(try lexOne("\"\"\"unescaped unicode outside BMP 😀\"\"\"").value == "unescaped unicode outside BMP 😀")
        #expect(try lexOne("\"\"\"slashes \\\\ \\/\"\"\"").value == "slashes \\\\ \\/")
        #expect(try lexOne("\"\"\"\n\n        spans\n          multiple\n            lines\n\n        \"\"\"").value
                == "spans\n  multiple\n    lines")
        #expect(try lexOne("\"\"\"  first line keeps\n    its indent\n    rest\"\"\"").value == "  first line keeps\nits indent\nrest")
        #expect(try lexOne("\"\"\"\n\t\n  \t  \n\"\"\"").value == "")
        #expect(try lexOne("\"\"\"\n  a\n\n    b\n   \n\"\"\"").value == "a\n\n  b")
    }

    @Test func advancesLinesInsideBlockStrings() throws {
        let tokens = try Lexer.tokenize(Source(body: "\"\"\"\nspans\n  lines é\"\"\" second"))
        #expect(tokens[0].location.line == 1 && tokens[0].location.column == 1)
        #expect(tokens[1].value == "second")
        #expect(tokens[1].location.line == 3 && tokens[1].location.column == 14)
    }

    @Test func rejectsInvalidBlockStrings() {
        expectLexError("\"\"\"", "Unterminated string.", 1, 4)
        expectLexError("\"\"\"no end quote", "Unterminated string.", 1, 16)
        expectLexError("\"\"\"line\nnext", "Unterminated string.", 2, 5)
    }

    @Test func reportsUnexpectedCharacters() {
        expectLexError("..", "Unexpected character: \".\".", 1, 1)
        expectLexError("?", "Unexpected character: \"?\".", 1, 1)
        expectLexError("\u{203B}", "Unexpected character: U+203B.", 1, 1)
        expectLexError("\u{200B}", "Unexpected character: U+200B.", 1, 1)
        expectLexError("\u{7}", "Unexpected character: U+0007.", 1, 1)
        expectLexError("\u{0}", "Unexpected character: U+0000.", 1, 1)
        expectLexError("\"", "Unterminated string.", 1, 2)
        expectLexError("a-b", "Invalid number, expected digit but got: \"b\".", 1, 3)
        expectLexError("\n\n   ~", "Unexpected character: \"~\".", 3, 4)
        expectLexError("\"é\"\n é ", "Unexpected character: U+00E9.", 2, 2)
    }

    @Test func rejectsInvalidUTF8Everywhere() {
        for bytes: [UInt8] in [[0xFF], [0x80], [0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                               [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            #expect(lexError(bytes)?.message.hasPrefix("Syntax Error: Invalid UTF-8 byte") == true)
            #expect(lexError([0x22] + bytes + [0x22]) != nil)
            #expect(lexError([0x22, 0x22, 0x22] + bytes + [0x22, 0x22, 0x22]) != nil)
            #expect(lexError([0x23] + bytes + [0x0A]) != nil)
        }
        let error = lexError([0x22, 0x61, 0xC3, 0xA9, 0xFF, 0x22])
        #expect(error?.message == "Syntax Error: Invalid UTF-8 byte 0xFF.")
        #expect(error?.locations == [GraphQL.SourceLocation(line: 1, column: 4)])
    }

    @Test func lexesHugeInputsInLinearTime() throws {
        // A 1 MB string literal and a 450 KB body of invalid UTF-8 inside a string: a
        // quadratic lexer would not finish within the test run.
        let big = [UInt8](repeating: 0x61, count: 1_000_000)
        let token = try lexOne(String(decoding: [0x22] + big + [0x22], as: UTF8.self))
        #expect(token.value?.utf8.count == 1_000_000)
        let escaped = Array(String(repeating: "\\u00e9", count: 100_000).utf8)
        #expect(try lexOne(String(decoding: [0x22] + escaped + [0x22], as: UTF8.self)).value?.count == 100_000)
        let invalid = [0x22] + [UInt8](repeating: 0xC3, count: 450_000) + [0x22]
        #expect(lexError(invalid) != nil)
        let validThenInvalid = [0x22] + Array(String(repeating: "é", count: 225_000).utf8) + [0xFF, 0x22]
        #expect(lexError(validThenInvalid)?.locations == [GraphQL.SourceLocation(line: 1, column: 225_002)])
        let block = Array("\"\"\"".utf8) + Array(String(repeating: "  line\n", count: 100_000).utf8) + Array("\"\"\"".utf8)
        #expect(try Lexer.tokenize(Source(bytes: block))[0].value?.hasPrefix("  line\nline\n") == true)
    }

    @Test func describesTokensLikeGraphQLJS() throws {
        #expect(try lexOne("foo").description == "Name \"foo\"")
        #expect(try lexOne("{").description == "\"{\"")
        #expect(try lexOne("").description == "<EOF>")
        #expect(try lexOne("1.5").description == "Float \"1.5\"")
    }

    @Test func looksAheadWithoutConsuming() throws {
        var lexer = Lexer(source: Source(body: "a b"))
        #expect(try lexer.lookahead().value == "a")
        #expect(try lexer.next().value == "a")
        #expect(try lexer.next().value == "b")
        #expect(try lexer.next().kind == .endOfFile)
        #expect(try lexer.next().kind == .endOfFile)
    }
}
