import Testing
@testable import GraphQL

struct BuildClientSchemaTests {
    /// Every feature introspection can carry, in `printSchema`'s canonical form.
    static let sdl = #"""
        """The whole API."""
        schema {
          query: Root
          mutation: Mutation
          subscription: Subscription
        }

        """Keyed entities."""
        directive @key(fields: String!, note: String = "none") repeatable on OBJECT | INTERFACE

        directive @audit on FIELD | QUERY

        type Root implements Node & Named {
          id: ID!
          name: String

          """The items, newest first."""
          items(
            """How many."""
            first: Int = 10
            filter: Filter = {tags: ["a"], exact: true, role: ADMIN}
            old: Boolean @deprecated(reason: "Use `filter`.")
          ): [[Item!]]!
          legacy: String @deprecated
          when: DateTime
          search(by: SearchBy!): [Named!]
        }

        interface Node {
          id: ID!
        }

        interface Named implements Node {
          id: ID!
          name: String
        }

        union Item = Root | Thing

        type Thing implements Node {
          id: ID!
          role: Role
        }

        """Where a user stands."""
        enum Role {
          ADMIN

          """A member."""
          MEMBER @deprecated
          GUEST @deprecated(reason: "Invite instead.")
        }

        input Filter {
          tags: [String!]
          exact: Boolean = false
          role: Role
          nested: Filter
          legacy: Int @deprecated(reason: "Gone.")
        }

        input SearchBy @oneOf {
          id: ID
          name: String
        }

        """An instant, ISO 8601."""
        scalar DateTime @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")

        type Mutation {
          rename(id: ID!, name: String!): Named
        }

