import HearthHTTP
import Testing

struct SocketAddressTests {
    @Test(arguments: [
        ("127.0.0.1:52100", "127.0.0.1"),
        ("[::1]:8080", "::1"),
        ("[fe80::1%eth0]:443", "fe80::1%eth0"),
        ("localhost", "localhost"),
        ("", ""),
    ])
    func theHostOfAPeerAddressDropsThePort(address: String, host: String) {
        #expect(SocketAddress.host(of: address) == host)
    }

    @Test func aRequestsClientIsItsPeersHostUnlessToldOtherwise() {
        let head = HTTPRequestHead(method: .get, target: "/", keepAlive: true)
        #expect(HTTPRequest(head: head, remoteAddress: "[2001:db8::1]:4711").clientAddress == "2001:db8::1")
        #expect(HTTPRequest(head: head, remoteAddress: "10.0.0.2:80", clientAddress: "198.51.100.1").clientAddress == "198.51.100.1")
    }
}
