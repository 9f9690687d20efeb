// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// Why a request was rejected. The connection answers with `status` and the short `message` as body, then
/// closes: after any of these the framing of the byte stream can no longer be trusted.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for matching in code and tests.
    public enum Code: Sendable, Equatable {
        /// The request line is not `method SP target SP HTTP/x.y`.
        case invalidRequestLine
        /// The request line is longer than the configured limit (414).
        case requestLineTooLong
        /// The version is well-formed but not HTTP/1.x (505).
        case unsupportedVersion
        /// A header name is empty or holds a non-token character.
        case invalidHeaderName
        /// A header value holds a control character (NUL, bare CR, ...).
        case invalidHeaderValue
        /// A CR not followed by LF, or an LF not preceded by CR, in the head.
        case invalidLineEnding
        /// A field line starts with whitespace (obsolete line folding, RFC 9112 §5.2).
        case obsoleteLineFolding
        /// The header section or trailer section is larger than the configured limits (431).
        case headersTooLarge
        /// Both `Content-Length` and `Transfer-Encoding` are present (request smuggling vector).
        case contentLengthWithTransferEncoding
        /// `Content-Length` is not a decimal number, or several differ.
        case invalidContentLength
        /// `Transfer-Encoding` does not end with `chunked`, repeats it, or comes in an HTTP/1.0 request.
        case invalidTransferEncoding
        /// `Transfer-Encoding` names a coding this server does not implement (501).
        case unsupportedTransferEncoding
        /// An HTTP/1.1 request without exactly one `Host` header.
        case invalidHost
        /// `Expect` holds something other than `100-continue` (417).
        case unsupportedExpectation
        /// The body is larger than the configured limit (413).
        case bodyTooLarge
        /// A chunk-size line or the CRLF after chunk data is malformed.
        case invalidChunk
        /// The head or body did not arrive before its deadline (408).
        case timeout
    }

    /// What went wrong.
    public var code: Code
    /// The status code to answer with.
    public var status: HTTPStatus
    /// A short human explanation, sent as the response body.
    public var message: String

    /// Creates an error with the status and message that belong to `code`.
    public init(_ code: Code) {
        self.code = code
        switch code {
        case .invalidRequestLine:
            (status, message) = (.badRequest, "invalid request line")
        case .requestLineTooLong:
            (status, message) = (.uriTooLong, "request line too long")
        case .unsupportedVersion:
            (status, message) = (.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
        case .invalidHeaderName:
            (status, message) = (.badRequest, "invalid header name")
        case .invalidHeaderValue:
            (status, message) = (.badRequest, "invalid character in header value")
        case .invalidLineEnding:
            (status, message) = (.badRequest, "lines must end with CRLF")
        case .obsoleteLineFolding:
            (status, message) = (.badRequest, "obsolete line folding is not allowed")
        case .headersTooLarge:
            (status, message) = (.requestHeaderFieldsTooLarge, "header section too large")
        case .contentLengthWithTransferEncoding:
            (status, message) = (.badRequest, "Content-Length and Transfer-Encoding must not both be present")
        case .invalidContentLength:
            (status, message) = (.badRequest, "invalid Content-Length")
        case .invalidTransferEncoding:
            (status, message) = (.badRequest, "invalid Transfer-Encoding")
        case .unsupportedTransferEncoding:
            (status, message) = (.notImplemented, "unsupported transfer coding")
        case .invalidHost:
            (status, message) = (.badRequest, "exactly one Host header is required")
        case .unsupportedExpectation:
            (status, message) = (.expectationFailed, "only 100-continue is supported")
        case .bodyTooLarge:
            (status, message) = (.contentTooLarge, "request body too large")
        case .invalidChunk:
            (status, message) = (.badRequest, "invalid chunked encoding")
        case .timeout:
            (status, message) = (.requestTimeout, "request not received in time")
        }
    }

    /// `status: message`
    public var description: String { "\(status.code) \(message)" }
}