        type Subscription {
          ticks: Int!
        }
        """#

    @Test func rebuildsASchemaThatPrintsAsTheOriginalSDL() throws {
        let original = try buildSchema(sdl: Self.sdl)
        let rebuilt = try buildClientSchema(introspection: introspectionFromSchema(original))
        #expect(printSchema(rebuilt) == Self.sdl)
        #expect(printSchema(rebuilt) == printSchema(original))
    }

    @Test func theRebuiltSchemaPassesSchemaValidation() throws {
        let rebuilt = try buildClientSchema(introspection: introspectionFromSchema(try buildSchema(sdl: Self.sdl)))
        #expect(validateSchema(rebuilt).isEmpty)
    }

    @Test func rebuildsTheIntrospectionOfTheRebuiltSchemaIdentically() throws {
        let first = introspectionFromSchema(try buildSchema(sdl: Self.sdl))
        let second = introspectionFromSchema(try buildClientSchema(introspection: first))
        #expect(first == second)
    }

    @Test func coercesDefaultValuesAndUsesBuiltInScalarsAndDirectives() throws {
        let schema = try buildClientSchema(introspection: introspectionFromSchema(try buildSchema(sdl: Self.sdl)))
        guard case .object(let root) = schema.type(named: "Root") else { Issue.record("Root is not an object"); return }
        let filter = try #require(root.field(named: "items")?.argument(named: "filter"))
        #expect(filter.defaultValue == ["tags": ["a"], "exact": true, "role": "ADMIN"])
        #expect(root.field(named: "items")?.argument(named: "old")?.deprecationReason == "Use `filter`.")
        guard case .scalar(let int) = schema.type(named: "Int") else { Issue.record("Int is not a scalar"); return }
        #expect(int === ScalarType.int)
        #expect(schema.directive(named: "deprecated") === SchemaDirective.deprecated)
        #expect(schema.directive(named: "key")?.isRepeatable == true)
        guard case .inputObject(let searchBy) = schema.type(named: "SearchBy") else { Issue.record("no SearchBy"); return }
        #expect(searchBy.isOneOf)
        #expect(schema.description == "The whole API.")
    }

    @Test func acceptsAResultWithoutTheOptionalFieldsOlderServersLack() throws {
        let sdl = """
            type Query {
              a(x: Int): String
            }
            """
        var result = introspectionFromSchema(try buildSchema(sdl: sdl))
        result = Self.removingKeys(["isRepeatable", "specifiedByURL", "isOneOf", "description"], from: result)
        #expect(printSchema(try buildClientSchema(introspection: result)) == sdl)
    }

    @Test func introspectionQueryParsesAndSelectsTheOptionalFieldsOnlyWhenAsked() throws {
        let full = introspectionQuery(
            descriptions: true, specifiedByURL: true, directiveIsRepeatable: true, schemaDescription: true,
            inputValueDeprecation: true, oneOf: true)
        _ = try Parser.parse(full)
        _ = try Parser.parse(introspectionQuery())
        for word in ["specifiedByURL", "isRepeatable", "isOneOf", "args(includeDeprecated: true)"] {
            #expect(full.contains(word))
            #expect(!introspectionQuery().contains(word))
        }
        #expect(!introspectionQuery(descriptions: false).contains("description"))
        #expect(introspectionQuery(typeDepth: 3).ranges(of: "ofType").count == 3)
    }

    @Test func rejectsAFullResponseInsteadOfItsData() {
        let error = #expect(throws: SchemaError.self) {
            try buildClientSchema(introspection: ["data": ["__schema": [:]]])
        }
        #expect(error?.description.contains("pass the \"data\" of an introspection response") == true)
    }

    @Test func namesThePathOfAMissingEntry() {
        let result: JSON = ["__schema": ["queryType": ["name": "Query"], "types": [["kind": "OBJECT", "name": "Query"]]]]
        let error = #expect(throws: SchemaError.self) { try buildClientSchema(introspection: result) }
        #expect(error?.description == "Invalid introspection result: __schema.types[0].fields is missing.")
    }

    @Test func rejectsReferencesToUndefinedTypes() {
        let result: JSON = ["__schema": [
            "queryType": ["name": "Query"],
            "types": [["kind": "OBJECT", "name": "Query", "interfaces": [], "fields": [
                ["name": "a", "args": [], "type": ["kind": "OBJECT", "name": "Missing"]],
            ]]],
        ]]
        let error = #expect(throws: SchemaError.self) { try buildClientSchema(introspection: result) }
        #expect(error?.description.contains("__schema.types[0].fields[0].type refers to the unknown type Missing") == true)
    }

    @Test func rejectsReferencesOfTheWrongKind() {
        let result: JSON = ["__schema": [
            "queryType": ["name": "Query"],
            "types": [
                ["kind": "OBJECT", "name": "Query", "interfaces": [["kind": "OBJECT", "name": "Query"]], "fields": []],
            ],
        ]]
        let error = #expect(throws: SchemaError.self) { try buildClientSchema(introspection: result) }
        #expect(error?.description == "Invalid introspection result: __schema.types[0].interfaces[0] must refer to an interface type.")
    }

    @Test func rejectsWrappersCutOffByTheQueryDepth() {
        let result: JSON = ["__schema": [
            "queryType": ["name": "Query"],
            "types": [["kind": "OBJECT", "name": "Query", "fields": [
                ["name": "a", "args": [], "type": ["kind": "NON_NULL", "name": nil, "ofType": nil]],
            ]]],
        ]]
        let error = #expect(throws: SchemaError.self) { try buildClientSchema(introspection: result) }
        #expect(error?.description.contains("nested deeper than the query's typeDepth") == true)
    }

    @Test func rejectsDefaultValuesThatAreNotLiterals() {
        let result: JSON = ["__schema": [
            "queryType": ["name": "Query"],
            "types": [["kind": "OBJECT", "name": "Query", "fields": [
                ["name": "a", "args": [["name": "x", "type": ["kind": "SCALAR", "name": "Int"], "defaultValue": "{oops"]],
                 "type": ["kind": "SCALAR", "name": "Int"]],
            ]]],
        ]]
        let error = #expect(throws: SchemaError.self) { try buildClientSchema(introspection: result) }
        #expect(error?.description.contains("__schema.types[0].fields[0].args[0].defaultValue is not a GraphQL value literal") == true)
    }

    private static func removingKeys(_ keys: Set<String>, from json: JSON) -> JSON {
        switch json {
        case .object(let object):
            var result = OrderedMap<String, JSON>()
            for (key, value) in object where !keys.contains(key) { result[key] = removingKeys(keys, from: value) }
            return .object(result)
        case .array(let elements): return .array(elements.map { removingKeys(keys, from: $0) })
        default: return json
        }
    }
}
