import Testing

@testable import GraphQL

/// The error parsing `text` raises, or `nil` if it parses.
func parseError(_ text: String, options: ParseOptions = ParseOptions()) -> GraphQLError? {
    do {
        _ = try Parser.parse(text, options: options)
        return nil
    } catch {
        return error
    }
}

/// Asserts that parsing fails with `message` (without the "Syntax Error: " prefix) at line:column.
func expectSyntaxError(
    _ text: String, _ message: String, _ line: Int, _ column: Int,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let error = parseError(text)
    #expect(error?.message == "Syntax Error: " + message, sourceLocation: sourceLocation)
    #expect(error?.locations == [GraphQL.SourceLocation(line: line, column: column)], sourceLocation: sourceLocation)
}

/// The only operation of a document.
private func operation(_ text: String) throws -> OperationDefinition {
    let document = try Parser.parse(text)
    return try #require(document.operations.first)
}

/// The fields of a selection set.
private func fields(_ selectionSet: SelectionSet?) -> [Field] {
    (selectionSet?.selections ?? []).compactMap { if case .field(let field) = $0 { field } else { nil } }
}

struct ParserTests {
    @Test func parsesTheKitchenSinkQuery() throws {
        let document = try Parser.parse(Fixtures.kitchenSinkQuery)
        #expect(document.definitions.count == 6)
        #expect(document.operations.map(\.operation) == [.query, .mutation, .subscription, .query, .query])
        #expect(document.fragments.map(\.name.value) == ["frag"])

        let query = document.operations[0]
        #expect(query.description?.value == "Fetches a node and what its friends like.")
        #expect(query.name?.value == "queryName")
        #expect(query.variableDefinitions.map(\.variable.name.value) == ["foo", "site", "nonNull", "list"])
        #expect(query.variableDefinitions[2].description?.value == "described variable")
        #expect(query.variableDefinitions[3].type.description == "[[Int!]]!")
        #expect(query.directives.map(\.name.value) == ["onQuery"])
        let node = try #require(fields(query.selectionSet).first)
        #expect(node.alias?.value == "whoever123is" && node.name.value == "node" && node.responseKey == "whoever123is")
        guard case .list(let ids) = node.arguments[0].value.kind else {
            Issue.record("expected a list")
            return
        }
        #expect(ids.count == 2)
        let selections = try #require(node.selectionSet?.selections)
        guard case .inlineFragment(let inline) = selections[1], case .inlineFragment(let untyped) = selections[2] else {
            Issue.record("expected inline fragments")
            return
        }
        #expect(inline.typeCondition?.value == "User")
        #expect(untyped.typeCondition == nil && untyped.directives.map(\.name.value) == ["skip"])

        let shorthand = document.operations[3]
        #expect(shorthand.isShorthand && shorthand.name == nil)
        #expect(fields(shorthand.selectionSet).map(\.responseKey) == ["unnamed", "query", "on"])

        let fragment = document.fragments[0]
        #expect(fragment.description?.value == "Describes a fragment." && fragment.description?.block == true)
        #expect(fragment.typeCondition.value == "Friend")
        let foo = try #require(fields(fragment.selectionSet).first)
        guard case .object(let objectFields) = foo.arguments[2].value.kind else {
            Issue.record("expected an object")
            return
        }
        #expect(objectFields.map(\.name.value) == ["key", "block", "float", "list"])
        if case .string(let value, let block) = objectFields[1].value.kind {
            #expect(value == "block string uses \"\"\"" && block)
        } else {
            Issue.record("expected a block string")
        }
        if case .string(let value, _) = foo.arguments[3].value.kind {
            #expect(value == "é 😀 😀 \" \\ \n")
        } else {
            Issue.record("expected a string")
        }
    }

    @Test func recordsNodeLocations() throws {
        let document = try Parser.parse("{\n  node(id: 4) {\n    id,\n    name\n  }\n}\n")
        #expect(document.location.start == 0 && document.location.end == 41)
        let operation = try #require(document.operations.first)
        #expect(operation.location.start == 0 && operation.location.end == 40)
        let node = try #require(fields(operation.selectionSet).first)
        #expect(node.location.start == 4 && node.location.end == 38)
        #expect(node.location.line == 2 && node.location.column == 3)
        #expect(node.arguments[0].location.start == 9 && node.arguments[0].location.end == 14)
        #expect(node.arguments[0].value.location.start == 13)
        let name = try #require(fields(node.selectionSet).last)
        #expect(name.location.line == 4 && name.location.column == 5)
    }

