import FoundationEssentials
import HearthDomain
import HearthStore
import Net
import Support

/// Connecting (OAuth 2.0's authorization code flow with PKCE, RFC 7636 `S256`) and disconnecting.
///
/// 1. `startGoogleCalendarConnection` makes a random state and PKCE verifier, stores the state's
///    SHA-256 with the sealed verifier for `--google-authorization-lifetime` (at most
///    `--google-max-open-attempts` per user: a new one beyond ends the oldest), and answers Google's
///    authorization URL (`access_type=offline` and `prompt=consent`, so Google grants a refresh token).
/// 2. Google sends the browser back to the redirect URI (`GET /oauth/google/callback?code&state`),
///    or the app that caught the redirect calls `completeGoogleCalendarConnection`: either way the
///    state is looked up by its hash and deleted (single use; an expired one is deleted and
///    refused), and the code is exchanged with the verifier and the client's secret.
/// 3. The tokens are stored sealed; connecting again replaces them, and the selected calendars'
///    syncs (and the export) resume.
///
/// Disconnecting deletes the connection, its calendars and their events at once, and revokes the
/// refresh token at Google through the scheduler (`google.revoke_token`, retried when Google cannot
/// be reached): the token travels in the job sealed.
extension GoogleCalendarService {
    /// Begins `viewer`'s connection: the URL to send their browser to. A replay with the same
    /// `clientMutationID` answers the first URL (its record holds it sealed) and begins nothing.
    /// - Throws: ``ServiceError`` `UNAVAILABLE` without an OAuth client.
    public func startConnection(for viewer: Viewer, clientMutationID: String? = nil) async throws -> GoogleAuthorizationStart {
        let (configuration, _) = try enabled()
        if let first: SealedStart = try await replayed(Self.startMutation, clientMutationID, for: viewer) {
            return GoogleAuthorizationStart(authorizationURL: try sealer.open(first.sealedURL), expiresAt: first.expiresAt)
        }
        let state = Base64URL.encode(SecureRandom.bytes(32))
        let verifier = Base64URL.encode(SecureRandom.bytes(32))
        let challenge = Base64URL.encode(SHA256.digest(Array(verifier.utf8)))
        let now = households.clock.storedNow
        let expiresAt = now.addingTimeInterval(Double(configuration.authorizationLifetime.components.seconds))
        let query = FormEncoding.encode([
            ("client_id", configuration.clientID), ("redirect_uri", configuration.redirectURI), ("response_type", "code"),
            ("scope", GoogleCalendarConfiguration.scopes.joined(separator: " ")), ("code_challenge", challenge), ("code_challenge_method", "S256"),
            ("state", state), ("access_type", "offline"), ("prompt", "consent"), ("include_granted_scopes", "true"),
        ])
        let separator = configuration.authorizationEndpoint.contains("?") ? "&" : "?"
        let url = configuration.authorizationEndpoint + separator + query
        let started = try await pool.write { [sealer] database in
            let owner = OwnerScope(Owner(viewer), database)
            return try MutationReplay.run(clientMutationID: clientMutationID, mutation: Self.startMutation, at: now, owner) {
                // Expired attempts go, and a user has --google-max-open-attempts open at most: the oldest beyond go.
                try owner.execute("DELETE FROM google_authorizations WHERE user_id = {owner} AND expires_at <= ?", [now])
                try owner.execute(
                    """
                    DELETE FROM google_authorizations WHERE user_id = {owner} AND state_hash NOT IN (
                        SELECT state_hash FROM google_authorizations WHERE user_id = {owner} ORDER BY created_at DESC, state_hash LIMIT ?)
                    """, [configuration.maximumOpenAttempts - 1])
                try owner.execute(
                    "INSERT INTO google_authorizations (state_hash, user_id, verifier, created_at, expires_at) VALUES (?, {owner}, ?, ?, ?)",
                    [SHA256.hexDigest(state), sealer.seal(verifier), now, expiresAt])
                return SealedStart(sealedURL: sealer.seal(url), expiresAt: expiresAt)
            }
        }
        return GoogleAuthorizationStart(authorizationURL: try sealer.open(started.sealedURL), expiresAt: started.expiresAt)
    }

