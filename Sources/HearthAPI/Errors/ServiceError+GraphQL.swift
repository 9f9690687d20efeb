import GraphQL
import HearthServices

extension ServiceError: GraphQLErrorConvertible {
    /// The error as clients see it: `extensions.code`, and where they apply `reason`,
    /// `field` (the first problem's input path), `fieldErrors` (every problem), `retryAfter`, `limit`, `line` and
    /// `methods` (the proofs a `REAUTHENTICATION_REQUIRED` accepts), and the objects the error names
    /// (``ServiceError/related``, e.g. `claimant: {displayName, id}`).
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
        if let limit { extensions["limit"] = .int(limit) }
        if let line { extensions["line"] = .int(line) }
        if !methods.isEmpty { extensions["methods"] = .array(methods.map { .string($0.rawValue) }) }
        for (role, fields) in related.sorted(by: { $0.key < $1.key }) {
            var object: OrderedMap<String, JSON> = [:]
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) { object[name] = .string(value) }
            extensions[role] = .object(object)
        }
        return GraphQLError(message: message, extensions: extensions)
    }
}
