@testable import HearthHTTP
import Testing

@Suite struct HTTPRequestParserTests {
    static let pipelined = "GET /a?x=1 HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
        + "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "3;ext=1\r\nabc\r\nA ; name=\"v\"\r\n0123456789\r\n0\r\nTrailer-One: t\r\n\r\n"
        + "\r\nGET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"

    static let inputs = [
        "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
        pipelined,
        "POST /upload HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nxyz",
        "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{01}b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer\tabcdefghijklmnopqrstuvwxyz.0123456789\t\u{E9}x\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcdeXX",
    ]

    @Test(arguments: inputs)
    func givesTheSameResultForEverySplitOfTheInput(_ text: String) {
        let input = Array(text.utf8)
        let configuration = HTTPParserConfiguration()
        let whole = ParserHarness.parse(text)
        for split in 0...input.count {
            #expect(ParserHarness.parse(input, splitAt: split, configuration) == whole, "split at \(split)")
        }
        #expect(ParserHarness.parseByteByByte(input, configuration) == whole)
    }

    @Test func parsesPipelinedRequestsWithEveryKindOfBody() {
        let outcome = ParserHarness.parse(Self.pipelined)
        #expect(outcome.error == nil)
        #expect(outcome.messages.map(\.target) == ["/a?x=1", "/b", "/c", "/"])
        #expect(outcome.messages.map { String(decoding: $0.body, as: UTF8.self) } == ["", "hello", "abc0123456789", ""])
        #expect(outcome.messages[0].headers == ["Host: h", "Accept: */*"])
        #expect(outcome.messages[3].version == .http1_0)
        #expect(outcome.messages[3].keepAlive)
        #expect(outcome.leftover == 0)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, CLOSE\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true),
    ])
    func decidesKeepAliveFromVersionAndConnectionHeader(_ text: String, _ keepAlive: Bool) {
        #expect(ParserHarness.parse(text).messages.first?.keepAlive == keepAlive)
    }

    @Test func reportsExpectContinueOnlyWhenABodyFollows() {
        let withBody = ParserHarness.parse("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(withBody.messages.first?.expectsContinue == true)
        let withoutBody = ParserHarness.parse("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n")
        #expect(withoutBody.messages.first?.expectsContinue == false)
    }

    @Test func acceptsRepeatedIdenticalContentLengths() {
        let outcome = ParserHarness.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok")
        #expect(outcome.messages.first?.body == Array("ok".utf8))
    }

    static let rejections: [(String, HTTPParseError.Code, Int)] = [
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", .contentLengthWithTransferEncoding, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", .invalidContentLength, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 4\r\n\r\n", .invalidContentLength, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", .invalidContentLength, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n", .invalidContentLength, 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n  folded\r\n\r\n", .obsoleteLineFolding, 400),
        ("GET / HTTP/1.1\r\n Host: h\r\n\r\n", .obsoleteLineFolding, 400),
        ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", .invalidHeaderName, 400),
        ("GET / HTTP/1.1\r\nHo(st: h\r\n\r\n", .invalidHeaderName, 400),
        ("GET / HTTP/1.1\r\n: h\r\n\r\n", .invalidHeaderName, 400),
        ("GET / HTTP/1.1\r\nHost h\r\n\r\n", .invalidHeaderName, 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n", .invalidHeaderValue, 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", .invalidHeaderValue, 400),
        ("GET / HTTP/1.1\r\nHost: h\nX: b\r\n\r\n", .invalidLineEnding, 400),
        ("GET / HTTP/1.1\n\n", .invalidLineEnding, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", .invalidTransferEncoding, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", .invalidTransferEncoding, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding, 501),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", .invalidTransferEncoding, 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .invalidTransferEncoding, 400),
        ("GET / HTTP/1.1\r\n\r\n", .invalidHost, 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost, 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nExpect: something\r\n\r\n", .unsupportedExpectation, 417),
        ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET / http/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET /\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET x HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET * HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("G@T / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET /a\rb HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine, 400),
        ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupportedVersion, 505),
        ("GET / HTTP/0.9\r\nHost: h\r\n\r\n", .unsupportedVersion, 505),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .invalidChunk, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", .invalidChunk, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", .invalidChunk, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3 x\r\nabc\r\n", .invalidChunk, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n", .invalidChunk, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffffffff\r\n", .bodyTooLarge, 413),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Trailer: x\r\n\r\n", .invalidHeaderName, 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", .bodyTooLarge, 413),
        ("GET / HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx\u{7F}In0.sig\r\n\r\n", .invalidHeaderValue, 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx\u{1B}In0.sig\r\n\r\n", .invalidHeaderValue, 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nNo-Colon-In-This-Line\r\n\r\n", .invalidHeaderName, 400),
    ]

    @Test(arguments: rejections)
    func rejectsMalformedAndAmbiguousRequests(_ text: String, _ code: HTTPParseError.Code, _ status: Int) {
        let outcome = ParserHarness.parse(text)
        #expect(outcome.error == code)
        #expect(outcome.messages.isEmpty)
        #expect(HTTPParseError(code).status.code == status)
    }

    @Test func staysFailedAfterAnError() {
        var harness = ParserHarness()
        harness.feed(Array("GET / HTTP/1.1\r\nHost: h\r\nX: \u{0}\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        let again = harness.pending.withUnsafeBytes { harness.parser.parse($0, now: 0) }
        guard case .error(let error) = again.event else {
            Issue.record("expected the error again")
            return
        }
        #expect(error.code == .invalidHeaderValue)
    }

    @Test func ignoresEmptyLinesBeforeTheRequestLine() {
        #expect(ParserHarness.parse("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n").messages.count == 1)
    }

    @Test(arguments: [
        ("/a/b?c=d&e", "/a/b", "c=d&e"),
        ("http://example.com/x?y", "/x", "y"),
        ("https://example.com?q=1", "/", "q=1"),
        ("http://example.com", "/", nil),
        ("http://example.com?next=/admin", "/", "next=/admin"),
        ("http://example.com/a?b=/c", "/a", "b=/c"),
        ("/caf%C3%A9/\u{E9}?x=\u{E9}", "/caf%C3%A9/\u{E9}", "x=\u{E9}"),
        ("/p?", "/p", ""),
    ] as [(String, String, String?)])
    func splitsTargetIntoPathAndQuery(target: String, path: String, query: String?) {
        let head = HTTPRequestHead(method: .get, target: target)
        #expect(head.path == path[...])
        #expect(head.query == query?[...])
    }
}
