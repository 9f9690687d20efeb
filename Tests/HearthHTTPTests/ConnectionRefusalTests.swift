import HearthHTTP
import Synchronization
import Testing

extension LiveTests {
@Suite struct ConnectionRefusalTests {
    /// Counts refusals by reason.
    final class RefusalCounter: HTTPServerObserver {
        let refusals = Mutex<[ConnectionRefusal: Int]>([:])
        let events = Mutex<[HTTPServerEvent]>([])

        func connectionRefused(_ reason: ConnectionRefusal) { refusals.withLock { $0[reason, default: 0] += 1 } }
        func serverEvent(_ event: HTTPServerEvent) { events.withLock { $0.append(event) } }
    }

    @Test func everyClientBeyondTheLimitReadsAComplete503AndTheRefusalsAreCounted() throws {
        let observer = RefusalCounter()
        let live = try LiveServer(
            configure: { $0.maxConnections = 2; $0.eventLoopCount = 1; $0.repeatedEventInterval = .seconds(3600) },
            observer: observer,
            routes: { router in router.get("/hello") { _, responder in responder.send(.text("hi")) } })
        let held = try (0..<2).map { _ in try live.client() }
        for client in held {
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
        // Every refused client has sent its request before reading: the server must not close on unread input.
        let refused = try (0..<40).map { _ in
            let client = try live.client()
            try client.send("POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            return client
        }
        for client in refused {
            let response = try client.readResponse()
            #expect(response.status == 503)
            #expect(response.headers["Connection"] == "close")
            #expect(response.headers["Retry-After"] == "1")
            try client.expectClosedWithoutResponse()
            client.close()
        }
        #expect(observer.refusals.withLock { $0 } == [.maxConnections: 40])
        // One line for the first refusal; the rest are held back for the (here hour-long) quiet period.
        let warnings = observer.events.withLock { $0 }.filter { $0.message.contains("connection limit reached") }
        #expect(warnings.map { $0.metadata["count"] } == ["1"])
        for client in held { client.close() }
    }
}
}
