import Testing
@testable import GraphQL

/// Interfaces and unions: type resolution, fragments on abstract types and the check that
/// the runtime type is a possible type.
struct AbstractTypeTests {
    static let sdl = """
        type Query { pets: [Pet] search: [Result!] wrong: Pet bad: Pet }
        interface Pet { name: String! }
        type Dog implements Pet { name: String! barks: Boolean }
        type Cat implements Pet { name: String! meows: Boolean }
        type Person { name: String! }
        union Result = Dog | Person
        """

    struct Cat: TypeNameResolvable, FieldResolvable {
        var graphQLTypeName: String { "Cat" }
        func fieldValue(named name: String) -> Any? {
            switch name {
            case "name": "Tom"
            case "meows": true
            default: nil
            }
        }
    }

    static func executor(withTypeResolver: Bool = false) throws -> Executor {
        try makeExecutor(sdl) { r in
            r.resolve("Query", "pets") { _, _, _, _ in
                [["__typename": "Dog", "name": "Rex", "barks": true] as [String: any Sendable], Cat()] as [Any]
            }
            r.resolve("Query", "search") { _, _, _, _ in
                [["kind": "dog", "name": "Rex"], ["kind": "person", "name": "Ann"]] as [[String: any Sendable]]
            }
            r.resolve("Query", "wrong") { _, _, _, _ in ["__typename": "Person", "name": "Ann"] as [String: any Sendable] }
            r.resolve("Query", "bad") { _, _, _, _ in ["name": "Nobody"] as [String: any Sendable] }
            r.resolveType("Result") { value, _, _ in
                (value as? [String: any Sendable])?["kind"] as? String == "dog" ? "Dog" : "Person"
            }
        }
    }

    @Test func resolvesInterfaceValuesByTypenameKeyOrProtocol() async throws {
        let result = try await execute(Self.executor(), "{ pets { __typename name ... on Dog { barks } ... on Cat { meows } } }")
        #expect(result == #"{"data":{"pets":[{"__typename":"Dog","name":"Rex","barks":true},{"__typename":"Cat","name":"Tom","meows":true}]}}"#)
    }

    @Test func resolvesUnionValuesWithTheRegisteredTypeResolver() async throws {
        let result = try await execute(Self.executor(), "{ search { __typename ... on Person { name } ...D } } fragment D on Dog { name }")
        #expect(result == #"{"data":{"search":[{"__typename":"Dog","name":"Rex"},{"__typename":"Person","name":"Ann"}]}}"#)
    }

    @Test func appliesAnInterfaceFieldResolverToEveryImplementation() async throws {
        let executor = try makeExecutor(Self.sdl) { r in
            r.resolve("Query", "pets") { _, _, _, _ in [Cat(), ["__typename": "Dog"] as [String: any Sendable]] as [Any] }
            r.resolve("Pet", "name") { _, _, _, info in "a \(info.parentType.name)" }
            r.resolve("Dog", "name") { _, _, _, _ in "Rex" }
        }
        let result = try await execute(executor, "{ pets { name } }")
        #expect(result == #"{"data":{"pets":[{"name":"a Cat"},{"name":"Rex"}]}}"#)
    }

    @Test func rejectsARuntimeTypeThatIsNotAPossibleType() async throws {
        let result = try await execute(Self.executor(), "{ wrong { name } }")
        #expect(result == #"{"errors":[{"message":"Runtime Object type \"Person\" is not a possible type for \"Pet\".","locations":[{"line":1,"column":3}],"path":["wrong"]}],"data":{"wrong":null}}"#)
    }

    @Test func reportsAValueWhoseTypeCannotBeDetermined() async throws {
        let result = try await Self.executor().execute(document: try Parser.parse("{ bad { name } }"))
        #expect(result.errors.map(\.message) == [
            #"Abstract type "Pet" must resolve to an Object type at runtime for field "Query.bad". Either the "Pet" type should provide a type resolver or the value should carry its "__typename"."#,
        ])
    }
}
