import Testing
import Net

struct HTTPResponseParserTests {
    private func parse(_ pieces: [String]) throws -> HTTPResponse? {
        var parser = HTTPResponseParser()
        for piece in pieces {
            if case .complete(let response) = try parser.feed(Array(piece.utf8)) { return response }
        }
        return try parser.finish()
    }

    @Test func readsAContentLengthBodyArrivingInPieces() throws {
        let response = try parse(["HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len", "gth: 10\r\n\r\n{\"a\":", "1}   "])
        #expect(response?.status == 200)
        #expect(response?.header("content-type") == "application/json")
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == "{\"a\":1}   ")
    }

    @Test func decodesChunkedBodiesWithExtensionsAndTrailers() throws {
        let response = try parse(["HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nTrailer: t\r\n\r\n"])
        #expect(response?.status == 400)
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == "{\"a\":1}")
    }

    @Test func skipsInterimResponsesAndReadsUntilCloseWithoutFraming() throws {
        let response = try parse(["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nhello"])
        #expect(response?.status == 200)
        #expect(response?.body == Array("hello".utf8))
    }

    @Test func rejectsGarbageAndTruncatedResponses() {
        #expect(throws: NetworkError.self) { try parse(["SSH-2.0-OpenSSH\r\n\r\n"]) }
        let error = #expect(throws: NetworkError.self) { try parse(["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"]) }
        #expect(error?.code == .connectionClosed)
    }

    @Test func rejectsBodiesAboveTheLimitAsTooLarge() {
        var parser = HTTPResponseParser(limits: .init(maxBodyBytes: 4))
        let error = #expect(throws: NetworkError.self) { try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8)) }
        #expect(error?.code == .responseTooLarge)
        var chunked = HTTPResponseParser(limits: .init(maxBodyBytes: 4))
        let chunkedError = #expect(throws: NetworkError.self) {
            try chunked.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n".utf8))
        }
        #expect(chunkedError?.code == .responseTooLarge)
    }
}

struct HTTPURLTests {
    @Test func parsesHostsPortsTargetsAndSchemes() throws {
        let url = try HTTPURL("http://127.0.0.1:8080/graphql")
        #expect(url.host == "127.0.0.1" && url.port == 8080 && url.target == "/graphql" && !url.isSecure)
        let ipv6 = try HTTPURL("http://[::1]:9/x?y=1")
        #expect(ipv6.host == "::1" && ipv6.port == 9 && ipv6.target == "/x?y=1" && ipv6.hostHeader == "[::1]:9")
        let bare = try HTTPURL("http://example.test")
        #expect(bare.port == 80 && bare.target == "/" && bare.hostHeader == "example.test")
        let secure = try HTTPURL("https://www.googleapis.com/oauth2/v3/certs")
        #expect(secure.isSecure && secure.port == 443 && secure.hostHeader == "www.googleapis.com" && secure.target == "/oauth2/v3/certs")
        #expect(try HTTPURL("https://h:8443?q").hostHeader == "h:8443")
    }

    @Test func rejectsOtherSchemesUserInformationAndBadPorts() {
        for text in ["ftp://x/", "http://x:0/", "http:///graphql", "http://user@x/", "http://x:99999/", "http://x/a b", "http://[::1/"] {
            let error = #expect(throws: NetworkError.self) { try HTTPURL(text) }
            #expect(error?.code == .invalidURL, "\(text)")
        }
    }
}
