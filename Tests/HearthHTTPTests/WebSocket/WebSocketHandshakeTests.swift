@testable import HearthHTTP
import Testing

@Suite struct WebSocketHandshakeTests {
    private static func head(_ extra: [(String, String)] = [], without: Set<String> = [], version: HTTPVersion = .http1_1) -> HTTPRequestHead {
        var fields: [(name: String, value: String)] = [
            ("Host", "x"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ]
        fields.removeAll { without.contains($0.name) }
        fields += extra.map { (name: $0.0, value: $0.1) }
        return HTTPRequestHead(method: .get, target: "/graphql", version: version, headers: HTTPHeaders(fields))
    }

    private static func status(_ outcome: WebSocketHandshake.Outcome) -> Int {
        switch outcome {
        case .accept: 101
        case .refuse(let response): response.status.code
        }
    }

    private static func acceptance(_ outcome: WebSocketHandshake.Outcome) -> WebSocketHandshake.Acceptance? {
        if case .accept(let acceptance) = outcome { return acceptance }
        return nil
    }

    @Test func computesTheAcceptValueOfRFC6455sExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func hashesWithSHA1() {
        let digest = SHA1.hash(Array("abc".utf8))
        #expect(Base64.encode(digest) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
        #expect(SHA1.hash(Array(repeating: UInt8(ascii: "a"), count: 1_000)).count == 20)
    }

    @Test func roundTripsBase64AndRejectsNonCanonicalText() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37) }
            #expect(Base64.decode(Base64.encode(bytes)[...]) == bytes)
        }
        #expect(Base64.decode("abc") == nil)
        #expect(Base64.decode("ab=c") == nil)
        #expect(Base64.decode("QR==") == nil)
        #expect(Base64.decode("a*c=") == nil)
    }

    @Test func acceptsAWellFormedUpgrade() throws {
        let acceptance = try #require(Self.acceptance(WebSocketHandshake.evaluate(Self.head(), configuration: WebSocketConfiguration())))
        #expect(acceptance.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(acceptance.headers["Upgrade"] == "websocket")
        #expect(acceptance.subprotocol == nil)
        #expect(acceptance.deflate == nil)
    }

    @Test func refusesMissingOrWrongUpgradeFields() {
        let configuration = WebSocketConfiguration()
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head(without: ["Upgrade"]), configuration: configuration)) == 426)
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head(without: ["Connection"]), configuration: configuration)) == 400)
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head(without: ["Sec-WebSocket-Key"]), configuration: configuration)) == 400)
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head(version: .http1_0), configuration: configuration)) == 400)
        let shortKey = Self.head([("Sec-WebSocket-Key", "AAAA")], without: ["Sec-WebSocket-Key"])
        #expect(Self.status(WebSocketHandshake.evaluate(shortKey, configuration: configuration)) == 400)
        var post = Self.head()
        post.method = .post
        #expect(Self.status(WebSocketHandshake.evaluate(post, configuration: configuration)) == 405)
    }

    @Test func refusesOtherVersionsWith426NamingVersion13() {
        let outcome = WebSocketHandshake.evaluate(
            Self.head([("Sec-WebSocket-Version", "8")], without: ["Sec-WebSocket-Version"]), configuration: WebSocketConfiguration())
        guard case .refuse(let response) = outcome else {
            Issue.record("expected a refusal")
            return
        }
        #expect(response.status.code == 426)
        #expect(response.headers["Sec-WebSocket-Version"] == "13")
    }

    @Test func selectsTheServersPreferredSubprotocolAmongTheOffered() {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["graphql-transport-ws", "graphql-ws"]
        let outcome = WebSocketHandshake.evaluate(
            Self.head([("Sec-WebSocket-Protocol", "graphql-ws, graphql-transport-ws")]), configuration: configuration)
        #expect(Self.acceptance(outcome)?.subprotocol == "graphql-transport-ws")
        #expect(Self.acceptance(outcome)?.headers["Sec-WebSocket-Protocol"] == "graphql-transport-ws")
    }

    @Test func refusesAClientOfferingNoSubprotocolWeSpeak() {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["graphql-transport-ws"]
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head([("Sec-WebSocket-Protocol", "mqtt")]), configuration: configuration)) == 400)
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head(), configuration: configuration)) == 400)
    }

    @Test func enforcesTheOriginAllowList() {
        var configuration = WebSocketConfiguration()
        configuration.allowedOrigins = ["https://app.example"]
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head([("Origin", "https://evil.example")]), configuration: configuration)) == 403)
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head([("Origin", "https://APP.example")]), configuration: configuration)) == 101)
        #expect(Self.status(WebSocketHandshake.evaluate(Self.head(), configuration: configuration)) == 101)
    }

    @Test func negotiatesPermessageDeflateFromTheOffer() throws {
        var configuration = WebSocketConfiguration()
        configuration.compression = WebSocketConfiguration.Compression()
        let outcome = WebSocketHandshake.evaluate(
            Self.head([("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")]), configuration: configuration)
        let acceptance = try #require(Self.acceptance(outcome))
        #expect(acceptance.headers["Sec-WebSocket-Extensions"]
            == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; client_max_window_bits=15")
    }
}

