// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// The request line and header section of a request, with the framing decisions the parser made from them.
public struct HTTPRequestHead: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target as sent (origin-form `/path?query`, absolute-form, or `*`).
    public var target: String
    /// The path component of the target (for absolute-form, the path after the authority; `*` stays `*`).
    public var path: Substring
    /// The query component without the `?`, or nil when there is none.
    public var query: Substring?
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields in arrival order.
    public var headers: HTTPHeaders
    /// Whether the connection may stay open after this request (version default, adjusted by `Connection`).
    public var keepAlive: Bool
    /// Whether the client sent `Expect: 100-continue`.
    public var expectsContinue: Bool
    /// How the request body is framed.
    public var bodyFraming: BodyFraming

    /// How a request body's length is determined (RFC 9112 §6.3).
    public enum BodyFraming: Sendable, Equatable {
        /// No body.
        case none
        /// Exactly this many bytes follow the head.
        case contentLength(Int)
        /// The body uses the chunked transfer coding.
        case chunked
    }

    /// Creates a head; the parser builds these, tests and handlers may build their own.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(),
        keepAlive: Bool = true, expectsContinue: Bool = false, bodyFraming: BodyFraming = .none
    ) {
        self.method = method
        self.target = target
        let (path, query) = HTTPRequestHead.splitTarget(target)
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
        self.bodyFraming = bodyFraming
    }

    /// The path and query of an origin-form or absolute-form request target, found over its
    /// UTF-8 bytes (every request asks, some twice).
    static func splitTarget(_ target: String) -> (Substring, Substring?) {
        let utf8 = target.utf8
        var pathStart = utf8.startIndex
        if utf8.first != UInt8(ascii: "/") {
            guard let schemeEnd = utf8.firstRange(of: "://".utf8) else { return splitQuery(target[...]) }
            // The authority ends at the first `/` or `?`: a `/` inside the query is not the path.
            guard let authorityEnd = utf8[schemeEnd.upperBound...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
                return ("/", nil)
            }
            guard utf8[authorityEnd] == UInt8(ascii: "/") else { return ("/", target[utf8.index(after: authorityEnd)...]) }
            pathStart = authorityEnd
        }
        return splitQuery(target[pathStart...])
    }

    private static func splitQuery(_ pathAndQuery: Substring) -> (Substring, Substring?) {
        guard let question = pathAndQuery.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (pathAndQuery, nil) }
        return (pathAndQuery[..<question], pathAndQuery[pathAndQuery.utf8.index(after: question)...])
    }
}
