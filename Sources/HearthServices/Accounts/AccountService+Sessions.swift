import FoundationEssentials
import HearthDomain
import HearthStore

extension AccountService {
    /// Signs in with email and password (FR-02b).
    ///
    /// The answer for an unknown address and for a wrong password is the same, and takes the
    /// same time (a decoy hash is checked). Attempts are rate limited (``LoginThrottle``).
    /// A hash made with weaker parameters than configured is upgraded on success.
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED` (`INVALID_CREDENTIALS`), `RATE_LIMITED`.
    public func login(email: String, password: String, deviceLabel: String?, clientAddress: String) async throws -> (UserRecord, IssuedSession) {
        try await passwordSignIn(email: email, password: password, deviceLabel: deviceLabel, clientAddress: clientAddress, endsSurplus: true)
    }

    /// Signs in with email and password as ``login(email:password:deviceLabel:clientAddress:)``
    /// does (the same answers, rate limits and decoy hash), runs `work` as that account, and
    /// ends the session again whatever `work` did: a sign-in that lasts one request, for a web
    /// form that has no session of its own (the invitation page's).
    ///
    /// The session's tokens never leave the server. It ends even when the calling task was
    /// cancelled meanwhile (the pool refuses a cancelled task's wait for the writer, so the
    /// revocation runs in a task of its own), and it signs none of the account's devices out
    /// at ``AccountsConfiguration/maximumSessionsPerUser``: it is gone before it could count.
    /// - Throws: what `login` throws, then what `work` throws.
    public func withOneRequestSession<T>(
        email: String, password: String, deviceLabel: String, clientAddress: String, _ work: (UserRecord, Viewer) async throws -> T
    ) async throws -> T {
        let (user, issued) = try await passwordSignIn(
            email: email, password: password, deviceLabel: deviceLabel, clientAddress: clientAddress, endsSurplus: false)
        let viewer = Viewer(userID: user.id, sessionID: issued.session.id, signedInAt: issued.session.createdAt)
        let outcome: Result<T, any Error>
        do { outcome = .success(try await work(user, viewer)) } catch { outcome = .failure(error) }
        if case .failure(let error) = await Task(operation: { [self] in try await logout(viewer: viewer) }).result {
            logger.error("could not end a one-request session", ["session.id": viewer.sessionID, "error": "\(error)"])
        }
        return try outcome.get()
    }

    /// ``login(email:password:deviceLabel:clientAddress:)``, and whether the new session ends
    /// the least recently used ones beyond the limit.
    private func passwordSignIn(
        email: String, password: String, deviceLabel: String?, clientAddress: String, endsSurplus: Bool
    ) async throws -> (UserRecord, IssuedSession) {
        let emailKey = email.trimmingWhitespace().lowercased()
        try throttle.beginLogin(account: emailKey, address: clientAddress)
        let user = try await pool.read { try UserRecord.find(emailKey: emailKey, in: $0) }
        guard try await verifyPassword(password, against: user?.passwordHash, of: user?.id), let user, let passwordHash = user.passwordHash else {
            logger.notice("sign-in failed", ["client.address": clientAddress])
            throw ServiceError.invalidCredentials
        }
        throttle.loginSucceeded(account: emailKey, address: clientAddress)
        let upgradedHash = hasher.needsRehash(passwordHash) ? try await hashPassword(password) : nil
        let now = clock.storedNow
        let session = try await pool.write { [self] database in
            if let upgradedHash {
                try database.execute("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?", [upgradedHash, user.id, passwordHash])
            }
            return try startSession(deviceLabel: deviceLabel, endsSurplus: endsSurplus, at: now, OwnerScope(Owner(authenticated: user.id), database))
        }
        logger.info("signed in", ["user.id": user.id, "session.id": session.session.id])
        return (user, session)
    }

    /// Exchanges a refresh token for a new access token and a new refresh token (FR-04).
    ///
    /// The presented token is spent; the previous access token stops working (its generation
    /// is behind). Presenting a spent token again revokes the session (reuse detection), except
    /// the token spent by the latest rotation within ``AccountsConfiguration/refreshGracePeriod``,
    /// which rotates once more (a client retrying after a lost response); the tokens issued
    /// in between are spent.
    ///
    /// Callable signed out, so cheap to refuse: the decision is made in a read transaction
    /// first, and the single writer is taken only for a rotation or a revocation (a made-up
    /// token never touches it). Refusals count against ``AccountsConfiguration/failedRefreshesPerAddress``
    /// (``LoginThrottle``); a successful refresh gives its attempt back.
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED` with `TOKEN_INVALID`, `SESSION_REVOKED`,
    ///   `SESSION_EXPIRED` or `REFRESH_TOKEN_REUSED`; `RATE_LIMITED` with `retryAfter`.
    public func refresh(refreshToken: String, clientAddress: String) async throws -> IssuedSession {
        try throttle.beginRefresh(address: clientAddress)
        let digest = OneTimeToken.digest(of: refreshToken)
        let now = clock.storedNow
        let grace = configuration.refreshGracePeriod
        let outcome: Result<IssuedSession, ServiceError>
        if case .refuse(let error) = try await pool.read({ try RefreshDecision(digest, grace: grace, at: now, in: $0) }) {
            outcome = .failure(error)
        } else {
            // Decided again under the writer: the session may have changed since the read.
            outcome = try await pool.write { [self] database -> Result<IssuedSession, ServiceError> in
                switch try RefreshDecision(digest, grace: grace, at: now, in: database) {
                case .refuse(let error):
                    return .failure(error)
                case .rotate(let stored, let spent, let isRetry):
                    return .success(try rotate(stored, spending: spent, isRetry: isRetry, at: now, in: database))
                case .revokeReused(let sessionID, let userID):
                    try revoke([sessionID], reason: "refresh_token_reused", at: now, OwnerScope(Owner(authenticated: userID), database))
                    return .failure(RefreshDecision.reused)
                }
            }
        }
        switch outcome {
        case .success(let issued):
            throttle.refreshSucceeded(address: clientAddress)
            return issued
        case .failure(let error):
            if error.reason == .refreshTokenReused { logger.warning("refresh token reused: session revoked", [:]) }
            throw error
        }
    }