@Suite struct PerMessageDeflateNegotiationTests {
    private static func negotiate(_ offer: String, _ configure: (inout WebSocketConfiguration.Compression) -> Void = { _ in })
        -> PerMessageDeflateParameters?
    {
        var compression = WebSocketConfiguration.Compression()
        configure(&compression)
        return PerMessageDeflateNegotiation.negotiate(offers: [offer], configuration: compression)
    }

    @Test func alwaysAsksForNoContextTakeoverByDefault() {
        let parameters = Self.negotiate("permessage-deflate")
        #expect(parameters == PerMessageDeflateParameters(
            serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 15, clientMaxWindowBits: nil))
        #expect(parameters?.responseValue == "permessage-deflate; server_no_context_takeover; client_no_context_takeover")
    }

    @Test func keepsContextTakeoverWhenConfiguredAndNotDeclinedByTheClient() {
        let parameters = Self.negotiate("permessage-deflate") {
            $0.serverContextTakeover = true
            $0.clientContextTakeover = true
        }
        #expect(parameters?.responseValue == "permessage-deflate")
        let declined = Self.negotiate("permessage-deflate; server_no_context_takeover") { $0.serverContextTakeover = true }
        #expect(declined?.serverNoContextTakeover == true)
    }

    @Test func honoursWindowBitsWithinTheRFCsRules() {
        #expect(Self.negotiate("permessage-deflate; server_max_window_bits=10")?.serverMaxWindowBits == 10)
        #expect(Self.negotiate("permessage-deflate; server_max_window_bits=12") { $0.serverMaxWindowBits = 11 }?.serverMaxWindowBits == 11)
        #expect(Self.negotiate("permessage-deflate; client_max_window_bits=9")?.clientMaxWindowBits == 9)
        #expect(Self.negotiate("permessage-deflate; client_max_window_bits=\"12\"")?.clientMaxWindowBits == 12)
        #expect(Self.negotiate("permessage-deflate; client_max_window_bits") { $0.clientMaxWindowBits = 10 }?.clientMaxWindowBits == 10)
    }

    @Test func declinesInvalidOffersAndFallsBackToTheNextOne() {
        #expect(Self.negotiate("permessage-deflate; server_max_window_bits") == nil)
        #expect(Self.negotiate("permessage-deflate; server_max_window_bits=16") == nil)
        #expect(Self.negotiate("permessage-deflate; server_max_window_bits=08") == nil)
        #expect(Self.negotiate("permessage-deflate; server_max_window_bits=8") == nil)
        #expect(Self.negotiate("permessage-deflate; unknown_parameter") == nil)
        #expect(Self.negotiate("permessage-deflate; server_no_context_takeover; server_no_context_takeover") == nil)
        #expect(Self.negotiate("x-webkit-deflate-frame") == nil)
        let fallback = Self.negotiate("permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits=9")
        #expect(fallback?.serverMaxWindowBits == 9)
    }
}
