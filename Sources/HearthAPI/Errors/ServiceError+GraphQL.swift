import GraphQL
import HearthServices

extension ServiceError: GraphQLErrorConvertible {
    /// The error as clients see it: `extensions.code`, and where they apply `reason`,
    /// `field` (the first problem's input path), `fieldErrors` (every problem), `retryAfter` and
    /// `methods` (the proofs a `REAUTHENTICATION_REQUIRED` accepts).
    public var graphQLError: GraphQLError {
        var extensions: OrderedMap<String, JSON> = ["code": .string(code.rawValue)]
        if let reason { extensions["reason"] = .string(reason.rawValue) }
        if let first = problems.first {
            extensions["field"] = .string(first.field)
            if reason == nil { extensions["reason"] = .string(first.reason.rawValue) }
            extensions["fieldErrors"] = .array(problems.map { problem in
                .object(["field": .string(problem.field), "reason": .string(problem.reason.rawValue), "message": .string(problem.message)])
            })
        }
        if let retryAfter { extensions["retryAfter"] = .int(retryAfter) }
        if !methods.isEmpty { extensions["methods"] = .array(methods.map { .string($0.rawValue) }) }
        return GraphQLError(message: message, extensions: extensions)
    }
}
