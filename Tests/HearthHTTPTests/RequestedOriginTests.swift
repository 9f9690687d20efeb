@testable import HearthHTTP
import Testing

/// ``TrustedProxies/requestedOrigin(peer:headers:)``: the origin a client addressed, from its
/// `Host`, or from what a trusted proxy states.
struct RequestedOriginTests {
    static let proxy = IPAddress("10.0.0.2")
    static let stranger = IPAddress("203.0.113.9")

    static func origin(
        _ fields: [(String, String)], peer: IPAddress?, header: ForwardingHeader = .xForwardedFor
    ) throws -> String? {
        let proxies = TrustedProxies(networks: [try IPNetwork("10.0.0.0/8")], header: header)
        return proxies.requestedOrigin(peer: peer, headers: HTTPHeaders(fields.map { (name: $0.0, value: $0.1) }))?.description
    }

    @Test func aDirectClientsOriginIsItsHostOverPlainHTTP() throws {
        let forwarded = [("Host", "Hearth.Local:8080"), ("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "evil.example")]
        #expect(try Self.origin(forwarded, peer: Self.stranger) == "http://hearth.local:8080")
        #expect(try Self.origin([("Host", "[::1]:8080")], peer: nil) == "http://[::1]:8080")
    }

    @Test func aTrustedProxyStatesTheSchemeAndHostAndOnlyTheValueItSetIsRead() throws {
        let fields = [("Host", "10.0.0.5:8080"), ("X-Forwarded-Proto", "http, https"), ("X-Forwarded-Host", "spoofed.example, hearth.example.org")]
        #expect(try Self.origin(fields, peer: Self.proxy) == "https://hearth.example.org")
        // A proxy that states only the scheme keeps the request's Host.
        #expect(try Self.origin([("Host", "hearth.example.org"), ("X-Forwarded-Proto", "HTTPS")], peer: Self.proxy) == "https://hearth.example.org")
        let rfc = [("Host", "10.0.0.5"), ("Forwarded", #"for=192.0.2.1;host=spoofed.example, for=198.51.100.4;proto=https;host="hearth.example.org""#)]
        #expect(try Self.origin(rfc, peer: Self.proxy, header: .forwarded) == "https://hearth.example.org")
        // With Forwarded trusted, X-Forwarded-* are somebody else's.
        #expect(try Self.origin([("Host", "a.example"), ("X-Forwarded-Proto", "https")], peer: Self.proxy, header: .forwarded) == "http://a.example")
    }

    @Test(arguments: ["", "a.example/path", "a.example\"><script>", "user@a.example", "a b"])
    func aHostNoHostHasGivesNoOrigin(host: String) throws {
        #expect(try Self.origin([("Host", host)], peer: Self.stranger) == nil)
        #expect(try Self.origin([("Host", "a.example"), ("X-Forwarded-Host", host)], peer: Self.proxy) == (host.isEmpty ? "http://a.example" : nil))
    }

    @Test func aSchemeOtherThanHTTPOrHTTPSGivesNoOrigin() throws {
        #expect(try Self.origin([("Host", "a.example"), ("X-Forwarded-Proto", "javascript")], peer: Self.proxy) == nil)
        #expect(try Self.origin([], peer: Self.stranger) == nil)
    }
}
