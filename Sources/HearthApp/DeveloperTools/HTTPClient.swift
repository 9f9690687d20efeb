import Glibc

/// Why an HTTP exchange failed. The message is complete enough to print as is.
struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, to branch on.
    enum Code: Sendable, Equatable {
        /// The host did not resolve or no address accepted the connection.
        case cannotConnect
        /// The server did not answer within the timeout.
        case timedOut
        /// The connection broke while sending or receiving.
        case connectionClosed
        /// The bytes received are not a valid HTTP/1.1 response.
        case malformedResponse
    }

    /// What went wrong.
    let code: Code
    /// A sentence for the user, e.g. `cannot connect to http://127.0.0.1:1/: Connection refused`.
    let message: String

    var description: String { message }
}

/// A blocking HTTP/1.1 client for the developer CLI: one request per connection
/// (`Connection: close`), plain `http://`, no compression, every wait bounded by `timeout`.
struct HTTPClient: Sendable {
    /// How long connecting, sending and receiving may take in total.
    var timeout: Duration

    /// Creates a client.
    init(timeout: Duration = .seconds(30)) {
        self.timeout = timeout
    }

    /// Sends `POST url` with `body` and the given header fields (`Host`, `Content-Length` and
    /// `Connection` are added) and returns the response.
    /// - Throws: `HTTPClientError`.
    func post(_ url: EndpointURL, headers: [(String, String)], body: [UInt8]) throws(HTTPClientError) -> HTTPClientResponse {
        var head = "POST \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let deadline = ContinuousClock.now + timeout
        let socket = try connect(to: url, deadline: deadline)
        defer { close(socket) }
        try send(Array(head.utf8) + body, on: socket, url: url, deadline: deadline)
        var parser = HTTPResponseParser()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            try wait(socket, for: Int16(POLLIN), url: url, deadline: deadline)
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingInterrupts { recv(socket, buffer.baseAddress, buffer.count, 0) }
            }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                throw HTTPClientError(code: .connectionClosed, message: "error receiving from \(url): \(Self.reason(errno))")
            }
            if count == 0 { return try parser.finish() }
            if case .complete(let response) = try parser.feed(chunk[..<count]) { return response }
        }
    }

    /// Resolves the host and connects to the first address that accepts, without blocking past `deadline`.
    private func connect(to url: EndpointURL, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(url.host, String(url.port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPClientError(code: .cannotConnect, message: "cannot connect to \(url): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else {
                lastError = errno
                continue
            }
            if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            guard errno == EINPROGRESS || errno == EINTR else {
                lastError = errno
                close(socket)
                continue
            }
            do {
                try wait(socket, for: Int16(POLLOUT), url: url, deadline: deadline)
            } catch {
                close(socket)
                throw error
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if socketError == 0 { return socket }
            lastError = socketError
            close(socket)
        }
        throw HTTPClientError(code: .cannotConnect, message: "cannot connect to \(url): \(Self.reason(lastError))")
    }

    private func send(_ bytes: [UInt8], on socket: Int32, url: EndpointURL, deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            try wait(socket, for: Int16(POLLOUT), url: url, deadline: deadline)
            let sent = bytes.withUnsafeBytes { buffer in
                retryingInterrupts {
                    Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            if sent < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                throw HTTPClientError(code: .connectionClosed, message: "error sending to \(url): \(Self.reason(errno))")
            }
            offset += sent
        }
    }

    /// Waits until `socket` is ready for `events` or the deadline passes.
    private func wait(_ socket: Int32, for events: Int16, url: EndpointURL, deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw HTTPClientError(code: .timedOut, message: "no response from \(url) within \(timeout)")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw HTTPClientError(code: .connectionClosed, message: "error waiting for \(url): \(Self.reason(errno))")
            }
        }
    }

    private func retryingInterrupts(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
