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
}
