/// Why a network operation failed: what went wrong (`code`, to branch on), with whom (`peer`)
/// and the system's or the protocol's explanation (`detail`). `description` is a complete
/// sentence, e.g. `cannot connect to http://127.0.0.1:1/: Connection refused`.
public struct NetworkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable {
        /// The host name did not resolve.
        case cannotResolve
        /// No address of the host accepted the connection.
        case cannotConnect
        /// The deadline passed before the operation completed.
        case timedOut
        /// The peer closed the connection, or it broke, before the exchange was complete.
        case connectionClosed
        /// The TLS handshake or a TLS record failed for another reason than the certificate.
        case tlsFailed
        /// The peer's certificate is not trusted, has expired, or does not name the host.
        case certificateRejected
        /// The peer sent bytes that do not follow the protocol.
        case malformedResponse
        /// The peer sent more than the configured limit.
        case responseTooLarge
        /// A URL that cannot be used (scheme, host or port).
        case invalidURL
        /// Every address of the host is one an ``OutboundAddressPolicy`` refuses (loopback,
        /// private, link-local…), or the URL is not `https://` where the policy requires it.
        case addressRefused
        /// A TLS setting that cannot be applied, such as an unreadable CA file (`peer` names it).
        case invalidConfiguration
    }

    /// What went wrong.
    public var code: Code
    /// Whom we were talking to: `host:port` or a URL.
    public var peer: String
    /// The explanation, e.g. `Connection refused`.
    public var detail: String

    /// Creates an error.
    public init(code: Code, peer: String, detail: String) {
        self.code = code
        self.peer = peer
        self.detail = detail
    }

    /// A complete sentence for a user or a log.
    public var description: String {
        switch code {
        case .cannotResolve: "cannot resolve \(peer): \(detail)"
        case .cannotConnect: "cannot connect to \(peer): \(detail)"
        case .timedOut: "no answer from \(peer) in time: \(detail)"
        case .connectionClosed: "the connection to \(peer) closed: \(detail)"
        case .tlsFailed: "TLS with \(peer) failed: \(detail)"
        case .certificateRejected: "the certificate of \(peer) was rejected: \(detail)"
        case .malformedResponse: "malformed response from \(peer): \(detail)"
        case .responseTooLarge: "the response from \(peer) is too large: \(detail)"
        case .invalidURL: "invalid URL '\(peer)': \(detail)"
        case .addressRefused: "refused to connect to \(peer): \(detail)"
        case .invalidConfiguration: "invalid TLS configuration (\(peer)): \(detail)"
        }
    }

    /// The same error about another peer (an HTTP client names the URL, not `host:port`).
    public func about(_ peer: String) -> NetworkError {
        var copy = self
        copy.peer = peer
        return copy
    }
}
