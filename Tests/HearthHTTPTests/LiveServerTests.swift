import HearthHTTP
import Synchronization
import Testing

/// The server over real loopback sockets, spoken to byte by byte.
extension LiveTests {
@Suite struct LiveServerTests {
    private static func routes(_ router: inout Router) {
        router.get("/hello") { _, responder in responder.send(.text("hi\n")) }
        router.post("/echo") { request, responder in
            responder.send(HTTPResponse(body: request.body))
        }
        router.get("/id") { request, responder in responder.send(.text(request.id)) }
        router.on(.get, "/async", async: { request in
            await Task.yield()
            return .text("async \(request.path)")
        })
        router.get("/stream") { _, responder in
            let writer = responder.sendHead(HTTPResponse(headers: ["Content-Type": "text/plain"]))
            writer.write(Array("one ".utf8))
            writer.write(Array("two".utf8))
            writer.finish()
        }
        router.get("/broken-stream") { _, responder in
            let writer = responder.sendHead(HTTPResponse(headers: ["Content-Type": "text/plain"]))
            writer.write(Array("partial".utf8))
            writer.abort()
        }
    }

    @Test func anAbortedStreamClosesTheConnectionWithoutTheLastChunk() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("GET /broken-stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let received = String(decoding: try client.readUntilClosed(), as: UTF8.self)
        #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(received.contains("Transfer-Encoding: chunked\r\n"))
        #expect(received.hasSuffix("\r\n\r\n7\r\npartial\r\n"))
    }

