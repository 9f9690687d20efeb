import Testing
@testable import GraphQL

/// The messages of schema validation for `sdl`, which must build.
func validationErrors(_ sdl: String) throws -> [String] {
    let built = try buildSchema(sdl: sdl, options: BuildSchemaOptions(validate: false))
    return validateSchema(built).map(\.message)
}

struct ValidateSchemaTests {
    @Test(arguments: [
        // Root types
        "type Query { a: Int }",
        "schema { query: Q mutation: M } type Q { a: Int } type M { a: Int }",
        // Interfaces implemented correctly, including covariance and transitive interfaces.
        """
        type Query { n: Node }
        interface Node { id: ID! friends(first: Int): [Node] }
        interface Named implements Node { id: ID! friends(first: Int): [Node] name: String }
        type User implements Named & Node { id: ID! friends(first: Int, after: String): [User!]! name: String! }
        """,
        // Unions, enums, input objects, oneOf, nullable cycles, defaults.
        """
        type Query { u(f: F = {a: 1, self: null}, c: C, e: E = A): U }
        union U = Query | Other
        type Other { a: Int }
        enum E { A B }
        input F { a: Int! self: F list: [F!]! = [] }
        input C @oneOf { a: Int b: String }
        """,
        "type Query { a(x: Int = 1 @deprecated, y: Int! = 2 @deprecated): Int } input I { f: Int! = 1 @deprecated }",
    ])
    func acceptsValidSchemas(sdl: String) throws {
        #expect(try validationErrors(sdl) == [])
    }

