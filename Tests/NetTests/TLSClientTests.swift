import Net
import Testing

/// TLS verification against a loopback server whose certificate names `localhost` and
/// `127.0.0.1`, issued by a certificate authority generated for the run.
struct TLSClientTests {
    @Test func securesAnOpenConnectionWhenTheCertificateNamesTheHost() throws {
        let server = try LoopbackHTTPServer(tls: true)
        defer { server.stop() }
        let tls = try TLSClient(configuration: .init(certificateAuthorityFile: server.authorityFile))
        let deadline = Deadline.after(.seconds(20))
        let plain = try TCPConnection.connect(host: "127.0.0.1", port: server.port, deadline: deadline)
        let secured = try tls.secure(plain, serverName: "localhost", deadline: deadline)
        defer { secured.close() }
        #expect(secured.protocolVersion.hasPrefix("TLSv1."))
        try secured.send(Array("GET /length HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8), deadline: deadline)
        var reader = BufferedReader(secured)
        #expect(try reader.readLine(maxLength: 100, deadline: deadline) == Array("HTTP/1.1 200 OK".utf8))
    }

    @Test func rejectsACertificateForAnotherHostName() throws {
        let server = try LoopbackHTTPServer(tls: true)
        defer { server.stop() }
        let tls = try TLSClient(configuration: .init(certificateAuthorityFile: server.authorityFile))
        let deadline = Deadline.after(.seconds(20))
        let plain = try TCPConnection.connect(host: "127.0.0.1", port: server.port, deadline: deadline)
        let error = #expect(throws: NetworkError.self) { try tls.secure(plain, serverName: "mail.example.org", deadline: deadline) }
        #expect(error?.code == .certificateRejected)
        #expect(error?.detail.contains("mismatch") == true)
    }

    @Test func refusesAnUnreadableAuthorityFile() {
        let error = #expect(throws: NetworkError.self) {
            try TLSClient(configuration: .init(certificateAuthorityFile: "/nonexistent/ca.pem"))
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
