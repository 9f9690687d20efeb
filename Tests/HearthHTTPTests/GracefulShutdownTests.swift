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
