import Testing
@testable import GraphQL

/// Builds a schema that must be valid.
func schema(_ sdl: String, options: BuildSchemaOptions = BuildSchemaOptions()) throws -> Schema {
    try buildSchema(sdl: sdl, options: options)
}

/// The error messages building `sdl` produces; empty when it builds.
func buildErrors(_ sdl: String) -> [String] {
    do {
        _ = try buildSchema(sdl: sdl)
        return []
    } catch {
        return error.errors.map(\.message)
    }
}

struct BuildSchemaTests {
    @Test func buildsEveryKindOfTypeWithDescriptions() throws {
        let built = try schema(#"""
            "The root"
            type Query implements Node {
              "The id"
              id: ID!
              search(term: String = "x", limit: Int! = 10): [Result!]!
              color: Color
            }
            interface Node { id: ID! }
            union Result = Query | Other
            type Other { name: String }
            enum Color { RED "green" GREEN }
            input Filter { term: String, nested: [Filter!] }
            scalar DateTime @specifiedBy(url: "https://example.com/datetime")
            type Mutation { run(filter: Filter): Boolean }
            """#)
        let query = try #require(built.queryType)
        #expect(query.name == "Query")
        #expect(query.description == "The root")
        #expect(query.interfaces.map(\.name) == ["Node"])
        #expect(query.fields.keys == ["id", "search", "color"])
        #expect(query.fields["id"]?.description == "The id")
        #expect(query.fields["search"]?.type.description == "[Result!]!")
        let limit = try #require(query.fields["search"]?.argument(named: "limit"))
        #expect(limit.defaultValue == .int(10))
        #expect(limit.isRequired == false)
        #expect(built.mutationType?.name == "Mutation")
        #expect(built.subscriptionType == nil)
        guard case .union(let result)? = built.type(named: "Result") else { Issue.record("Result is not a union"); return }
        #expect(result.types.map(\.name) == ["Query", "Other"])
        guard case .enumType(let color)? = built.type(named: "Color") else { Issue.record("Color is not an enum"); return }
        #expect(color.values.keys == ["RED", "GREEN"])
        #expect(color.values["GREEN"]?.description == "green")
        guard case .scalar(let dateTime)? = built.type(named: "DateTime") else { Issue.record("no DateTime"); return }
        #expect(dateTime.specifiedByURL == "https://example.com/datetime")
        #expect(try dateTime.parseValue("2025-01-01") == "2025-01-01")
        guard case .inputObject(let filter)? = built.type(named: "Filter") else { Issue.record("no Filter"); return }
        #expect(filter.fields["nested"]?.type.description == "[Filter!]")
        #expect(built.type(named: "__Schema") != nil)
        #expect(built.type(named: "String") != nil)
    }

    @Test func mergesExtensionsOfEveryKind() throws {
        let built = try schema("""
            type Query { a: Int }
            extend type Query implements Node { id: ID! }
            interface Node { id: ID! }
            interface Named { name: String }
            extend interface Named { nick: String }
            union U = Query
            extend union U = Other
            type Other implements Named { name: String nick: String }
            enum E { A }
            extend enum E { B }
            input I { x: Int }
            extend input I { y: Int }
            scalar S
            extend scalar S @specifiedBy(url: "https://s")
            extend schema { mutation: M }
            type M { go: Int }
            """)
        #expect(built.queryType?.fields.keys == ["a", "id"])
        #expect(built.queryType?.interfaces.map(\.name) == ["Node"])
        #expect(built.queryType?.extensionDefinitions.count == 1)
        #expect(built.type(named: "Named")?.fields?.keys == ["name", "nick"])
        guard case .union(let union)? = built.type(named: "U"),
              case .enumType(let enumType)? = built.type(named: "E"),
              case .inputObject(let input)? = built.type(named: "I"),
              case .scalar(let scalar)? = built.type(named: "S")
        else { Issue.record("missing types"); return }
        #expect(union.types.map(\.name) == ["Query", "Other"])
        #expect(enumType.values.keys == ["A", "B"])
        #expect(input.fields.keys == ["x", "y"])
        #expect(scalar.specifiedByURL == "https://s")
        #expect(built.mutationType?.name == "M")
    }

    @Test func usesTheSchemaDefinitionsRootTypes() throws {
        let built = try schema("""
            "Described"
            schema { query: Root subscription: Events }
            type Root { a: Int }
            type Events { tick: Int }
            type Query { unused: Int }
            """)
        #expect(built.queryType?.name == "Root")
        #expect(built.subscriptionType?.name == "Events")
        #expect(built.description == "Described")
        #expect(built.rootType(for: .mutation) == nil)
    }

    @Test func readsDeprecationOneOfAndDirectiveDefinitions() throws {
        let built = try schema("""
            directive @key(fields: String!) repeatable on OBJECT | INTERFACE
            directive @auth on FIELD_DEFINITION
            type Query @key(fields: "a") @key(fields: "b") {
              old: Int @deprecated
              older(arg: Int @deprecated(reason: "use other")): Int @deprecated(reason: "gone") @auth
            }
            enum E { A @deprecated(reason: "no") B }
            input Choice @oneOf { a: Int b: String @deprecated }
            """)
        let query = try #require(built.queryType)
        #expect(query.fields["old"]?.deprecationReason == "No longer supported")
        #expect(query.fields["older"]?.deprecationReason == "gone")
        #expect(query.fields["older"]?.argument(named: "arg")?.deprecationReason == "use other")
        guard case .enumType(let e)? = built.type(named: "E"), case .inputObject(let choice)? = built.type(named: "Choice")
        else { Issue.record("missing types"); return }
        #expect(e.values["A"]?.deprecationReason == "no")
        #expect(e.values["B"]?.isDeprecated == false)
        #expect(choice.isOneOf)
        #expect(choice.fields["b"]?.isDeprecated == true)
        let key = try #require(built.directive(named: "key"))
        #expect(key.isRepeatable)
        #expect(key.locations == [.object, .interface])
        #expect(built.directives.map(\.name) == ["key", "auth", "include", "skip", "deprecated", "specifiedBy", "oneOf"])
    }

    @Test func coercesDefaultValuesOfEveryInputKind() throws {
        let built = try schema("""
            type Query { f(
              e: E = B, list: [Int] = 1, obj: In = {a: 1}, id: ID = 5, float: Float = 2, nothing: String = null
            ): Int }
            enum E { A B }
            input In { a: Int, b: String = "dflt" }
            """)
        let field = try #require(built.queryType?.fields["f"])
        #expect(field.argument(named: "e")?.defaultValue == "B")
        #expect(field.argument(named: "list")?.defaultValue == [1])
        #expect(field.argument(named: "obj")?.defaultValue == ["a": 1, "b": "dflt"])
        #expect(field.argument(named: "id")?.defaultValue == "5")
        #expect(field.argument(named: "float")?.defaultValue == .double(2))
        #expect(field.argument(named: "nothing")?.defaultValue == .null)
    }

    @Test func appliesRegisteredCoercionToCustomScalars() throws {
        struct Upper: ScalarCoercing {
            func serialize(_ value: Any) throws -> JSON { .string("\(value)".uppercased()) }
            func parseValue(_ value: JSON) throws -> JSON {
                guard case .string(let string) = value else { throw GraphQLError(message: "Upper wants a string") }
                return .string(string.uppercased())
            }
        }
        let built = try schema("scalar Upper type Query { a(x: Upper = \"d\"): Upper }", options: BuildSchemaOptions(scalars: ["Upper": Upper()]))
        guard case .scalar(let upper)? = built.type(named: "Upper") else { Issue.record("no Upper"); return }
        #expect(try upper.serialize("abc") == "ABC")
        #expect(try upper.parseLiteral(literal("\"q\"")) == "Q")
        #expect(built.queryType?.fields["a"]?.argument(named: "x")?.defaultValue == "D")
        #expect(errorMessage { try upper.parseValue(1) } == "Upper wants a string")
    }

    @Test func reportsUnknownTypesWithLocations() throws {
        do {
            _ = try buildSchema(sdl: "type Query {\n  a: Strin\n  b(x: Inputt): Int\n}")
            Issue.record("built a schema with unknown types")
        } catch {
            #expect(error.code == .invalidSchema)
            #expect(Set(error.errors.map(\.message)) == ["Unknown type \"Strin\". Did you mean \"String\"?", "Unknown type \"Inputt\". Did you mean \"Int\"?"])
            let strin = try #require(error.errors.first { $0.message.contains("Strin\"") })
            #expect(strin.locations == [SourceLocation(line: 2, column: 6)])
        }
    }

    @Test func reportsSyntaxErrorsAsSuch() {
        do {
            _ = try buildSchema(sdl: "type Query {")
            Issue.record("built a schema from invalid syntax")
        } catch {
            #expect(error.code == .syntaxError)
            #expect(error.errors.first?.message.hasPrefix("Syntax Error") == true)
        }
    }

    @Test(arguments: [
        ("type Query { a: Int } type Query { b: Int }", "There can be only one type named \"Query\"."),
        ("type Query { a: Int a: String }", "Field \"Query.a\" can only be defined once."),
        ("type Query { a(x: Int, x: Int): Int }", "Argument \"Query.a(x:)\" can only be defined once."),
        ("type Query { a: E } enum E { A A }", "Enum value \"E.A\" can only be defined once."),
        ("type Query { a(i: I): Int } input I { x: Int x: Int }", "Field \"I.x\" can only be defined once."),
        ("type Query { a: Int } directive @d on FIELD directive @d on FIELD", "There can be only one directive named \"@d\"."),
        ("schema { query: Query } schema { query: Query } type Query { a: Int }", "Must provide only one schema definition."),
        ("schema { query: Query query: Query } type Query { a: Int }", "There can be only one query type in schema."),
        ("type Query { a: Int } extend type Missing { b: Int }", "Cannot extend type \"Missing\" because it is not defined."),
        ("type Query { a: Int } extend input Query { b: Int }", "Cannot extend non-input object type \"Query\"."),
        ("type Query { a: Int @unknown }", "Unknown directive \"@unknown\"."),
        ("type Query @deprecated { a: Int }", "Directive \"@deprecated\" may not be used on OBJECT."),
        ("type Query { a: Int @deprecated @deprecated }", "The directive \"@deprecated\" can only be used once at this location."),
        ("type Query { a: Int @deprecated(why: \"x\") }", "Unknown argument \"why\" on directive \"@deprecated\"."),
        ("scalar S @specifiedBy type Query { a: S }",
         "Directive \"@specifiedBy\" argument \"url\" of type \"String!\" is required, but it was not provided."),
        ("scalar S @specifiedBy(url: 1) type Query { a: S }", "Expected value of type \"String!\", found 1."),
        ("type Query implements Int { a: Int }", "Type Query must only implement Interface types, it cannot implement Int."),
        ("type Query { a: U } union U = Int", "Union type U can only include Object types, it cannot include Int."),
        ("schema { query: I } interface I { a: Int }", "Query root type must be Object type, it cannot be I."),
        ("type Query { a: Int } scalar Mutation", "Mutation root type must be Object type if provided, it cannot be Mutation."),
        ("type Query { a(i: A): Int } input A { b: B = {} } input B { a: A = {} }",
         "Invalid circular reference. The default value of Input Object field A.b references itself via the default values of: B.a."),
        ("query { a }", "A schema document may only contain type system definitions and extensions."),
    ])
    func reportsInconsistentDefinitions(sdl: String, message: String) {
        #expect(buildErrors(sdl).contains(message), "\(buildErrors(sdl))")
    }
}
