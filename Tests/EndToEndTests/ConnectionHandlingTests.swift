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

    /// At the limit every connection is served; past it every client reads a complete 503 (a refusal closed on
    /// the client's unread request would reach it as a reset), and `/metrics` counts the refusals.
    @Test func refusesClientsBeyondMaxConnectionsWithA503TheyCanReadAndCountsThem() throws {
        let server = try ServerProcess(["--max-connections", "4"])
        defer { server.remove() }
        let held = try (0..<4).map { _ in try server.connect() }
        defer { for client in held { client.close() } }
        for client in held {
            try client.send("GET /healthz HTTP/1.1\r\nHost: e2e\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
        let refused = try (0..<30).map { _ in
            let client = try server.connect()
            try client.send("POST /graphql HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n"
                + "{\"query\":\"{ __typename }\"}")
            return client
        }
        for client in refused {
            let response = try client.readResponse()
            #expect(response.status == 503)
            #expect(response.headers["Connection"] == "close")
            try client.expectClosedWithoutResponse()
            client.close()
        }
        try held[0].send("GET /metrics HTTP/1.1\r\nHost: e2e\r\n\r\n")
        let metrics = try held[0].readResponse()
        #expect(metrics.metric("hearth_http_connections_refused_total{reason=\"max_connections\"}") == 30)
        #expect(metrics.metric("hearth_http_connections_refused_total{reason=\"out_of_descriptors\"}") == 0)
        server.stop()
        let warnings = server.log.split(separator: "\n").filter { $0.contains("connection limit reached") }
        #expect(!warnings.isEmpty)
        #expect(warnings.count < 30, "a flood of refusals is logged in a few lines, each with its count")
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

/// Running out of file descriptors degrades service for the clients beyond the limit; it does not crash the server.
@Suite struct DescriptorExhaustionTests {
    @Test func refusesClientsBeyondTheDescriptorLimitAndRecovers() throws {
        let server = try ServerProcess(["--access-log", "off"], fileDescriptorLimit: 48)
        defer { server.remove() }
        var held: [HTTPTestClient] = []
        defer { for client in held { client.close() } }
        var refused = 0
        var answered503 = 0
        for _ in 0..<80 {
            guard let client = try? server.connect() else {
                refused += 1
                continue
            }
            do {
                try client.send("GET /healthz HTTP/1.1\r\nHost: e2e\r\n\r\n")
                let response = try client.readResponse()
                if response.status == 503 {
                    refused += 1
                    answered503 += 1
                } else {
                    #expect(response.status == 200)
                }
            } catch {
                refused += 1  // closed without an answer
            }
            held.append(client)
        }
        #expect(refused > 0, "80 connections fit under a limit of 48 descriptors")
        for client in held { client.close() }
        held.removeAll()
        // Once descriptors are free again the server serves new clients.
        var recovered = false
        for _ in 0..<1000 where !recovered {
            recovered = (try? server.get("/healthz").status) == 200
        }
        #expect(recovered)
        #expect(server.process.isRunning)
        let metrics = try server.get("/metrics")
        let counted = metrics.metric("hearth_http_connections_refused_total{reason=\"out_of_descriptors\"}") ?? 0
        #expect(counted >= Double(answered503))
        let warnings = server.log.split(separator: "\n").filter {
            $0.contains("level=warning logger=http msg=\"out of file descriptors; refusing connections with 503\"")
        }
        #expect(!warnings.isEmpty)
        #expect(warnings.count < Int(counted), "a flood of refusals is logged in a few lines, each with its count")
    }
}
