import Net
import Testing

/// The outbound address guard at the edges of every range it refuses, in IPv4 and in the IPv6
/// forms that embed IPv4, and an ``HTTPClient`` with the policy against a TLS loopback server.
struct OutboundAddressPolicyTests {
    private static func refusal(_ host: String, allowingLoopback: Bool = false) throws -> String? {
        let address = try #require(ResolvedAddress.numeric(host: host, port: 443), "\(host) is numeric")
        return OutboundAddressPolicy(allowsLoopback: allowingLoopback).refusal(of: address.ipAddress)
    }

    @Test(arguments: [
        ("0.0.0.0", "unspecified"), ("0.255.255.255", "unspecified"), ("1.0.0.0", nil),
        ("9.255.255.255", nil), ("10.0.0.0", "private"), ("10.255.255.255", "private"), ("11.0.0.0", nil),
        ("100.63.255.255", nil), ("100.64.0.0", "shared (CGNAT)"), ("100.127.255.255", "shared (CGNAT)"), ("100.128.0.0", nil),
        ("126.255.255.255", nil), ("127.0.0.0", "loopback"), ("127.255.255.255", "loopback"), ("128.0.0.0", nil),
        ("169.253.255.255", nil), ("169.254.0.0", "link-local"), ("169.254.255.255", "link-local"), ("169.255.0.0", nil),
        ("172.15.255.255", nil), ("172.16.0.0", "private"), ("172.31.255.255", "private"), ("172.32.0.0", nil),
        ("192.167.255.255", nil), ("192.168.0.0", "private"), ("192.168.255.255", "private"), ("192.169.0.0", nil),
        ("223.255.255.255", nil), ("224.0.0.0", "multicast"), ("239.255.255.255", "multicast"),
        ("240.0.0.0", "reserved"), ("255.255.255.255", "reserved"), ("8.8.8.8", nil),
    ] as [(String, String?)])
    func ipv4(_ host: String, _ expected: String?) throws {
        #expect(try Self.refusal(host) == expected)
    }

    @Test(arguments: [
        ("::", "unspecified"), ("::1", "loopback"), ("::2", "unspecified"), ("2606:4700::1111", nil),
        ("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("fc00::", "private"), ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private"),
        ("fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("fe80::", "link-local"), ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "link-local"),
        ("fec0::", "site-local"), ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "site-local"), ("ff00::", "multicast"), ("ff02::1", "multicast"),
        ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"), ("::ffff:169.254.1.1", "link-local"),
        ("::ffff:100.64.0.1", "shared (CGNAT)"), ("::ffff:0.0.0.0", "unspecified"), ("::ffff:8.8.8.8", nil),
        ("::10.0.0.1", "private"), ("64:ff9b::192.168.0.1", "private"), ("64:ff9b::8.8.8.8", nil),
        ("2002:c0a8:0101::1", "private"), ("2002:7f00:0001::1", "loopback"), ("2002:0808:0808::1", nil),
    ] as [(String, String?)])
    func ipv6(_ host: String, _ expected: String?) throws {
        #expect(try Self.refusal(host) == expected)
    }

    @Test func loopbackIsPermittedOnlyWhenAllowed() throws {
        #expect(try Self.refusal("127.0.0.1", allowingLoopback: true) == nil)
        #expect(try Self.refusal("::1", allowingLoopback: true) == nil)
        #expect(try Self.refusal("::ffff:127.0.0.1", allowingLoopback: true) == nil)
        #expect(try Self.refusal("10.0.0.1", allowingLoopback: true) == "private", "only loopback is allowed")
        #expect(ResolvedAddress.numeric(host: "localhost", port: 443) == nil, "a name is not numeric")
    }

    @Test func onlyHTTPSURLsWithPermittedAddressesAreResolved() throws {
        let policy = OutboundAddressPolicy()
        let plain = #expect(throws: NetworkError.self) { try policy.addresses(for: try HTTPURL("http://8.8.8.8/")) }
        #expect(plain?.code == .addressRefused)
        let loopback = #expect(throws: NetworkError.self) { try policy.addresses(for: try HTTPURL("https://localhost:9/")) }
        #expect(loopback?.code == .addressRefused && loopback?.detail.contains("loopback") == true, "\(String(describing: loopback))")
        let allowed = try OutboundAddressPolicy(allowsLoopback: true).addresses(for: try HTTPURL("https://127.0.0.1:9/"))
        #expect(allowed.map(\.description) == ["127.0.0.1"] && allowed.first?.port == 9)
    }

    @Test func theClientConnectsOnlyWhereThePolicyPermits() throws {
        let server = try LoopbackHTTPServer(tls: true)
        defer { server.stop() }
        let tls = try TLSClient(configuration: .init(certificateAuthorityFile: server.authorityFile))
        let url = try server.url("/length", host: "localhost", secure: true)
        let guarded = HTTPClient(configuration: .init(tls: tls, addressPolicy: OutboundAddressPolicy()))
        let refused = #expect(throws: NetworkError.self) { try guarded.get(url) }
        #expect(refused?.code == .addressRefused)
        let allowing = HTTPClient(configuration: .init(tls: tls, addressPolicy: OutboundAddressPolicy(allowsLoopback: true)))
        let response = try allowing.get(url)
        #expect(response.status == 200 && response.body == Array("hello, length".utf8), "TLS still verifies the name it was asked for")
    }
}
