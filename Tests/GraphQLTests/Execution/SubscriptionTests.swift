import Testing
@testable import GraphQL

struct SubscriptionTests {
    static let sdl = """
        type Query { a: Int }
        type Subscription { counter(from: Int!): Int! message: Message failing: Int }
        type Message { text: String! shout: String! }
        """

    /// Signals once, to whoever awaits it.
    final class Signal: Sendable {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func fire() { continuation.yield() }
        func wait() async {
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
        }
    }

    static func executor(terminated: Signal = Signal(), events: [any Sendable] = []) throws -> Executor {
        try makeExecutor(sdl) { r in
            r.subscribe("counter") { _, arguments, _, _ in
                let from = arguments.int("from") ?? 0
                return AsyncThrowingStream { continuation in
                    for value in from..<(from + 3) { continuation.yield(value) }
                    continuation.finish()
                }
            }
            r.subscribe("message") { _, _, _, _ in
                AsyncThrowingStream { continuation in
                    continuation.onTermination = { _ in terminated.fire() }
                    for event in events { continuation.yield(event) }
                }
            }
            r.resolve("Message", "shout") { source, _, _, _ in
                ((source as? [String: any Sendable])?["text"] as? String)?.uppercased()
            }
            r.subscribe("failing") { _, _, _, _ in throw CodedError(code: "FORBIDDEN", message: "not allowed") }
        }
    }

    static func responses(_ result: SubscriptionResult) async throws -> [String] {
        guard case .stream(let stream) = result else { return [] }
        var texts: [String] = []
        for try await response in stream { texts.append(String(decoding: response.serialized(), as: UTF8.self)) }
        return texts
    }

    @Test func mapsEachSourceEventToAResponse() async throws {
        let result = try await Self.executor().subscribe(document: try Parser.parse("subscription ($n: Int!) { counter(from: $n) }"), variables: ["n": 5])
        #expect(try await Self.responses(result) == [#"{"data":{"counter":5}}"#, #"{"data":{"counter":6}}"#, #"{"data":{"counter":7}}"#])
    }

    @Test func theStreamNamesItsRootFieldAndItsCoercedArguments() async throws {
        let result = await (try Self.executor()).subscribe(
            document: try Parser.parse("subscription ($n: Int!) { renamed: counter(from: $n) }"), variables: ["n": 5])
        guard case .stream(let stream) = result else {
            Issue.record("expected a stream")
            return
        }
        #expect(stream.fieldName == "counter")
        #expect(stream.arguments.int("from") == 5)
    }

    @Test func executesTheSelectionSetWithTheEventAsRootValue() async throws {
        let terminated = Signal()
        let executor = try Self.executor(terminated: terminated, events: [["text": "hi"] as [String: any Sendable]])
        guard case .stream(let stream) = await executor.subscribe(document: try Parser.parse("subscription { message { text shout } }")) else {
            Issue.record("expected a stream")
            return
        }
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first.map { String(decoding: $0.serialized(), as: UTF8.self) } == #"{"data":{"message":{"text":"hi","shout":"HI"}}}"#)
    }

    @Test func returnsSourceStreamCreationErrorsAsAResult() async throws {
        let result = try await Self.executor().subscribe(document: try Parser.parse("subscription { failing }"))
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(String(decoding: failure.serialized(), as: UTF8.self)
            == #"{"errors":[{"message":"not allowed","locations":[{"line":1,"column":16}],"path":["failing"],"extensions":{"code":"FORBIDDEN"}}]}"#)
    }

    @Test func reportsVariableErrorsWithoutCallingTheSourceResolver() async throws {
        let result = try await Self.executor().subscribe(document: try Parser.parse("subscription ($n: Int!) { counter(from: $n) }"))
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.errors.map(\.message) == [#"Variable "$n" of required type "Int!" was not provided."#])
        #expect(!failure.hasData)
    }

    @Test func cancellingTheConsumerTerminatesTheSourceStream() async throws {
        let terminated = Signal()
        let received = Signal()
        let executor = try Self.executor(terminated: terminated, events: [["text": "one"] as [String: any Sendable]])
        guard case .stream(let stream) = await executor.subscribe(document: try Parser.parse("subscription { message { text } }")) else {
            Issue.record("expected a stream")
            return
        }
        let consumer = Task {
            for try await _ in stream { received.fire() }
        }
        await received.wait()
        consumer.cancel()
        await terminated.wait()
        _ = await consumer.result
    }
}
