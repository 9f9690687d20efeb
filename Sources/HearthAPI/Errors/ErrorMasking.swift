import GraphQL
import Support

/// Hides unexpected resolver failures from clients (a database error, a bug) while keeping
/// every detail in the server log under the request id.
///
/// Errors a resolver meant to show are kept: a `GraphQLError` it threw, or a
/// `GraphQLErrorConvertible` whose error carries an `extensions.code`. Errors the engine itself
/// reports (a null in a non-null field, a value a scalar cannot represent) are kept too. Every
/// other error becomes `Internal server error (request id X)` with `extensions.code`
/// `INTERNAL_SERVER_ERROR` and `extensions.requestId`, at the same path and locations.
public struct ErrorMasking: Sendable {
    /// Where the real errors are written (at error level, with `request.id`).
    public let logger: Logger

    /// Creates the masking step.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Whether `error` would be replaced.
    public static func isUnexpected(_ error: GraphQLError) -> Bool {
        guard let underlying = error.underlyingError else { return false }
        if underlying is GraphQLError { return false }
        if underlying is any GraphQLErrorConvertible, error.extensions["code"] != nil { return false }
        return true
    }

    /// Replaces the unexpected errors of `result` and logs each one.
    public func mask(_ result: inout ExecutionResult, requestID: String) {
        for index in result.errors.indices where Self.isUnexpected(result.errors[index]) {
            let original = result.errors[index]
            let underlying = original.underlyingError.map { String(reflecting: $0) } ?? original.message
            logger.error("resolver failed", [
                "request.id": requestID,
                "graphql.path": original.path.map(\.description).joined(separator: "."),
                "error": underlying,
            ])
            result.errors[index] = GraphQLError(
                message: "Internal server error (request id \(requestID))",
                locations: original.locations, path: original.path,
                extensions: ["code": .string(ErrorCode.internalServerError), "requestId": .string(requestID)])
        }
    }
}
