import GraphQL
import HearthDomain
import HearthHTTP
import HearthServices

extension ServiceError {
    /// The error as the answer of a plain HTTP route (not `/graphql`): a GraphQL-style
    /// `{"errors": [...]}` body with `extensions.code`, and the status its code and reason call
    /// for: 401 (`UNAUTHENTICATED`, with `WWW-Authenticate: Bearer`), 403 (`TERMS_ACCEPTANCE_REQUIRED`), 404 (`NOT_FOUND`), 429 (with `Retry-After`),
    /// 415 for `UNSUPPORTED_FORMAT`, 413 for `TOO_LARGE`, 503 for `UNAVAILABLE`, 400 otherwise.
    var httpRefusal: HTTPResponse {
        let status: HTTPStatus = switch (code, problems.first?.reason) {
        case (.unauthenticated, _): .unauthorized
        case (.termsAcceptanceRequired, _): .forbidden
        case (.notFound, _): .notFound
        case (.rateLimited, _): .tooManyRequests
        case (.unavailable, _): .serviceUnavailable
        case (.badUserInput, .unsupportedFormat?): .unsupportedMediaType
        case (.badUserInput, .tooLarge?): .contentTooLarge
        default: .badRequest
        }
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]
        if status.code == 401 { headers.add(name: "WWW-Authenticate", value: "Bearer") }
        if let retryAfter { headers.add(name: "Retry-After", value: String(retryAfter)) }
        let body = ExecutionResult(data: nil, errors: [graphQLError]).serialized()
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}
