import Foundation
import HearthHTTP
import Testing

/// Keep-alive, pipelining and the configurable limits, through the real binary.
@Suite struct ConnectionHandlingTests {
    @Test func answersPipelinedRequestsOnOneKeepAliveConnectionInOrder() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let client = try server.connect()
        defer { client.close() }
        try client.send(
            "GET /healthz HTTP/1.1\r\nHost: e2e\r\n\r\n" + "GET /missing HTTP/1.1\r\nHost: e2e\r\n\r\n"
                + "GET /readyz HTTP/1.1\r\nHost: e2e\r\n\r\n")
        let answers = try (0..<3).map { _ in try client.readResponse() }
        #expect(answers.map(\.status) == [200, 404, 200])
        #expect(answers[0].text == "ok")
        #expect(answers[2].text == "ready")
        try client.send("GET /healthz HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        try client.expectClosedWithoutResponse()
    }

    @Test func enforcesTheConfiguredSizeLimits() throws {
        let server = try ServerProcess(["--max-request-line", "256", "--max-header-bytes", "1KiB", "--max-body-bytes", "100"])
        defer { server.remove() }
        let longTarget = "/" + String(repeating: "a", count: 300)
        #expect(try server.get(longTarget).status == 414)
        #expect(try server.get("/healthz", headers: "X-Big: \(String(repeating: "b", count: 1100))\r\n").status == 431)
        let client = try server.connect()
        defer { client.close() }
        try client.send("POST /healthz HTTP/1.1\r\nHost: e2e\r\nContent-Length: 101\r\n\r\n")
        let tooLarge = try client.readResponse()
        #expect(tooLarge.status == 413)
        #expect(tooLarge.headers["Connection"] == "close")
    }

    @Test func cutsOffAClientThatTricklesItsHeaders() throws {
        let server = try ServerProcess(["--header-timeout", "300ms"])
        defer { server.remove() }
        let client = try server.connect()
        defer { client.close() }
        try client.send("GET /healthz HTTP/1.1\r\nHost: e2e\r\n")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(try client.readUntilClosed().isEmpty)
    }

    @Test func rejectsSmugglingAttemptsAndClosesTheConnection() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let client = try server.connect()
        defer { client.close() }
        try client.send(
            "POST /healthz HTTP/1.1\r\nHost: e2e\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        #expect(try client.readResponse().status == 400)
        #expect(try client.readUntilClosed().isEmpty)
    }

    @Test func compressesLargeResponsesForClientsThatAcceptGzip() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let plain = try server.get("/metrics")
        let compressed = try server.get("/metrics", headers: "Accept-Encoding: gzip\r\n")
        #expect(plain.headers["Content-Encoding"] == nil)
        #expect(compressed.headers["Content-Encoding"] == "gzip")
        #expect(compressed.body.count < plain.body.count)
        #expect(Array(compressed.body.prefix(2)) == [0x1F, 0x8B])
    }
}
