import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Access tokens: kept sealed with their expiry, reused until a minute before it, refreshed with
/// the refresh token when expired or refused (401). Google answering `invalid_grant` to a refresh
/// marks the connection `revoked` and tells the user (a `GOOGLE_CALENDAR_RECONNECT` notice).
extension GoogleCalendarService {
    /// How long before its expiry an access token is no longer used.
    static let expiryMargin: TimeInterval = 60

    /// Runs `request` with an access token of `owner`'s connection; a 401 refreshes the token once
    /// and runs it again. Blocking.
    /// - Throws: ``GoogleFailure`` (`invalidGrant` when the connection is, or just became, revoked,
    ///   or when there is none).
    func withAccessToken<T>(of owner: Owner, _ request: (String) throws(GoogleFailure) -> T) throws(GoogleFailure) -> T {
        do throws(GoogleFailure) {
            return try request(try accessToken(of: owner, refreshing: false))
        } catch where error.kind == .unauthorized {
            return try request(try accessToken(of: owner, refreshing: true))
        }
    }

    /// A usable access token of `owner`'s connection: the kept one unless it expires within a
    /// minute (or `refreshing`), else a new one, stored sealed.
    private func accessToken(of owner: Owner, refreshing: Bool) throws(GoogleFailure) -> String {
        struct Tokens: Decodable {
            var status: GoogleConnectionStatus
            var refreshToken: String
            var accessToken: String?
            var expiresAt: Date?
        }
        let now = households.clock.storedNow
        let stored: Tokens?
        do {
            stored = try pool.read { database in
                try OwnerScope(owner, database).decodeOne(
                    Tokens.self,
                    """
                    SELECT status, refresh_token AS refreshToken, access_token AS accessToken, access_token_expires_at AS expiresAt
                    FROM google_connections WHERE user_id = {owner}
                    """)
            }
        } catch {
            throw GoogleFailure(kind: .network, message: "the connection could not be read: \(error)")
        }
        guard let stored, stored.status == .active else {
            throw GoogleFailure(kind: .invalidGrant, message: "the Google account is not connected")
        }
        if !refreshing, let sealed = stored.accessToken, let expiresAt = stored.expiresAt, expiresAt.timeIntervalSince(now) > Self.expiryMargin,
            let token = try? sealer.open(sealed)
        {
            return token
        }
        let (_, api) = try enabledForJobs()
        let refreshToken: String
        do {
            refreshToken = try sealer.open(stored.refreshToken)
        } catch {
            throw GoogleFailure(kind: .invalidGrant, message: "the stored refresh token does not open: \(error)")
        }
        do throws(GoogleFailure) {
            let grant = try api.refresh(refreshToken, at: now)
            try store(grant, of: owner, at: now)
            return grant.access_token
        } catch where error.kind == .invalidGrant {
            markRevoked(owner, because: error, at: now)
            throw error
        }
    }

    /// The client, for work the scheduler runs (a job of a server since configured without a client fails).
    func enabledForJobs() throws(GoogleFailure) -> (GoogleCalendarConfiguration, GoogleAPIClient) {
        guard let configuration, let api else { throw GoogleFailure(kind: .invalidGrant, message: "no Google OAuth client is configured") }
        return (configuration, api)
    }

    /// Stores a refreshed access token (and a new refresh token, if Google rotated it), sealed.
    private func store(_ grant: GoogleAPIClient.TokenGrant, of owner: Owner, at now: Date) throws(GoogleFailure) {
        do {
            try pool.write { [sealer] database in
                let scope = OwnerScope(owner, database)
                try scope.execute(
                    """
                    UPDATE google_connections SET access_token = ?, access_token_expires_at = ?, last_error = NULL
                    WHERE user_id = {owner} AND status = 'active'
                    """, [sealer.seal(grant.access_token), now.addingTimeInterval(Double(grant.expires_in ?? 3600))])
                if let rotated = grant.refresh_token {
                    try scope.execute("UPDATE google_connections SET refresh_token = ? WHERE user_id = {owner}", [sealer.seal(rotated)])
                }
            }
        } catch {
            throw GoogleFailure(kind: .network, message: "the refreshed token could not be stored: \(error)")
        }
    }

    /// Marks `owner`'s connection revoked (tokens dropped, the reason kept) and tells them, once.
    private func markRevoked(_ owner: Owner, because failure: GoogleFailure, at now: Date) {
        _ = try? pool.write { [households, calendars] database in
            let scope = OwnerScope(owner, database)
            guard let connection = try Self.connection(scope), connection.status == .active else { return }
            try scope.execute(
                """
                UPDATE google_connections SET status = 'revoked', access_token = NULL, access_token_expires_at = NULL, last_error = ?,
                    updated_at = ? WHERE user_id = {owner}
                """, [failure.message, now])
            let draft = Notifier.Draft(
                kind: .googleCalendarReconnect, title: "Connect Google Calendar again",
                body: "Google no longer accepts Hearth's access to your calendars (it was revoked or expired). Your synced events are kept but no longer updated, and chores are not exported, until you connect again.")
            try calendars.notifier.notify(draft, dedupeKey: "google_calendar_reconnect:\(connection.id):\(Int64(now.timeIntervalSince1970))", scope, at: now)
            try households.changeLog.record(
                topic: .user(owner.userID), kind: .googleCalendarRevoked, payload: GoogleConnectionChange(connectionID: connection.id, userID: owner.userID),
                in: database)
        }
    }
}