    @Test(arguments: [
        ("schema { mutation: M } type M { a: Int }", "Query root type must be provided."),
        ("schema { query: Q mutation: Q } type Q { a: Int }",
         "All root types must be different, \"Q\" type is used as query and mutation root types."),
        ("type Query { __a: Int }", "Name \"__a\" must not begin with \"__\", which is reserved by GraphQL introspection."),
        ("type Query { a: __T } type __T { a: Int }",
         "Name \"__T\" must not begin with \"__\", which is reserved by GraphQL introspection."),
        ("type Query { a(__x: Int): Int }", "Name \"__x\" must not begin with \"__\", which is reserved by GraphQL introspection."),
        ("type Query { a: Int } directive @__d on FIELD",
         "Name \"__d\" must not begin with \"__\", which is reserved by GraphQL introspection."),
        ("type Query { a: E } enum E { __V }", "Name \"__V\" must not begin with \"__\", which is reserved by GraphQL introspection."),
        ("type Query { a: O } type O", "Type O must define one or more fields."),
        ("type Query { a: I } interface I", "Type I must define one or more fields."),
        ("type Query { a: In } input In { x: Int }", "The type of Query.a must be Output Type but got: In."),
        ("type Query { a(x: Query): Int }", "The type of Query.a(x:) must be Input Type but got: Query."),
        ("type Query { a: Int } directive @d(x: Query) on FIELD", "The type of @d(x:) must be Input Type but got: Query."),
        ("type Query { a(i: I): Int } input I { x: Query }", "The type of I.x must be Input Type but got: Query."),
        ("type Query { a(x: Int! @deprecated): Int }", "Required argument Query.a(x:) cannot be deprecated."),
        ("type Query { a: Int } directive @d(x: Int! @deprecated) on FIELD", "Required argument @d(x:) cannot be deprecated."),
        ("type Query { a(i: I): Int } input I { x: Int! @deprecated }", "Required input field I.x cannot be deprecated."),
        ("type Query implements I { a: Int } interface I { b: Int }",
         "Interface field I.b expected but Query does not provide it."),
        ("type Query implements I { a: Int } interface I { a: String }",
         "Interface field I.a expects type String but Query.a is type Int."),
        ("type Query implements I { a: [Int] } interface I { a: [Int]! }",
         "Interface field I.a expects type [Int]! but Query.a is type [Int]."),
        ("type Query implements I { a: Int } interface I { a(x: Int): Int }",
         "Interface field argument I.a(x:) expected but Query.a does not provide it."),
        ("type Query implements I { a(x: Int!): Int } interface I { a(x: Int): Int }",
         "Interface field argument I.a(x:) expects type Int but Query.a(x:) is type Int!."),
        ("type Query implements I { a(y: Int!): Int } interface I { a: Int }",
         "Argument \"Query.a(y:)\" must not be required type \"Int!\" if not provided by the Interface field \"I.a\"."),
        ("type Query implements J { a: Int } interface I { a: Int } interface J implements I { a: Int }",
         "Type Query must implement I because it is implemented by J."),
        ("type Query { a: I } interface I implements I { a: Int }",
         "Type I cannot implement itself because it would create a circular reference."),
        ("type Query { a: I } interface I implements J & I { a: Int } interface J implements I { a: Int }",
         "Type J cannot implement I because it would create a circular reference."),
        ("type Query implements I & I { a: Int } interface I { a: Int }", "Type Query can only implement I once."),
        ("type Query { a: U } union U = Query | Query", "Union type U can only include type Query once."),
        ("type Query { a: E } enum E", "Enum type E must define one or more values."),
        ("type Query { a(i: I): Int } input I", "Input Object type I must define one or more fields."),
        ("type Query { a(i: I): Int } input I { self: I! }",
         "Invalid circular reference. The Input Object I references itself in the non-null field I.self."),
        ("type Query { a(i: A): Int } input A { b: B! } input B { a: A! }",
         "Invalid circular reference. The Input Object A references itself via the non-null fields: A.b, B.a."),
        ("type Query { a(i: I): Int } input I @oneOf { x: Int! y: Int }", "OneOf input field I.x must be nullable."),
        ("type Query { a(i: I): Int } input I @oneOf { x: Int = 1 y: Int }", "OneOf input field I.x cannot have a default value."),
        ("type Query { a(x: Int = \"one\"): Int }",
         "Query.a(x:) has invalid default value: Int cannot represent non-integer value: \"one\""),
        ("type Query { a(x: [Int] = [1, 2.5]): Int }",
         "Query.a(x:) has invalid default value at \"value[1]\": Int cannot represent non-integer value: 2.5"),
        ("type Query { a(i: I = {y: 1}): Int } input I { x: Int! }",
         "Query.a(i:) has invalid default value: Field \"x\" of required type \"Int!\" was not provided."),
        ("type Query { a(e: E = \"A\"): Int } enum E { A }",
         "Query.a(e:) has invalid default value: Expected value of type \"E\", found \"A\"."),
        ("type Query { a: Int } directive @d on",
         "Directive @d must include 1 or more locations."),
    ])
    func reportsEachRuleViolation(sdl: String, message: String) throws {
        let errors: [String]
        do {
            errors = try validationErrors(sdl)
        } catch {
            // SDL the parser refuses (a directive without locations) is built programmatically below.
            errors = validateSchema(try Schema(
                query: ObjectType(name: "Query", fields: [SchemaField(name: "a", type: .named(.scalar(.int)))]),
                directives: [SchemaDirective(name: "d", locations: [])])).map(\.message)
        }
        #expect(errors.contains(message), "\(errors)")
    }

    @Test func reportsEveryViolationWithItsLocation() throws {
        let sdl = """
            type Query implements I {
              a: Int
            }
            interface I {
              a: String
              b: Int
            }
            """
        do {
            _ = try buildSchema(sdl: sdl)
            Issue.record("an invalid schema was built")
        } catch {
            #expect(error.errors.map(\.message) == [
                "Interface field I.a expects type String but Query.a is type Int.",
                "Interface field I.b expected but Query does not provide it.",
            ])
            #expect(error.errors[0].locations == [SourceLocation(line: 5, column: 6), SourceLocation(line: 2, column: 6)])
            #expect(error.errors[1].locations == [SourceLocation(line: 6, column: 3), SourceLocation(line: 1, column: 1)])
            #expect(error.description.contains("(5:6)"))
        }
    }

    @Test func validatesProgrammaticSchemasThroughTheSameRules() throws {
        let built = try Schema(query: ObjectType(name: "Query"))
        #expect(validateSchema(built).map(\.message) == ["Type Query must define one or more fields."])
        #expect(throws: SchemaError.self) { try built.validate() }
    }
}
