// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// An incremental HTTP/1.1 request parser (RFC 9112): a state machine that takes bytes and returns one event at a
/// time, with no knowledge of sockets. Time is injected (`now`, nanoseconds of any monotonic clock), so read
/// deadlines are testable without waiting.
///
/// The caller owns the buffer of not-yet-consumed bytes and repeatedly calls `parse(_:now:)` with all of them:
/// each call returns how many leading bytes were consumed (drop them) and at most one event. A nil event means
/// the parser needs more bytes; call again with the remaining bytes followed by newly received ones. An
/// `.error` is final: answer with its status and close the connection.
public struct HTTPRequestParser: Sendable {
    /// What the parser found in the input.
    public enum Event: Sendable {
        /// A complete, validated request head. Body events (if any) and `.end` follow.
        case head(HTTPRequestHead)
        /// Body bytes (already de-chunked) at this range of the input given to this call.
        case body(Range<Int>)
        /// The request is complete; the next bytes belong to the next request.
        case end
        /// The request is invalid; answer with the error's status and close.
        case error(HTTPParseError)
    }

    /// The result of one `parse` call.
    public struct Output: Sendable {
        /// How many leading input bytes were consumed; the caller drops them before the next call.
        public var consumed: Int
        /// The event, or nil when more input is needed.
        public var event: Event?
    }