    @Test func answersAGetWithDateRequestIdAndLength() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hi\n")
        #expect(response.headers["Content-Length"] == "3")
        #expect(response.headers["Date"]?.hasSuffix(" GMT") == true)
        #expect(response.headers["X-Request-Id"]?.isEmpty == false)
        #expect(response.headers["Connection"] == nil)
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        for _ in 0..<3 {
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "hi\n")
        }
    }

    @Test func answersPipelinedRequestsInOrder() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send(
            "GET /async HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nfirst"
                + "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nsecond\r\n0\r\n\r\n"
                + "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "async /async")
        #expect(try client.readResponse().text == "first")
        let streamed = try client.readResponse()
        #expect(streamed.headers["Transfer-Encoding"] == "chunked")
        #expect(streamed.text == "one two")
        #expect(try client.readResponse().text == "second")
        #expect(try client.readResponse().status == 404)
    }

    @Test func sendsContinueBeforeReadingAnAcceptableBody() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try client.readResponse().status == 100)
        try client.send("body")
        #expect(try client.readResponse().text == "body")
    }

    @Test func refusesATooLargeBodyInsteadOfContinuing() throws {
        let live = try LiveServer(configure: { $0.parser.maxBodyBytes = 8 }, routes: Self.routes)
        let client = try live.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 9\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.headers["Connection"] == "close")
        try client.expectClosedWithoutResponse()
    }

    @Test func answersOtherExpectationsWith417() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx")
        #expect(try client.readResponse().status == 417)
        try client.expectClosedWithoutResponse()
    }

    @Test func closesHTTP10ConnectionsUnlessAskedToKeepThemAlive() throws {
        let live = try LiveServer(routes: Self.routes)
        let keepAlive = try live.client()
        try keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try keepAlive.readResponse().headers["Connection"] == "keep-alive")
        try keepAlive.send("GET /hello HTTP/1.0\r\n\r\n")
        let last = try keepAlive.readResponse()
        #expect(last.headers["Connection"] == "close")
        try keepAlive.expectClosedWithoutResponse()
    }

    @Test func closesAfterConnectionClose() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try client.readResponse().headers["Connection"] == "close")
        try client.expectClosedWithoutResponse()
    }

    @Test func answersHeadWithTheGetHeadersButNoBody() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(toHead: true)
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == "3")
        // The next response starts right after the head's headers: no body bytes came in between.
        #expect(try client.readResponse().text == "hi\n")
    }

    @Test func rejectsSmugglingAttemptsAndCloses() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.headers["Connection"] == "close")
        #expect(response.text.contains("Content-Length and Transfer-Encoding"))
        try client.expectClosedWithoutResponse()
    }

    @Test func answersUnknownPathsWith404AndWrongMethodsWith405() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\nDELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().status == 404)
        let notAllowed = try client.readResponse()
        #expect(notAllowed.status == 405)
        #expect(notAllowed.headers["Allow"] == "GET, HEAD")
    }

    @Test func echoesAWellFormedRequestIdAndReplacesOthers() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-123\r\n\r\n")
        let echoed = try client.readResponse()
        #expect(echoed.text == "abc-123")
        #expect(echoed.headers["X-Request-Id"] == "abc-123")
        try client.send("GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: has space\r\n\r\nGET /id HTTP/1.1\r\nHost: x\r\n\r\n")
        let replaced = try client.readResponse()
        #expect(replaced.text != "has space")
        #expect(replaced.headers["X-Request-Id"] == replaced.text)
        #expect(try client.readResponse().text != replaced.text)
    }

    @Test func cutsOffASlowLorisClientWith408() throws {
        let live = try LiveServer(configure: { $0.parser.headerReadTimeout = .milliseconds(200) }, routes: Self.routes)
        let client = try live.client()
        try client.send("GET /hello HTTP/1.1\r\n")
        // Keep trickling until the server gives up; it must answer 408 and close however slow the trickle is.
        try client.send("X-A: 1\r\n")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(response.headers["Connection"] == "close")
        try client.expectClosedWithoutResponse()
    }

    @Test func closesIdleKeepAliveConnectionsSilently() throws {
        let live = try LiveServer(configure: { $0.idleTimeout = .milliseconds(100) }, routes: Self.routes)
        let client = try live.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        try client.expectClosedWithoutResponse()
    }

    @Test func refusesConnectionsBeyondTheLimitWith503() throws {
        let live = try LiveServer(configure: { $0.maxConnections = 1; $0.eventLoopCount = 1 }, routes: Self.routes)
        let first = try live.client()
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try first.readResponse().status == 200)
        let second = try live.client()
        let refused = try second.readResponse()
        #expect(refused.status == 503)
        #expect(refused.headers["Connection"] == "close")
        try second.expectClosedWithoutResponse()
        first.close()
    }

    @Test func compressesLargeBodiesForGzipClients() throws {
        let text = String(repeating: "compress me please ", count: 200)
        let live = try LiveServer(routes: { router in
            router.get("/big") { _, responder in responder.send(.text(text)) }
            router.get("/small") { _, responder in responder.send(.text("tiny")) }
        })
        let client = try live.client()
        try client.send("GET /big HTTP/1.1\r\nHost: x\r\nAccept-Encoding: deflate, gzip;q=0.5\r\n\r\n")
        let compressed = try client.readResponse()
        #expect(compressed.headers["Content-Encoding"] == "gzip")
        #expect(compressed.headers["Vary"] == "Accept-Encoding")
        #expect(compressed.body.count < text.utf8.count)
        #expect(try Gunzip.decompress(compressed.body) == Array(text.utf8))

        try client.send("GET /big HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=0\r\n\r\n")
        let refused = try client.readResponse()
        #expect(refused.headers["Content-Encoding"] == nil)
        #expect(refused.headers["Vary"] == "Accept-Encoding")
        #expect(refused.text == text)

        try client.send("GET /small HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(try client.readResponse().headers["Content-Encoding"] == nil)
    }

    @Test func aReusableBodyIsSentCompressedToGzipClientsAndAsItIsToOthers() throws {
        let text = String(repeating: "kept answer ", count: 200)
        let kept = ReusableBody(Array(text.utf8))
        let live = try LiveServer(routes: { router in
            router.get("/kept") { _, responder in responder.send(HTTPResponse(headers: ["Content-Type": "text/plain"], reusableBody: kept)) }
            router.get("/changed") { _, responder in
                var response = HTTPResponse(headers: ["Content-Type": "text/plain"], reusableBody: kept)
                response.body = Array(String(repeating: "changed ", count: 200).utf8)
                responder.send(response)
            }
        })
        let client = try live.client()
        try client.send("GET /kept HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        let first = try client.readResponse()
        #expect(first.headers["Content-Encoding"] == "gzip")
        #expect(try Gunzip.decompress(first.body) == Array(text.utf8))
        try client.send("GET /kept HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(try client.readResponse().body == first.body)
        try client.send("GET /kept HTTP/1.1\r\nHost: x\r\n\r\n")
        let plain = try client.readResponse()
        #expect(plain.headers["Content-Encoding"] == nil && plain.text == text)
        // A body replaced after the response was made is compressed as it is now, not reused.
        try client.send("GET /changed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(try Gunzip.decompress(client.readResponse().body) == Array(String(repeating: "changed ", count: 200).utf8))
    }

    @Test func reportsEveryRequestToTheObserverWithItsRoutePattern() throws {
        let observer = RecordingObserver()
        do {
            let live = try LiveServer(observer: observer, routes: { router in
                router.get("/users/:id") { request, responder in responder.send(.text(request.parameters["id"] ?? "")) }
            })
            let client = try live.client()
            try client.send("GET /users/42 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "42")
            try client.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().status == 404)
        }
        let records = observer.records.withLock { $0 }
        #expect(records.map(\.route) == ["/users/:id", nil])
        #expect(records.map(\.status) == [200, 404])
        #expect(records.first?.bytesIn == "GET /users/42 HTTP/1.1\r\nHost: x\r\n\r\n".utf8.count)
        #expect(records.allSatisfy { $0.bytesOut > 0 && $0.remoteAddress.hasPrefix("127.0.0.1:") })
        #expect(observer.opened.load(ordering: .relaxed) == 1)
        #expect(observer.closed.load(ordering: .relaxed) == 1)
    }

    @Test func servesIPv6Loopback() throws {
        let live = try LiveServer(configure: { $0.host = "::1" }, routes: Self.routes)
        #expect(live.address.host == "::1")
        let client = try live.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test func stopsReadingWhileOutputIsBackedUpAndResumesWhenDrained() throws {
        let big = [UInt8](repeating: 0x61, count: 64 * 1024)
        let live = try LiveServer(configure: { $0.maxPendingOutputBytes = 16 * 1024; $0.compression.isEnabled = false }) { router in
            router.get("/big") { _, responder in responder.send(HTTPResponse(body: big)) }
        }
        let client = try live.client()
        let count = 64
        try client.send(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: count))
        for _ in 0..<count {
            #expect(try client.readResponse().body.count == big.count)
        }
    }
}
}
