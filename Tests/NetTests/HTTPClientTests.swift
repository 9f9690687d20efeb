import Foundation
import Glibc
import Net
import Testing

/// The HTTP client against Python's `http.server` on loopback, plain and over TLS.
struct HTTPClientTests {
    private let client = HTTPClient(configuration: .init(timeout: .seconds(20)))

    @Test func readsContentLengthAndChunkedBodies() throws {
        let server = try LoopbackHTTPServer(tls: false)
        defer { server.stop() }
        let length = try client.get(server.url("/length"))
        #expect(length.status == 200 && length.header("content-type") == "text/plain")
        #expect(String(decoding: length.body, as: UTF8.self) == "hello, length")
        let chunked = try client.get(server.url("/chunked"))
        #expect(String(decoding: chunked.body, as: UTF8.self) == "hello, chunks")
    }

    @Test func postsABodyWithItsHeaders() throws {
        let server = try LoopbackHTTPServer(tls: false)
        defer { server.stop() }
        let response = try client.post(server.url("/echo"), headers: [("Content-Type", "text/plain")], body: Array("ping".utf8))
        let echoed = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
        #expect(echoed == ["body": "ping", "contentType": "text/plain", "host": "127.0.0.1:\(server.port)"])
    }

    @Test func returnsRedirectsInsteadOfFollowingThem() throws {
        let server = try LoopbackHTTPServer(tls: false)
        defer { server.stop() }
        let response = try client.get(server.url("/redirect"))
        #expect(response.status == 302 && response.header("Location") == "/length" && !response.isSuccess)
    }

    @Test func refusesResponsesAboveTheSizeLimit() throws {
        let server = try LoopbackHTTPServer(tls: false)
        defer { server.stop() }
        let limited = HTTPClient(configuration: .init(timeout: .seconds(20), limits: .init(maxBodyBytes: 64 * 1024)))
        let error = #expect(throws: NetworkError.self) { try limited.get(server.url("/big")) }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.peer == "http://127.0.0.1:\(server.port)/big")
    }

    @Test func namesTheURLWhenNothingListens() throws {
        let error = #expect(throws: NetworkError.self) { try client.get(HTTPURL("http://127.0.0.1:1/x")) }
        #expect(error?.code == .cannotConnect)
        #expect(error?.description == "cannot connect to http://127.0.0.1:1/x: Connection refused")
    }

    @Test func timesOutWhenTheServerNeverAnswers() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let impatient = HTTPClient(configuration: .init(timeout: .milliseconds(200)))
        let error = #expect(throws: NetworkError.self) { try impatient.get(HTTPURL("http://127.0.0.1:\(listener.port)/")) }
        #expect(error?.code == .timedOut)
    }

    @Test func fetchesOverTLSTrustingTheGivenAuthorityAndReadsCacheControl() throws {
        let server = try LoopbackHTTPServer(tls: true)
        defer { server.stop() }
        let tls = try TLSClient(configuration: .init(certificateAuthorityFile: server.authorityFile))
        let secure = HTTPClient(configuration: .init(timeout: .seconds(20), tls: tls))
        let byName = try secure.get(server.url("/cached", host: "localhost", secure: true))
        #expect(byName.status == 200 && byName.header("Cache-Control") == "public, max-age=21600")
        let byAddress = try secure.get(server.url("/chunked", secure: true))
        #expect(String(decoding: byAddress.body, as: UTF8.self) == "hello, chunks")
    }

    @Test func rejectsCertificatesFromAnUntrustedAuthority() throws {
        let server = try LoopbackHTTPServer(tls: true)
        defer { server.stop() }
        for tls in [try TLSClient(configuration: .init(certificateAuthorityFile: server.unrelatedAuthorityFile)), try TLSClient()] {
            let secure = HTTPClient(configuration: .init(timeout: .seconds(20), tls: tls))
            let error = #expect(throws: NetworkError.self) { try secure.get(server.url("/length", host: "localhost", secure: true)) }
            #expect(error?.code == .certificateRejected)
        }
    }
}

/// A TCP listener on 127.0.0.1 that accepts nothing and says nothing: connections complete
/// in the kernel's backlog and then wait forever.
final class SilentListener {
    private let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