    private enum State: Sendable {
        case head
        case contentBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int, lines: Int)
        case messageEnd
        case failed(HTTPParseError)
    }

    /// Progress of the incremental scan for the end of the head, in offsets of the unconsumed input.
    private struct HeadScan: Sendable {
        var scanned = 0
        var lineStart = 0
        var requestLineStart = 0
        var requestLineEnd: Int?
        var headerBytes = 0
        var headerLines = 0
    }

    /// The limits and deadlines in force.
    public let configuration: HTTPParserConfiguration
    private var state: State = .head
    private var scan = HeadScan()
    private var bodyBytes = 0
    /// The body limit of the request being read (``HTTPParserConfiguration/maxBodyBytes`` or a rule's).
    private var bodyLimit: Int
    /// The largest body limit of any request, where an announced length stops being counted.
    private let largestBodyLimit: Int
    private var headStartedAt: UInt64?
    private var bodyStartedAt: UInt64?
    private let headerTimeout: UInt64
    private let bodyTimeout: UInt64

    /// A parser waiting for the first byte of a request.
    public init(configuration: HTTPParserConfiguration = HTTPParserConfiguration()) {
        self.configuration = configuration
        headerTimeout = HTTPRequestParser.nanoseconds(configuration.headerReadTimeout)
        bodyTimeout = HTTPRequestParser.nanoseconds(configuration.bodyReadTimeout)
        bodyLimit = configuration.maxBodyBytes
        largestBodyLimit = configuration.bodyLimitRules.reduce(configuration.maxBodyBytes) { max($0, $1.maxBodyBytes) }
    }

    /// Whether the parser sits between requests with no partial request seen: the connection is idle.
    public var isAtMessageBoundary: Bool {
        if case .head = state { return headStartedAt == nil }
        return false
    }

    /// When the first byte of the request being read arrived, or nil between requests.
    public var requestStartedAt: UInt64? { headStartedAt }

    /// When the request being read must be complete (header deadline while reading the head, body deadline while
    /// reading the body), or nil when no request is being read.
    public var readDeadline: UInt64? {
        switch state {
        case .head:
            headStartedAt.map { $0 &+ headerTimeout }
        case .contentBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers:
            bodyStartedAt.map { $0 &+ bodyTimeout }
        case .messageEnd, .failed:
            nil
        }
    }

    /// Fails the request with 408 if its read deadline has been reached at `now`.
    /// - Returns: the timeout error (the parser is then failed), or nil when there is time left.
    public mutating func checkDeadline(now: UInt64) -> HTTPParseError? {
        guard let deadline = readDeadline, now >= deadline else { return nil }
        return fail(.timeout)
    }

    /// Feeds the unconsumed input; see the type's documentation for the calling convention.
    public mutating func parse(_ input: UnsafeRawBufferPointer, now: UInt64) -> Output {
        var offset = 0
        while true {
            switch state {
            case .failed(let error):
                return Output(consumed: 0, event: .error(error))
            case .head:
                if input.isEmpty { return Output(consumed: 0, event: nil) }
                if headStartedAt == nil { headStartedAt = now }
                return parseHead(input, now: now)
            case .messageEnd:
                resetForNextMessage()
                return Output(consumed: offset, event: .end)
            case .contentBody(let remaining):
                let count = min(remaining, input.count - offset)
                if count == 0 { return Output(consumed: offset, event: nil) }
                state = remaining == count ? .messageEnd : .contentBody(remaining: remaining - count)
                return Output(consumed: offset + count, event: .body(offset..<offset + count))
            case .chunkSize:
                let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
                guard let lineFeed = rest.firstIndex(of: ASCII.lf) else {
                    if rest.count > configuration.maxChunkLineLength + 1 { return failed(.invalidChunk) }
                    return Output(consumed: offset, event: nil)
                }
                guard lineFeed > 0, rest[lineFeed - 1] == ASCII.cr, lineFeed - 1 <= configuration.maxChunkLineLength
                else { return failed(.invalidChunk) }
                switch chunkSize(UnsafeRawBufferPointer(rebasing: rest[..<(lineFeed - 1)])) {
                case .failure(let error):
                    return failed(error.code)
                case .success(0):
                    state = .trailers(bytes: 0, lines: 0)
                case .success(let size):
                    bodyBytes += size
                    state = .chunkData(remaining: size)
                }
                offset += lineFeed + 1
            case .chunkData(let remaining):
                let count = min(remaining, input.count - offset)
                if count == 0 { return Output(consumed: offset, event: nil) }
                state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
                return Output(consumed: offset + count, event: .body(offset..<offset + count))
            case .chunkDataEnd:
                let available = input.count - offset
                if available >= 1, input[offset] != ASCII.cr { return failed(.invalidChunk) }
                if available < 2 { return Output(consumed: offset, event: nil) }
                if input[offset + 1] != ASCII.lf { return failed(.invalidChunk) }
                offset += 2
                state = .chunkSize
            case .trailers(let bytes, let lines):
                let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
                guard let lineFeed = rest.firstIndex(of: ASCII.lf) else {
                    if rest.count >= 2, bytes + rest.count + 1 > configuration.maxHeaderBytes {
                        return failed(.headersTooLarge)
                    }
                    return Output(consumed: offset, event: nil)
                }
                guard lineFeed > 0, rest[lineFeed - 1] == ASCII.cr else { return failed(.invalidLineEnding) }
                offset += lineFeed + 1
                if lineFeed == 1 {
                    resetForNextMessage()
                    return Output(consumed: offset, event: .end)
                }
                // Trailers are validated like header fields (no smuggling through them) and then dropped.
                let total = bytes + lineFeed + 1
                if total > configuration.maxHeaderBytes || lines + 1 > configuration.maxHeaderCount {
                    return failed(.headersTooLarge)
                }
                if case .invalid(let error) = Self.checkFieldLine(UnsafeRawBufferPointer(rebasing: rest[..<(lineFeed - 1)])) {
                    return failed(error)
                }
                state = .trailers(bytes: total, lines: lines + 1)
            }
        }
    }

    // MARK: - Head

    private mutating func parseHead(_ input: UnsafeRawBufferPointer, now: UInt64) -> Output {
        var index = scan.scanned
        while index < input.count {
            guard let position = ASCII.firstIndex(of: ASCII.lf, in: input, from: index) else {
                scan.scanned = input.count
                return checkPartialLine(length: input.count - scan.lineStart, lastByte: input[input.count - 1])
            }
            guard position > scan.lineStart, input[position - 1] == ASCII.cr else {
                return failed(.invalidLineEnding)
            }
            let lineLength = position - 1 - scan.lineStart
            if scan.requestLineEnd == nil {
                if lineLength == 0 {
                    // RFC 9112 §2.2: ignore empty lines before the request line (stray CRLF after a body).
                    if position + 1 > configuration.maxRequestLineLength { return failed(.invalidRequestLine) }
                    scan.requestLineStart = position + 1
                } else {
                    if lineLength > configuration.maxRequestLineLength { return failed(.requestLineTooLong) }
                    scan.requestLineEnd = position - 1
                }
            } else if lineLength == 0 {
                return finishHead(input, end: position + 1, now: now)
            } else {
                scan.headerBytes += lineLength + 2
                scan.headerLines += 1
                if scan.headerBytes > configuration.maxHeaderBytes || scan.headerLines > configuration.maxHeaderCount {
                    return failed(.headersTooLarge)
                }
            }
            scan.lineStart = position + 1
            index = position + 1
        }
        scan.scanned = input.count
        return Output(consumed: 0, event: nil)
    }

    /// Rejects a line that is already too long before its end arrives, so a client cannot make us buffer more
    /// than the limits allow. A lone trailing CR may still turn into the empty line that ends the head.
    private mutating func checkPartialLine(length: Int, lastByte: UInt8) -> Output {
        if scan.requestLineEnd == nil {
            if length > configuration.maxRequestLineLength + 1 { return failed(.requestLineTooLong) }
        } else if length >= 2 || lastByte != ASCII.cr {
            if scan.headerBytes + length + 1 > configuration.maxHeaderBytes { return failed(.headersTooLarge) }
        }
        return Output(consumed: 0, event: nil)
    }

    private mutating func finishHead(_ input: UnsafeRawBufferPointer, end: Int, now: UInt64) -> Output {
        guard let requestLineEnd = scan.requestLineEnd else { return failed(.invalidRequestLine) }
        let requestLine = UnsafeRawBufferPointer(rebasing: input[scan.requestLineStart..<requestLineEnd])
        let parsedLine: RequestLine
        switch Self.parseRequestLine(requestLine) {
        case .success(let line): parsedLine = line
        case .failure(let error): return failed(error.code)
        }
        var framing = FramingFields(recordsContentType: !configuration.bodyLimitRules.isEmpty)
        var headers: [HTTPHeaders.Field] = []
        headers.reserveCapacity(scan.headerLines)
        var lineStart = requestLineEnd + 2
        while lineStart < end - 2 {
            let lineEnd = ASCII.firstIndex(of: ASCII.lf, in: input, from: lineStart)! - 1
            let line = UnsafeRawBufferPointer(rebasing: input[lineStart..<lineEnd])
            let colon: Int
            switch Self.checkFieldLine(line) {
            case .valid(let position): colon = position
            case .invalid(let error): return failed(error)
            }
            let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
            let value = ASCII.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
            framing.record(name: name, value: value, maxBody: largestBodyLimit)
            headers.append((name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            lineStart = lineEnd + 2
        }
        let version = parsedLine.version
        bodyLimit = configuration.maxBodyBytes
        if framing.recordsContentType {
            let path = HTTPRequestHead.splitTarget(parsedLine.target).0
            if let rule = configuration.bodyLimitRules.first(where: {
                $0.matches(method: parsedLine.method, path: path, contentType: framing.contentType)
            }) {
                bodyLimit = rule.maxBodyBytes
            }
        }
        let bodyFraming: HTTPRequestHead.BodyFraming
        switch framing.resolve(version: version, maxBody: bodyLimit) {
        case .success(let resolved): bodyFraming = resolved
        case .failure(let error): return failed(error.code)
        }
        let keepAlive = version.minor >= 1 ? !framing.connectionClose : framing.connectionKeepAlive && !framing.connectionClose
        let head = HTTPRequestHead(
            method: parsedLine.method, target: parsedLine.target, version: version, headers: HTTPHeaders(headers),
            keepAlive: keepAlive, expectsContinue: framing.expectsContinue && bodyFraming != .none,
            bodyFraming: bodyFraming)
        scan = HeadScan()
        switch bodyFraming {
        case .none, .contentLength(0):
            state = .messageEnd
        case .contentLength(let length):
            bodyStartedAt = now
            state = .contentBody(remaining: length)
        case .chunked:
            bodyStartedAt = now
            state = .chunkSize
        }
        return Output(consumed: end, event: .head(head))
    }

    private struct RequestLine {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
    }

    private static func parseRequestLine(_ line: UnsafeRawBufferPointer) -> Result<RequestLine, HTTPParseError> {
        guard let firstSpace = line.firstIndex(of: ASCII.space), firstSpace > 0 else {
            return .failure(HTTPParseError(.invalidRequestLine))
        }
        let method = UnsafeRawBufferPointer(rebasing: line[..<firstSpace])
        guard method.allSatisfy(ASCII.isTokenChar) else { return .failure(HTTPParseError(.invalidRequestLine)) }
        let afterMethod = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)...])
        guard let secondSpace = afterMethod.firstIndex(of: ASCII.space), secondSpace > 0 else {
            return .failure(HTTPParseError(.invalidRequestLine))
        }
        let target = UnsafeRawBufferPointer(rebasing: afterMethod[..<secondSpace])
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(HTTPParseError(.invalidRequestLine)) }
        let version = UnsafeRawBufferPointer(rebasing: afterMethod[(secondSpace + 1)...])
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[6] == 0x2E,
            let major = digit(version[5]), let minor = digit(version[7])
        else { return .failure(HTTPParseError(.invalidRequestLine)) }
        guard major == 1 else { return .failure(HTTPParseError(.unsupportedVersion)) }
        let parsedMethod = HTTPMethod.parse(method)
        let isOriginForm = target[0] == 0x2F
        let isAsterisk = target.count == 1 && target[0] == 0x2A
        let isAbsoluteForm = target.starts(with: "http://".utf8) || target.starts(with: "https://".utf8)
        guard isOriginForm || isAbsoluteForm || (isAsterisk && parsedMethod == .options) else {
            return .failure(HTTPParseError(.invalidRequestLine))
        }
        return .success(RequestLine(
            method: parsedMethod, target: String(decoding: target, as: UTF8.self),
            version: HTTPVersion(major: major, minor: minor)))
    }

    /// The verdict on one header or trailer field line.
    private enum FieldLine {
        /// Well-formed, its name ending at this offset of the line.
        case valid(colon: Int)
        /// Malformed.
        case invalid(HTTPParseError.Code)
    }

    /// Checks one header or trailer field line (without CRLF): no folding, a token name directly followed by a
    /// colon, and a value without control characters (which also rejects a bare CR).
    private static func checkFieldLine(_ line: UnsafeRawBufferPointer) -> FieldLine {
        if line[0] == ASCII.space || line[0] == ASCII.tab { return .invalid(.obsoleteLineFolding) }
        // The name is made of token characters, so the first non-token byte must be the colon.
        var colon = 0
        while colon < line.count, ASCII.isTokenChar(line[colon]) { colon += 1 }
        guard colon > 0, colon < line.count, line[colon] == ASCII.colon else { return .invalid(.invalidHeaderName) }
        guard ASCII.allFieldValueChars(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])) else {
            return .invalid(.invalidHeaderValue)
        }
        return .valid(colon: colon)
    }

    // MARK: - Chunked

    private func chunkSize(_ line: UnsafeRawBufferPointer) -> Result<Int, HTTPParseError> {
        var size = 0
        var index = 0
        while index < line.count, let value = Self.hexDigit(line[index]) {
            size = size * 16 + value
            // Checked per digit, so a long run of digits can neither overflow nor slip past the limit.
            if bodyBytes + size > bodyLimit { return .failure(HTTPParseError(.bodyTooLarge)) }
            index += 1
        }
        guard index > 0 else { return .failure(HTTPParseError(.invalidChunk)) }
        // Chunk extensions (`;name=value`, optionally after whitespace) are tolerated and ignored.
        while index < line.count, line[index] == ASCII.space || line[index] == ASCII.tab { index += 1 }
        if index < line.count {
            guard line[index] == ASCII.semicolon else { return .failure(HTTPParseError(.invalidChunk)) }
            for byte in line[index...] where !ASCII.isFieldValueChar(byte) {
                return .failure(HTTPParseError(.invalidChunk))
            }
        }
        return .success(size)
    }

    // MARK: - Helpers

    private mutating func resetForNextMessage() {
        state = .head
        scan = HeadScan()
        bodyBytes = 0
        headStartedAt = nil
        bodyStartedAt = nil
    }

    private mutating func fail(_ code: HTTPParseError.Code) -> HTTPParseError {
        let error = HTTPParseError(code)
        state = .failed(error)
        return error
    }

    private mutating func failed(_ code: HTTPParseError.Code) -> Output {
        Output(consumed: 0, event: .error(fail(code)))
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max / 2 : whole + UInt64(attoseconds / 1_000_000_000)
    }
}