    /// Signs out the viewer's session (FR-05): its access and refresh tokens stop working.
    public func logout(viewer: Viewer) async throws {
        let now = clock.storedNow
        try await pool.write { [self] database in try revoke([viewer.sessionID], reason: "logout", at: now, OwnerScope(Owner(viewer), database)) }
        logger.info("signed out", ["user.id": viewer.userID, "session.id": viewer.sessionID])
    }

    /// Signs out every session of the viewer's account, this one included. Returns how many ended.
    public func logoutEverywhere(viewer: Viewer) async throws -> Int {
        let now = clock.storedNow
        let count = try await pool.write { [self] database in
            try revokeAll(reason: "logout_everywhere", at: now, OwnerScope(Owner(viewer), database))
        }
        logger.info("signed out everywhere", ["user.id": viewer.userID, "sessions": String(count)])
        return count
    }

    /// Ends one of the viewer's sessions (a lost phone). Ending another session than the
    /// viewer's own needs recent authentication
    /// (``requireRecentAuthentication(_:of:viewer:clientAddress:)``): otherwise a stolen access
    /// token could sign the owner's devices out and keep the account to itself. Ending the
    /// viewer's own session is signing out, and needs nothing.
    /// - Throws: ``ServiceError`` `NOT_FOUND` when it is not one of the viewer's active sessions,
    ///   `REAUTHENTICATION_REQUIRED`, `UNAUTHENTICATED`.
    public func revokeSession(id: String, viewer: Viewer, proof: ReauthenticationProof, clientAddress: String) async throws -> SessionRecord {
        guard let user = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        let now = clock.storedNow
        // An id that is not a session's is not looked up.
        let target = try await GlobalID.mayName(.session, id) ? pool.read { try StoredSession.find(id: id, OwnerScope(Owner(viewer), $0)) } : nil
        guard let target, target.record.isActive(at: now) else {
            throw ServiceError(.notFound, "No such session.")
        }
        if id != viewer.sessionID {
            try await requireRecentAuthentication(proof, of: user, viewer: viewer, clientAddress: clientAddress)
        }
        return try await pool.write { [self] database in
            let owner = OwnerScope(Owner(viewer), database)
            guard let stored = try StoredSession.find(id: id, owner), stored.record.isActive(at: now)
            else { throw ServiceError(.notFound, "No such session.") }
            try revoke([id], reason: "revoked_by_user", at: now, owner)
            return try StoredSession.find(id: id, owner)!.record
        }
    }

