import Support

/// Reads one HTTP/1.1 response from bytes as they arrive: the status line, the header fields,
/// then a body framed by `Transfer-Encoding: chunked`, `Content-Length`, or the end of the
/// connection. No sockets here; the client feeds what it receives and acts on the result.
public struct HTTPResponseParser: Sendable {
    /// Limits that keep a misbehaving server from exhausting memory.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of status line and header fields; 64 KiB by default.
        public var maxHeadBytes: Int
        /// The most body bytes (after removing chunked framing); 16 MiB by default.
        public var maxBodyBytes: Int

        /// Limits with the defaults, or the given values.
        public init(maxHeadBytes: Int = 64 * 1024, maxBodyBytes: Int = 16 * 1024 * 1024) {
            self.maxHeadBytes = maxHeadBytes
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// What the caller should do next.
    public enum Progress: Equatable, Sendable {
        /// Feed more bytes (or call `finish()` when the connection closed).
        case needMore
        /// The response is complete.
        case complete(HTTPResponse)
    }

    private enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    private let limits: Limits
    private let isResponseToHead: Bool
    private var buffer: [UInt8] = []
    private var state = State.head
    private let peer: String
    private var response = HTTPResponse(status: 0, headers: [], body: [])

    /// Creates a parser for the response to one request.
    /// - Parameters:
    ///   - isResponseToHead: Whether the request was `HEAD`, whose response has no body.
    ///   - peer: Whom the response comes from, for error messages.
    public init(limits: Limits = Limits(), isResponseToHead: Bool = false, peer: String = "the server") {
        self.limits = limits
        self.peer = peer
        self.isResponseToHead = isResponseToHead
    }

    /// Consumes `bytes`.
    /// - Throws: `NetworkError` `.malformedResponse` when the bytes are not HTTP/1.x,
    ///   `.responseTooLarge` when they exceed the limits.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(NetworkError) -> Progress {
        buffer.append(contentsOf: bytes)
        while true {
            switch state {
            case .head:
                guard let end = find([13, 10, 13, 10]) else {
                    if buffer.count > limits.maxHeadBytes { throw tooLarge("the response head exceeds \(limits.maxHeadBytes) bytes") }
                    return .needMore
                }
                try parseHead(Array(buffer[..<end]))
                buffer.removeFirst(end + 4)
                if response.status / 100 == 1 {
                    // An interim response (100 Continue); the real one follows.
                    response = HTTPResponse(status: 0, headers: [], body: [])
                    continue
                }
                state = try bodyState()
            case .fixedBody(let remaining):
                let count = min(remaining, buffer.count)
                try appendBody(count)
                if remaining - count > 0 {
                    state = .fixedBody(remaining: remaining - count)
                    return .needMore
                }
                state = .done
            case .chunkSize:
                guard let end = find([13, 10]) else {
                    if buffer.count > 1024 { throw malformed("a chunk-size line is too long") }
                    return .needMore
                }
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                let sizeText = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: " \t") } ?? ""
                guard let size = Int(sizeText, radix: 16), size >= 0 else { throw malformed("invalid chunk size '\(line)'") }
                buffer.removeFirst(end + 2)
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, buffer.count)
                try appendBody(count)
                if remaining - count > 0 {
                    state = .chunkData(remaining: remaining - count)
                    return .needMore
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard buffer.count >= 2 else { return .needMore }
                guard buffer[0] == 13, buffer[1] == 10 else { throw malformed("a chunk is not followed by CRLF") }
                buffer.removeFirst(2)
                state = .chunkSize
            case .trailers:
                guard let end = find([13, 10]) else {
                    if buffer.count > limits.maxHeadBytes { throw malformed("the trailer section is too long") }
                    return .needMore
                }
                buffer.removeFirst(end + 2)
                if end == 0 { state = .done }
            case .untilClose:
                try appendBody(buffer.count)
                return .needMore
            case .done:
                return .complete(response)
            }
        }
    }

    /// Tells the parser the server closed the connection.
    /// - Throws: `NetworkError` `.connectionClosed` if the response was not complete.
    public mutating func finish() throws(NetworkError) -> HTTPResponse {
        switch state {
        case .untilClose, .done:
            state = .done
            return response
        default:
            throw NetworkError(code: .connectionClosed, peer: peer, detail: "the server closed the connection before the response was complete")
        }
    }

    private mutating func parseHead(_ head: [UInt8]) throws(NetworkError) {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw malformed("not an HTTP/1.x status line: '\(statusLine.prefix(80))'")
        }
        response.status = status
        response.headers = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw malformed("invalid header line '\(line.prefix(80))'")
            }
            response.headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: " \t")))
        }
    }

    private func bodyState() throws(NetworkError) -> State {
        if isResponseToHead || response.status == 204 || response.status == 304 { return .done }
        if let encoding = response.header("Transfer-Encoding") {
            guard encoding.lowercased().split(separator: ",").last?.trimmingCharacters(in: " ") == "chunked" else {
                return .untilClose
            }
            return .chunkSize
        }
        if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0 else { throw malformed("invalid Content-Length '\(lengthText)'") }
            guard length <= limits.maxBodyBytes else { throw tooLarge("the body of \(length) bytes exceeds the limit of \(limits.maxBodyBytes)") }
            return length == 0 ? .done : .fixedBody(remaining: length)
        }
        return .untilClose
    }

    private mutating func appendBody(_ count: Int) throws(NetworkError) {
        guard response.body.count + count <= limits.maxBodyBytes else {
            throw tooLarge("the body exceeds \(limits.maxBodyBytes) bytes")
        }
        response.body.append(contentsOf: buffer[..<count])
        buffer.removeFirst(count)
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for start in 0...(buffer.count - needle.count) where buffer[start] == needle[0] {
            if buffer[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    private func malformed(_ detail: String) -> NetworkError {
        NetworkError(code: .malformedResponse, peer: peer, detail: detail)
    }

    private func tooLarge(_ detail: String) -> NetworkError {
        NetworkError(code: .responseTooLarge, peer: peer, detail: detail)
    }
}
