import Synchronization
import Testing
@testable import GraphQL

/// `CapturedValue` and `SerializedValue`: a field's completed text handed to the application
/// and written back as is, keyed by `SelectionIdentity`.
struct SerializedValueTests {
    /// What the resolvers of one executor kept and answer with, by selection.
    final class Store: Sendable {
        let kept = Mutex<[SelectionIdentity: SerializedValue]>([:])
        let failing = Mutex(false)
        /// How many times `Query.list` completed its value afresh.
        let built = Mutex(0)
    }

    static func executor(_ store: Store) throws -> Executor {
        try makeExecutor("""
            type Query { list: [Item!]! other: Int }
            type Item { id: Int! name: String! later: String, risky: Int }
            """) { r in
            r.resolveAsync("Query", "list") { _, _, _, info in
                let identity = info.selectionIdentity
                if let kept = store.kept.withLock({ $0[identity] }) { return kept }
                store.built.withLock { $0 += 1 }
                let items: [[String: any Sendable]] = [["id": 1, "name": "a \"quoted\""], ["id": 2, "name": "b"]]
                return CapturedValue(items) { text in store.kept.withLock { $0[identity] = text } }
            }
            r.resolveAsync("Item", "later") { source, _, _, _ in "later \((source as! [String: any Sendable])["id"]!)" }
            r.resolve("Item", "risky") { _, _, _, _ in
                if store.failing.withLock({ $0 }) { throw CodedError(code: "X", message: "no") }
                return 7
            }
            r.resolve("Query", "other") { _, _, _, _ in 3 }
        }
    }

    static func run(_ executor: Executor, _ operation: PreparedOperation, _ variables: [String: JSON] = [:]) async -> String {
        String(decoding: await executor.execute(operation, variables: variables).serialized(), as: UTF8.self)
    }

    @Test func aCapturedFieldsTextIncludesItsAsyncChildrenAndIsWrittenBackAsTheSameResponse() async throws {
        let store = Store()
        let executor = try Self.executor(store)
        let operation = try executor.prepare(Parser.parse("{ other list { id name later risky } }"))
        let first = await Self.run(executor, operation)
        #expect(first == #"{"data":{"other":3,"list":[{"id":1,"name":"a \"quoted\"","later":"later 1","risky":7},{"id":2,"name":"b","later":"later 2","risky":7}]}}"#)
        let kept = try #require(store.kept.withLock { $0.values.first })
        #expect(String(decoding: kept.bytes, as: UTF8.self) == #"[{"id":1,"name":"a \"quoted\"","later":"later 1","risky":7},{"id":2,"name":"b","later":"later 2","risky":7}]"#)
        #expect(kept.byteCount == kept.bytes.count)
        let second = await Self.run(executor, operation)
        #expect(second == first)
        #expect(store.built.withLock { $0 } == 1)
    }

    @Test func aSerializedValueIsWrittenWhereverItsFieldIs() async throws {
        let executor = try makeExecutor("""
            type Query { a: Int, b: [Int], c: Int }
            type Mutation { b: [Int] }
            """) { r in
            r.resolveAsync("Query", "b") { _, _, _, _ in SerializedValue(JSONText(copying: Array("[1,2]".utf8))) }
            r.resolveAsync("Mutation", "b") { _, _, _, _ in SerializedValue(JSONText(copying: Array("[3]".utf8))) }
            r.resolve("Query", "a") { _, _, _, _ in 0 }
            r.resolveAsync("Query", "c") { _, _, _, _ in 4 }
        }
        #expect(try await execute(executor, "{ a b c }") == #"{"data":{"a":0,"b":[1,2],"c":4}}"#)
        #expect(try await execute(executor, "mutation { b x: b }") == #"{"data":{"b":[3],"x":[3]}}"#)
    }

    @Test func aFieldWithAnErrorInsideKeepsNothing() async throws {
        let store = Store()
        store.failing.withLock { $0 = true }
        let executor = try Self.executor(store)
        let operation = try executor.prepare(Parser.parse("{ list { id risky } }"))
        let response = await Self.run(executor, operation)
        #expect(response.contains(#""risky":null"#) && response.contains(#""errors""#))
        #expect(store.kept.withLock { $0.isEmpty })
    }

    @Test func theIdentityTellsOperationsPathsAndVariablesApart() async throws {
        let store = Store()
        let executor = try Self.executor(store)
        let query = "query ($n: Boolean!) { list { id name @include(if: $n) } }"
        let operation = try executor.prepare(Parser.parse(query))
        let withName = await Self.run(executor, operation, ["n": true])
        let withoutName = await Self.run(executor, operation, ["n": false])
        #expect(withName != withoutName && !withoutName.contains("name"))
        let aliased = try executor.prepare(Parser.parse("{ a: list { id } b: list { id } }"))
        _ = await Self.run(executor, aliased)
        let other = try executor.prepare(Parser.parse(query))
        _ = await Self.run(executor, other, ["n": true])
        #expect(store.kept.withLock { $0.count } == 5)
        #expect(await Self.run(executor, operation, ["n": false]) == withoutName)
        #expect(store.built.withLock { $0 } == 5)
    }

    @Test func aResponseThatIsOneSerializedValueFramedNamesTheValueAndTheTextAroundIt() async throws {
        let kept = SerializedValue(JSONText(copying: Array("[1,2]".utf8)))
        let executor = try makeExecutor("type Query { a: Int, b: [Int], c: Int, d: [Int], e: Int! }") { r in
            r.resolveAsync("Query", "b") { _, _, _, _ in kept }
            r.resolveAsync("Query", "d") { _, _, _, _ in SerializedValue(JSONText(copying: Array("[3]".utf8))) }
            r.resolve("Query", "a") { _, _, _, _ in 0 }
            r.resolveAsync("Query", "c") { _, _, _, _ in 4 }
            r.resolveAsync("Query", "e") { _, _, _, _ in throw CodedError(code: "X", message: "no") }
        }
        func framed(_ query: String) async throws -> FramedValue? {
            await executor.execute(try executor.prepare(Parser.parse(query))).framedValue
        }
        let alone = try #require(try await framed("{ list: b }"))
        #expect(alone.value === kept)
        #expect(alone.framing.prefix == Array(#"{"list":"#.utf8) && alone.framing.suffix == Array("}".utf8))
        let withPlainField = try #require(try await framed("{ a b }"))
        #expect(withPlainField.framing.prefix == Array(#"{"a":0,"b":"#.utf8))
        // Another field written by async work, a second kept value, or an error: not one value framed.
        #expect(try await framed("{ b c }") == nil)
        #expect(try await framed("{ b d }") == nil)
        #expect(try await framed("{ a }") == nil)
        let failed = await executor.execute(try executor.prepare(Parser.parse("{ b x: c e }")))
        #expect(failed.framedValue == nil && !failed.errors.isEmpty)
    }

    @Test func whatIsDerivedFromAFramedValueIsMadeOncePerFraming() {
        let value = SerializedValue(JSONText(copying: Array("[1]".utf8)))
        let framing = FramedValue.Framing(prefix: Array(#"{"a":"#.utf8), suffix: Array("}".utf8))
        let other = FramedValue.Framing(prefix: Array(#"{"b":"#.utf8), suffix: Array("}".utf8))
        let made = Mutex(0)
        func derive(_ framing: FramedValue.Framing) -> Int { value.derived(for: framing) { made.withLock { $0 += 1; return $0 } } }
        #expect(derive(framing) == 1)
        #expect(derive(framing) == 1)
        #expect(derive(other) == 2)
        #expect(derive(framing) == 3)
        #expect(made.withLock { $0 } == 3)
    }
}
