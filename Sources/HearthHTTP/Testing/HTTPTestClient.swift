import CSystem
import Glibc

/// A tiny blocking HTTP/1.1 client over a raw TCP socket, for tests: it sends exactly the bytes it is given
/// (malformed requests, pipelined batches, trickled heads) and reads responses back one by one.
///
/// Every read waits at most `timeout`, so a test fails instead of hanging when the server does not answer.
public final class HTTPTestClient {
    /// A response as read from the wire.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headers: HTTPHeaders
        /// The body, de-chunked.
        public var body: [UInt8]
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why the client could not read a response.
    public struct ClientError: Error, Sendable, CustomStringConvertible {
        /// A short explanation.
        public var message: String
        /// The explanation.
        public var description: String { message }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to `address`; reads give up after `timeout`.
    public init(connectingTo address: SocketAddress, timeout: Duration = .seconds(30)) throws(SystemError) {
        fd = try address.withSockaddr { sockaddrPointer, length, family throws(SystemError) in
            let fd = Int32(try blockingSyscall("socket") { Int(socket(family, Int32(SOCK_STREAM.rawValue), 0)) })
            do throws(SystemError) {
                try blockingSyscall("connect") { Int(connect(fd, sockaddrPointer, length)) }
            } catch {
                closeDescriptor(fd)
                throw error
            }
            return fd
        }
        let (seconds, attoseconds) = timeout.components
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        if !isClosed { closeDescriptor(fd) }
    }

    /// Sends `bytes` completely.
    public func send(_ bytes: [UInt8]) throws(SystemError) {
        var sent = 0
        while sent < bytes.count {
            sent += try blockingSyscall("send") {
                bytes.withUnsafeBytes { csystem_send(fd, $0.baseAddress! + sent, $0.count - sent) }
            }
        }
    }

    /// Sends the UTF-8 bytes of `text` completely.
    public func send(_ text: String) throws(SystemError) {
        try send(Array(text.utf8))
    }

    /// Half-closes the connection: the server sees end of input but can still answer.
    public func finishSending() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the socket.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        closeDescriptor(fd)
    }

    /// Reads one response (an interim `100 Continue` counts as one). Pass `toHead: true` for a response to a
    /// HEAD request, which has framing headers but no body.
    public func readResponse(toHead: Bool = false) throws -> Response {
        let headEnd = try readUntil([0x0D, 0x0A, 0x0D, 0x0A])
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw ClientError(message: "malformed status line: \(headText)")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw ClientError(message: "malformed header: \(line)") }
            headers.add(
                name: String(line[..<colon]),
                value: String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        var body: [UInt8] = []
        if toHead || status < 200 || status == 204 || status == 304 {
            body = []
        } else if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            body = try readChunkedBody()
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            try fill(atLeast: length)
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            body = try readUntilClosed()
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads everything until the server closes the connection.
    public func readUntilClosed() throws -> [UInt8] {
        while try receive() > 0 {}
        defer { buffer = [] }
        return buffer
    }

    /// Waits until the server closes the connection, failing if it sends anything meanwhile.
    public func expectClosedWithoutResponse() throws {
        let rest = try readUntilClosed()
        if !rest.isEmpty { throw ClientError(message: "unexpected bytes before close: \(String(decoding: rest, as: UTF8.self))") }
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil([0x0D, 0x0A])
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            buffer.removeFirst(lineEnd + 2)
            guard let size = Int(sizeText, radix: 16) else { throw ClientError(message: "bad chunk size \(sizeText)") }
            if size == 0 {
                _ = try readUntil([0x0D, 0x0A])
                buffer.removeFirst(2)
                return body
            }
            try fill(atLeast: size + 2)
            body.append(contentsOf: buffer[..<size])
            buffer.removeFirst(size + 2)
        }
    }

    private func readUntil(_ delimiter: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= delimiter.count {
                for start in searchFrom...(buffer.count - delimiter.count)
                where buffer[start..<(start + delimiter.count)].elementsEqual(delimiter) {
                    return start
                }
                searchFrom = buffer.count - delimiter.count + 1
            }
            guard try receive() > 0 else { throw ClientError(message: "connection closed before a complete response") }
        }
    }

    private func fill(atLeast count: Int) throws {
        while buffer.count < count {
            guard try receive() > 0 else { throw ClientError(message: "connection closed in the middle of a body") }
        }
    }

    private func receive() throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let result = try chunk.withUnsafeMutableBytes { bytes throws(SystemError) in
            try syscall("recv") { recv(fd, bytes.baseAddress, bytes.count, 0) }
        }
        switch result {
        case .wouldBlock:
            throw ClientError(message: "timed out waiting for the server")
        case .done(let count):
            buffer.append(contentsOf: chunk[..<count])
            return count
        }
    }
}
