import FoundationEssentials
import GraphQL
import HearthHTTP
import HearthServices
import Support

/// Authenticates graphql-transport-ws connections and ends them with their session.
///
/// - Credentials: the `connection_init` payload's `authorization` entry,
///   `{"authorization": "Bearer <access token>"}` (what Apollo's `connectionParams` sends), or else
///   the upgrade request's `Authorization` header (native clients can set it). Neither means a
///   signed-out connection, which may use what signed-out callers may.
/// - Refused credentials (malformed, forged, expired, revoked) reject the connection with 4403 and
///   the `extensions.reason` code as the close reason (`TOKEN_EXPIRED`, `SESSION_REVOKED`, …), so the
///   client knows to refresh its token and reconnect, or to sign in again.
/// - A connection is bound to the session, not to the access token it opened with: it stays open
///   across access-token expiry and refreshes, and closes with 4403 when the session is revoked
///   (sign-out, revocation, password reset, refresh-token reuse) and 4401 when the session reaches
///   its end.
public struct WebSocketAuthentication: Sendable {
    /// What a connection knows before its `connection_init`: from the upgrade request.
    struct Upgrade: Sendable {
        let clientAddress: String
        let authorization: String?
    }

    /// Verifies the tokens.
    public let authenticator: Authenticator
    /// Where failed session checks are reported.
    let logger: Logger

    /// Creates the authentication.
    public init(authenticator: Authenticator, logger: Logger) {
        self.authenticator = authenticator
        self.logger = logger
    }

    /// The endpoint's `makeContext`: what the upgrade request says.
    public func upgradeContext(_ request: HTTPRequest) -> any Sendable {
        Upgrade(clientAddress: request.clientAddress, authorization: request.headers["Authorization"])
    }

    /// The endpoint's `sharingScope`: subscriptions are shared among the connections of one user (their
    /// devices), and among signed-out connections, never across users.
    public func sharingScope(_ context: any Sendable) -> String {
        guard let viewer = (context as? RequestContext)?.optionalViewer else { return "" }
        return "user:" + viewer.userID
    }

    /// The endpoint's `authorize`.
    public func authorize(_ upgradeContext: any Sendable, _ payload: [UInt8]?) async -> ConnectionAuthorization {
        guard let upgrade = upgradeContext as? Upgrade else { return .reject(reason: "Forbidden") }
        let credentials: String?
        switch Self.authorization(in: payload) {
        case .success(let value): credentials = value ?? upgrade.authorization
        case .failure(let error): return .reject(reason: error.reason?.rawValue ?? error.message)
        }
        switch await authenticator.authenticate(authorization: credentials) {
        case .signedOut:
            return .accept(context: RequestContext(authentication: .signedOut, clientAddress: upgrade.clientAddress))
        case .refused(let error):
            return .reject(reason: error.reason?.rawValue ?? error.message)
        case .signedIn(let viewer):
            return .accept(
                context: RequestContext(authentication: .signedIn(viewer), clientAddress: upgrade.clientAddress),
                watch: watch(viewer.sessionID))
        }
    }

    /// Closes the connection when session `id` is revoked or reaches its end.
    ///
    /// The session may end between the authentication and this watch's start (after the
    /// acknowledgement), when no observer was registered yet to hear it, and the directory may
    /// have evicted its entry. So the watch registers its observer first and then looks at the
    /// session's state, read from the database when the directory no longer holds it, closing
    /// at once when it is revoked, gone or expired; afterwards it wakes at the session's end
    /// and looks again (a refresh moves the end later).
    func watch(_ id: String) -> ConnectionWatch {
        let accounts = authenticator.accounts
        let logger = logger
        return ConnectionWatch { close in
            let observation = accounts.sessions.observeEnd(of: id) { end in
                end == .revoked ? Self.closeRevoked(close) : Self.closeExpired(close)
            }
            let expiry = Task {
                do {
                    while true {
                        switch try await accounts.sessionState(id: id) {
                        case .revoked: return Self.closeRevoked(close)
                        case .expired: return Self.closeExpired(close)
                        case .live(let remaining): try await Task.sleep(for: remaining)
                        }
                    }
                } catch is CancellationError {
                    // The connection closed.
                } catch {
                    // A failed lookup cannot prove the session live: close, and the client reconnects.
                    logger.error("session check failed", ["session.id": id, "error": String(describing: error)])
                    close(WebSocketCloseCode(rawValue: 4500), "Internal error")
                }
            }
            return {
                accounts.sessions.stopObserving(observation)
                expiry.cancel()
            }
        }
    }

    private static func closeRevoked(_ close: ConnectionWatch.Close) {
        close(WebSocketCloseCode(rawValue: 4403), "Session revoked")
    }

    private static func closeExpired(_ close: ConnectionWatch.Close) {
        close(WebSocketCloseCode(rawValue: 4401), "Session expired")
    }

    /// The `authorization` entry of a `connection_init` payload: `nil` when the payload or the entry
    /// is absent, an error when it is present but not a string.
    static func authorization(in payload: [UInt8]?) -> Result<String?, ServiceError> {
        guard let payload, let json = try? JSON(parsing: payload) else { return .success(nil) }
        guard case .object(let object) = json else { return .success(nil) }
        switch object["authorization"] ?? object["Authorization"] {
        case nil, .null?: return .success(nil)
        case .string(let value)?: return .success(value)
        default:
            return .failure(ServiceError(
                .unauthenticated, reason: .tokenInvalid, "The connection_init payload's authorization must be \"Bearer <token>\"."))
        }
    }
}
