import Testing

@testable import GraphQL

/// The type definitions and extensions of a document, in order.
private func types(_ document: Document) -> [(TypeDefinition, isExtension: Bool)] {
    document.definitions.compactMap {
        switch $0 {
        case .type(let type): (type, false)
        case .typeExtension(let type): (type, true)
        default: nil
        }
    }
}

struct SchemaParserTests {
    @Test func parsesTheKitchenSinkSchema() throws {
        let document = try Parser.parse(Fixtures.kitchenSinkSchema)
        guard case .schema(let schema) = document.definitions[0] else {
            Issue.record("expected a schema definition")
            return
        }
        #expect(schema.description?.value == "The schema's description.")
        #expect(schema.operationTypes.map(\.operation) == [.query, .mutation])
        #expect(schema.operationTypes.map(\.type.value) == ["QueryType", "MutationType"])
        #expect(schema.directives.map(\.name.value) == ["onSchema"])

        let all = types(document)
        guard case .object(let foo) = all[0].0 else {
            Issue.record("expected an object type")
            return
        }
        #expect(foo.description?.value == "This is a description\nof the `Foo` type.")
        #expect(foo.interfaces.map(\.value) == ["Bar", "Baz", "Two"])
        #expect(foo.fields.map(\.name.value) == ["one", "two", "three", "four", "five", "six", "seven"])
        #expect(foo.fields[0].description?.value == "Description of the `one` field.")
        #expect(foo.fields[1].arguments[0].description?.value == "This is a description of the `argument` argument.")
        #expect(foo.fields[1].arguments[0].type.description == "InputType!")
        #expect(foo.fields[3].arguments[0].defaultValue.map(Printer.print) == "\"string\"")
        #expect(foo.fields[6].arguments[0].defaultValue.map(Printer.print) == "null")

        let extensions = all.filter(\.isExtension).map { "\($0.0.name.value)" }
        #expect(extensions == ["Foo", "Foo", "Bar", "Bar", "Feed", "Feed", "CustomScalar", "Site", "Site", "InputType", "InputType"])

        let unions = all.compactMap { if case .union(let union) = $0.0 { union } else { nil } }
        #expect(unions.map(\.types.count) == [3, 2, 2, 0, 2, 0])
        let enums = all.compactMap { if case .enumType(let type) = $0.0 { type } else { nil } }
        #expect(enums[0].values.map(\.name.value) == ["DESKTOP", "MOBILE", "WEB"])
        #expect(enums[0].values[1].description?.value == "This is a description of the `MOBILE` value")
        let inputs = all.compactMap { if case .inputObject(let type) = $0.0 { type } else { nil } }
        #expect(inputs[0].directives.map(\.name.value) == ["oneOf"])
        #expect(inputs[0].fields[1].defaultValue.map(Printer.print) == "42")

        let directives = document.definitions.compactMap { if case .directive(let node) = $0 { node } else { nil } }
        #expect(directives.map(\.name.value) == ["skip", "include", "include2", "myRepeatableDir"])
        #expect(directives[0].locations.map(\.value) == ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"])
        #expect(directives[2].locations.count == 3)
        #expect(directives.map(\.isRepeatable) == [false, false, false, true])
        #expect(directives[0].arguments[0].directives.map(\.name.value) == ["onArgumentDefinition"])

        let schemaExtensions = document.definitions.compactMap {
            if case .schemaExtension(let node) = $0 { node } else { nil }
        }
        #expect(schemaExtensions.map(\.operationTypes.count) == [0, 1])
    }

    @Test func parsesInterfacesImplementingInterfaces() throws {
        let document = try Parser.parse("interface A implements & B & C { f: Int }")
        guard case .type(.interface(let interface)) = document.definitions[0] else {
            Issue.record("expected an interface")
            return
        }
        #expect(interface.interfaces.map(\.value) == ["B", "C"])
    }

    @Test func parsesEveryDirectiveLocation() throws {
        let locations = DirectiveLocation.allCases.map(\.rawValue).joined(separator: " | ")
        let document = try Parser.parse("directive @d on \(locations)")
        guard case .directive(let directive) = document.definitions[0] else {
            Issue.record("expected a directive definition")
            return
        }
        #expect(directive.locations.count == DirectiveLocation.allCases.count)
    }

    @Test func reportsSchemaSyntaxErrors() {
        expectSyntaxError("type A {}", "Expected Name, found \"}\".", 1, 9)
        expectSyntaxError("type A { f }", "Expected \":\", found \"}\".", 1, 12)
        expectSyntaxError("type A implements B & { f: Int }", "Expected Name, found \"{\".", 1, 23)
        expectSyntaxError("union U = | ", "Expected Name, found <EOF>.", 1, 13)
        expectSyntaxError("union U = A | | B", "Expected Name, found \"|\".", 1, 15)
        expectSyntaxError("enum E { true }", "Name \"true\" is reserved and cannot be used for an enum value.", 1, 10)
        expectSyntaxError("enum E { A, null }", "Name \"null\" is reserved and cannot be used for an enum value.", 1, 13)
        expectSyntaxError("directive @d on FOO", "Unexpected Name \"FOO\".", 1, 17)
        expectSyntaxError("directive @d(a: Int) FIELD", "Expected \"on\", found Name \"FIELD\".", 1, 22)
        expectSyntaxError("directive d on FIELD", "Expected \"@\", found Name \"d\".", 1, 11)
        expectSyntaxError("extend type A", "Unexpected <EOF>.", 1, 14)
        expectSyntaxError("extend scalar S", "Unexpected <EOF>.", 1, 16)
        expectSyntaxError("extend union U", "Unexpected <EOF>.", 1, 15)
        expectSyntaxError("extend enum E", "Unexpected <EOF>.", 1, 14)
        expectSyntaxError("extend input I", "Unexpected <EOF>.", 1, 15)
        expectSyntaxError("extend interface I", "Unexpected <EOF>.", 1, 19)
        expectSyntaxError("extend schema", "Unexpected <EOF>.", 1, 14)
        expectSyntaxError("extend foo", "Unexpected Name \"foo\".", 1, 8)
        expectSyntaxError("extend {", "Unexpected \"{\".", 1, 8)
        expectSyntaxError("schema {}", "Expected Name, found \"}\".", 1, 9)
        expectSyntaxError("schema { foo: Bar }", "Unexpected Name \"foo\".", 1, 10)
        expectSyntaxError("schema { query Bar }", "Expected \":\", found Name \"Bar\".", 1, 16)
        expectSyntaxError("input I { a: Int = $v }", "Unexpected variable \"$v\" in constant value.", 1, 20)
        expectSyntaxError("type A @d(a: $v) { f: Int }", "Unexpected variable \"$v\" in constant value.", 1, 14)
        expectSyntaxError("\"d\" \"e\" type A", "Unexpected String \"e\".", 1, 5)
        expectSyntaxError("scalar", "Expected Name, found <EOF>.", 1, 7)
    }
}
