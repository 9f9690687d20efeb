import HearthHTTP
import Testing

struct MultipartParserTests {
    static let contentType = "multipart/form-data; boundary=----hearthBoundary7MA4YWxk"
    static let body = Array("""
        preamble to ignore\r
        ------hearthBoundary7MA4YWxk\r
        Content-Disposition: form-data; name="operations"\r
        \r
        {"query":"mutation { a }"}\r
        ------hearthBoundary7MA4YWxk  \r
        Content-Disposition: form-data; name="0"; filename="a \\"b\\".png"\r
        Content-Type: image/png\r
        \r
        \r\n--not-the-boundary\r
        \r
        ------hearthBoundary7MA4YWxk--\r
        epilogue
        """.utf8)

    /// Runs the state machine over `body` split at `splits`, like a connection would feed it.
    private func parts(_ body: [UInt8], splits: [Int], limits: MultipartLimits = MultipartLimits()) throws(MultipartError) -> [MultipartPart] {
        var parser = MultipartParser(boundary: MultipartParser.boundary(fromContentType: Self.contentType)!, limits: limits)
        var pending: [UInt8] = []
        var parts: [MultipartPart] = []
        var start = 0
        for end in splits + [body.count] where end >= start {
            pending.append(contentsOf: body[start..<end])
            start = end
            while true {
                let result = pending.withUnsafeBytes { buffer in
                    Result { () throws(MultipartError) in try parser.parse(buffer) }
                }
                let output = try result.get()
                switch output.event {
                case .part(let head)?: parts.append(MultipartPart(head: head, body: []))
                case .content(let range)?: parts[parts.count - 1].body += pending[range]
                case .partEnd?, .end?, nil: break
                }
                pending.removeFirst(output.consumed)
                if output.event == nil { break }
            }
        }
        try parser.finish()
        return parts
    }

    private func expectExpectedParts(_ parts: [MultipartPart]) {
        #expect(parts.count == 2)
        #expect(parts.first?.head.name == "operations" && parts.first?.head.filename == nil)
        #expect(parts.first?.body == Array(#"{"query":"mutation { a }"}"#.utf8))
        #expect(parts.last?.head.name == "0" && parts.last?.head.filename == #"a "b".png"#)
        #expect(parts.last?.head.contentType == "image/png")
        #expect(parts.last?.body == Array("\r\n--not-the-boundary\r\n".utf8))
    }

    @Test func readsPartsWithTheirNamesFileNamesAndContent() throws {
        expectExpectedParts(try MultipartPart.parts(of: Self.body, contentType: Self.contentType))
    }

    @Test func givesTheSamePartsWhereverTheInputIsSplit() throws {
        for split in 0...Self.body.count {
            expectExpectedParts(try parts(Self.body, splits: [split]))
        }
        expectExpectedParts(try parts(Self.body, splits: Array(0...Self.body.count)))
    }

    @Test func acceptsABodyThatOpensWithTheBoundaryAndAPartWithoutHeaders() throws {
        let body = Array("------hearthBoundary7MA4YWxk\r\n\r\nx\r\n------hearthBoundary7MA4YWxk--".utf8)
        let parsed = try MultipartPart.parts(of: body, contentType: Self.contentType)
        #expect(parsed.count == 1 && parsed[0].head.name == nil && parsed[0].body == [UInt8(ascii: "x")])
    }

    @Test(arguments: [
        ("multipart/form-data; boundary=\"quoted boundary\"", "quoted boundary"),
        ("Multipart/Form-Data;BOUNDARY=abc", "abc"),
    ])
    func readsTheBoundaryFromTheContentType(contentType: String, boundary: String) {
        #expect(MultipartParser.boundary(fromContentType: contentType) == Array(boundary.utf8))
    }

    @Test(arguments: [
        "multipart/mixed; boundary=abc", "multipart/form-data", "multipart/form-data; boundary=",
        "multipart/form-data; boundary=\(String(repeating: "a", count: 71))", "multipart/form-data; boundary=\"ends \"",
        "application/json",
    ])
    func refusesContentTypesWithoutAValidBoundary(contentType: String) {
        #expect(MultipartParser.boundary(fromContentType: contentType) == nil)
        #expect(throws: MultipartError(.invalidBoundary)) { try MultipartPart.parts(of: Self.body, contentType: contentType) }
    }

    @Test func refusesABodyWithoutItsCloseDelimiter() {
        let cut = Array(Self.body.prefix(Self.body.count - 20))
        #expect(throws: MultipartError(.truncated)) { try MultipartPart.parts(of: cut, contentType: Self.contentType) }
        #expect(throws: MultipartError(.truncated)) { try MultipartPart.parts(of: [], contentType: Self.contentType) }
    }

    @Test func refusesGarbageAfterADelimiter() {
        let body = Array("------hearthBoundary7MA4YWxkX\r\n\r\n\r\n------hearthBoundary7MA4YWxk--".utf8)
        #expect(throws: MultipartError(.malformedDelimiter)) { try MultipartPart.parts(of: body, contentType: Self.contentType) }
    }

    @Test func refusesMalformedPartHeaders() {
        for header in ["no colon", " folded: x", "bad name: x", ": empty"] {
            let body = Array("------hearthBoundary7MA4YWxk\r\n\(header)\r\n\r\nx\r\n------hearthBoundary7MA4YWxk--".utf8)
            #expect(throws: MultipartError(.malformedHeaders)) { try MultipartPart.parts(of: body, contentType: Self.contentType) }
        }
    }

    @Test func enforcesTheLimitsAtTheirEdges() throws {
        let exact = MultipartLimits(maxParts: 2, maxHeaderBytes: 91, maxPartBytes: 26)
        expectExpectedParts(try MultipartPart.parts(of: Self.body, contentType: Self.contentType, limits: exact))
        var limits = exact
        limits.maxParts = 1
        #expect(throws: MultipartError(.tooManyParts)) { try MultipartPart.parts(of: Self.body, contentType: Self.contentType, limits: limits) }
        limits = exact
        limits.maxHeaderBytes = 90
        #expect(throws: MultipartError(.headersTooLarge)) { try MultipartPart.parts(of: Self.body, contentType: Self.contentType, limits: limits) }
        limits = exact
        limits.maxPartBytes = 25
        #expect(throws: MultipartError(.partTooLarge)) { try MultipartPart.parts(of: Self.body, contentType: Self.contentType, limits: limits) }
    }

    @Test func refusesAnEndlessHeaderSectionWithoutBufferingIt() {
        var parser = MultipartParser(boundary: Array("b".utf8), limits: MultipartLimits(maxHeaderBytes: 100))
        let input = Array("--b\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 200)
        #expect(throws: MultipartError(.headersTooLarge)) {
            var offset = 0
            while true {
                let result = input.withUnsafeBytes { buffer in
                    Result { () throws(MultipartError) in try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
                }
                let output = try result.get()
                offset += output.consumed
                if output.event == nil { break }
            }
        }
    }
}
