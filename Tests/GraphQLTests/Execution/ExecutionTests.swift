import Synchronization
import Testing
@testable import GraphQL

struct ExecutionTests {
    static let sdl = """
        type Query {
          hello(name: String = "world"): String
          number: Int!
          person(id: ID!): Person
          people: [Person!]!
          slowNumber: Int
          slowPeople: [Person]
          fail: String
          failCoded: String
          failNonNull: String!
          tags: [String]
          strictTags: [String!]
          matrix: [[Int!]]
          json: Person
          resolvable: Person
        }
        type Person { id: ID! name: String age: Int friends: [Person!] }
        """

    static let people: [[String: any Sendable]] = [
        ["id": "1", "name": "Ada", "age": 36],
        ["id": "2", "name": "Grace", "age": 85, "friends": [["id": "1", "name": "Ada"]]],
    ]

    struct Model: FieldResolvable {
        func fieldValue(named name: String) -> Any? {
            switch name {
            case "id": "m1"
            case "name": "Model"
            default: nil
            }
        }
    }

    static func executor() throws -> Executor {
        try makeExecutor(sdl) { r in
            r.resolve("Query", "hello") { _, arguments, _, _ in "Hello, \(arguments.string("name") ?? "nobody")" }
            r.resolve("Query", "number") { _, _, _, _ in 42 }
            r.resolve("Query", "person") { _, arguments, _, _ in
                people.first { $0["id"] as? String == arguments.string("id") }
            }
            r.resolve("Query", "people") { _, _, _, _ in people }
            r.resolveAsync("Query", "slowNumber") { _, _, _, _ in
                await Task.yield()
                return 7
            }
            r.resolve("Query", "slowPeople") { _, _, _, _ in people }
            r.resolveField("Person", "age") { source, _, _, info in
                // Async only inside the list under `slowPeople`, to mix both kinds in one list.
                let age = (source as? [String: any Sendable])?["age"]
                guard info.path.first == .key("slowPeople") else { return .value(age) }
                return .async {
                    await Task.yield()
                    return age
                }
            }
            r.resolve("Query", "fail") { _, _, _, _ in throw GraphQLError(message: "boom") }
            r.resolve("Query", "failCoded") { _, _, _, _ in throw CodedError(code: "NOT_FOUND", message: "no such thing") }
            r.resolve("Query", "failNonNull") { _, _, _, _ in nil }
            r.resolve("Query", "tags") { _, _, _, _ in ["a", nil, "c"] as [String?] }
            r.resolve("Query", "strictTags") { _, _, _, _ in ["a", nil, "c"] as [String?] }
            r.resolve("Query", "matrix") { _, _, _, _ in [[1, 2], [3]] }
            r.resolve("Query", "json") { _, _, _, _ in JSON.object(["id": 9, "name": "Json"]) }
            r.resolve("Query", "resolvable") { _, _, _, _ in Model() }
        }
    }