    /// The replay record's name of `startGoogleCalendarConnection`.
    private static let startMutation = "startGoogleCalendarConnection"

    /// What a replay of `startGoogleCalendarConnection` answers: the URL (which carries the state,
    /// a secret) sealed, as the database keeps secrets.
    private struct SealedStart: Codable, Sendable {
        var sealedURL: String
        var expiresAt: Date
    }

    /// Completes the connection begun with `state`: exchanges `code` at Google and stores the tokens.
    /// - Parameters:
    ///   - viewer: The signed-in caller (`completeGoogleCalendarConnection`), whose attempt the state
    ///     must be; nil for the redirect page, where the state alone names the account.
    ///   - clientMutationID: The caller's replay id: a replay answers the connection made the first
    ///     time, as it is now, without looking at the (spent) state.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` `LINK_INVALID` on `input.state` (`UNKNOWN_VALUE`
    ///   for a state unknown, used or another user's; `OUT_OF_RANGE` once expired); on `input.code`
    ///   (`UNKNOWN_VALUE`) when Google refuses the code; `UNAVAILABLE` without an OAuth client or
    ///   when Google cannot be reached.
    @discardableResult
    public func completeConnection(code: String, state: String, for viewer: Viewer?, clientMutationID: String? = nil) async throws -> GoogleConnection {
        let (_, api) = try enabled()
        let mutation = "completeGoogleCalendarConnection"
        if let viewer, let id: String = try await replayed(mutation, clientMutationID, for: viewer) {
            return try await replayedConnection(id, for: viewer)
        }
        guard !code.isEmpty else { throw Self.refusal("input.code", .required, "Give the authorization code Google sent back.") }
        let now = households.clock.storedNow
        let pending = try await pool.write { database in try Self.takePendingAuthorization(stateHash: SHA256.hexDigest(state), for: viewer, at: now, in: database) }
        let (userID, sealedVerifier) = try pending.get()
        let verifier = try sealer.open(sealedVerifier)
        let grant: GoogleAPIClient.TokenGrant
        do {
            grant = try await offLoop { try api.exchange(code: code, verifier: verifier, at: now) }
        } catch let failure as GoogleFailure {
            if failure.kind == .invalidGrant || failure.kind == .status(400) || failure.kind == .status(401) {
                throw Self.refusal("input.code", .unknownValue, "Google refused the authorization code (used, expired, or not this server's); connect again.")
            }
            throw Self.unavailable(failure)
        }
        guard let refreshToken = grant.refresh_token else {
            throw ServiceError(.unavailable, "Google granted no refresh token; connect again (the consent screen must be shown).")
        }
        let owner = Owner(authenticated: userID)
        return try await pool.write { [sealer, households, self] database in
            let scope = OwnerScope(owner, database)
            let id = GlobalID.make(.googleConnection, now: now).rawValue
            try scope.execute(
                """
                INSERT INTO google_connections (id, user_id, status, refresh_token, access_token, access_token_expires_at, scope, created_at, updated_at)
                VALUES (?, {owner}, 'active', ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET status = 'active', refresh_token = excluded.refresh_token, access_token = excluded.access_token,
                    access_token_expires_at = excluded.access_token_expires_at, scope = excluded.scope, updated_at = excluded.updated_at, last_error = NULL
                """,
                [id, sealer.seal(refreshToken), sealer.seal(grant.access_token), now.addingTimeInterval(Double(grant.expires_in ?? 3600)),
                 grant.scope ?? GoogleCalendarConfiguration.scopes.joined(separator: " "), now, now])
            // Connected again: the selected calendars sync now, and the export runs.
            try scope.forEachRow("SELECT id FROM imported_calendars WHERE user_id = {owner} AND google_calendar_id IS NOT NULL") { row in
                try scheduleSync(of: try row[0], scope, at: now)
            }
            guard let connection = try Self.connection(scope) else { throw ServiceError(.notFound, "The connection vanished.") }
            if connection.exportCalendarID != nil { try scheduleExport(scope, at: now) }
            try households.changeLog.record(
                topic: .user(userID), kind: .googleCalendarConnected, payload: GoogleConnectionChange(connectionID: connection.id, userID: userID),
                in: database)
            try MutationReplay.record(connection.id, clientMutationID: viewer == nil ? nil : clientMutationID, mutation: mutation, at: now, scope)
            return connection
        }
    }

