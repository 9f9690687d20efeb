/// The stable `extensions.code` values the GraphQL endpoint itself reports (resolvers add
/// their own, such as `NOT_FOUND`). Clients branch on these, never on messages.
public enum ErrorCode {
    /// The HTTP request is not a well-formed GraphQL-over-HTTP request: unreadable JSON, a
    /// missing or non-string `query`, `variables` or `extensions` that are not objects, an
    /// unsupported content type, an operation that cannot be chosen.
    public static let badRequest = "BAD_REQUEST"
    /// The document does not parse, or exceeds the size or token limit.
    public static let parseFailed = "GRAPHQL_PARSE_FAILED"
    /// The document fails validation, including the depth, alias and complexity limits.
    public static let validationFailed = "GRAPHQL_VALIDATION_FAILED"
    /// A variable value or scalar input is malformed.
    public static let badUserInput = "BAD_USER_INPUT"
    /// An Automatic Persisted Query hash the server does not know: send the query with it.
    public static let persistedQueryNotFound = "PERSISTED_QUERY_NOT_FOUND"
    /// Automatic Persisted Queries are switched off on this server: send full queries.
    public static let persistedQueryNotSupported = "PERSISTED_QUERY_NOT_SUPPORTED"
    /// The query sent with an Automatic Persisted Query hash does not have that SHA-256 hash.
    public static let persistedQueryHashMismatch = "PERSISTED_QUERY_HASH_MISMATCH"
    /// The server refuses work for now (here: too many large documents waiting to be
    /// validated); `extensions.retryAfter` says in how many seconds to retry.
    public static let rateLimited = "RATE_LIMITED"
    /// An unexpected failure; the message carries only the request id (`extensions.requestId`),
    /// the server log has the details.
    public static let internalServerError = "INTERNAL_SERVER_ERROR"
}
