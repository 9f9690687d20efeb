import Dispatch
import GraphQL
import HearthAPI
import HearthHTTP
import Support
import Synchronization
import Testing

/// Documents larger than `GraphQLLimits.inlineDocumentBytes` are parsed and validated on the
/// validation pool, smaller ones inline; a full pool refuses at once.
struct ValidationPoolTests {
    /// Holds the pool's only thread until released.
    private final class Gate: Sendable {
        let entered = Atomic<Bool>(false)
        let release = DispatchSemaphore(value: 0)
    }

    /// A document of `bytes` bytes that `TestSchema` executes to `{"hello": …}`.
    private func document(bytes: Int) -> String {
        let head = "{ hello }"
        return head + String(repeating: " ", count: bytes - head.utf8.count)
    }

    private func body(_ query: String) -> String { JSON.object(["query": .string(query)]).jsonText }

    @Test func largeDocumentsWaitForThePoolSmallOnesDoNotAndAFullPoolRefuses() async throws {
        var limits = GraphQLLimits()
        limits.inlineDocumentBytes = 100
        let pool = WorkerPool(label: "test-validation", concurrency: 1, queueLimit: 1)
        let handler = GraphQLHTTPHandler(service: try TestSchema.service(limits: limits, validationPool: pool))
        let gate = Gate()
        let occupant = Task {
            try await pool.run {
                gate.entered.store(true, ordering: .releasing)
                gate.release.wait()
            }
        }
        while !gate.entered.load(ordering: .acquiring) { await Task.yield() }

        // Over the inline size: queued behind the occupant.
        let large = Task { await handler.respond(to: Requests.post(body(document(bytes: 101)))) }
        while pool.waitingCount < 1 { await Task.yield() }
        // At the inline size: answered while the pool is busy.
        let small = await handler.respond(to: Requests.post(body(document(bytes: 100))))
        #expect(try Requests.json(small) == ["data": ["hello": "Hello, world"]])
        // The queue is full: refused at once, with a time to retry.
        let refused = await handler.respond(to: Requests.post(body(document(bytes: 102))))
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] == "1")
        let error = try Requests.json(refused)["errors"]?[0]
        #expect(error?["extensions"]?["code"] == .string(ErrorCode.rateLimited))
        #expect(error?["extensions"]?["retryAfter"] == 1)

        gate.release.signal()
        try await occupant.value
        #expect(try Requests.json(await large.value) == ["data": ["hello": "Hello, world"]])
        // Validated on the pool and cached like any other document.
        #expect(handler.service.documentCache.statistics.count == 2)
    }
}
