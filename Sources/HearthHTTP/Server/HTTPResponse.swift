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
    /// The kept body this response's body was made from, whose compressed encoding is made once
    /// and reused; `nil`: compressed for this response, if at all.
    let reusableBody: ReusableBody?

    /// A response from its parts.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        reusableBody = nil
    }

    /// A response whose body is `reusableBody`'s bytes (shared, not copied), compressed once
    /// for every response made with it.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), reusableBody: ReusableBody) {
        self.status = status
        self.headers = headers
        body = reusableBody.bytes
        self.reusableBody = reusableBody
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
