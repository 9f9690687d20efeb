// Pure Swift (no Glibc, no Foundation): compiled directly into the multipart fuzz target.

/// Why a `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) was refused.
public struct MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for matching in code and tests.
    public enum Code: Sendable, Equatable {
        /// The `Content-Type` is not `multipart/form-data` with a valid `boundary` parameter.
        case invalidBoundary
        /// A delimiter line is followed by something other than optional white space and CRLF,
        /// or the body ends before the close delimiter.
        case malformedDelimiter
        /// A part's header section is not `name: value` lines ending with an empty line.
        case malformedHeaders
        /// A part's header section is larger than the limit.
        case headersTooLarge
        /// More parts than the limit.
        case tooManyParts
        /// One part's content is larger than the limit.
        case partTooLarge
        /// The body ended before the close delimiter.
        case truncated
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for the client.
    public var message: String

    /// Creates an error with the standard message of `code`.
    public init(_ code: Code) {
        self.code = code
        message = switch code {
        case .invalidBoundary: "The Content-Type must be multipart/form-data with a boundary of 1 to 70 characters."
        case .malformedDelimiter: "A multipart boundary line is malformed."
        case .malformedHeaders: "The headers of a multipart part are malformed."
        case .headersTooLarge: "The headers of a multipart part are too large."
        case .tooManyParts: "The multipart body has too many parts."
        case .partTooLarge: "A multipart part is too large."
        case .truncated: "The multipart body ends before its closing boundary."
        }
    }

    /// The message.
    public var description: String { message }
}
