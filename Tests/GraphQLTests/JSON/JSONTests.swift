import Testing

@testable import GraphQL

private func parse(_ bytes: [UInt8]) -> Result<JSON, JSONParseError> {
    Result { () throws(JSONParseError) in try JSON(parsing: bytes) }
}

private func parse(_ text: String) -> Result<JSON, JSONParseError> { parse(Array(text.utf8)) }

private func text(_ json: JSON, pretty: Bool = false) -> String {
    String(decoding: json.serialized(pretty: pretty), as: UTF8.self)
}

/// Inputs RFC 8259 accepts (named after JSONTestSuite's y_ cases), with their meaning.
private let accepted: [(String, JSON)] = [
    ("[]", []), ("{}", [:]), ("  [ ]  ", []), ("\n\r\t[\n]\r\n", []),
    ("0", 0), ("-0", 0), ("123", 123), ("-123", -123), ("1.5", 1.5), ("-1.5e3", -1500.0), ("1E2", 100.0),
    ("1e+2", 100.0), ("1e-2", 0.01), ("0.0", 0.0), ("9223372036854775807", .int(Int.max)),
    ("-9223372036854775808", .int(Int.min)), ("9223372036854775808", .double(9223372036854775808.0)),
    ("1.7976931348623157e308", .double(1.7976931348623157e308)), ("5e-324", .double(.leastNonzeroMagnitude)),
    ("true", true), ("false", false), ("null", nil),
    ("\"\"", ""), ("\"abc\"", "abc"), (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
    (#""\u0041\u00e9\u20AC""#, "Aé€"), (#""\uD83D\uDE00""#, "😀"), (#""\u0000""#, "\u{0}"),
    ("\"é😀\u{7F}\"", "é😀\u{7F}"), (#""\u2028\u2029""#, "\u{2028}\u{2029}"),
    ("[1,[2,[3]],{\"a\":{}}]", [1, [2, [3]], ["a": [:]]]),
    ("{\"b\":1,\"a\":2}", ["b": 1, "a": 2]),
    ("{\"a\":1,\"a\":2}", ["a": 2]),
]

/// Inputs RFC 8259 rejects (JSONTestSuite's n_ cases), with the error code.
private let rejected: [(String, JSONParseError.Code)] = [
    ("", .unexpectedEnd), (" ", .unexpectedEnd), ("[", .unexpectedEnd), ("[1", .unexpectedEnd), ("{", .unexpectedEnd),
    ("{\"a\"", .unexpectedEnd), ("{\"a\":", .unexpectedEnd), ("\"abc", .unexpectedEnd), ("\"\\", .unexpectedEnd),
    ("[1,]", .unexpectedCharacter), ("[,1]", .unexpectedCharacter), ("{\"a\":1,}", .unexpectedCharacter),
    ("{a:1}", .unexpectedCharacter), ("{'a':1}", .unexpectedCharacter), ("['a']", .unexpectedCharacter),
    ("{\"a\" 1}", .unexpectedCharacter), ("[1 2]", .unexpectedCharacter), ("tru", .unexpectedEnd),
    ("True", .unexpectedCharacter), ("nul", .unexpectedEnd), ("NaN", .unexpectedCharacter),
    ("Infinity", .unexpectedCharacter), ("[1;2]", .unexpectedCharacter), ("\u{FEFF}[]", .unexpectedCharacter),
    ("01", .invalidNumber), ("-01", .invalidNumber), ("+1", .unexpectedCharacter), (".5", .unexpectedCharacter),
    ("1.", .invalidNumber), ("1.e2", .invalidNumber), ("1e", .invalidNumber), ("1e+", .invalidNumber),
    ("-", .invalidNumber), ("-a", .invalidNumber), ("0x10", .trailingCharacters), ("1e400", .invalidNumber),
    ("\"\t\"", .invalidString), ("\"\n\"", .invalidString), ("\"\u{0}\"", .invalidString),
    (#""\x""#, .invalidString), (#""\u12""#, .invalidString), (#""\uGGGG""#, .invalidString),
    (#""\uD800""#, .invalidString), (#""\uDC00""#, .invalidString), (#""\uD800\u0041""#, .invalidString),
    (#""\uD800\n""#, .invalidString),
    ("[] []", .trailingCharacters), ("1 2", .trailingCharacters), ("{}x", .trailingCharacters),
    ("[]\u{0}", .trailingCharacters),
]

struct JSONParsingTests {
    @Test(arguments: accepted.indices)
    func acceptsValidJSON(index: Int) throws {
        let (input, expected) = accepted[index]
        #expect(try parse(input).get() == expected, "\(input)")
    }

    @Test(arguments: rejected.indices)
    func rejectsInvalidJSON(index: Int) {
        let (input, code) = rejected[index]
        switch parse(input) {
        case .success(let value): Issue.record("accepted \(input.debugDescription) as \(value)")
        case .failure(let error): #expect(error.code == code, "\(input.debugDescription): \(error)")
        }
    }

    @Test func rejectsInvalidUTF8WithItsOffset() {
        for bytes: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3]] {
            guard case .failure(let error) = parse([0x22, 0x61] + bytes + [0x22]) else {
                Issue.record("accepted \(bytes)")
                continue
            }
            #expect(error.code == .invalidUTF8 && error.offset == 2)
        }
        guard case .failure(let outside) = parse([0x5B, 0xFF, 0x5D]) else { return }
        #expect(outside.code == .unexpectedCharacter && outside.offset == 1)
    }

    @Test func reportsTheOffsetOfTheProblem() {
        guard case .failure(let error) = parse("{\"a\": [1, 2,, 3]}") else { return }
        #expect(error.offset == 12)
        #expect(error.description == "Unexpected character \",\" (at byte 12)")
    }

    @Test func limitsNestingDepth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        guard case .failure(let error) = parse(deep) else {
            Issue.record("accepted deep nesting")
            return
        }
        #expect(error.code == .tooDeep && error.offset == JSON.defaultMaxDepth)
        let limit = String(repeating: "[", count: JSON.defaultMaxDepth) + String(repeating: "]", count: JSON.defaultMaxDepth)
        #expect(throws: Never.self) { try JSON(parsing: limit) }
        #expect(throws: JSONParseError.self) { try JSON(parsing: "{\"a\":{\"b\":1}}", maxDepth: 1) }
    }

    @Test func keepsObjectKeyOrder() throws {
        let keys = (0..<100).map { "k\(99 - $0)" }
        let text = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        guard case .object(let object) = try JSON(parsing: text) else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == keys)
        #expect(object["k50"] == 1 && object["missing"] == nil)
    }

    @Test func readsEscapedStringsLongerThanTheFirstBufferWholeAndInOrder() throws {
        // The parser reserves up to 8 KiB for an escaped string, then grows: strings on both
        // sides of that, among other members, each with escapes throughout.
        for length in [10, 8_180, 8_192, 8_200, 40_000] {
            let line = "  field(arg: \"é\")\n"
            var text = "", escaped = ""
            while text.utf8.count < length {
                text += line
                escaped += #"  field(arg: \"\u00e9\")\n"#
            }
            let document = #"{"before":"a\tb","query":""# + escaped + #"","after":[1,"\u0041"]}"#
            #expect(try parse(document).get() == ["before": "a\tb", "query": .string(text), "after": [1, "A"]])
        }
    }

    @Test func findsWhatStopsAPlainRunAtEveryPositionOfAnEightByteChunk() throws {
        // The parser skips plain ASCII eight bytes at a time: an escape, a raw non-ASCII
        // character and a raw control character (an error) at each position of two chunks and a
        // tail, and the plain bytes next to those it stops at, which must pass at any position.
        let stops: [(text: String, value: String)] = [(#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\u00e9"#, "é"), ("é", "é"), ("😀", "😀")]
        for length in [7, 8, 9, 16, 19] {
            for position in 0..<length {
                let before = String(repeating: "a", count: position), after = String(repeating: "b", count: length - position - 1)
                for (text, value) in stops {
                    #expect(try parse("\"" + before + text + after + "\"").get() == .string(before + value + after))
                }
                for plain in [" ", "!", "#", "[", "]", "~", "\u{7F}"] {
                    #expect(try parse("\"" + before + plain + after + "\"").get() == .string(before + plain + after))
                }
                let control = Array(("\"" + before).utf8) + [0x1F] + Array((after + "\"").utf8)
                guard case .failure(let error) = parse(control) else {
                    Issue.record("an unescaped control character at \(position) of \(length) was accepted")
                    continue
                }
                #expect(error.offset == position + 1)
            }
        }
    }

    @Test func parsesLargeInputsInLinearTime() throws {
        let bigString = "\"" + String(repeating: "é", count: 500_000) + "\""
        #expect(try JSON(parsing: bigString) == .string(String(repeating: "é", count: 500_000)))
        let bigArray = "[" + Array(repeating: "{\"a\":[1,2.5,\"x\",true,null]}", count: 50_000).joined(separator: ",") + "]"
        guard case .array(let items) = try JSON(parsing: bigArray) else { return }
        #expect(items.count == 50_000)
    }
}

struct JSONSerializationTests {
    @Test func serializesCompactly() {
        let value: JSON = ["data": ["b": [1, 2.5, "x", true, false, nil], "a": [:], "c": []], "errors": nil]
        #expect(text(value) == #"{"data":{"b":[1,2.5,"x",true,false,null],"a":{},"c":[]},"errors":null}"#)
    }

    @Test func serializesPrettilyWithTwoSpaces() {
        let value: JSON = ["a": [1, ["b": nil]], "empty": [:], "list": []]
        #expect(text(value, pretty: true) == """
            {
              "a": [
                1,
                {
                  "b": null
                }
              ],
              "empty": {},
              "list": []
            }
            """)
    }

    @Test func escapesStringsLikeJSONStringify() {
        #expect(text("quote\" back\\ slash/ \u{8}\u{C}\n\r\t") == #""quote\" back\\ slash/ \b\f\n\r\t""#)
        #expect(text("\u{0}\u{1}\u{1F}\u{7F}") == "\"\\u0000\\u0001\\u001f\u{7F}\"")
        #expect(text("é 😀 \u{2028}") == "\"é 😀 \u{2028}\"")
        #expect(text(["k\"ey": 1]) == #"{"k\"ey":1}"#)
    }

    @Test(arguments: [
        (1.0, "1"), (-1.0, "-1"), (0.0, "0"), (-0.0, "0"), (1.5, "1.5"), (0.1, "0.1"), (-0.000001, "-0.000001"),
        (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (123456789012345680000.0, "123456789012345680000"), (1e21, "1e+21"),
        (1.2345e22, "1.2345e+22"), (9007199254740993.0, "9007199254740992"), (1e16, "10000000000000000"),
        (100.25, "100.25"), (.leastNonzeroMagnitude, "5e-324"), (9007199254740992.0, "9007199254740992"), (-123.5, "-123.5"), (1.7976931348623157e308, "1.7976931348623157e+308"),
        (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"),
    ])
    func printsDoublesLikeJSONStringify(value: Double, expected: String) {
        #expect(text(.double(value)) == expected)
    }

    @Test func printsIntegersExactly() {
        #expect(text(.int(Int.max)) == "9223372036854775807")
        #expect(text(.int(Int.min)) == "-9223372036854775808")
        #expect(text([0, -7, 10, 1_000_000]) == "[0,-7,10,1000000]")
    }

    @Test func printsIntegersAtEveryDigitCountAndTheInt64Edges() {
        var powers: [Int] = [0]
        var power = 1
        for _ in 0..<18 {
            powers.append(power - 1)
            powers.append(power)
            power *= 10
        }
        powers.append(power)
        let edges = powers + powers.map { -$0 } + [Int.max, Int.max - 1, Int.min, Int.min + 1, Int(Int32.max), Int(Int32.min)]
        for value in edges {
            #expect(text(.int(value)) == String(value))
        }
    }

    @Test func escapesEveryControlCharacterAndNothingElse() {
        let expected: [UInt8: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        for byte in UInt8(0)..<0x20 {
            let hex = String(byte, radix: 16)
            let escape = expected[byte] ?? "\\u00" + (hex.count == 1 ? "0" + hex : hex)
            #expect(text(.string("a\(Character(Unicode.Scalar(byte)))b")) == "\"a\(escape)b\"")
        }
        let printable = String(decoding: Array(UInt8(0x20)...0x7F).filter { $0 != 0x22 && $0 != 0x5C }, as: UTF8.self)
        #expect(text(.string(printable)) == "\"\(printable)\"")
    }

    @Test func findsACharacterToEscapeAtEveryPositionOfAnEightByteChunkAndNoFalseOnes() {
        // The writer tests eight bytes at a time: each escape at each position of two chunks and
        // a tail, and the bytes next to the ones escaped (0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F,
        // UTF-8 continuation bytes), which must pass through at any position.
        let escapes: [(Character, String)] = [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#), ("\u{1F}", #"\u001f"#)]
        for length in [7, 8, 9, 16, 19] {
            for position in 0..<length {
                let before = String(repeating: "a", count: position), after = String(repeating: "b", count: length - position - 1)
                for (character, escaped) in escapes {
                    #expect(text(.string(before + String(character) + after)) == "\"\(before)\(escaped)\(after)\"")
                }
                for clean in [" ", "!", "#", "[", "]", "\u{7F}", "é"] {
                    #expect(text(.string(before + clean + after)) == "\"\(before)\(clean)\(after)\"")
                }
            }
        }
    }

    @Test func passesNonASCIIThroughAsUTF8WhetherOrNotTheStringNeedsEscapes() throws {
        let samples = ["é", "日本語のテキスト", "😀 and 👨‍👩‍👧", "\u{2028}\u{2029}\u{FEFF}", "mixed é \"quoted\" 😀\n"]
        for sample in samples {
            let bytes = JSON.string(sample).serialized()
            #expect(String(validating: bytes, as: UTF8.self) != nil)
            #expect(try JSON(parsing: bytes) == .string(sample))
        }
        #expect(text("é😀") == "\"é😀\"")
        // Long strings take the same paths as short ones, across buffer growth.
        let long = String(repeating: "αβγ \u{1}\"", count: 2_000)
        #expect(try JSON(parsing: JSON.string(long).serialized()) == .string(long))
    }

    @Test func growsPastItsInitialCapacityAndStartsAfreshAfterTakingTheBytes() {
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        for index in 0..<5_000 { writer.string("item \(index)") }
        writer.endArray()
        let expected = "[" + (0..<5_000).map { "\"item \($0)\"" }.joined(separator: ",") + "]"
        #expect(writer.bytes == Array(expected.utf8))
        #expect(writer.takeBytes() == Array(expected.utf8))
        writer.beginObject()
        writer.key("again")
        writer.bool(true)
        writer.endObject()
        #expect(writer.takeBytes() == Array(#"{"again":true}"#.utf8))
    }

    @Test func writesPreQuotedKeysLikePlainKeys() {
        let keys = ["a", "k\"ey", "é\n"]
        for pretty in [false, true] {
            var plain = JSONWriter(pretty: pretty)
            plain.beginObject()
            for key in keys { plain.key(key); plain.int(1) }
            plain.endObject()
            var quoted = JSONWriter(pretty: pretty)
            quoted.beginObject()
            for key in keys {
                JSONWriter.quoted(key).withUnsafeBufferPointer { quoted.key(quoted: $0) }
                quoted.int(1)
            }
            quoted.endObject()
            #expect(quoted.bytes == plain.bytes)
        }
        #expect(JSONWriter.quoted("k\"ey") == Array(#""k\"ey""#.utf8))
    }


    @Test func roundTripsThroughText() throws {
        let value: JSON = [
            "z": "é\u{0}\"\\😀", "a": [1, -2, 3.25, 1e300, -0.5, true, nil, [:], []],
            "nested": ["deeper": ["deepest": ["x": "y"]]],
        ]
        #expect(try JSON(parsing: value.serialized()) == value)
        #expect(try JSON(parsing: value.serialized(pretty: true)) == value)
    }

    @Test func writesStreamsWithoutATree() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("data")
        writer.beginObject()
        writer.key("items")
        writer.beginArray()
        for index in 0..<3 {
            writer.beginObject()
            writer.key("id")
            writer.int(index)
            writer.key("cached")
            writer.rawValue(Array("{\"x\":1}".utf8))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        let bytes = writer.takeBytes()
        #expect(String(decoding: bytes, as: UTF8.self)
                == #"{"data":{"items":[{"id":0,"cached":{"x":1}},{"id":1,"cached":{"x":1}},{"id":2,"cached":{"x":1}}]}}"#)
        #expect(writer.bytes.isEmpty)
    }

    @Test func insertsTextAtAPlaceholderWhenTakingTheBytes() {
        var writer = JSONWriter(capacity: 1)
        writer.beginObject()
        writer.key("before")
        writer.int(1)
        writer.key("data")
        let offset = writer.valuePlaceholder()
        writer.key("after")
        writer.bool(true)
        writer.endObject()
        let inserted = Array(#"{"x":[1,2]}"#.utf8)
        let bytes = inserted.withUnsafeBufferPointer { writer.takeBytes(inserting: $0, at: offset) }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"before":1,"data":{"x":[1,2]},"after":true}"#)
        writer.null()
        #expect(writer.takeBytes() == Array("null".utf8))
    }

    @Test func handsOverAllOfItsTextOrCopiesAPartOfIt() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.string("a")
        writer.endArray()
        #expect(writer.takeText(0..<5).array == Array(#"["a"]"#.utf8))
        writer.beginArray()
        for index in 0..<100 { writer.int(index) }
        writer.endArray()
        #expect(writer.takeText(1..<4).array == Array("0,1".utf8))
        #expect(writer.bytes.isEmpty)
        writer.bool(false)
        #expect(writer.takeBytes() == Array("false".utf8))
    }

    @Test func serializesResultsWithErrorsDataTextAndExtensionsInOrder() async throws {
        let executor = try makeExecutor("type Query { a: Int b: String }") { r in
            r.resolve("Query", "a") { _, _, _, _ in 1 }
            r.resolve("Query", "b") { _, _, _, _ in throw GraphQLError(message: "no b") }
        }
        var result = await executor.execute(document: try Parser.parse("{ a b }"))
        result.extensions = ["cost": 2]
        #expect(String(decoding: result.serialized(), as: UTF8.self)
                == #"{"errors":[{"message":"no b","locations":[{"line":1,"column":5}],"path":["b"]}],"data":{"a":1,"b":null},"extensions":{"cost":2}}"#)
        #expect(try JSON(parsing: result.serialized(pretty: true)) == JSON(parsing: result.serialized()))
        var writer = JSONWriter()
        result.write(to: &writer)
        #expect(writer.takeBytes() == result.serialized())
    }

    @Test func serializesGraphQLErrorsInSpecOrder() {
        let error = GraphQLError(
            message: "Boom", locations: [GraphQL.SourceLocation(line: 1, column: 3)], path: [.key("a"), .index(0)],
            extensions: ["code": "INTERNAL"])
        #expect(error.json.jsonText == #"{"message":"Boom","locations":[{"line":1,"column":3}],"path":["a",0],"extensions":{"code":"INTERNAL"}}"#)
        #expect(GraphQLError(message: "Plain").json.jsonText == #"{"message":"Plain"}"#)
        #expect(error.description == "Boom (1:3)")
    }
}

struct OrderedMapTests {
    @Test func keepsInsertionOrderAcrossTheIndexThreshold() {
        var map = OrderedMap<String, Int>()
        for index in 0..<40 { map["key\(39 - index)"] = index }
        #expect(map.keys.first == "key39" && map.keys.last == "key0")
        #expect(map["key20"] == 19)
        map["key20"] = 100
        #expect(map.index(forKey: "key20") == 19 && map["key20"] == 100)
        #expect(map.removeValue(forKey: "key39") == 0)
        #expect(map.keys.first == "key38" && map.count == 39 && map["key38"] == 1)
        for index in 0..<35 { map.removeValue(forKey: "key\(index)") }
        #expect(map.keys == ["key38", "key37", "key36", "key35"])
        #expect(map["key36"] == 3 && map["key0"] == nil)
        #expect(Array(map.map(\.value)) == [1, 2, 3, 4])
    }

    @Test func comparesInOrder() {
        let ab: OrderedMap<String, Int> = ["a": 1, "b": 2]
        let ba: OrderedMap<String, Int> = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab == ["a": 1, "b": 2])
        #expect(ab.description == "[a: 1, b: 2]")
        let repeated: OrderedMap<String, Int> = ["a": 1, "b": 2, "a": 3]
        #expect(repeated.keys == ["a", "b"] && repeated["a"] == 3)
    }
}
