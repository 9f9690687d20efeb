import Testing

@testable import GraphQL

/// Documents that must survive print → parse → print unchanged.
private let roundTripDocuments = [
    Fixtures.kitchenSinkQuery,
    Fixtures.kitchenSinkSchema,
    "{ a }",
    "query { a }",
    "query Q { a }",
    "\"d\" query { a }",
    "mutation { a }",
    "query Q($v: [Int!]! = [1] @d, $w: In = {a: {b: [ENUM]}}) @q { a(x: $v, y: $w) @f { ...F @s } }",
    "{ a(long: \"a very very long string value\", another: \"a second very long string value\", third: 3) }",
    "fragment F on T @d { ... on U { a } ... @i(if: true) { b } ... { c } }",
    "{ a(s: \"tab\\t quote\\\" slash\\\\ nl\\n cr\\r bell\\u0007 del\\u007F c1\\u0085 é 😀\") }",
    "\"\"\"  leading space\"\"\" scalar S",
    "\"\"\"\ntrailing quote\"\n\"\"\" scalar S",
    "\"\"\"\n  multi\n    line\n\"\"\" type T { \"\"\"x\"\"\" f(\"\"\"a\n b\"\"\" a: Int = 1 @d): [T!] @e }",
    "\"\"\"ends with backslash\\\n\"\"\" scalar S",
    "\"\"\"  a\n  b\"\"\" scalar S",
    "type T implements A & B { f: Int } extend type T implements C",
    "union U = A | B extend union U @d",
    "directive @d(a: Int = 1, \"b\" b: [String!]! = [\"x\"]) repeatable on FIELD | QUERY",
    "query Q(\"\"\"v\nw\"\"\" $a: Int, \"plain\" $b: Int) { a }",
]

struct PrinterTests {
    @Test func printsTheKitchenSinkQueryLikeGraphQLJS() throws {
        let printed = Printer.print(try Parser.parse(Fixtures.kitchenSinkQuery))
        #expect(printed == #"""
            "Fetches a node and what its friends like."
            query queryName(
              $foo: ComplexType
              $site: Site = MOBILE
              "described variable"
              $nonNull: Boolean! = false
              $list: [[Int!]]! = [[1, 2], [3]]
            ) @onQuery {
              whoever123is: node(id: [123, 456]) {
                id
                ... on User @onInlineFragment {
                  field2 {
                    id
                    alias: field1(first: 10, after: $foo) @include(if: $foo) {
                      id
                      ...frag @onFragmentSpread
                    }
                  }
                }
                ... @skip(unless: $foo) {
                  id
                }
                ... {
                  id
                }
              }
            }

            mutation likeStory @onMutation {
              like(story: 123) @onField {
                story {
                  id @onField
                }
              }
            }

            subscription StoryLikeSubscription($input: StoryLikeSubscribeInput @onVariableDefinition) @onSubscription {
              storyLikeSubscribe(input: $input) {
                story {
                  likers {
                    count
                  }
                }
              }
            }

            """Describes a fragment."""
            fragment frag on Friend @onFragmentDefinition {
              foo(
                size: $size
                bar: $b
                obj: {key: "value", block: """
                block string uses \"""
                """, float: -1.5e-3, list: [RED, null, true, false]}
                onceMore: "é 😀 😀 \" \\ \n"
              )
            }

            {
              unnamed(truthy: true, falsy: false, nullish: null)
              query
              on: fragment
            }

            {
              __typename
            }
            """#)
    }

    @Test func printsSchemaDefinitionsLikeGraphQLJS() throws {
        let printed = Printer.print(try Parser.parse("""
            "d" type Foo implements Bar&Baz @a { "f" one(a:Int=1,b:[String]):Type! @b }
            extend union U=|A|B
            directive @skip("x" if: Boolean!) on FIELD|INLINE_FRAGMENT
            """))
        #expect(printed == """
            "d"
            type Foo implements Bar & Baz @a {
              "f"
              one(a: Int = 1, b: [String]): Type! @b
            }

            extend union U = A | B

            directive @skip(
              "x"
              if: Boolean!
            ) on FIELD | INLINE_FRAGMENT
            """)
    }

    @Test(arguments: roundTripDocuments)
    func printedDocumentsParseBackToTheSameDocument(text: String) throws {
        let printed = Printer.print(try Parser.parse(text))
        let reprinted = Printer.print(try Parser.parse(printed))
        #expect(printed == reprinted)
    }

    @Test func keepsValuesThroughPrinting() throws {
        let text = #"{ f(a: "é \u{1F600} \uD83D\uDE00 \u0000 \" \\ \/ \b \f \n \r \t", b: """  x\#n y""") }"#
        let original = try Parser.parse(text)
        let reparsed = try Parser.parse(Printer.print(original))
        func strings(_ document: Document) -> [String] {
            guard case .field(let field) = document.operations[0].selectionSet.selections[0] else { return [] }
            return field.arguments.compactMap { if case .string(let value, _) = $0.value.kind { value } else { nil } }
        }
        #expect(strings(original) == ["é 😀 😀 \u{0} \" \\ / \u{8} \u{C} \n \r \t", "  x\ny"])
        #expect(strings(reparsed) == strings(original))
    }

