// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// An HTTP request method (RFC 9110 §9), compared case-sensitively as the RFC requires.
///
/// The common methods are static values, so parsing them allocates nothing; any other
/// syntactically valid token is accepted and carried verbatim.
public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as it appeared on the request line.
    public let rawValue: String

    /// Wraps a method token. The caller is responsible for it being a valid RFC 9110 token.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`
    public static let get = HTTPMethod("GET")
    /// `HEAD`
    public static let head = HTTPMethod("HEAD")
    /// `POST`
    public static let post = HTTPMethod("POST")
    /// `PUT`
    public static let put = HTTPMethod("PUT")
    /// `DELETE`
    public static let delete = HTTPMethod("DELETE")
    /// `PATCH`
    public static let patch = HTTPMethod("PATCH")
    /// `OPTIONS`
    public static let options = HTTPMethod("OPTIONS")
    /// `CONNECT`
    public static let connect = HTTPMethod("CONNECT")
    /// `TRACE`
    public static let trace = HTTPMethod("TRACE")

    /// The method token.
    public var description: String { rawValue }

    /// Returns the shared static value for a well-known method, avoiding a String allocation per request.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod {
        switch bytes.count {
        case 3:
            if bytes[0] == 0x47, bytes[1] == 0x45, bytes[2] == 0x54 { return .get }
            if bytes[0] == 0x50, bytes[1] == 0x55, bytes[2] == 0x54 { return .put }
        case 4:
            if bytes.elementsEqual("POST".utf8) { return .post }
            if bytes.elementsEqual("HEAD".utf8) { return .head }
        case 5:
            if bytes.elementsEqual("PATCH".utf8) { return .patch }
            if bytes.elementsEqual("TRACE".utf8) { return .trace }
        case 6:
            if bytes.elementsEqual("DELETE".utf8) { return .delete }
        case 7:
            if bytes.elementsEqual("OPTIONS".utf8) { return .options }
            if bytes.elementsEqual("CONNECT".utf8) { return .connect }
        default:
            break
        }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }
}
