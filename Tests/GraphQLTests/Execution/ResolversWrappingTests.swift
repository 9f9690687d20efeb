import Synchronization
import Testing
@testable import GraphQL

struct ResolversWrappingTests {
    static let sdl = """
        type Query { open: String guarded: String plain: String nested: Child }
        type Mutation { change: String }
        type Child { guarded: String }
        type Subscription { ticks: Int! free: Int! }
        """

    /// A gate that refuses every field it wraps, naming it.
    static func refusing(_ name: String, _ resolver: @escaping FieldResolver) -> FieldResolver {
        { _, _, _, _ in throw CodedError(code: "GATED", message: "\(name) is gated") }
    }

    static func stream(_ values: [Int]) -> AsyncThrowingStream<any Sendable, any Error> {
        AsyncThrowingStream { continuation in
            for value in values { continuation.yield(value) }
            continuation.finish()
        }
    }

    static func resolvers(_ configure: (inout Resolvers) -> Void) throws -> Resolvers {
        var resolvers = Resolvers(schema: try buildSchema(sdl: sdl))
        resolvers.resolve("Query", "open") { _, _, _, _ in "open" }
        resolvers.resolve("Query", "guarded") { _, _, _, _ in "secret" }
        resolvers.resolve("Query", "nested") { _, _, _, _ in ["guarded": "child"] as [String: any Sendable] }
        resolvers.resolve("Mutation", "change") { _, _, _, _ in "changed" }
        resolvers.subscribe("ticks") { _, _, _, _ in stream([1, 2]) }
        resolvers.subscribe("free") { _, _, _, _ in stream([7]) }
        configure(&resolvers)
        return resolvers
    }

    @Test func wrapsEveryFieldOfTheTypeButTheExcludedOnes() async throws {
        let executor = try Executor(resolvers: Self.resolvers { $0.wrapFields(of: "Query", except: ["open", "nested"], Self.refusing) })
        let response = try await execute(executor, "{ open guarded nested { guarded } }")
        #expect(try response == compact("""
            {"errors":[{"message":"guarded is gated","locations":[{"line":1,"column":8}],"path":["guarded"],"extensions":{"code":"GATED"}}],
             "data":{"open":"open","guarded":null,"nested":{"guarded":"child"}}}
            """))
    }

    @Test func leavesOtherTypesAlone() async throws {
        let executor = try Executor(resolvers: Self.resolvers { $0.wrapFields(of: "Query", Self.refusing) })
        #expect(try await execute(executor, "mutation { change }") == #"{"data":{"change":"changed"}}"#)
    }

    @Test func wrapsFieldsWithoutAResolverAroundTheDefaultResolver() async throws {
        let seen = Mutex<[String]>([])
        let executor = try Executor(resolvers: Self.resolvers { resolvers in
            resolvers.wrapFields(of: "Query", except: ["open", "guarded", "nested"]) { name, resolver in
                { source, arguments, context, info in
                    seen.withLock { $0.append(name) }
                    return try resolver(source, arguments, context, info)
                }
            }
        })
        let response = try await execute(executor, "{ plain }", rootValue: ["plain": "from the root"] as [String: any Sendable])
        #expect(response == #"{"data":{"plain":"from the root"}}"#)
        #expect(seen.withLock { $0 } == ["plain"])
    }

    @Test func aWrapperMayAwaitBeforeCallingTheResolver() async throws {
        let executor = try Executor(resolvers: Self.resolvers { resolvers in
            resolvers.wrapFields(of: "Query") { _, resolver in
                { source, arguments, context, info in
                    .async {
                        await Task.yield()
                        switch try resolver(source, arguments, context, info) {
                        case .value(let value): return value
                        case .async(let work): return try await work()
                        }
                    }
                }
            }
        })
        #expect(try await execute(executor, "{ open guarded }") == #"{"data":{"open":"open","guarded":"secret"}}"#)
    }

    @Test func reportsAnExcludedNameTheTypeDoesNotHave() throws {
        let resolvers = try Self.resolvers { $0.wrapFields(of: "Query", except: ["opne"], Self.refusing) }
        #expect(throws: SchemaError.self) { try Executor(resolvers: resolvers) }
    }

    @Test func reportsATypeThatIsNotAnObjectType() throws {
        let resolvers = try Self.resolvers { $0.wrapFields(of: "Missing", Self.refusing) }
        #expect(throws: SchemaError.self) { try Executor(resolvers: resolvers) }
    }

    @Test func wrappedSubscriptionsAreCheckedOnceWhenSubscribing() async throws {
        let checks = Mutex<[String]>([])
        let executor = try Executor(resolvers: Self.resolvers { resolvers in
            resolvers.wrapSubscriptions(except: ["free"]) { name, resolver in
                { source, arguments, context, info in
                    checks.withLock { $0.append(name) }
                    return try await resolver(source, arguments, context, info)
                }
            }
        })
        let ticks = try await SubscriptionTests.responses(await executor.subscribe(document: try Parser.parse("subscription { ticks }")))
        let free = try await SubscriptionTests.responses(await executor.subscribe(document: try Parser.parse("subscription { free }")))
        #expect(ticks == [#"{"data":{"ticks":1}}"#, #"{"data":{"ticks":2}}"#])
        #expect(free == [#"{"data":{"free":7}}"#])
        #expect(checks.withLock { $0 } == ["ticks"])
    }

    @Test func aRefusedSubscriptionFailsBeforeAnyEvent() async throws {
        let executor = try Executor(resolvers: Self.resolvers { resolvers in
            resolvers.wrapSubscriptions { name, _ in
                { _, _, _, _ in throw CodedError(code: "GATED", message: "\(name) is gated") }
            }
        })
        guard case .failure(let failure) = await executor.subscribe(document: try Parser.parse("subscription { ticks }")) else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.errors.map(\.message) == ["ticks is gated"])
    }

    @Test func wrappingTheSubscriptionTypesFieldsKeepsTheEventAsTheValue() async throws {
        let executor = try Executor(resolvers: Self.resolvers { resolvers in
            resolvers.wrapFields(of: "Subscription") { _, resolver in resolver }
        })
        let ticks = try await SubscriptionTests.responses(await executor.subscribe(document: try Parser.parse("subscription { ticks }")))
        #expect(ticks == [#"{"data":{"ticks":1}}"#, #"{"data":{"ticks":2}}"#])
    }
}
