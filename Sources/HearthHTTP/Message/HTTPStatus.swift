// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// A response status code with its reason phrase (RFC 9110 §15).
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase sent on the status line.
    public let reasonPhrase: String

    /// Creates a status; when `reasonPhrase` is nil the standard phrase for `code` is used.
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardPhrase(for: code)
    }

    /// `code reasonPhrase`
    public var description: String { "\(code) \(reasonPhrase)" }

    /// 100 Continue
    public static let `continue` = HTTPStatus(code: 100)
    /// 101 Switching Protocols
    public static let switchingProtocols = HTTPStatus(code: 101)
    /// 200 OK
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created
    public static let created = HTTPStatus(code: 201)
    /// 204 No Content
    public static let noContent = HTTPStatus(code: 204)
    /// 304 Not Modified
    public static let notModified = HTTPStatus(code: 304)
    /// 400 Bad Request
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 408 Request Timeout
    public static let requestTimeout = HTTPStatus(code: 408)
    /// 413 Content Too Large
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// 414 URI Too Long
    public static let uriTooLong = HTTPStatus(code: 414)
    /// 415 Unsupported Media Type
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 417 Expectation Failed
    public static let expectationFailed = HTTPStatus(code: 417)
    /// 422 Unprocessable Content
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 429 Too Many Requests
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 431 Request Header Fields Too Large
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// 500 Internal Server Error
    public static let internalServerError = HTTPStatus(code: 500)
    /// 501 Not Implemented
    public static let notImplemented = HTTPStatus(code: 501)
    /// 503 Service Unavailable
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 505 HTTP Version Not Supported
    public static let httpVersionNotSupported = HTTPStatus(code: 505)

    /// Whether a response with this status never carries content (RFC 9110 §6.4.1).
    public var forbidsContent: Bool { code < 200 || code == 204 || code == 304 }

    static func standardPhrase(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}