/// The header fields that decide framing and connection handling, gathered while scanning the head.
private struct FramingFields {
    var contentLength: Int?
    var contentLengthInvalid = false
    var transferEncodingPresent = false
    var chunkedCount = 0
    var chunkedIsLast = false
    var unknownCoding = false
    var connectionClose = false
    var connectionKeepAlive = false
    var expectsContinue = false
    var unsupportedExpectation = false
    var hostCount = 0
    /// Whether `Content-Type` is kept (body limit rules look at it).
    let recordsContentType: Bool
    var contentType: String?

    init(recordsContentType: Bool) {
        self.recordsContentType = recordsContentType
    }

    mutating func record(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, maxBody: Int) {
        switch name.count {
        case 4 where ASCII.equalsCaseInsensitive(name, "host"):
            hostCount += 1
        case 6 where ASCII.equalsCaseInsensitive(name, "expect"):
            if ASCII.equalsCaseInsensitive(value, "100-continue") {
                expectsContinue = true
            } else {
                unsupportedExpectation = true
            }
        case 10 where ASCII.equalsCaseInsensitive(name, "connection"):
            ASCII.forEachListElement(value) { option in
                if ASCII.equalsCaseInsensitive(option, "close") { connectionClose = true }
                if ASCII.equalsCaseInsensitive(option, "keep-alive") { connectionKeepAlive = true }
            }
        case 12 where recordsContentType && ASCII.equalsCaseInsensitive(name, "content-type"):
            contentType = contentType ?? String(decoding: value, as: UTF8.self)
        case 14 where ASCII.equalsCaseInsensitive(name, "content-length"):
            var sawElement = false
            ASCII.forEachListElement(value) { element in
                sawElement = true
                recordContentLength(element, maxBody: maxBody)
            }
            if !sawElement { contentLengthInvalid = true }
        case 17 where ASCII.equalsCaseInsensitive(name, "transfer-encoding"):
            transferEncodingPresent = true
            ASCII.forEachListElement(value) { coding in
                let name = coding.firstIndex(of: ASCII.semicolon).map { ASCII.trimmed(UnsafeRawBufferPointer(rebasing: coding[..<$0])) } ?? coding
                if ASCII.equalsCaseInsensitive(name, "chunked") {
                    chunkedCount += 1
                    chunkedIsLast = true
                } else {
                    unknownCoding = true
                    chunkedIsLast = false
                }
            }
        default:
            break
        }
    }

