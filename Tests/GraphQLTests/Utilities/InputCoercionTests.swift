import Testing
@testable import GraphQL

struct InputCoercionTests {
    static let built = try! buildSchema(sdl: """
        type Query { f(a: In, o: One, l: [[Int!]], e: E): Int }
        input In { req: Int!, opt: String = "dflt", nested: [Nested!], color: E }
        input Nested { n: Float! }
        input One @oneOf { a: Int, b: String }
        enum E { RED GREEN }
        """)

    static func argumentType(_ name: String) -> SchemaType {
        built.queryType!.fields["f"]!.argument(named: name)!.type
    }

    static func problems(_ value: JSON, _ argument: String) -> [String] {
        var errors: [String] = []
        _ = coerceInputValue(value, type: argumentType(argument)) { errors.append($0.description) }
        return errors
    }

    @Test func appliesDefaultsAndKeepsFieldOrder() throws {
        let coerced = try coerceInputValue(["color": "RED", "req": 1], type: Self.argumentType("a"))
        #expect(coerced == ["req": 1, "opt": "dflt", "color": "RED"])
    }

    @Test func wrapsSingleValuesInLists() throws {
        #expect(try coerceInputValue(1, type: Self.argumentType("l")) == [[1]])
        #expect(try coerceInputValue([1, [2, 3]], type: Self.argumentType("l")) == [[1], [2, 3]])
        #expect(try coerceInputValue(["req": 1, "nested": ["n": 2]], type: Self.argumentType("a"))
            == ["req": 1, "opt": "dflt", "nested": [["n": .double(2)]]])
    }

    @Test func reportsEveryProblemWithItsPath() {
        #expect(Self.problems(["nested": [["n": 1], ["n": "x"]], "extra": true, "color": "BLUE"], "a") == [
            "Invalid value { nested: [{ n: 1 }, { n: \"x\" }], extra: true, color: \"BLUE\" }: Field \"req\" of required type \"Int!\" was not provided.",
            "Invalid value \"x\" at \"value.nested[1].n\": Float cannot represent non numeric value: \"x\"",
            "Invalid value \"BLUE\" at \"value.color\": Value \"BLUE\" does not exist in \"E\" enum.",
            "Invalid value { nested: [{ n: 1 }, { n: \"x\" }], extra: true, color: \"BLUE\" }: Field \"extra\" is not defined by type \"In\".",
        ])
        #expect(Self.problems([1, [nil]], "l") == ["Invalid value null at \"value[1][0]\": Expected non-nullable type \"Int!\" not to be null."])
        #expect(Self.problems("req", "a") == ["Invalid value \"req\": Expected type \"In\" to be an object."])
        #expect(Self.problems(["rek": 1], "a").last == "Invalid value { rek: 1 }: Field \"rek\" is not defined by type \"In\". Did you mean \"req\"?")
        #expect(Self.problems("red", "e") == ["Invalid value \"red\": Value \"red\" does not exist in \"E\" enum. Did you mean the enum value \"RED\"?"])
    }

    @Test func enforcesOneOf() throws {
        #expect(try coerceInputValue(["b": "x"], type: Self.argumentType("o")) == ["b": "x"])
        #expect(Self.problems(["a": 1, "b": "x"], "o") == ["Invalid value { a: 1, b: \"x\" }: Exactly one key must be specified for OneOf type \"One\"."])
        #expect(Self.problems([:], "o") == ["Invalid value {}: Exactly one key must be specified for OneOf type \"One\"."])
        #expect(Self.problems(["a": nil], "o") == ["Invalid value null at \"value.a\": Field \"a\" must be non-null."])
    }

    @Test func coercesLiteralsWithVariables() throws {
        let type = Self.argumentType("a")
        #expect(valueFromAST(try literal("{req: 2, color: GREEN}"), type: type) == ["req": 2, "opt": "dflt", "color": "GREEN"])
        let withVariable = try Parser.parseValue(Source(body: "{req: $r, opt: $missing}"))
        #expect(valueFromAST(withVariable, type: type, variables: ["r": 5]) == ["req": 5, "opt": "dflt"])
        #expect(valueFromAST(withVariable, type: type, variables: [:]) == nil)
        let list = try Parser.parseValue(Source(body: "[[1, $x], 2]"))
        #expect(valueFromAST(list, type: Self.argumentType("l"), variables: ["x": 3]) == [[1, 3], [2]])
        #expect(valueFromAST(try literal("{req: 1, bogus: 2}"), type: type) == nil)
        #expect(valueFromAST(try literal("{a: 1, b: \"x\"}"), type: Self.argumentType("o")) == nil)
        #expect(valueFromAST(try literal("{a: null}"), type: Self.argumentType("o")) == nil)
        #expect(valueFromAST(try literal("\"RED\""), type: Self.argumentType("e")) == nil)
    }

    @Test func printsValuesBackAsLiterals() throws {
        let type = Self.argumentType("a")
        let value: JSON = ["req": 1, "opt": "s", "nested": [["n": .double(1.5)]], "color": "RED"]
        #expect(astFromValue(value, type: type).map(Printer.print) == "{req: 1, opt: \"s\", nested: [{n: 1.5}], color: RED}")
        #expect(astFromValue("12", type: .named(.scalar(.id))).map(Printer.print) == "12")
        #expect(astFromValue("abc", type: .named(.scalar(.id))).map(Printer.print) == "\"abc\"")
        #expect(astFromValue(.null, type: .nonNull(.named(.scalar(.int)))) == nil)
    }
}

