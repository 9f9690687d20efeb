import Foundation
import GraphQL
import HearthHTTP
import Testing

/// `--trusted-proxies`: per-address throttles and the access log key on the forwarded client
/// only when the peer is a trusted proxy. The throttle is the failed sign-ins per address, with
/// a burst of one (`--login-failures-per-address 10`); every attempt uses a new email so the
/// per-account limit never applies.
@Suite struct TrustedProxyTests {
    static let arguments = AccountsTests.serverArguments + ["--login-failures-per-address", "10"]

    /// One failed sign-in for a fresh email, sent with `headers`; its first error code.
    static func failedSignIn(_ server: ServerProcess, _ attempt: Int, headers: String) throws -> String? {
        try server.graphQL(AccountsTests.login, variables: ["input": .object([
            "email": .string("nobody\(attempt)@example.com"), "password": .string("wrong guess"),
        ])], headers: headers).errorCode
    }

    @Test func aTrustedProxysForwardedClientsHaveThrottlesOfTheirOwn() throws {
        let server = try ServerProcess(Self.arguments + ["--trusted-proxies", "127.0.0.0/8,::1"])
        defer { server.remove() }
        let first = "X-Forwarded-For: 198.51.100.1\r\n"
        #expect(try Self.failedSignIn(server, 1, headers: first) == "UNAUTHENTICATED")
        #expect(try Self.failedSignIn(server, 2, headers: first) == "RATE_LIMITED")
        // Another client behind the same proxy is not locked out with the first.
        #expect(try Self.failedSignIn(server, 3, headers: "X-Forwarded-For: 198.51.100.2\r\n") == "UNAUTHENTICATED")
        // A client cannot escape its throttle by writing an address in front of the proxy's entry.
        #expect(try Self.failedSignIn(server, 4, headers: "X-Forwarded-For: 203.0.113.77, 198.51.100.1\r\n") == "RATE_LIMITED")
        // Without the header, the proxy itself is the client.
        #expect(try Self.failedSignIn(server, 5, headers: "") == "UNAUTHENTICATED")
        server.stop()
        let line = server.log.split(separator: "\n").first { $0.contains("msg=request") && $0.contains("client.address=198.51.100.2") }
        #expect(line?.contains("peer.address=127.0.0.1:") == true)
    }

    @Test func forwardingHeadersOfAnUntrustedPeerAreIgnored() throws {
        let server = try ServerProcess(Self.arguments + ["--trusted-proxies", "10.0.0.0/8"])
        defer { server.remove() }
        #expect(try Self.failedSignIn(server, 1, headers: "X-Forwarded-For: 198.51.100.1\r\n") == "UNAUTHENTICATED")
        // A different claimed address changes nothing: both attempts came from 127.0.0.1.
        #expect(try Self.failedSignIn(server, 2, headers: "X-Forwarded-For: 198.51.100.2\r\n") == "RATE_LIMITED")
        server.stop()
        #expect(!server.log.contains("client.address=198.51.100."))
    }

    @Test func readsRFC7239ForwardedWhenConfiguredAndOnlyThen() throws {
        let server = try ServerProcess(Self.arguments + ["--trusted-proxies", "127.0.0.1", "--forwarded-header", "forwarded"])
        defer { server.remove() }
        #expect(try Self.failedSignIn(server, 1, headers: "Forwarded: for=\"[2001:db8::7]:4711\";proto=https\r\n") == "UNAUTHENTICATED")
        #expect(try Self.failedSignIn(server, 2, headers: "Forwarded: for=\"[2001:db8::7]\"\r\n") == "RATE_LIMITED")
        // X-Forwarded-For is not the configured header: the proxy passed it through, so it names no one.
        #expect(try Self.failedSignIn(server, 3, headers: "X-Forwarded-For: 198.51.100.9\r\n") == "UNAUTHENTICATED")
        #expect(try Self.failedSignIn(server, 4, headers: "X-Forwarded-For: 198.51.100.10\r\n") == "RATE_LIMITED")
    }
}