    /// Deletes the attempt whose state hashes to `stateHash` and answers its account and sealed
    /// verifier; an expired one is deleted and refused. Looked up by the secret before any access
    /// exists (the redirect carries no credential but the state).
    private static func takePendingAuthorization(
        stateHash: String, for viewer: Viewer?, at now: Date, in database: Database
    ) throws -> Result<(String, String), ServiceError> {
        let unknown = refusal("input.state", .unknownValue, "This connection attempt is unknown or was already used; connect again.")
        guard let row = try database.queryOne(
            "DELETE FROM google_authorizations WHERE state_hash = ? RETURNING user_id, verifier, expires_at", [stateHash])
        else { return .failure(unknown) }
        let userID: String = try row["user_id"]
        if let viewer, viewer.userID != userID { throw unknown }
        guard (try row["expires_at"] as Date) > now else {
            return .failure(refusal("input.state", .outOfRange, "This connection attempt expired; connect again."))
        }
        return .success((userID, try row["verifier"]))
    }

    /// A `BAD_USER_INPUT` `LINK_INVALID` refusal on `field`.
    static func refusal(_ field: String, _ reason: FieldProblem.Reason, _ message: String) -> ServiceError {
        ServiceError(.badUserInput, reason: .linkInvalid, message, problems: [FieldProblem(field: field, reason: reason, message: message)])
    }

    /// Disconnects `viewer`'s Google account: deletes the connection, its calendars and their
    /// events, and schedules the deletion of the exported chore events and the revocation of its
    /// refresh token at Google.
    /// A replay with the same `clientMutationID` answers the first run's result and changes nothing.
    /// - Returns: Whether there was a connection.
    public func disconnect(for viewer: Viewer, clientMutationID: String? = nil) async throws -> Bool {
        let now = households.clock.storedNow
        return try await pool.write { [households, jobs] database in
            let owner = OwnerScope(Owner(viewer), database)
            return try MutationReplay.run(clientMutationID: clientMutationID, mutation: "disconnectGoogleCalendar", at: now, owner) {
                guard let row = try owner.queryOne("SELECT id, refresh_token FROM google_connections WHERE user_id = {owner}") else { return false }
                let connectionID: String = try row["id"]
                var deleted: [String] = []
                try owner.forEachRow("SELECT id FROM imported_calendars WHERE user_id = {owner} AND google_calendar_id IS NOT NULL") { deleted.append(try $0[0]) }
                try owner.execute("DELETE FROM imported_calendars WHERE user_id = {owner} AND google_calendar_id IS NOT NULL")
                let exported = try owner.query("SELECT calendar_id, event_id FROM google_exported_events WHERE user_id = {owner} ORDER BY calendar_id, event_id")
                    .map { GoogleTokenRevocationJob.ExportedEvent(calendarID: try $0["calendar_id"], eventID: try $0["event_id"]) }
                try owner.execute("DELETE FROM google_exported_events WHERE user_id = {owner}")
                try owner.execute("DELETE FROM google_authorizations WHERE user_id = {owner}")
                try owner.execute("DELETE FROM google_connections WHERE user_id = {owner}")
                if !deleted.isEmpty { try Tombstones.record(deleted, .importedCalendar, scope: .user(viewer.userID), at: now, in: database) }
                try Tombstones.record([connectionID], .googleConnection, scope: .user(viewer.userID), at: now, in: database)
                try jobs.enqueue(
                    kind: .googleTokenRevocation,
                    payload: GoogleTokenRevocationJob.Payload(sealedToken: try row["refresh_token"], exportedEvents: exported), in: database)
                try households.changeLog.record(
                    topic: .user(viewer.userID), kind: .googleCalendarDisconnected,
                    payload: GoogleConnectionChange(connectionID: connectionID, userID: viewer.userID), in: database)
                return true
            }
        }
    }
}
