@testable import HearthHTTP
import Testing

/// Every limit admits a request exactly at the limit and rejects one byte (or field) more, whether the input
/// arrives at once or byte by byte.
@Suite struct HTTPParserLimitTests {
    private func outcomes(_ text: String, _ configuration: HTTPParserConfiguration) -> [ParseOutcome] {
        let bytes = Array(text.utf8)
        return [ParserHarness.parse(text, configuration), ParserHarness.parseByteByByte(bytes, configuration)]
    }

    private func expectAccepted(_ text: String, _ configuration: HTTPParserConfiguration) {
        for outcome in outcomes(text, configuration) {
            #expect(outcome.error == nil)
            #expect(outcome.messages.count == 1)
        }
    }

    private func expectRejected(_ text: String, _ configuration: HTTPParserConfiguration, _ code: HTTPParseError.Code) {
        for outcome in outcomes(text, configuration) {
            #expect(outcome.error == code)
        }
    }

    @Test func requestLineAtTheLimitPassesAndOneByteMoreGets414() {
        var configuration = HTTPParserConfiguration()
        configuration.maxRequestLineLength = 32
        let target = { (length: Int) in "/" + String(repeating: "a", count: length - 1) }
        // "GET " + target + " HTTP/1.1" is 13 bytes plus the target.
        expectAccepted("GET \(target(19)) HTTP/1.1\r\nHost: h\r\n\r\n", configuration)
        expectRejected("GET \(target(20)) HTTP/1.1\r\nHost: h\r\n\r\n", configuration, .requestLineTooLong)
        #expect(HTTPParseError(.requestLineTooLong).status.code == 414)
    }

    @Test func requestLineLongerThanTheLimitIsRejectedBeforeItEnds() {
        var configuration = HTTPParserConfiguration()
        configuration.maxRequestLineLength = 32
        var harness = ParserHarness(configuration)
        harness.feed(Array(("GET /" + String(repeating: "a", count: 40)).utf8))
        #expect(harness.outcome.error == .requestLineTooLong)
    }

    @Test func defaultLimitsAreTheDocumentedOnes() {
        let configuration = HTTPParserConfiguration()
        #expect(configuration.maxRequestLineLength == 8192)
        #expect(configuration.maxHeaderBytes == 16384)
        #expect(configuration.maxBodyBytes == 1_048_576)
        #expect(configuration.headerReadTimeout == .seconds(10))
    }

    @Test func headerSectionAtTheLimitPassesAndOneByteMoreGets431() {
        var configuration = HTTPParserConfiguration()
        configuration.maxHeaderBytes = 64
        // "Host: h\r\n" is 9 bytes, "X: v\r\n" is 5 plus the value.
        expectAccepted("GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "v", count: 50))\r\n\r\n", configuration)
        expectRejected(
            "GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "v", count: 51))\r\n\r\n", configuration, .headersTooLarge)
    }

    @Test func headerCountAtTheLimitPassesAndOneMoreGets431() {
        var configuration = HTTPParserConfiguration()
        configuration.maxHeaderCount = 3
        expectAccepted("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n\r\n", configuration)
        expectRejected("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", configuration, .headersTooLarge)
    }

    @Test func announcedBodyAtTheLimitPassesAndOneByteMoreGets413BeforeTheBody() {
        var configuration = HTTPParserConfiguration()
        configuration.maxBodyBytes = 10
        expectAccepted("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789", configuration)
        // Rejected on the head alone: the body is never read.
        expectRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", configuration, .bodyTooLarge)
    }

    @Test func chunkedBodyAtTheLimitPassesAndOneByteMoreGets413WhileStreaming() {
        var configuration = HTTPParserConfiguration()
        configuration.maxBodyBytes = 10
        let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        expectAccepted(head + "5\r\n01234\r\n5\r\n56789\r\n0\r\n\r\n", configuration)
        expectRejected(head + "5\r\n01234\r\n6\r\n", configuration, .bodyTooLarge)
    }

    @Test func chunkLineAtTheLimitPassesAndOneByteMoreIsRejected() {
        var configuration = HTTPParserConfiguration()
        configuration.maxChunkLineLength = 8
        let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        expectAccepted(head + "1;abcdef\r\nx\r\n0\r\n\r\n", configuration)
        expectRejected(head + "1;abcdefg\r\nx\r\n0\r\n\r\n", configuration, .invalidChunk)
    }

    @Test func trailersCountAgainstTheHeaderLimit() {
        var configuration = HTTPParserConfiguration()
        configuration.maxHeaderBytes = 64
        // The head's fields take 37 bytes; trailers are limited on their own.
        let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        expectAccepted(head + "T: \(String(repeating: "v", count: 59))\r\n\r\n", configuration)
        expectRejected(head + "T: \(String(repeating: "v", count: 60))\r\n\r\n", configuration, .headersTooLarge)
    }
}

/// Read deadlines, driven by an injected clock.
@Suite struct HTTPParserTimeoutTests {
    private var configuration: HTTPParserConfiguration {
        var configuration = HTTPParserConfiguration()
        configuration.headerReadTimeout = .nanoseconds(1000)
        configuration.bodyReadTimeout = .nanoseconds(500)
        return configuration
    }

    @Test func hasNoDeadlineBetweenRequests() {
        var parser = HTTPRequestParser(configuration: configuration)
        #expect(parser.readDeadline == nil)
        #expect(parser.checkDeadline(now: .max) == nil)
    }

    @Test func cutsOffAHeadTrickledPastTheDeadlineCountedFromItsFirstByte() {
        var harness = ParserHarness(configuration)
        harness.feed(Array("GET / HT".utf8), now: 100)
        harness.feed(Array("TP/1.1\r\n".utf8), now: 900)
        harness.feed(Array("Host: h\r\n".utf8), now: 1099)
        #expect(harness.parser.readDeadline == 1100)
        #expect(harness.parser.checkDeadline(now: 1099) == nil)
        let error = harness.parser.checkDeadline(now: 1100)
        #expect(error?.code == .timeout)
        #expect(error?.status.code == 408)
    }

    @Test func givesTheBodyItsOwnDeadlineFromTheEndOfTheHead() {
        var harness = ParserHarness(configuration)
        harness.feed(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nab".utf8), now: 700)
        #expect(harness.parser.readDeadline == 1200)
        #expect(harness.parser.checkDeadline(now: 1199) == nil)
        #expect(harness.parser.checkDeadline(now: 1200)?.code == .timeout)
    }

    @Test func clearsTheDeadlineOnceTheRequestIsComplete() {
        var harness = ParserHarness(configuration)
        harness.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: 10)
        #expect(harness.outcome.messages.count == 1)
        #expect(harness.parser.readDeadline == nil)
        #expect(harness.parser.isAtMessageBoundary)
    }
}
