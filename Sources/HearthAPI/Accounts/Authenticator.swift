import HearthHTTP
import HearthServices

/// Turns the credentials a client presents into an ``Authentication``: an
/// `Authorization: Bearer` header value over HTTP, or the `authorization` entry of the
/// `connection_init` payload over WebSocket (what Apollo's `connectionParams` sends).
public struct Authenticator: Sendable {
    /// The service that verifies access tokens.
    public let accounts: AccountService

    /// Creates the authenticator.
    public init(accounts: AccountService) {
        self.accounts = accounts
    }

    /// The authentication of a request with `authorization` (the header value, or `nil`).
    /// Does not suspend when the session is cached.
    public func authenticate(authorization: String?) async -> Authentication {
        guard let authorization else { return .signedOut }
        guard let token = HTTPHeaders.bearerToken(in: authorization) else {
            return .refused(ServiceError(
                .unauthenticated, reason: .tokenInvalid, "Send the access token as `Authorization: Bearer <token>`."))
        }
        do {
            return .signedIn(try await accounts.authenticate(accessToken: token))
        } catch {
            return .refused(error)
        }
    }

    /// The viewer of a plain HTTP route's request (not `/graphql`), or the answer that refuses it
    /// (401 `UNAUTHENTICATED`, ``ServiceError/httpRefusal``).
    public func viewer(of request: HTTPRequest) async -> Result<Viewer, RefusedRequest> {
        switch await authenticate(authorization: request.headers["Authorization"]) {
        case .signedIn(let viewer): .success(viewer)
        case .signedOut: .failure(RefusedRequest(response: ServiceError.signedOut.httpRefusal))
        case .refused(let error): .failure(RefusedRequest(response: error.httpRefusal))
        }
    }
}

/// The answer to a request a route refuses before doing anything.
public struct RefusedRequest: Error, Sendable {
    /// The response to send.
    public let response: HTTPResponse
}

extension HTTPRequest {
    /// The `Content-Type` without its parameters, lowercased; nil when there is none.
    var declaredMediaType: String? {
        headers["Content-Type"].map { $0.split(separator: ";", omittingEmptySubsequences: false)[0].trimmingSpaces().lowercased() }
    }
}
