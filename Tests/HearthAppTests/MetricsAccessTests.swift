import FoundationEssentials
@testable import HearthApp
import HearthHTTP
import Testing

@Suite struct MetricsAccessTests {
    static let token = "0123456789abcdef0123456789abcdef"

    /// A `GET /metrics` from `peer` (`host:port`), with a forwarded client and extra headers as given.
    static func request(from peer: String, client: String? = nil, headers: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(
            head: HTTPRequestHead(method: .get, target: "/metrics", headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) })),
            remoteAddress: peer, clientAddress: client)
    }

    @Test(arguments: [
        ("127.0.0.1:50000", true), ("127.8.9.10:50000", true), ("[::1]:50000", true),
        ("192.0.2.1:50000", false), ("[2001:db8::1]:50000", false), ("[::ffff:192.0.2.1]:50000", false),
    ])
    func loopbackModeAdmitsLoopbackPeersOnly(peer: String, admitted: Bool) {
        let refusal = MetricsAccess.loopback().refusal(for: Self.request(from: peer))
        #expect((refusal == nil) == admitted)
        if let refusal { #expect(refusal.status == .forbidden) }
    }

    @Test func aForwardedHeaderCannotMakeARemotePeerLookLocal() throws {
        let proxies = TrustedProxies(networks: [try IPNetwork("192.0.2.0/24"), try IPNetwork("127.0.0.1")])
        let spoofed = Self.request(from: "192.0.2.1:50000", client: "127.0.0.1", headers: [("X-Forwarded-For", "127.0.0.1")])
        #expect(MetricsAccess.loopback(trustedProxies: proxies).refusal(for: spoofed)?.status == .forbidden)
    }

    @Test func loopbackModeRefusesWhatATrustedProxyOnThisHostForwards() throws {
        let access = MetricsAccess.loopback(trustedProxies: TrustedProxies(networks: [try IPNetwork("127.0.0.1")]))
        let forwarded = Self.request(from: "127.0.0.1:50000", client: "203.0.113.5", headers: [("X-Forwarded-For", "203.0.113.5")])
        #expect(access.refusal(for: forwarded)?.status == .forbidden)
        let claimingLocal = Self.request(from: "127.0.0.1:50000", headers: [("X-Forwarded-For", "127.0.0.1")])
        #expect(access.refusal(for: claimingLocal)?.status == .forbidden)
        // A local scraper talking to the server directly sends no forwarding header.
        #expect(access.refusal(for: Self.request(from: "127.0.0.1:50000")) == nil)
    }

    @Test func tokenModeNeedsTheTokenFromEveryPeer() {
        let access = MetricsAccess.token(Self.token)
        for peer in ["127.0.0.1:1", "192.0.2.1:1"] {
            let missing = access.refusal(for: Self.request(from: peer))
            #expect(missing?.status == .unauthorized)
            #expect(missing?.headers["WWW-Authenticate"] == "Bearer realm=\"metrics\"")
            let wrong = access.refusal(for: Self.request(from: peer, headers: [("Authorization", "Bearer " + Self.token.dropLast() + "0")]))
            #expect(wrong?.status == .unauthorized)
            let prefix = access.refusal(for: Self.request(from: peer, headers: [("Authorization", "Bearer " + Self.token.dropLast())]))
            #expect(prefix?.status == .unauthorized)
            #expect(access.refusal(for: Self.request(from: peer, headers: [("Authorization", "bearer " + Self.token)])) == nil)
        }
    }

    @Test func publicModeAdmitsEveryone() {
        #expect(MetricsAccess.everyone.refusal(for: Self.request(from: "203.0.113.5:1")) == nil)
    }
}

@Suite struct MetricsSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    /// A temporary file holding `text`.
    private func tokenFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-token-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    @Test func isLoopbackOnlyByDefault() throws {
        #expect(try settings([]).metricsAccess.mode == .loopback)
        #expect(try settings(["--metrics-access", "public"]).metricsAccess.mode == .public)
    }

    @Test func tokenModeReadsTheTokenFile() throws {
        let path = try tokenFile(MetricsAccessTests.token + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configured = try settings([], environment: ["HEARTH_METRICS_ACCESS": "token", "HEARTH_METRICS_TOKEN_FILE": path])
        #expect(configured.metricsAccess.mode == .token)
        let request = MetricsAccessTests.request(from: "192.0.2.1:1", headers: [("Authorization", "Bearer " + MetricsAccessTests.token)])
        #expect(configured.metricsAccess.refusal(for: request) == nil)
    }

    @Test func refusesTokenSetupsThatProtectNothing() throws {
        let short = try tokenFile(String(MetricsAccessTests.token.prefix(MetricsSettings.minimumTokenLength - 1)))
        let spaced = try tokenFile("0123456789 abcdef0123456789")
        let exact = try tokenFile(String(MetricsAccessTests.token.prefix(MetricsSettings.minimumTokenLength)))
        defer { for path in [short, spaced, exact] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(throws: UsageError.self) { try settings(["--metrics-access", "token"]) }
        #expect(throws: UsageError.self) { try settings(["--metrics-access", "token", "--metrics-token-file", "/nonexistent/token"]) }
        #expect(throws: UsageError.self) { try settings(["--metrics-access", "token", "--metrics-token-file", short]) }
        #expect(throws: UsageError.self) { try settings(["--metrics-access", "token", "--metrics-token-file", spaced]) }
        #expect(try settings(["--metrics-access", "token", "--metrics-token-file", exact]).metricsAccess.mode == .token)
        #expect(throws: UsageError.self) { try settings(["--metrics-token-file", exact]) }
        #expect(throws: UsageError.self) { try settings(["--metrics-access", "everyone"]) }
    }
}
