@testable import HearthHTTP
import Testing

/// Body limit rules give matching requests (uploads) another limit than `maxBodyBytes`, with
/// both edges exact, announced or chunked, whole or byte by byte.
struct BodyLimitRuleTests {
    private let configuration: HTTPParserConfiguration = {
        var configuration = HTTPParserConfiguration()
        configuration.maxBodyBytes = 10
        configuration.bodyLimitRules = [
            BodyLimitRule(method: .post, path: "/graphql", mediaType: "multipart/form-data", maxBodyBytes: 20),
            BodyLimitRule(method: .put, path: "/avatar", maxBodyBytes: 30),
        ]
        return configuration
    }()

    private func error(_ head: String, bodyLength: Int) -> [HTTPParseError.Code?] {
        let text = head + "Content-Length: \(bodyLength)\r\n\r\n" + String(repeating: "x", count: bodyLength)
        return [ParserHarness.parse(text, configuration).error, ParserHarness.parseByteByByte(Array(text.utf8), configuration).error]
    }

    @Test func aMatchingMediaTypeGetsTheRulesLimitAtBothEdges() {
        let multipart = "POST /graphql HTTP/1.1\r\nHost: h\r\nContent-Type: Multipart/Form-Data; boundary=x\r\n"
        #expect(error(multipart, bodyLength: 20) == [nil, nil])
        #expect(error(multipart, bodyLength: 21) == [.bodyTooLarge, .bodyTooLarge])
    }

    @Test func otherMediaTypesOnTheSamePathKeepTheDefaultLimit() {
        let json = "POST /graphql HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
        #expect(error(json, bodyLength: 10) == [nil, nil])
        #expect(error(json, bodyLength: 11) == [.bodyTooLarge, .bodyTooLarge])
        #expect(error("POST /graphql HTTP/1.1\r\nHost: h\r\n", bodyLength: 11) == [.bodyTooLarge, .bodyTooLarge])
    }

    @Test func aRuleWithoutMediaTypeMatchesByMethodAndPathOnly() {
        #expect(error("PUT /avatar HTTP/1.1\r\nHost: h\r\nContent-Type: image/png\r\n", bodyLength: 30) == [nil, nil])
        #expect(error("PUT /avatar?x=1 HTTP/1.1\r\nHost: h\r\n", bodyLength: 31) == [.bodyTooLarge, .bodyTooLarge])
        #expect(error("POST /avatar HTTP/1.1\r\nHost: h\r\n", bodyLength: 11) == [.bodyTooLarge, .bodyTooLarge])
        #expect(error("PUT /avatars HTTP/1.1\r\nHost: h\r\n", bodyLength: 11) == [.bodyTooLarge, .bodyTooLarge])
    }

    @Test func chunkedBodiesAreCountedAgainstTheRulesLimit() {
        let head = "PUT /avatar HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunk = "f\r\n" + String(repeating: "x", count: 15) + "\r\n"
        #expect(ParserHarness.parse(head + chunk + chunk + "0\r\n\r\n", configuration).error == nil)
        #expect(ParserHarness.parse(head + chunk + chunk + "1\r\n", configuration).error == .bodyTooLarge)
    }

    @Test func theNextRequestOnTheConnectionGetsItsOwnLimit() {
        let upload = "PUT /avatar HTTP/1.1\r\nHost: h\r\nContent-Length: 30\r\n\r\n" + String(repeating: "x", count: 30)
        let other = "POST /other HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n"
        let outcome = ParserHarness.parse(upload + other, configuration)
        #expect(outcome.messages.count == 1 && outcome.error == .bodyTooLarge)
    }
}
