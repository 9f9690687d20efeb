import Foundation
import TestPython
import Testing
@testable import GraphQL

struct IntrospectionTests {
    static let sdl = #"""
        """The test schema."""
        schema { query: Query mutation: Mutation subscription: Subscription }

        "Something with an id."
        interface Node { id: ID! }
        interface Named implements Node { id: ID! name: String }

        "A person."
        type Person implements Node & Named {
          id: ID!
          name: String
          "Years since birth."
          age(unit: Unit = YEARS, precise: Boolean = false @deprecated(reason: "Always precise now.")): Float
          nick: String @deprecated
          friends(first: Int = 10, after: String, filter: Filter = {term: "a", tags: ["x"], limit: 3}): [Person!]!
        }
        type Pet implements Node { id: ID! kind: Unit }
        union SearchResult = Person | Pet

        enum Unit { YEARS "Months" MONTHS DAYS @deprecated(reason: "Too fine.") }

        "A filter."
        input Filter {
          term: String!
          tags: [String!] = []
          limit: Int = 20
          old: String @deprecated(reason: "Use term.")
        }
        input Pick @oneOf { id: ID name: String }

        scalar DateTime @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time")

        "Caches a field."
        directive @cached(ttl: Int = 60, scope: [String!]) repeatable on FIELD_DEFINITION | OBJECT