    /// The viewer's active sessions, most recently used first.
    public func activeSessions(viewer: Viewer) async throws -> [SessionRecord] {
        let now = clock.storedNow
        return try await pool.read { database in
            try OwnerScope(Owner(viewer), database).decode(
                SessionRecord.self,
                """
                SELECT \(SessionRecord.columns) FROM sessions
                WHERE user_id = {owner} AND revoked_at IS NULL AND expires_at > ? AND refresh_expires_at > ?
                ORDER BY last_used_at DESC, id
                """,
                [now, now])
        }
    }

    /// The viewer of a request bearing `accessToken`: the token must verify, and its session
    /// must be live and at the token's generation. Costs no database read when the session
    /// is cached (``SessionDirectory``).
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED` with the reason.
    public func authenticate(accessToken: String) async throws(ServiceError) -> Viewer {
        let now = clock.now
        let claims: AccessTokenClaims
        if let verified = verifiedTokens.claims(of: accessToken) {
            guard now < verified.expiresAt else {
                throw ServiceError(.unauthenticated, reason: .tokenExpired, "The access token has expired. Refresh it and try again.")
            }
            claims = verified
        } else {
            claims = try accessTokens.verify(accessToken, at: now)
            verifiedTokens.remember(claims, for: accessToken)
        }
        let entry: SessionDirectory.Entry
        do {
            guard let found = try await sessionEntry(claims.sessionID, atLeast: claims.generation) else {
                throw ServiceError(.unauthenticated, reason: .sessionRevoked, "This session has ended. Sign in again.")
            }
            entry = found
        } catch let error as ServiceError {
            throw error
        } catch {
            logger.error("session lookup failed", ["session.id": claims.sessionID, "error": String(describing: error)])
            throw ServiceError(.unauthenticated, reason: .tokenInvalid, "The session could not be checked. Try again.")
        }
        guard entry.userID == claims.userID, !entry.isRevoked else {
            throw ServiceError(.unauthenticated, reason: .sessionRevoked, "This session has ended. Sign in again.")
        }
        guard now < entry.expiresAt else {
            throw ServiceError(.unauthenticated, reason: .sessionExpired, "This session has expired. Sign in again.")
        }
        guard claims.generation == entry.generation else {
            throw ServiceError(
                .unauthenticated, reason: .tokenSuperseded, "This access token was replaced by a newer one. Use the latest token.")
        }
        return Viewer(userID: claims.userID, sessionID: claims.sessionID, signedInAt: entry.signedInAt)
    }

    /// Where session `id` stands now, for holders of long-lived connections that must end with
    /// it: from the directory, or read from the database when the directory does not hold it
    /// (evicted when full). A session that no longer exists counts as revoked.
    public func sessionState(id: String) async throws -> SessionState {
        guard let entry = try await sessionEntry(id), !entry.isRevoked else { return .revoked }
        let remaining = entry.expiresAt.timeIntervalSince(clock.now)
        return remaining > 0 ? .live(remaining: .milliseconds(Int64((remaining * 1000).rounded(.up)))) : .expired
    }

    /// Session `id` as the directory holds it, or read into the directory when it does not:
    /// no database read while the session is cached. The read is cached only if no session
    /// changed meanwhile (``SessionDirectory/fill(_:for:readAfter:)``).
    ///
    /// - Parameter generation: the generation of a verified access token: a cached entry
    ///   behind it is stale, since only the server signs tokens, so the session is read again.
    ///   With several instances on one database, a session rotated on another instance gets
    ///   here before that instance's notification does; the token says so first.
    private func sessionEntry(_ id: String, atLeast generation: Int64? = nil) async throws -> SessionDirectory.Entry? {
        if let cached = sessions.entry(id), cached.generation >= generation ?? cached.generation { return cached }
        let mark = sessions.mark()
        guard let stored = try await pool.read({ try StoredSession.named(by: "id = ?", id, in: $0) }) else { return nil }
        let entry = stored.record.directoryEntry
        sessions.fill(entry, for: id, readAfter: mark)
        return entry
    }

    // MARK: - Steps inside write transactions

    /// Creates a session for the owner and issues its first tokens, ending the least recently
    /// used session beyond ``AccountsConfiguration/maximumSessionsPerUser`` unless `endsSurplus`
    /// is false (a session that ends with its request).
    /// - Throws: ``ServiceError/accountDisabled`` when the server's administrator disabled the
    ///   account: every way of signing in starts its session here, so none lets it in.
    func startSession(deviceLabel: String?, endsSurplus: Bool = true, at now: Date, _ owner: OwnerScope) throws -> IssuedSession {
        if try owner.database.scalar(Date.self, "SELECT disabled_at FROM users WHERE id = ?", [owner.key.userID]) != nil {
            throw ServiceError.accountDisabled
        }
        let sessionID = GlobalID.make(.session, now: now).rawValue
        let refreshToken = OneTimeToken()
        let label = deviceLabel.map { String($0.trimmingWhitespace().prefix(100)) }.flatMap { $0.isEmpty ? nil : $0 }
        let expiresAt = now.adding(configuration.sessionMaximumLifetime)
        // As at every rotation, the refresh token never outlives the session.
        let refreshExpiresAt = min(now.adding(configuration.refreshTokenLifetime), expiresAt)
        try owner.execute(
            """
            INSERT INTO sessions (id, user_id, device_label, refresh_token_hash, refresh_expires_at, created_at, last_used_at, expires_at)
            VALUES (?, {owner}, ?, ?, ?, ?, ?, ?)
            """,
            [sessionID, label, refreshToken.digest, refreshExpiresAt, now, now, expiresAt])
        // All but the most recently used sessions the limit keeps.
        let surplus = !endsSurplus ? [] : try owner.query(
            """
            SELECT id FROM sessions WHERE user_id = {owner} AND revoked_at IS NULL AND id NOT IN (
                SELECT id FROM sessions WHERE user_id = {owner} AND revoked_at IS NULL ORDER BY last_used_at DESC, id DESC LIMIT ?)
            """,
            [configuration.maximumSessionsPerUser]
        ).map { row -> String in try row["id"] }
        if !surplus.isEmpty { try revoke(surplus, reason: "session_limit", at: now, owner) }
        let record = try StoredSession.find(id: sessionID, owner)!.record
        return issue(record, refreshToken: refreshToken, at: now, in: owner.database)
    }

    /// Spends the session's current refresh token, moves the session to its next generation
    /// and issues new tokens. A normal rotation (the current token presented) makes the spent
    /// token the one honoured during the grace period; a retry (the previous token presented
    /// within it) keeps the previous token and its rotation time, so the grace period is not
    /// extended and the token issued in between counts as spent.
    private func rotate(
        _ stored: StoredSession, spending spent: [UInt8], isRetry: Bool, at now: Date, in database: Database
    ) throws -> IssuedSession {
        let refreshToken = OneTimeToken()
        // The refresh token presented proved the session's owner.
        let owner = OwnerScope(Owner(authenticated: stored.record.userId), database)
        try database.execute("INSERT INTO spent_refresh_tokens (token_hash, session_id) VALUES (?, ?) ON CONFLICT DO NOTHING", [spent, stored.record.id])
        let previous = isRetry ? (stored.previousTokenHash ?? spent) : spent
        let rotatedAt = isRetry ? (stored.rotatedAt ?? now) : now
        let refreshExpiry = min(now.adding(configuration.refreshTokenLifetime), stored.record.expiresAt)
        try owner.execute(
            """
            UPDATE sessions SET generation = generation + 1, refresh_token_hash = ?, refresh_expires_at = ?,
                previous_token_hash = ?, rotated_at = ?, last_used_at = ?
            WHERE id = ? AND user_id = {owner}
            """,
            [refreshToken.digest, refreshExpiry, previous, rotatedAt, now, stored.record.id])
        let record = try StoredSession.find(id: stored.record.id, owner)!.record
        return issue(record, refreshToken: refreshToken, at: now, in: database)
    }

    /// The tokens of `record`'s current generation; the directory learns the generation
    /// once the transaction commits.
    private func issue(_ record: SessionRecord, refreshToken: OneTimeToken, at now: Date, in database: Database) -> IssuedSession {
        let (accessToken, expiresAt) = accessTokens.issue(
            userID: record.userId, sessionID: record.id, generation: record.generation, at: now)
        let sessions = sessions
        let entry = record.directoryEntry
        database.afterCommit { sessions.store(entry, for: record.id) }
        return IssuedSession(session: record, accessToken: accessToken, accessTokenExpiresAt: expiresAt, refreshToken: refreshToken.value)
    }

    /// Revokes the owner's sessions `ids`; after commit, the directory and the sessions'
    /// observers learn it.
    func revoke(_ ids: [String], reason: String, at now: Date, _ owner: OwnerScope) throws {
        for id in ids {
            try owner.execute(
                "UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND user_id = {owner} AND revoked_at IS NULL",
                [now, reason, id])
        }
        try Self.announceEnds(of: ids, in: owner.database)
        let sessions = sessions
        owner.database.afterCommit { sessions.ended(ids, .revoked) }
    }

    /// Tells the other instances sharing the database that sessions `ids` were revoked, once
    /// the caller's write transaction commits (``SessionDirectory/endsChannel``; nothing on SQLite).
    static func announceEnds(of ids: [String], in database: Database) throws {
        for start in stride(from: 0, to: ids.count, by: SessionDirectory.endsPerNotification) {
            let chunk = ids[start..<min(start + SessionDirectory.endsPerNotification, ids.count)]
            try database.notify(channel: SessionDirectory.endsChannel, payload: chunk.joined(separator: ","))
        }
    }

    /// Revokes every active session of the owner; returns how many.
    func revokeAll(reason: String, at now: Date, _ owner: OwnerScope) throws -> Int {
        let ids = try owner.query("SELECT id FROM sessions WHERE user_id = {owner} AND revoked_at IS NULL")
            .map { row -> String in try row["id"] }
        try revoke(ids, reason: reason, at: now, owner)
        return ids.count
    }
}

/// A session row with its token digests, for rotation.
struct StoredSession: Decodable {
    var record: SessionRecord
    var refreshTokenHash: [UInt8]
    var previousTokenHash: [UInt8]?
    var rotatedAt: Date?
    /// Why it was revoked (`logout`, `password_reset`, ``AccountAdministration/disabledReason``, …).
    var revokedReason: String?

    enum CodingKeys: String, CodingKey {
        case refreshTokenHash = "refresh_token_hash"
        case previousTokenHash = "previous_token_hash"
        case rotatedAt = "rotated_at"
        case revokedReason = "revoked_reason"
    }

    init(from decoder: any Decoder) throws {
        record = try SessionRecord(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        refreshTokenHash = try container.decode([UInt8].self, forKey: .refreshTokenHash)
        previousTokenHash = try container.decodeIfPresent([UInt8].self, forKey: .previousTokenHash)
        rotatedAt = try container.decodeIfPresent(Date.self, forKey: .rotatedAt)
        revokedReason = try container.decodeIfPresent(String.self, forKey: .revokedReason)
    }

    /// The session a credential names: `condition` (one `?` placeholder) matches `value`, a
    /// refresh token's digest or the session id of a verified access token. A credential lookup,
    /// across owners: the credential is what proves the owner.
    static func named(by condition: String, _ value: some DatabaseValueConvertible, in database: Database) throws -> StoredSession? {
        try database.decodeOne(
            StoredSession.self,
            "SELECT \(SessionRecord.columns), refresh_token_hash, previous_token_hash, rotated_at, revoked_reason FROM sessions WHERE \(condition)",
            [value])
    }

    /// The owner's session `id`.
    static func find(id: String, _ owner: OwnerScope) throws -> StoredSession? {
        try owner.decodeOne(
            StoredSession.self,
            """
            SELECT \(SessionRecord.columns), refresh_token_hash, previous_token_hash, rotated_at, revoked_reason FROM sessions
            WHERE id = ? AND user_id = {owner}
            """,
            [id])
    }

    /// Why this session cannot be refreshed at `now`, if it cannot.
    func failure(at now: Date) -> ServiceError? {
        if record.revokedAt != nil {
            if revokedReason == AccountAdministration.disabledReason { return ServiceError.accountDisabled }
            return ServiceError(.unauthenticated, reason: .sessionRevoked, "This session has ended. Sign in again.")
        }
        if now >= record.expiresAt || now >= record.refreshExpiresAt {
            return ServiceError(.unauthenticated, reason: .sessionExpired, "This session has expired. Sign in again.")
        }
        return nil
    }
}

extension SessionRecord {
    /// What the directory caches about this session.
    var directoryEntry: SessionDirectory.Entry {
        SessionDirectory.Entry(
            userID: userId, generation: generation, expiresAt: min(expiresAt, refreshExpiresAt), isRevoked: revokedAt != nil,
            signedInAt: createdAt)
    }
}