    @Test func escapesStringsLikeGraphQLJS() {
        #expect(Printer.printString("a\"b\\c") == #""a\"b\\c""#)
        #expect(Printer.printString("\u{0}\u{1F}\u{7F}\u{9F}\u{A0}") == "\"\\u0000\\u001F\\u007F\\u009F\u{A0}\"")
        #expect(Printer.printString("\u{8}\t\n\u{C}\r") == #""\b\t\n\f\r""#)
        #expect(Printer.printString("😀") == "\"😀\"")
        #expect(Printer.printString("a\rb", block: true) == #""a\rb""#)
    }

    @Test func printsBlockStringsLikeGraphQLJS() {
        #expect(BlockString.print("") == "\"\"\"\"\"\"")
        #expect(BlockString.print("simple") == "\"\"\"simple\"\"\"")
        #expect(BlockString.print("  leading") == "\"\"\"  leading\"\"\"")
        #expect(BlockString.print("a\nb") == "\"\"\"\na\nb\n\"\"\"")
        #expect(BlockString.print("trailing \"") == "\"\"\"\ntrailing \"\n\"\"\"")
        #expect(BlockString.print("trailing \\") == "\"\"\"\ntrailing \\\n\"\"\"")
        #expect(BlockString.print("has \"\"\" inside") == "\"\"\"has \\\"\"\" inside\"\"\"")
        #expect(BlockString.print("a\n  b", minimize: true) == "\"\"\"\na\n  b\"\"\"")
        #expect(BlockString.print(String(repeating: "x", count: 71)) == "\"\"\"\n" + String(repeating: "x", count: 71) + "\n\"\"\"")
        #expect(BlockString.print("\n  indented") == "\"\"\"\n\n  indented\n\"\"\"")
    }

    @Test func blockStringsThatArePrintableLexBackExactly() throws {
        // Every string up to length 5 over the characters that matter to the algorithm.
        let alphabet: [String] = [" ", "\t", "\n", "a", "\"", "\\"]
        var strings = [""]
        var frontier = [""]
        for _ in 0..<5 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
            strings += frontier
        }
        var printable = 0
        for value in strings where BlockString.isPrintable(value) {
            printable += 1
            for minimize in [false, true] {
                var lexer = Lexer(source: Source(body: BlockString.print(value, minimize: minimize)))
                let token = try lexer.next()
                #expect(token.kind == .blockString && token.value == value, "\(value.debugDescription)")
                #expect(try lexer.next().kind == .endOfFile)
            }
        }
        #expect(printable > 1_000)
        #expect(!BlockString.isPrintable("\n leading blank line"))
        #expect(!BlockString.isPrintable("trailing blank line\n"))
        #expect(BlockString.isPrintable("a\n  indented after an unindented first line"))
        #expect(!BlockString.isPrintable("  a\n  common indent"))
        #expect(!BlockString.isPrintable("bell \u{7}"))
    }
}
