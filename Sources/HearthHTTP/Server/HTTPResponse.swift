/// A response to send: status, headers and a body held in memory.
///
/// The server adds `Content-Length` (or chunked framing for streamed bodies), `Date`, `X-Request-Id`,
/// `Connection` and the optional `Server` header itself; `Content-Length`, `Transfer-Encoding` and
/// `Connection` set here are ignored.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes (not sent for HEAD requests and for 1xx, 204 and 304 responses).
    public var body: [UInt8]
    /// Where the body's compressed encoding is kept between responses with the same body (a kept
    /// answer), so it is compressed once; `nil`: compressed for this response, if at all.
    public var reusableEncodings: ReusableEncodings?

    /// A response from its parts.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], reusableEncodings: ReusableEncodings? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.reusableEncodings = reusableEncodings
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
