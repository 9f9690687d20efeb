import Testing

@testable import HearthAPI

struct RequestContextTests {
    @Test(arguments: [
        ("127.0.0.1:52100", "127.0.0.1"),
        ("[::1]:8080", "::1"),
        ("[fe80::1%eth0]:443", "fe80::1%eth0"),
        ("localhost", "localhost"),
        ("", ""),
    ])
    func theHostOfAPeerAddressDropsThePort(address: String, host: String) {
        #expect(RequestContext.host(ofPeer: address) == host)
    }
}