struct SchemaModelTests {
    static let built = try! buildSchema(sdl: """
        type Query { node: Node, search: Result, user: User }
        interface Node { id: ID! }
        interface Entity implements Node { id: ID! }
        type User implements Entity & Node { id: ID!, name: String }
        type Post implements Node { id: ID! }
        union Result = User | Post
        """)

    @Test func numbersEveryFieldDenselyAcrossTheSchema() throws {
        let schema = Self.built
        #expect(schema.fields.indices.map { $0 } == schema.fields.map(\.index))
        #expect(schema.fieldCount == schema.fields.count)
        let name = try #require(schema.type(named: "User")?.fields?["name"])
        #expect(schema.fields[name.index] === name)
        #expect(schema.introspection.typeNameField.index == schema.fieldCount - 1)
    }

    @Test func answersAbstractTypeQuestions() throws {
        let schema = Self.built
        let node = try #require(schema.type(named: "Node"))
        let entity = try #require(schema.type(named: "Entity"))
        let user = try #require(schema.type(named: "User"))
        let post = try #require(schema.type(named: "Post"))
        let result = try #require(schema.type(named: "Result"))
        #expect(schema.possibleTypes(of: node).map(\.name) == ["User", "Post"])
        #expect(schema.possibleTypes(of: result).map(\.name) == ["User", "Post"])
        guard case .interface(let nodeInterface) = node else { Issue.record("Node is not an interface"); return }
        #expect(schema.implementations(of: nodeInterface).interfaces.map(\.name) == ["Entity"])
        #expect(schema.isSubType(user, of: node))
        #expect(schema.isSubType(entity, of: node))
        #expect(!schema.isSubType(post, of: entity))
        #expect(schema.typesOverlap(entity, result))
        #expect(!schema.typesOverlap(post, entity))
        #expect(schema.isTypeSubType(.nonNull(.named(user)), of: .named(node)))
        #expect(!schema.isTypeSubType(.list(.named(user)), of: .named(node)))
        #expect(schema.isTypeSubType(.nonNull(.list(.nonNull(.named(user)))), of: .list(.named(entity))))
    }

    @Test func findsMetaFieldsWhereTheSpecAllowsThem() throws {
        let schema = Self.built
        let query = try #require(schema.type(named: "Query"))
        let user = try #require(schema.type(named: "User"))
        #expect(schema.field(named: "__schema", on: query) === schema.introspection.schemaField)
        #expect(schema.field(named: "__type", on: query) === schema.introspection.typeField)
        #expect(schema.field(named: "__schema", on: user) == nil)
        #expect(schema.field(named: "__typename", on: user) === schema.introspection.typeNameField)
        #expect(schema.field(named: "name", on: user)?.type.description == "String")
    }

    @Test func describesTypeReferences() throws {
        let user = try #require(Self.built.type(named: "User"))
        let type = SchemaType.nonNull(.list(.nonNull(.named(user))))
        #expect(type.description == "[User!]!")
        #expect(type.namedType == user)
        #expect(type.isOutputType && !type.isInputType && !type.isLeafType)
        #expect(type.nullableType.isList)
    }

    @Test func refusesTypesThatAnotherSchemaAlreadyOwns() throws {
        let query = ObjectType(name: "Query", fields: [SchemaField(name: "a", type: .named(.scalar(.int)))])
        _ = try Schema(query: query)
        #expect(throws: SchemaError.self) { try Schema(query: query) }
    }

    @Test func closesCyclesDuringTheBuildPhase() throws {
        let user = ObjectType(name: "User")
        user.define(fields: [SchemaField(name: "friends", type: .list(.named(.object(user))))], interfaces: [])
        let schema = try Schema(query: ObjectType(name: "Query", fields: [SchemaField(name: "me", type: .named(.object(user)))]))
        #expect(validateSchema(schema).isEmpty)
        #expect(schema.type(named: "User") == .object(user))
    }
}