        type Query {
          node(id: ID!): Node
          search(term: String!, pick: Pick): [SearchResult!]
          now: DateTime
          matrix: [[[Int!]!]]!
        }
        type Mutation { rename(id: ID!, name: String!): Person }
        type Subscription { tick: Int }
        """#

    static func executor(options: ExecutorOptions = ExecutorOptions()) throws -> Executor {
        try makeExecutor(sdl, options: options)
    }

    @Test func describesATypeWithDeprecatedFieldsOnlyWhenAsked() async throws {
        let result = try await execute(Self.executor(), """
            {
              __type(name: "Person") {
                kind name description
                interfaces { name }
                fields { name }
                all: fields(includeDeprecated: true) { name isDeprecated deprecationReason }
              }
            }
            """)
        #expect(result == (try compact("""
            {"data":{"__type":{"kind":"OBJECT","name":"Person","description":"A person.",
              "interfaces":[{"name":"Node"},{"name":"Named"}],
              "fields":[{"name":"id"},{"name":"name"},{"name":"age"},{"name":"friends"}],
              "all":[{"name":"id","isDeprecated":false,"deprecationReason":null},
                     {"name":"name","isDeprecated":false,"deprecationReason":null},
                     {"name":"age","isDeprecated":false,"deprecationReason":null},
                     {"name":"nick","isDeprecated":true,"deprecationReason":"No longer supported"},
                     {"name":"friends","isDeprecated":false,"deprecationReason":null}]}}}
            """)))
    }

    @Test func printsDefaultValuesAsGraphQLLiterals() async throws {
        let result = try await execute(Self.executor(), """
            {
              person: __type(name: "Person") { fields { name args(includeDeprecated: true) { name defaultValue isDeprecated } } }
              filter: __type(name: "Filter") { inputFields { name defaultValue } all: inputFields(includeDeprecated: true) { name } }
            }
            """)
        #expect(result == (try compact(#"""
            {"data":{"person":{"fields":[{"name":"id","args":[]},{"name":"name","args":[]},
              {"name":"age","args":[{"name":"unit","defaultValue":"YEARS","isDeprecated":false},
                                    {"name":"precise","defaultValue":"false","isDeprecated":true}]},
              {"name":"friends","args":[{"name":"first","defaultValue":"10","isDeprecated":false},
                                        {"name":"after","defaultValue":null,"isDeprecated":false},
                                        {"name":"filter","defaultValue":"{term: \"a\", tags: [\"x\"], limit: 3}","isDeprecated":false}]}]},
             "filter":{"inputFields":[{"name":"term","defaultValue":null},{"name":"tags","defaultValue":"[]"},{"name":"limit","defaultValue":"20"}],
                       "all":[{"name":"term"},{"name":"tags"},{"name":"limit"},{"name":"old"}]}}}
            """#)))
    }

    @Test func describesEnumsOneOfInputsScalarsAndAbstractTypes() async throws {
        let result = try await execute(Self.executor(), """
            {
              unit: __type(name: "Unit") { enumValues { name description } fields { name } isOneOf }
              pick: __type(name: "Pick") { isOneOf }
              filter: __type(name: "Filter") { isOneOf }
              date: __type(name: "DateTime") { kind specifiedByURL }
              search: __type(name: "SearchResult") { possibleTypes { name } }
              node: __type(name: "Node") { possibleTypes { name } interfaces { name } }
              missing: __type(name: "Missing") { name }
            }
            """)
        #expect(result == (try compact("""
            {"data":{"unit":{"enumValues":[{"name":"YEARS","description":null},{"name":"MONTHS","description":"Months"}],"fields":null,"isOneOf":null},
             "pick":{"isOneOf":true},"filter":{"isOneOf":false},
             "date":{"kind":"SCALAR","specifiedByURL":"https://scalars.graphql.org/andimarek/date-time"},
             "search":{"possibleTypes":[{"name":"Person"},{"name":"Pet"}]},
             "node":{"possibleTypes":[{"name":"Person"},{"name":"Pet"}],"interfaces":[]},
             "missing":null}}
            """)))
    }

    @Test func describesWrappedTypesAndTheSchemaRoots() async throws {
        let result = try await execute(Self.executor(), """
            {
              __schema { description queryType { name } mutationType { name } subscriptionType { name } directives { name isRepeatable locations } }
              q: __type(name: "Query") { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
            }
            """)
        let expected = try compact("""
            {"data":{"__schema":{"description":"The test schema.","queryType":{"name":"Query"},"mutationType":{"name":"Mutation"},
              "subscriptionType":{"name":"Subscription"},
              "directives":[{"name":"cached","isRepeatable":true,"locations":["FIELD_DEFINITION","OBJECT"]},
                {"name":"include","isRepeatable":false,"locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"]},
                {"name":"skip","isRepeatable":false,"locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"]},
                {"name":"deprecated","isRepeatable":false,"locations":["FIELD_DEFINITION","ARGUMENT_DEFINITION","INPUT_FIELD_DEFINITION","ENUM_VALUE"]},
                {"name":"specifiedBy","isRepeatable":false,"locations":["SCALAR"]},
                {"name":"oneOf","isRepeatable":false,"locations":["INPUT_OBJECT"]}]},
             "q":{"fields":[
               {"name":"node","type":{"kind":"INTERFACE","name":"Node","ofType":null}},
               {"name":"search","type":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","name":null,"ofType":{"kind":"UNION","name":"SearchResult","ofType":null}}}},
               {"name":"now","type":{"kind":"SCALAR","name":"DateTime","ofType":null}},
               {"name":"matrix","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null}}}}}}]}}}
            """)
        #expect(result == expected)
    }

    @Test func answersTypenameEverywhereIncludingInsideIntrospection() async throws {
        let result = try await execute(Self.executor(), "{ __typename __schema { __typename queryType { __typename } } }")
        #expect(result == #"{"data":{"__typename":"Query","__schema":{"__typename":"__Schema","queryType":{"__typename":"__Type"}}}}"#)
    }

    @Test func failsSchemaAndTypeFieldsWhenIntrospectionIsDisabled() async throws {
        let executor = try Self.executor(options: ExecutorOptions(introspection: false))
        let result = try await execute(executor, "{ __typename __type(name: \"Query\") { name } }")
        #expect(result == #"{"errors":[{"message":"GraphQL introspection has been disabled, but the requested query contained the field \"__type\".","locations":[{"line":1,"column":14}],"path":["__type"]}],"data":{"__typename":"Query","__type":null}}"#)
        let schemaResult = try await execute(executor, "{ __schema { description } }")
        #expect(schemaResult.contains(#""data":null"#))
    }

    @Test func standardIntrospectionQueryRebuildsTheSameSchemaInGraphQLCore() async throws {
        let executor = try Self.executor()
        let result = await executor.execute(document: try Parser.parse(standardIntrospectionQuery))
        #expect(result.errors.isEmpty)
        let printed = try GraphQLCore.printClientSchema(introspection: result.serialized())
        // graphql-core 3.3 prints object literals as `{ a: 1 }` where our printer (like
        // graphql-js 16) writes `{a: 1}`, so its SDL is compared after a round trip through ours.
        #expect(printSchema(try buildSchema(sdl: printed)) == printSchema(executor.schema))
    }

    @Test func standardIntrospectionQueryAnswersAsGraphQLCoreDoes() async throws {
        let executor = try Self.executor()
        let result = await executor.execute(document: try Parser.parse(standardIntrospectionQuery))
        let differences = try GraphQLCore.introspectionDifferences(
            sdl: Self.sdl, query: standardIntrospectionQuery, ours: result.serialized())
        #expect(differences == [])
    }
}

/// graphql-core, the Python port of graphql-js, run from the project's virtualenv as an oracle.
enum GraphQLCore {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `build_client_schema` on an introspection response and prints the schema.
    static func printClientSchema(introspection response: [UInt8]) throws -> String {
        let script = """
            import json, sys
            from graphql import build_client_schema, print_schema
            response = json.load(sys.stdin)
            sys.stdout.write(print_schema(build_client_schema(response["data"])))
            """
        return try run(script, input: Data(response))
    }

    /// Where our response to `query` differs from graphql-core's own answer against the
    /// schema built from `sdl`: one line per differing value, empty when they agree. The
    /// order of `__schema.types` is not compared (type map order is the schema builder's
    /// choice), nor the introspection types' own descriptions and the built-in `@deprecated` definition (graphql-core 3.3 already has
    /// graphql-js 17's), and object literals in default values are compared in our printer's
    /// `{a: 1}` style.
    static func introspectionDifferences(sdl: String, query: String, ours: [UInt8]) throws -> [String] {
        let script = """
            import json, re, sys
            from graphql import build_schema, graphql_sync
            request = json.load(sys.stdin)
            theirs = graphql_sync(build_schema(request["sdl"]), request["query"])
            assert not theirs.errors, theirs.errors
            def normalize(value):
                if isinstance(value, dict):
                    return {key: (re.sub(r"\\{ | \\}", lambda m: m.group(0).strip(), item)
                                  if key == "defaultValue" and isinstance(item, str) else normalize(item))
                            for key, item in value.items()}
                if isinstance(value, list):
                    return [normalize(item) for item in value]
                return value
            def by_name(data):
                data = normalize(data)
                # The introspection types themselves are graphql-js 17's in graphql-core 3.3.
                data["__schema"]["types"] = {t["name"]: t for t in data["__schema"]["types"] if not t["name"].startswith("__")}
                # graphql-core 3.3 follows graphql-js 17's @deprecated (reason: String!, also
                # on DIRECTIVE_DEFINITION); the schema layer defines graphql-js 16's.
                data["__schema"]["directives"] = [d for d in data["__schema"]["directives"] if d["name"] != "deprecated"]
                return data
            def compare(a, b, path):
                if path == "data.__schema.types" and sorted(a) == sorted(b):
                    for key in sorted(a):
                        yield from compare(a[key], b[key], path + "." + key)
                elif isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b):
                    for key in a:
                        yield from compare(a[key], b[key], path + "." + key)
                elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
                    for index, (x, y) in enumerate(zip(a, b)):
                        yield from compare(x, y, f"{path}[{index}]")
                elif a != b:
                    yield f"{path}: ours {json.dumps(a)[:300]} theirs {json.dumps(b)[:300]}"
            ours = by_name(request["ours"]["data"])
            sys.stdout.write("\\n".join(compare(ours, by_name(theirs.data), "data")))
            """
        let request: JSON = ["sdl": .string(sdl), "query": .string(query), "ours": try JSON(parsing: ours)]
        let output = try run(script, input: Data(request.serialized()))
        return output.isEmpty ? [] : output.split(separator: "\n").map(String.init)
    }

    static func run(_ script: String, input: Data) throws -> String {
        let outcome = try TestPython.run(["-c", script], input: input)
        guard outcome.status == 0 else { throw Failure(description: "graphql-core failed: " + outcome.errors) }
        return outcome.output
    }
}