    @Test func parsesEveryValueForm() throws {
        let value = try Parser.parseValue(Source(body: #"[123 "abc" $var 1.5 true false null ENUM {a: [1], b: {}} """blk"""]"#))
        guard case .list(let items) = value.kind else {
            Issue.record("expected a list")
            return
        }
        #expect(items.count == 10)
        if case .int(let text) = items[0].kind { #expect(text == "123") } else { Issue.record("int") }
        if case .string(let text, false) = items[1].kind { #expect(text == "abc") } else { Issue.record("string") }
        if case .variable(let name) = items[2].kind { #expect(name == "var") } else { Issue.record("variable") }
        if case .float(let text) = items[3].kind { #expect(text == "1.5") } else { Issue.record("float") }
        if case .boolean(true) = items[4].kind {} else { Issue.record("true") }
        if case .boolean(false) = items[5].kind {} else { Issue.record("false") }
        if case .null = items[6].kind {} else { Issue.record("null") }
        if case .enumValue(let name) = items[7].kind { #expect(name == "ENUM") } else { Issue.record("enum") }
        if case .object(let fields) = items[8].kind { #expect(fields.map(\.name.value) == ["a", "b"]) } else {
            Issue.record("object")
        }
        if case .string(let text, true) = items[9].kind { #expect(text == "blk") } else { Issue.record("block") }
        #expect(!value.isConstant)
        #expect(try Parser.parseConstValue(Source(body: "[1, {a: ENUM}]")).isConstant)
        #expect(try Parser.parseValue(Source(body: "[]")).location.end == 2)
    }

    @Test func rejectsVariablesInConstantValues() {
        expectSyntaxError("query Foo($a: Int = $b) { f }", "Unexpected variable \"$b\" in constant value.", 1, 21)
        expectSyntaxError("query Foo($a: Int @d(x: $b)) { f }", "Unexpected variable \"$b\" in constant value.", 1, 25)
        expectSyntaxError("type T { f(a: Int = [$b]): Int }", "Unexpected variable \"$b\" in constant value.", 1, 22)
        expectSyntaxError("query Foo($a: Int = $) { f }", "Unexpected \"$\".", 1, 21)
        #expect(throws: GraphQLError.self) { try Parser.parseConstValue(Source(body: "$a")) }
    }

    @Test func parsesTypeReferences() throws {
        #expect(try Parser.parseType(Source(body: "String")).description == "String")
        #expect(try Parser.parseType(Source(body: "[String!]!")).description == "[String!]!")
        #expect(try Parser.parseType(Source(body: "[[A]!]")).namedType.value == "A")
        let type = try Parser.parseType(Source(body: "  [Int]!"))
        #expect(type.location.start == 2 && type.location.end == 8)
        #expect(throws: GraphQLError.self) { try Parser.parseType(Source(body: "String!!")) }
        #expect(throws: GraphQLError.self) { try Parser.parseType(Source(body: "[String")) }
        #expect(throws: GraphQLError.self) { try Parser.parseValue(Source(body: "1 2")) }
    }

    @Test func acceptsKeywordsAsNames() throws {
        let keywords = ["on", "fragment", "query", "mutation", "subscription", "truthy", "falsy", "nullish", "type",
                        "schema", "extend", "directive", "implements", "repeatable"]
        for keyword in keywords {
            let fragmentName = keyword == "on" ? "a" : keyword
            let document = try Parser.parse("""
                query \(keyword) { ... \(fragmentName) ... on \(keyword) { field } }
                fragment \(fragmentName) on Type { \(keyword)(\(keyword): $\(keyword)) @\(keyword)(\(keyword): \(keyword)) }
                """)
            #expect(document.definitions.count == 2)
        }
    }

    @Test func parsesDescriptionsOnExecutableDefinitions() throws {
        let document = try Parser.parse(#"""
            "op" query Q("v" $a: Int) { f }
            """frag""" fragment F on T { f }
            "m" mutation { f }
            """#)
        #expect(document.operations[0].description?.value == "op")
        #expect(document.operations[0].variableDefinitions[0].description?.value == "v")
        #expect(document.operations[1].description?.value == "m")
        #expect(document.fragments[0].description?.value == "frag")
    }

    @Test func reportsSyntaxErrorsWithLocations() {
        expectSyntaxError("", "Unexpected <EOF>.", 1, 1)
        expectSyntaxError("{", "Expected Name, found <EOF>.", 1, 2)
        expectSyntaxError("{ ...MissingOn }\nfragment MissingOn Type", "Expected \"on\", found Name \"Type\".", 2, 20)
        expectSyntaxError("{ field: {} }", "Expected Name, found \"{\".", 1, 10)
        expectSyntaxError("notAnOperation Foo { field }", "Unexpected Name \"notAnOperation\".", 1, 1)
        expectSyntaxError("...", "Unexpected \"...\".", 1, 1)
        expectSyntaxError("{ \"\" }", "Expected Name, found String \"\".", 1, 3)
        expectSyntaxError("query Foo($a) { f }", "Expected \":\", found \")\".", 1, 13)
        expectSyntaxError("fragment on on on { on }", "Unexpected Name \"on\".", 1, 10)
        expectSyntaxError("{ ...on }", "Expected Name, found \"}\".", 1, 9)
        expectSyntaxError("{ f() }", "Expected Name, found \")\".", 1, 5)
        expectSyntaxError("{ f(a: ) }", "Unexpected \")\".", 1, 8)
        expectSyntaxError("query Foo() { f }", "Expected \"$\", found \")\".", 1, 11)
        expectSyntaxError("query Foo { f } }", "Unexpected \"}\".", 1, 17)
        expectSyntaxError("query { f(a: [1, 2) }", "Unexpected \")\".", 1, 19)
        expectSyntaxError("query { f(a: {b 1}) }", "Expected \":\", found Int \"1\".", 1, 17)
        expectSyntaxError("query {}", "Expected Name, found \"}\".", 1, 8)
        expectSyntaxError("unknown { f }", "Unexpected Name \"unknown\".", 1, 1)
        expectSyntaxError("\"desc\" { f }", "Unexpected description, descriptions are not supported on shorthand queries.", 1, 1)
        expectSyntaxError("\"desc\" extend type A @d", "Unexpected description, only GraphQL definitions support descriptions.", 1, 1)
        expectSyntaxError("query Q @ { f }", "Expected Name, found \"{\".", 1, 11)
        expectSyntaxError("{ f @include(if: true }", "Expected Name, found \"}\".", 1, 23)
        expectSyntaxError("{ ... on { f } }", "Expected Name, found \"{\".", 1, 10)
        expectSyntaxError("query Q(\"d\" $a: Int = 1 \"d\") { f }", "Expected \"$\", found \")\".", 1, 28)
        expectSyntaxError("query Q($a: [Int) { f }", "Expected \"]\", found \")\".", 1, 17)
        expectSyntaxError("query Q($a: Int!!) { f }", "Expected \"$\", found \"!\".", 1, 17)
        expectSyntaxError("\n\n  { f(a: 1.) }", "Invalid number, expected digit but got: \")\".", 3, 12)
    }

    @Test func stopsAtTheTokenLimitExactly() throws {
        // `{ a b }` has four tokens.
        #expect(try Parser.parse("{ a b }", options: ParseOptions(maxTokens: 4)).definitions.count == 1)
        let error = parseError("{ a b }", options: ParseOptions(maxTokens: 3))
        #expect(error?.message == "Syntax Error: Document contains more than 3 tokens. Parsing aborted.")
        #expect(error?.locations == [GraphQL.SourceLocation(line: 1, column: 7)])
        let huge = "{ " + String(repeating: "a ", count: 1_000_000) + "}"
        #expect(parseError(huge, options: ParseOptions(maxTokens: 15_000)) != nil)
    }

    @Test func limitsNestingDepth() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "{ a ", count: depth) + String(repeating: "} ", count: depth)
        }
        #expect(try Parser.parse(nested(ParseOptions.defaultMaxDepth)).definitions.count == 1)
        let error = parseError(nested(ParseOptions.defaultMaxDepth + 1))
        #expect(error?.message == "Syntax Error: Document exceeds the maximum nesting depth of 256.")
        #expect(parseError(nested(10), options: ParseOptions(maxDepth: 9)) != nil)
        #expect(parseError(nested(10), options: ParseOptions(maxDepth: 10)) == nil)
        // Hostile nesting far beyond any stack: values, types and selections all fail cleanly.
        let deep = 200_000
        #expect(parseError("{ f(a: " + String(repeating: "[", count: deep) + String(repeating: "]", count: deep) + ") }") != nil)
        #expect(parseError("{ f(a: " + String(repeating: "{a: ", count: deep) + "1" + String(repeating: "}", count: deep) + ") }") != nil)
        #expect(parseError("query ($a: " + String(repeating: "[", count: deep) + "Int" + String(repeating: "]", count: deep) + ") { f }") != nil)
        #expect(parseError(nested(deep)) != nil)
    }

    @Test func parsesLargeDocumentsInLinearTime() throws {
        let fieldsText = (0..<50_000).map { "f\($0)(a: \"x\", b: [1, 2]) @d" }.joined(separator: " ")
        let document = try Parser.parse("{ " + fieldsText + " }")
        #expect(document.operations[0].selectionSet.selections.count == 50_000)
        let bigString = "{ f(a: \"" + String(repeating: "x", count: 1_000_000) + "\") }"
        #expect(try Parser.parse(bigString).definitions.count == 1)
    }

    @Test func parsesFromBytesAndReportsInvalidUTF8() {
        #expect(throws: GraphQLError.self) { try Parser.parse(Source(bytes: [0x7B, 0x20, 0xFF, 0x20, 0x7D])) }
        let body = [UInt8](repeating: 0xFE, count: 450_000)
        #expect(throws: GraphQLError.self) { try Parser.parse(Source(bytes: body)) }
    }
}
