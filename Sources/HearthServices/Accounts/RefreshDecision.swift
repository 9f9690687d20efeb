import FoundationEssentials
import HearthStore

/// What a refresh token presented to ``AccountService/refresh(refreshToken:clientAddress:)``
/// calls for, decided by reading: in a read transaction first, then again under the writer.
enum RefreshDecision {
    /// Refuse without changing anything (unknown token, session revoked or expired).
    case refuse(ServiceError)
    /// Rotate the session, spending `spent` (see ``AccountService/rotate``).
    case rotate(StoredSession, spending: [UInt8], isRetry: Bool)
    /// A spent token came back: revoke its session, of the account `userID`.
    case revokeReused(sessionID: String, userID: String)

    /// The answer to a spent refresh token.
    static let reused = ServiceError(
        .unauthenticated, reason: .refreshTokenReused,
        "This refresh token was already used, so the session was ended for safety. Sign in again.")

    /// The decision for the refresh token whose digest is `digest`, at `now`. A credential
    /// lookup, across owners: the token names its session, whose owner it proves.
    init(_ digest: [UInt8], grace: Duration, at now: Date, in database: Database) throws {
        if let stored = try StoredSession.named(by: "refresh_token_hash = ?", digest, in: database) {
            self = stored.failure(at: now).map(Self.refuse) ?? .rotate(stored, spending: digest, isRetry: false)
        } else if let stored = try StoredSession.named(by: "previous_token_hash = ?", digest, in: database) {
            if let failure = stored.failure(at: now) {
                self = .refuse(failure)
            } else if let rotatedAt = stored.rotatedAt, now < rotatedAt.adding(grace) {
                self = .rotate(stored, spending: stored.refreshTokenHash, isRetry: true)
            } else {
                self = .revokeReused(sessionID: stored.record.id, userID: stored.record.userId)
            }
        } else if let sessionID = try database.scalar(String.self, "SELECT session_id FROM spent_refresh_tokens WHERE token_hash = ?", [digest]) {
            let owner = try database.scalar(String.self, "SELECT user_id FROM sessions WHERE id = ? AND revoked_at IS NULL", [sessionID])
            // Replaying a spent token of a session already revoked changes nothing: no writer.
            self = owner.map { .revokeReused(sessionID: sessionID, userID: $0) } ?? .refuse(Self.reused)
        } else {
            self = .refuse(ServiceError(.unauthenticated, reason: .tokenInvalid, "This refresh token is not valid. Sign in again."))
        }
    }
}
