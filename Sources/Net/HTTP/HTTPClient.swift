/// A blocking HTTP/1.1 client for worker threads and command-line tools: `GET` and `POST`
/// over `http://` and `https://` (through ``TLSClient``), one request per connection
/// (`Connection: close`), responses framed by `Content-Length`, chunked coding or the end of
/// the connection, bounded in size. Redirects are returned, not followed. Every wait is
/// bounded by one deadline for the whole exchange.
///
/// ```swift
/// let client = HTTPClient(configuration: .init(timeout: .seconds(10)))
/// let response = try client.get(try HTTPURL("https://www.googleapis.com/oauth2/v3/certs"))
/// let cacheControl = response.header("Cache-Control")
/// ```
public struct HTTPClient: Sendable {
    /// Timeouts, limits and TLS settings.
    public struct Configuration: Sendable {
        /// How long connecting, sending and receiving may take in total; 30 seconds by default.
        public var timeout: Duration
        /// How long opening the TCP connection may take, within ``timeout``; nil leaves it to ``timeout``.
        public var connectTimeout: Duration?
        /// Limits on the response head and body.
        public var limits: HTTPResponseParser.Limits
        /// The TLS client for `https://` URLs; nil uses one trusting the system's CA store,
        /// created on the first `https://` request.
        public var tls: TLSClient?
        /// Where the client may connect, for URLs a user supplied: with a policy, only
        /// `https://` URLs whose host resolves to addresses it permits, and the connection goes
        /// to one of those very addresses. Nil connects anywhere.
        public var addressPolicy: OutboundAddressPolicy?

        /// A configuration with the defaults, or the given values.
        public init(
            timeout: Duration = .seconds(30), limits: HTTPResponseParser.Limits = .init(), tls: TLSClient? = nil,
            addressPolicy: OutboundAddressPolicy? = nil, connectTimeout: Duration? = nil
        ) {
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.limits = limits
            self.tls = tls
            self.addressPolicy = addressPolicy
        }
    }

    /// The client's settings.
    public var configuration: Configuration

    /// Creates a client.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Sends `GET url` with the given header fields (`Host` and `Connection` are added).
    /// - Throws: `NetworkError` naming the URL.
    public func get(_ url: HTTPURL, headers: [(String, String)] = []) throws(NetworkError) -> HTTPResponse {
        try send(method: "GET", url: url, headers: headers, body: nil)
    }

    /// Sends `POST url` with `body` and the given header fields (`Host`, `Content-Length`
    /// and `Connection` are added).
    /// - Throws: `NetworkError` naming the URL.
    public func post(_ url: HTTPURL, headers: [(String, String)] = [], body: [UInt8]) throws(NetworkError) -> HTTPResponse {
        try send(method: "POST", url: url, headers: headers, body: body)
    }

    /// Sends one request and reads its response.
    /// - Parameter body: The request body; nil sends none and no `Content-Length`.
    /// - Throws: `NetworkError` naming the URL: `.cannotResolve`, `.cannotConnect`,
    ///   `.timedOut`, `.connectionClosed`, `.certificateRejected`, `.tlsFailed`,
    ///   `.malformedResponse`, `.responseTooLarge`; `.invalidURL` for header fields with
    ///   line breaks; `.addressRefused` when the address policy refuses the URL.
    public func send(method: String, url: HTTPURL, headers: [(String, String)], body: [UInt8]?) throws(NetworkError) -> HTTPResponse {
        do {
            return try exchange(method: method, url: url, headers: headers, body: body)
        } catch {
            throw error.about(url.description)
        }
    }

    private func exchange(method: String, url: HTTPURL, headers: [(String, String)], body: [UInt8]?) throws(NetworkError) -> HTTPResponse {
        var head = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for (name, value) in headers {
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw NetworkError(code: .invalidURL, peer: url.description, detail: "the header field \(name) contains a line break")
            }
            head += "\(name): \(value)\r\n"
        }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let deadline = Deadline.after(configuration.timeout)
        let addresses: [ResolvedAddress]
        if let policy = configuration.addressPolicy {
            addresses = try policy.addresses(for: url)
        } else {
            addresses = try ResolvedAddress.resolve(host: url.host, port: url.port)
        }
        let connectDeadline = configuration.connectTimeout.map { min(deadline, Deadline.after($0)) } ?? deadline
        let plain = try TCPConnection.connect(to: addresses, deadline: connectDeadline)
        let connection: any Connection
        if url.isSecure {
            let tls: TLSClient
            if let configured = configuration.tls { tls = configured } else { tls = try TLSClient.systemDefault() }
            connection = try tls.secure(plain, serverName: url.host, deadline: deadline)
        } else {
            connection = plain
        }
        defer { connection.close() }
        try connection.send(Array(head.utf8) + (body ?? []), deadline: deadline)
        var parser = HTTPResponseParser(limits: configuration.limits, isResponseToHead: method == "HEAD", peer: url.description)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(NetworkError) in try connection.receive(into: buffer, deadline: deadline) }
            }.get()
            if count == 0 { return try parser.finish() }
            if case .complete(let response) = try parser.feed(chunk[..<count]) { return response }
        }
    }
}

extension TLSClient {
    private static let shared: Result<TLSClient, NetworkError> = Result { () throws(NetworkError) in try TLSClient() }

    /// One client trusting the system's CA store, shared by every ``HTTPClient`` without its own.
    /// - Throws: `NetworkError` `.invalidConfiguration` when the store cannot be loaded.
    static func systemDefault() throws(NetworkError) -> TLSClient {
        try shared.get()
    }
}
