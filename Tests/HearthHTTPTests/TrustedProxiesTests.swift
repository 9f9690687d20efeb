@testable import HearthHTTP
import Testing

struct IPNetworkTests {
    @Test(arguments: [
        ("192.0.2.1", "192.0.2.1"), ("::1", "::1"), ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
        ("::ffff:192.0.2.1", "192.0.2.1"), ("0.0.0.0", "0.0.0.0"),
    ])
    func parsesNumericAddressesInTheirCanonicalForm(text: String, canonical: String) {
        #expect(IPAddress(text)?.description == canonical)
    }

    @Test(arguments: ["", "localhost", "192.0.2", "192.0.2.256", "01.2.3.4", "192.0.2.1:80", "[::1]", "fe80::1%eth0", "1::2::3", " 192.0.2.1"])
    func refusesWhatIsNotANumericAddress(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test func anIPv4AddressAndItsMappedIPv6FormAreTheSame() {
        #expect(IPAddress("::ffff:10.1.2.3") == IPAddress("10.1.2.3"))
        #expect(IPAddress("10.1.2.3")?.isIPv4 == true)
        #expect(IPAddress("2001:db8::1")?.isIPv4 == false)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.3.4", true), ("10.0.0.0/8", "11.0.0.0", false),
        ("192.168.1.0/24", "192.168.1.255", true), ("192.168.1.0/24", "192.168.2.0", false),
        ("192.0.2.7", "192.0.2.7", true), ("192.0.2.7", "192.0.2.8", false),
        ("0.0.0.0/0", "203.0.113.9", true), ("0.0.0.0/0", "2001:db8::1", false),
        ("2001:db8::/32", "2001:db8:ffff::1", true), ("2001:db8::/32", "2001:db9::1", false),
        ("fd00::/8", "fdff::1", true), ("::1", "::1", true), ("::1", "127.0.0.1", false),
        ("2001:db8::/127", "2001:db8::1", true), ("2001:db8::/127", "2001:db8::2", false),
        ("10.0.0.0/8", "::ffff:10.0.0.1", true), ("::ffff:0:0/96", "198.51.100.1", true),
        ("::/0", "2001:db8::1", true), ("172.16.0.0/12", "172.31.255.255", true), ("172.16.0.0/12", "172.32.0.0", false),
    ])
    func matchesAddressesInsideTheBlockOnly(network: String, address: String, inside: Bool) throws {
        let block = try IPNetwork(network)
        #expect(block.contains(try #require(IPAddress(address))) == inside)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.0.0.0/8"), ("192.0.2.7", "192.0.2.7/32"), ("2001:db8::/32", "2001:db8::/32"), ("::1", "::1/128"),
    ])
    func printsTheBlockInItsFamilysTerms(text: String, printed: String) throws {
        #expect(try IPNetwork(text).description == printed)
    }

    @Test(arguments: ["10.0.0.1/8", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8", "proxy.local", "10.0.0.0/8/8"])
    func refusesMalformedBlocksAndHostBitsAfterThePrefix(text: String) {
        #expect(throws: IPNetwork.ParseError.self) { try IPNetwork(text) }
    }

    @Test func namesTheBlockAHostBitsMistakeMeant() {
        #expect(throws: IPNetwork.ParseError.self) { try IPNetwork("10.1.2.3/8") }
        do {
            _ = try IPNetwork("10.1.2.3/8")
        } catch {
            #expect(error.description.contains("10.0.0.0"))
        }
    }
}

struct ForwardedNodeTests {
    @Test(arguments: [
        ("192.0.2.60", "192.0.2.60"), ("192.0.2.60:4711", "192.0.2.60"), ("[2001:db8:cafe::17]", "2001:db8:cafe::17"),
        ("[2001:db8:cafe::17]:4711", "2001:db8:cafe::17"), ("192.0.2.60:_port", "192.0.2.60"),
    ])
    func readsAddressesWithOrWithoutPorts(text: String, address: String) {
        #expect(ForwardedNode(text[...], allowsBareIPv6: false) == .address(IPAddress(address)!))
    }

    @Test(arguments: ["unknown", "UNKNOWN", "_hidden", "_SEVKISEK", "_a.b-c_d", "unknown:_port", "_hidden:80"])
    func readsHiddenHops(text: String) {
        #expect(ForwardedNode(text[...], allowsBareIPv6: false) == .hidden)
    }

    @Test(arguments: ["", "_", "_bad!", "2001:db8::1", "[192.0.2.1]", "[2001:db8::1", "[2001:db8::1]x", "192.0.2.1:", "192.0.2.1:123456",
                      "192.0.2.1:http", "host.example", "[2001:db8::1]:"])
    func refusesMalformedNodes(text: String) {
        #expect(ForwardedNode(text[...], allowsBareIPv6: false) == nil)
    }

    @Test func readsBareIPv6OnlyWhereXForwardedForWritesIt() {
        #expect(ForwardedNode("2001:db8::1", allowsBareIPv6: true) == .address(IPAddress("2001:db8::1")!))
        #expect(ForwardedNode("2001:db8::1", allowsBareIPv6: false) == nil)
    }
}

struct ForwardedElementsTests {
    @Test func readsTheForParameterOfEachElement() {
        let nodes = ForwardedElements.nodes(in: "for=192.0.2.60;proto=http;by=203.0.113.43, For=\"[2001:db8:cafe::17]:4711\"")
        #expect(nodes == [.address(IPAddress("192.0.2.60")!), .address(IPAddress("2001:db8:cafe::17")!)])
    }

    @Test func keepsCommasInsideQuotedStringsAndUnescapesThem() {
        let nodes = ForwardedElements.nodes(in: "by=\"a,b\";for=\"192.0.2.1\", for=\"\\_hid\\den\"")
        #expect(nodes == [.address(IPAddress("192.0.2.1")!), .hidden])
    }

    @Test func marksElementsWithoutASingleWellFormedFor() {
        let nodes = ForwardedElements.nodes(in: "proto=https, for=192.0.2.1;for=192.0.2.2, for=bogus, for=192.0.2.3")
        #expect(nodes == [nil, nil, nil, .address(IPAddress("192.0.2.3")!)])
    }

    @Test func isLenientAboutWhitespaceEmptyElementsAndUnquotedBrackets() {
        let nodes = ForwardedElements.nodes(in: " for = 192.0.2.1 ; proto=http ,, for=[2001:db8::1]:80 ,")
        #expect(nodes == [.address(IPAddress("192.0.2.1")!), .address(IPAddress("2001:db8::1")!)])
    }

    @Test(arguments: ["for=\"192.0.2.1", "for=", "=192.0.2.1", "for 192.0.2.1", "for=192.0.2.1 for=192.0.2.2", "for=\"a\"b", "for=192.0.2.1;"])
    func refusesLinesThatBreakTheGrammar(line: String) {
        #expect(ForwardedElements.nodes(in: line) == nil)
    }
}

/// The client-address selection, as a table: peer, header lines, expected client.
struct TrustedProxiesTests {
    static let proxies = TrustedProxies(networks: [try! IPNetwork("10.0.0.0/8"), try! IPNetwork("2001:db8:1::/48"), try! IPNetwork("::1")])

    static func resolve(_ peer: String, _ lines: [String], _ proxies: TrustedProxies = proxies) -> String {
        var headers = HTTPHeaders()
        for line in lines { headers.add(name: proxies.header == .forwarded ? "Forwarded" : "x-forwarded-for", value: line) }
        return proxies.clientAddress(peer: IPAddress(peer)!, headers: headers).description
    }

    @Test(arguments: [
        // An untrusted peer is the client, whatever it claims.
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),
        // A trusted peer without the header is the client.
        ("10.0.0.2", [], "10.0.0.2"),
        // One proxy: the address it appended.
        ("10.0.0.2", ["198.51.100.1"], "198.51.100.1"),
        // A spoofed left-most entry is never reached.
        ("10.0.0.2", ["127.0.0.1, 10.9.9.9, 198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["garbage!!, 198.51.100.1"], "198.51.100.1"),
        // Trusted hops are skipped, right to left.
        ("10.0.0.2", ["198.51.100.1, 10.0.0.7, 10.0.0.8"], "198.51.100.1"),
        // Several lines read as one list, in order.
        ("10.0.0.2", ["127.0.0.1", "198.51.100.1, 10.0.0.7"], "198.51.100.1"),
        ("10.0.0.2", ["198.51.100.1", "10.0.0.7"], "198.51.100.1"),
        // Every hop trusted: the left-most is the client.
        ("10.0.0.2", ["10.0.0.5, 10.0.0.7"], "10.0.0.5"),
        // Malformed or hidden where the client should be: the peer.
        ("10.0.0.2", ["198.51.100.1, not-an-ip"], "10.0.0.2"),
        ("10.0.0.2", ["198.51.100.1, unknown"], "10.0.0.2"),
        ("10.0.0.2", ["198.51.100.1,"], "10.0.0.2"),
        ("10.0.0.2", [""], "10.0.0.2"),
        // Ports and IPv6 as proxies write them.
        ("10.0.0.2", ["198.51.100.1:52311"], "198.51.100.1"),
        ("10.0.0.2", ["2001:db8:2::7"], "2001:db8:2::7"),
        ("10.0.0.2", ["[2001:db8:2::7]:443"], "2001:db8:2::7"),
        ("::1", ["2001:db8:2::7, 2001:db8:1::3"], "2001:db8:2::7"),
        // An IPv4-mapped peer is the IPv4 proxy.
        ("::ffff:10.0.0.2", ["198.51.100.1"], "198.51.100.1"),
    ])
    func selectsTheRightMostAddressThatIsNotATrustedProxy(peer: String, lines: [String], client: String) {
        #expect(Self.resolve(peer, lines) == client)
    }

    @Test(arguments: [
        ("10.0.0.2", ["for=198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["for=127.0.0.1, for=198.51.100.1;proto=https"], "198.51.100.1"),
        ("10.0.0.2", ["for=\"[2001:db8:2::17]:4711\", for=10.0.0.9"], "2001:db8:2::17"),
        ("10.0.0.2", ["for=198.51.100.1, for=_hidden"], "10.0.0.2"),
        ("10.0.0.2", ["for=_hidden, for=198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["for=198.51.100.1, for=unknown"], "10.0.0.2"),
        ("10.0.0.2", ["for=198.51.100.1, proto=https"], "10.0.0.2"),
        ("10.0.0.2", ["for=\"198.51.100.1, for=203.0.113.5"], "10.0.0.2"),
        ("10.0.0.2", ["for=\"spoof", "for=198.51.100.1"], "198.51.100.1"),
        ("203.0.113.9", ["for=198.51.100.1"], "203.0.113.9"),
    ])
    func readsRFC7239ForwardedWhenConfigured(peer: String, lines: [String], client: String) {
        let proxies = TrustedProxies(networks: Self.proxies.networks, header: .forwarded)
        #expect(Self.resolve(peer, lines, proxies) == client)
    }

    @Test func readsOnlyTheConfiguredHeader() {
        var headers = HTTPHeaders()
        headers.add(name: "Forwarded", value: "for=198.51.100.66")
        headers.add(name: "X-Forwarded-For", value: "198.51.100.1")
        let peer = IPAddress("10.0.0.2")!
        #expect(Self.proxies.clientAddress(peer: peer, headers: headers) == IPAddress("198.51.100.1"))
        let forwarded = TrustedProxies(networks: Self.proxies.networks, header: .forwarded)
        #expect(forwarded.clientAddress(peer: peer, headers: headers) == IPAddress("198.51.100.66"))
    }

    @Test func trustsNoOneByDefault() {
        var headers = HTTPHeaders()
        headers.add(name: "X-Forwarded-For", value: "198.51.100.1")
        #expect(TrustedProxies().clientAddress(peer: IPAddress("127.0.0.1")!, headers: headers) == IPAddress("127.0.0.1"))
    }
}