    private mutating func recordContentLength(_ element: UnsafeRawBufferPointer, maxBody: Int) {
        var length = 0
        for byte in element {
            guard byte >= 0x30 && byte <= 0x39 else {
                contentLengthInvalid = true
                return
            }
            // Saturate just above the largest limit: the exact value no longer matters once it is too large.
            length = min(length * 10 + Int(byte - 0x30), maxBody + 1)
        }
        if let existing = contentLength, existing != length { contentLengthInvalid = true }
        contentLength = length
    }

    func resolve(version: HTTPVersion, maxBody: Int) -> Result<HTTPRequestHead.BodyFraming, HTTPParseError> {
        if transferEncodingPresent && (contentLength != nil || contentLengthInvalid) {
            return .failure(HTTPParseError(.contentLengthWithTransferEncoding))
        }
        if version.minor >= 1 ? hostCount != 1 : hostCount > 1 { return .failure(HTTPParseError(.invalidHost)) }
        if transferEncodingPresent {
            if version.minor == 0 || !chunkedIsLast { return .failure(HTTPParseError(.invalidTransferEncoding)) }
            if unknownCoding { return .failure(HTTPParseError(.unsupportedTransferEncoding)) }
            if chunkedCount > 1 { return .failure(HTTPParseError(.invalidTransferEncoding)) }
        }
        if contentLengthInvalid { return .failure(HTTPParseError(.invalidContentLength)) }
        if unsupportedExpectation { return .failure(HTTPParseError(.unsupportedExpectation)) }
        if let contentLength, contentLength > maxBody { return .failure(HTTPParseError(.bodyTooLarge)) }
        if transferEncodingPresent { return .success(.chunked) }
        if let contentLength, contentLength > 0 { return .success(.contentLength(contentLength)) }
        return .success(.none)
    }
}