    @Test func executesFieldsInDocumentOrderWithAliasesAndArguments() async throws {
        let result = try await execute(Self.executor(), #"{ number a: hello b: hello(name: "Bob") person(id: 2) { name id } }"#)
        #expect(result == #"{"data":{"number":42,"a":"Hello, world","b":"Hello, Bob","person":{"name":"Grace","id":"2"}}}"#)
    }

    @Test func readsDictionariesJSONObjectsAndFieldResolvablesWithTheDefaultResolver() async throws {
        let result = try await execute(Self.executor(), "{ people { name friends { name } } json { id name } resolvable { id name age } }")
        #expect(result == #"{"data":{"people":[{"name":"Ada","friends":null},{"name":"Grace","friends":[{"name":"Ada"}]}],"json":{"id":"9","name":"Json"},"resolvable":{"id":"m1","name":"Model","age":null}}}"#)
    }

    @Test func mergesFieldsFromFragmentsAndHonoursSkipAndInclude() async throws {
        let result = try await execute(Self.executor(), """
            query ($no: Boolean!) {
              person(id: "1") { ...Names ... on Person { age } id @skip(if: true) name @include(if: $no) }
              number @include(if: $no)
            }
            fragment Names on Person { name id }
            """, variables: ["no": false])
        #expect(result == #"{"data":{"person":{"name":"Ada","id":"1","age":36}}}"#)
    }

    @Test func suspendsOnlyAtAsyncFieldsIncludingInsideLists() async throws {
        let result = try await execute(Self.executor(), "{ slowNumber number slowPeople { name age } people { age } }")
        #expect(result == #"{"data":{"slowNumber":7,"number":42,"slowPeople":[{"name":"Ada","age":36},{"name":"Grace","age":85}],"people":[{"age":36},{"age":85}]}}"#)
    }

    /// The rows whose `late` field was resolved, in call order.
    final class LateCalls: Sendable {
        let rows = Mutex<[Int]>([])
    }

    /// An executor whose rows resolve `value` and `late` asynchronously; `value` is null for
    /// row 2, and every `late` call is recorded in `lateCalls`.
    static func asyncRowsExecutor(lateCalls: LateCalls) throws -> Executor {
        try makeExecutor("""
            type Query { rows: [Row] strictRows: [Row!] row(id: Int!): Row slowRow(id: Int!): Row count: Int }
            type Row { id: Int! value: Int! late: Int }
            """) { r in
            r.resolve("Query", "rows") { _, _, _, _ in [1, 2, 3] }
            r.resolve("Query", "strictRows") { _, _, _, _ in [1, 2, 3] }
            r.resolve("Query", "row") { _, arguments, _, _ in arguments.int("id") }
            r.resolveAsync("Query", "slowRow") { _, arguments, _, _ in arguments.int("id") }
            r.resolve("Query", "count") { _, _, _, _ in 3 }
            r.resolve("Row", "id") { source, _, _, _ in source }
            r.resolveAsync("Row", "value") { source, _, _, _ in source as! Int == 2 ? nil : source as! Int * 10 }
            r.resolveAsync("Row", "late") { source, _, _, _ in
                lateCalls.rows.withLock { $0.append(source as! Int) }
                return source
            }
        }
    }

    @Test func nullsTheNearestNullableValueAroundAFailedAsyncFieldAndSkipsItsLaterAsyncFields() async throws {
        let lateCalls = LateCalls()
        let result = try await execute(
            Self.asyncRowsExecutor(lateCalls: lateCalls), "{ rows { id value late } strictRows { id value } count }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Row.value.","locations":[{"line":1,"column":13}],"path":["rows",1,"value"]},{"message":"Cannot return null for non-nullable field Row.value.","locations":[{"line":1,"column":42}],"path":["strictRows",1,"value"]}],"data":{"rows":[{"id":1,"value":10,"late":1},null,{"id":3,"value":30,"late":3}],"strictRows":null,"count":3}}"#)
        #expect(lateCalls.rows.withLock { $0 } == [1, 3])
    }

    @Test func propagatesAFailedAsyncFieldThroughTheAsyncValueThatHoldsIt() async throws {
        let lateCalls = LateCalls()
        let result = try await execute(
            Self.asyncRowsExecutor(lateCalls: lateCalls), "{ a: slowRow(id: 2) { value late } b: slowRow(id: 3) { value late } row(id: 1) { id } }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Row.value.","locations":[{"line":1,"column":23}],"path":["a","value"]}],"data":{"a":null,"b":{"value":30,"late":3},"row":{"id":1}}}"#)
        #expect(lateCalls.rows.withLock { $0 } == [3])
    }

    @Test func nullsTheWholeDataWhenAFailedAsyncFieldHasNoNullableAncestor() async throws {
        let executor = try makeExecutor("type Query { number: Int! slow: Int! }") { r in
            r.resolve("Query", "number") { _, _, _, _ in 1 }
            r.resolveAsync("Query", "slow") { _, _, _, _ in nil }
        }
        let result = try await execute(executor, "{ number slow }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.slow.","locations":[{"line":1,"column":10}],"path":["slow"]}],"data":null}"#)
    }

    @Test func readsDictionaryFieldsAroundNestedObjectsWithLongAndMissingKeys() async throws {
        let executor = try makeExecutor("""
            type Query { rows: [Row] }
            type Row { id: ID aVeryLongFieldNameIndeed: String child: Row missing: Int flag: Boolean }
            """) { r in
            r.resolve("Query", "rows") { _, _, _, _ in
                let child: [String: any Sendable] = ["id": "c", "aVeryLongFieldNameIndeed": "inner", "flag": false]
                let rows: [[String: any Sendable]] = [
                    ["id": "1", "aVeryLongFieldNameIndeed": "first", "child": child, "flag": true],
                    ["id": "2", "aVeryLongFieldNameIndeed": String(repeating: "long ", count: 5), "flag": false],
                ]
                return rows
            }
        }
        let result = try await execute(
            executor, "{ rows { id child { flag aVeryLongFieldNameIndeed id } aVeryLongFieldNameIndeed missing flag } }")
        #expect(result == #"{"data":{"rows":[{"id":"1","child":{"flag":false,"aVeryLongFieldNameIndeed":"inner","id":"c"},"aVeryLongFieldNameIndeed":"first","missing":null,"flag":true},{"id":"2","child":null,"aVeryLongFieldNameIndeed":"long long long long long ","missing":null,"flag":false}]}}"#)
    }

    @Test func reportsResolverErrorsWithMessageLocationPathAndExtensions() async throws {
        let result = try await execute(Self.executor(), "{ number\n  fail\n  failCoded }")
        #expect(result == #"{"errors":[{"message":"boom","locations":[{"line":2,"column":3}],"path":["fail"]},{"message":"no such thing","locations":[{"line":3,"column":3}],"path":["failCoded"],"extensions":{"code":"NOT_FOUND"}}],"data":{"number":42,"fail":null,"failCoded":null}}"#)
    }

    @Test func propagatesNullFromANonNullFieldToTheRoot() async throws {
        let result = try await execute(Self.executor(), "{ number failNonNull }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.failNonNull.","locations":[{"line":1,"column":10}],"path":["failNonNull"]}],"data":null}"#)
    }

    @Test func nullsNullableListItemsButPropagatesNonNullItemsToTheList() async throws {
        let result = try await execute(Self.executor(), "{ tags strictTags }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.strictTags.","locations":[{"line":1,"column":8}],"path":["strictTags",1]}],"data":{"tags":["a",null,"c"],"strictTags":null}}"#)
    }

    @Test func completesNestedListsOfNonNullItems() async throws {
        let result = try await execute(Self.executor(), "{ matrix }")
        #expect(result == #"{"data":{"matrix":[[1,2],[3]]}}"#)
    }

    @Test func completesJSONArraysAndSwiftSequencesAsListsButNotStrings() async throws {
        let executor = try makeExecutor("type Query { json: [Int] set: [Int] range: [Int] text: [String] jsonText: [String] }") { r in
            r.resolve("Query", "json") { _, _, _, _ in JSON.array([1, nil, 3]) }
            r.resolve("Query", "set") { _, _, _, _ in Set([5]) }
            r.resolve("Query", "range") { _, _, _, _ in 1...3 }
            r.resolve("Query", "text") { _, _, _, _ in "abc" }
            r.resolve("Query", "jsonText") { _, _, _, _ in JSON.string("abc") }
        }
        let result = try await execute(executor, "{ json set range text jsonText }")
        #expect(result == #"{"errors":[{"message":"Expected Iterable, but did not find one for field \"Query.text\".","locations":[{"line":1,"column":18}],"path":["text"]},{"message":"Expected Iterable, but did not find one for field \"Query.jsonText\".","locations":[{"line":1,"column":23}],"path":["jsonText"]}],"data":{"json":[1,null,3],"set":[5],"range":[1,2,3],"text":null,"jsonText":null}}"#)
    }

    @Test func completesListsOfObjectsWithNullItemsAndItemErrorsAtTheirPaths() async throws {
        let executor = try makeExecutor("""
            type Query { loose: [Item] strict: [Item!] plain: [Item!]! }
            type Item { name: String! count: Int }
            """) { r in
            let items: [[String: any Sendable]?] = [["name": "a", "count": 1], nil, ["count": 3]]
            r.resolve("Query", "loose") { _, _, _, _ in items }
            r.resolve("Query", "strict") { _, _, _, _ in items }
            r.resolve("Query", "plain") { _, _, _, _ in [["name": "x"], ["name": "y", "count": 2]] as [[String: any Sendable]] }
        }
        let result = try await execute(executor, "{ loose { name count } strict { name } plain { count name } }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Item.name.","locations":[{"line":1,"column":11}],"path":["loose",2,"name"]},{"message":"Cannot return null for non-nullable field Query.strict.","locations":[{"line":1,"column":24}],"path":["strict",1]}],"data":{"loose":[{"name":"a","count":1},null,null],"strict":null,"plain":[{"count":null,"name":"x"},{"count":2,"name":"y"}]}}"#)
    }

    @Test func propagatesThroughNonNullObjectFieldsToTheNearestNullableParent() async throws {
        let executor = try makeExecutor("""
            type Query { outer: Outer }
            type Outer { inner: Inner! other: Int }
            type Inner { value: Int! }
            """) { r in
            r.resolve("Query", "outer") { _, _, _, _ in ["other": 1, "inner": ["value": nil as Int? as Any] as [String: Any]] as [String: Any] }
        }
        let result = try await execute(executor, "{ outer { other inner { value } } }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Inner.value.","locations":[{"line":1,"column":25}],"path":["outer","inner","value"]}],"data":{"outer":null}}"#)
    }

    @Test func reportsLeafSerializationErrorsAtTheField() async throws {
        let executor = try makeExecutor("type Query { count: Int flag: Boolean }") { r in
            r.resolve("Query", "count") { _, _, _, _ in "many" }
            r.resolve("Query", "flag") { _, _, _, _ in 1 }
        }
        let result = try await execute(executor, "{ count flag }")
        #expect(result == #"{"errors":[{"message":"Int cannot represent non-integer value: \"many\"","locations":[{"line":1,"column":3}],"path":["count"]}],"data":{"count":null,"flag":true}}"#)
    }

    @Test func keepsTheUnderlyingErrorOfUnknownErrorTypes() async throws {
        struct Opaque: Error, CustomStringConvertible { var description: String { "disk on fire" } }
        let executor = try makeExecutor("type Query { a: Int }") { r in
            r.resolve("Query", "a") { _, _, _, _ in throw Opaque() }
        }
        let result = await executor.execute(document: try Parser.parse("{ a }"))
        #expect(result.errors.map(\.message) == ["disk on fire"])
        #expect(result.errors.first?.underlyingError is Opaque)
    }

    @Test func givesResolversTheFieldInformation() async throws {
        let executor = try makeExecutor("type Query { list: [Item] } type Item { probe(x: Int): String }") { r in
            r.resolve("Query", "list") { _, _, _, _ in [1] }
            r.resolve("Item", "probe") { _, arguments, context, info in
                let path = info.path.map(\.description).joined(separator: ".")
                return "\(info.parentType.name).\(info.fieldName) as \(info.responseKey): \(info.returnType) at \(path) "
                    + "x=\(arguments.int("x") ?? -1) op=\(info.operation.name?.value ?? "-") ctx=\(context)"
            }
        }
        let result = try await execute(executor, "query Q($x: Int) { list { p: probe(x: $x) } }", variables: ["x": 3], context: "C")
        #expect(result == #"{"data":{"list":[{"p":"Item.probe as p: String at list.0.p x=3 op=Q ctx=C"}]}}"#)
    }

    @Test func executesMutationRootFieldsSeriallyAwaitingEachBeforeTheNext() async throws {
        final class Log: @unchecked Sendable {
            // Only touched from the one task executing the mutation, one field at a time.
            var entries: [String] = []
        }
        let log = Log()
        let executor = try makeExecutor("type Query { a: Int } type Mutation { first: Int second: Int third: Int }") { r in
            r.resolveAsync("Mutation", "first") { _, _, _, _ in
                log.entries.append("first started")
                await Task.yield()
                log.entries.append("first finished")
                return 1
            }
            r.resolve("Mutation", "second") { _, _, _, _ in
                log.entries.append("second")
                return 2
            }
            r.resolveAsync("Mutation", "third") { _, _, _, _ in
                log.entries.append("third")
                return 3
            }
        }
        let result = try await execute(executor, "mutation { first second third again: first }")
        #expect(result == #"{"data":{"first":1,"second":2,"third":3,"again":1}}"#)
        #expect(log.entries == ["first started", "first finished", "second", "third", "first started", "first finished"])
    }

    @Test func selectsTheOperationByName() async throws {
        let executor = try Self.executor()
        let document = "query A { number } query B { hello }"
        #expect(try await execute(executor, document, operationName: "B") == #"{"data":{"hello":"Hello, world"}}"#)
        #expect(try await execute(executor, document) == #"{"errors":[{"message":"Must provide operation name if query contains multiple operations."}]}"#)
        #expect(try await execute(executor, document, operationName: "C") == #"{"errors":[{"message":"Unknown operation named \"C\"."}]}"#)
        #expect(try await execute(executor, "fragment F on Query { number }") == #"{"errors":[{"message":"Must provide an operation."}]}"#)
    }

    @Test func refusesOperationKindsTheSchemaDoesNotSupport() async throws {
        let result = try await execute(Self.executor(), "mutation { x }")
        #expect(result == #"{"errors":[{"message":"Schema is not configured to execute mutation operation.","locations":[{"line":1,"column":1}]}]}"#)
    }

    @Test func reportsResolversAttachedToUnknownFields() throws {
        var resolvers = Resolvers(schema: try buildSchema(sdl: "type Query { a: Int }"))
        resolvers.resolve("Query", "b") { _, _, _, _ in 1 }
        resolvers.resolveType("Query") { _, _, _ in nil }
        #expect(throws: SchemaError.self) { try Executor(resolvers: resolvers) }
    }

    @Test func sharesPreparedPlansAcrossRequests() async throws {
        let executor = try Self.executor()
        let prepared = try executor.prepare(try Parser.parse("query ($id: ID!) { person(id: $id) { name } }"))
        let first = await executor.execute(prepared, variables: ["id": "1"])
        let second = await executor.execute(prepared, variables: ["id": "2"])
        #expect(first.data?.jsonText == #"{"person":{"name":"Ada"}}"#)
        #expect(second.data?.jsonText == #"{"person":{"name":"Grace"}}"#)
    }

    @Test func offersTheResultAsAJSONValue() async throws {
        let result = try await Self.executor().execute(document: try Parser.parse("{ number fail }"))
        #expect(result.json == ["errors": [["message": "boom", "locations": [["line": 1, "column": 10]], "path": ["fail"]]], "data": ["number": 42, "fail": nil]])
    }
}
