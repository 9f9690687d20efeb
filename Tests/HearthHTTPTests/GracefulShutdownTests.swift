import Dispatch
import HearthHTTP
import Synchronization
import Testing

extension LiveTests {
@Suite struct GracefulShutdownTests {
    @Test func finishesARequestInFlightAndClosesIdleConnections() async throws {
        let (gate, release) = AsyncStream.makeStream(of: Void.self)
        let (started, handlerStarted) = AsyncStream.makeStream(of: Void.self)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        var router = Router()
        router.get("/hello") { _, responder in responder.send(.text("hi")) }
        router.on(.get, "/slow", async: { _ in
            handlerStarted.yield()
            for await _ in gate { break }
            return .text("finished")
        })
        let server = HTTPServer(configuration: configuration, router: router)
        let address = try server.start()

        let idle = try HTTPTestClient(connectingTo: address)
        try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let busy = try HTTPTestClient(connectingTo: address)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        for await _ in started { break }

        server.shutdown(gracePeriod: .seconds(30))
        try idle.expectClosedWithoutResponse()
        #expect(throws: (any Error).self) { try HTTPTestClient(connectingTo: address) }
        release.yield()
        let response = try busy.readResponse()
        #expect(response.text == "finished")
        #expect(response.headers["Connection"] == "close")
        try busy.expectClosedWithoutResponse()
        await server.run()
        #expect(server.openConnectionCount == 0)
    }

    /// A request that holds its loop (CPU work of a handler, like a heavy document) when the shutdown begins: its
    /// response says `Connection: close` though the loop has not read its inbox, and once the deadline has passed
    /// the loop starts none of the requests that queued up behind it.
    @Test func aLoopHeldByARequestSeesTheShutdownAndStartsNothingAfterTheDeadline() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let started = Atomic<Int>(0)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        var router = Router()
        router.get("/hold") { _, responder in
            started.add(1, ordering: .relaxed)
            entered.signal()
            // Hang guard: a loop that wrongly starts a queued request gives up after a while instead of forever.
            _ = release.wait(timeout: .now() + 30)
            responder.send(.text("held"))
        }
        let server = HTTPServer(configuration: configuration, router: router)
        let address = try server.start()
        let first = try HTTPTestClient(connectingTo: address)
        try first.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        entered.wait()
        // Queued behind the held request: the loop cannot read them yet.
        let queued = try (0..<2).map { _ in
            let client = try HTTPTestClient(connectingTo: address)
            try client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
            return client
        }
        server.shutdown(gracePeriod: .zero)
        #expect(!server.waitUntilStopped(timeout: .milliseconds(20)), "a loop cannot stop inside a handler")
        release.signal()
        let response = try first.readResponse()
        #expect(response.text == "held")
        #expect(response.headers["Connection"] == "close")
        for client in queued { try client.expectClosedWithoutResponse() }
        server.waitUntilStopped()
        #expect(started.load(ordering: .relaxed) == 1)
    }

    @Test func answersARequestThatArrivedBeforeTheShutdownOnAConnectionNotYetAccepted() throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var router = Router()
        router.get("/hold") { _, responder in
            entered.signal()
            _ = release.wait(timeout: .now() + 30)
            responder.send(.text("held"))
        }
        router.get("/hello") { _, responder in responder.send(.text("hi")) }
        let server = HTTPServer(configuration: configuration, router: router)
        let address = try server.start()
        let holder = try HTTPTestClient(connectingTo: address)
        try holder.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        entered.wait()
        // The loop is held, so this connection waits in the listener's backlog with its request.
        let late = try HTTPTestClient(connectingTo: address)
        try late.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        server.shutdown(gracePeriod: .seconds(30))
        release.signal()
        #expect(try holder.readResponse().headers["Connection"] == "close")
        let response = try late.readResponse()
        #expect(response.text == "hi")
        #expect(response.headers["Connection"] == "close")
        try late.expectClosedWithoutResponse()
        server.waitUntilStopped()
    }

    @Test func forceClosesWhatRemainsAtTheDeadline() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        var router = Router()
        router.get("/never") { _, _ in }
        let server = HTTPServer(configuration: configuration, router: router)
        let address = try server.start()
        let client = try HTTPTestClient(connectingTo: address)
        try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        server.shutdown(gracePeriod: .milliseconds(50))
        try client.expectClosedWithoutResponse()
        await server.run()
    }
}
}
