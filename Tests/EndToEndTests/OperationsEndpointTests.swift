import Foundation
import HearthHTTP
import Testing

/// `/healthz`, `/readyz` and `/metrics` of the real binary.
@Suite struct OperationsEndpointTests {
    @Test func healthzAnswersOkWithARequestId() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let response = try server.get("/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok")
        #expect(response.headers["X-Request-Id"]?.isEmpty == false)
    }

    @Test func readyzAnswersOnceTheDatabaseIsMigrated() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let response = try server.get("/readyz")
        #expect(response.status == 200)
        #expect(response.text == "ready")
    }

    @Test func metricsCountRequestsByRouteAndStatusInPrometheusFormat() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        _ = try server.get("/healthz")
        _ = try server.get("/healthz")
        _ = try server.get("/no/such/page")
        let response = try server.get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        let text = response.text
        #expect(text.contains("hearth_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 2\n"))
        #expect(text.contains("hearth_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 1\n"))
        #expect(text.contains("# TYPE hearth_http_request_duration_seconds histogram\n"))
        #expect(text.contains("hearth_http_request_duration_seconds_count{route=\"/healthz\"} 2\n"))
        // At least the scraping connection is open; closed ones may not be noticed by the server yet.
        let open = text.split(separator: "\n").first { $0.hasPrefix("hearth_http_open_connections ") }
        #expect((open?.split(separator: " ").last).flatMap { Int($0) }.map { $0 >= 1 } == true)
        #expect(text.contains("# TYPE hearth_db_pool_waits_total counter\n"))
        #expect(text.contains("hearth_build_info{version=\""))
    }

    /// `/metrics` is for the host itself by default: a request a trusted proxy on this host
    /// forwards came from elsewhere and is refused; the same scrape without the proxy is served.
    @Test func metricsAreLoopbackOnlyByDefaultAndNotThroughAProxy() throws {
        let server = try ServerProcess(["--trusted-proxies", "127.0.0.1"])
        defer { server.remove() }
        #expect(try server.get("/metrics").status == 200)
        #expect(try server.get("/metrics", headers: "X-Forwarded-For: 203.0.113.5\r\n").status == 403)
        #expect(try server.get("/metrics", headers: "X-Forwarded-For: 127.0.0.1\r\n").status == 403)
    }

    @Test func metricsNeedTheBearerTokenInTokenMode() throws {
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)").path
        let token = "e2e-metrics-token-0123456789"
        #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data((token + "\n").utf8)))
        defer { try? FileManager.default.removeItem(atPath: tokenFile) }
        let server = try ServerProcess([], environment: ["HEARTH_METRICS_ACCESS": "token", "HEARTH_METRICS_TOKEN_FILE": tokenFile])
        defer { server.remove() }
        let refused = try server.get("/metrics")
        #expect(refused.status == 401)
        #expect(refused.headers["WWW-Authenticate"] == "Bearer realm=\"metrics\"")
        #expect(try server.get("/metrics", headers: "Authorization: Bearer wrong-token-0123456789\r\n").status == 401)
        let served = try server.get("/metrics", headers: "Authorization: Bearer \(token)\r\n")
        #expect(served.status == 200)
        #expect(served.text.contains("hearth_build_info{version=\""))
    }

    @Test func metricsArePublicWhenConfiguredSo() throws {
        let server = try ServerProcess(["--metrics-access", "public", "--trusted-proxies", "127.0.0.1"])
        defer { server.remove() }
        #expect(try server.get("/metrics", headers: "X-Forwarded-For: 203.0.113.5\r\n").status == 200)
    }

    @Test func accessLogCarriesTheRequestIdReturnedToTheClient() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let response = try server.get("/healthz", headers: "X-Request-Id: trace-me-42\r\n")
        #expect(response.headers["X-Request-Id"] == "trace-me-42")
        server.stop()
        let line = server.log.split(separator: "\n").first { $0.contains("request.id=trace-me-42") }
        #expect(line?.contains("http.route=/healthz") == true)
        #expect(line?.contains("http.status=200") == true)
    }
}
