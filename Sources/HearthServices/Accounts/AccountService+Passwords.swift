import FoundationEssentials
import HearthDomain
import HearthStore

extension AccountService {
    /// Starts a password reset (FR-03).
    ///
    /// The answer is the same whether or not an account has the address, and so is the work:
    /// one lookup and one email in one transaction. An account gets a single-use link valid
    /// for ``AccountsConfiguration/passwordResetTokenLifetime``; an unknown address gets a note
    /// that no account uses it (only its owner reads that, so nothing leaks to the caller). The
    /// commit's disk flush dominates the time either way.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` for a malformed address, `RATE_LIMITED`.
    public func requestPasswordReset(email text: String, clientAddress: String) async throws {
        let email: EmailAddress
        do { email = try EmailAddress(text, field: "input.email") } catch { throw ServiceError.invalid(InputProblems([error])) }
        try throttle.beginMailRequest(recipient: email.key, address: clientAddress)
        let now = clock.storedNow
        try await pool.write { [self] database in
            guard let user = try UserRecord.find(emailKey: email.key, in: database) else {
                try mail.noAccount(to: email.value, in: database)
                return
            }
            // The address is the account's: its owner reads the link (a reset proves nothing yet).
            try queuePasswordReset(for: user, at: now, OwnerScope(Owner(authenticated: user.id), database))
        }
    }

    /// Retires the account's earlier reset links and queues the email with a new one, valid for
    /// ``AccountsConfiguration/passwordResetTokenLifetime``: the step a reset asked for by the
    /// account's address and one asked for by the server's administrator
    /// (``AccountAdministrationJob``) share.
    func queuePasswordReset(for user: UserRecord, at now: Date, _ owner: OwnerScope) throws {
        try retireEmailTokens(purpose: .resetPassword, at: now, owner)
        let token = try insertEmailToken(
            purpose: .resetPassword, email: user.email, lifetime: configuration.passwordResetTokenLifetime, at: now, owner)
        try mail.resetPassword(to: user.email, name: user.displayName, token: token, in: owner.database)
    }

    /// Sets a new password with the token from the reset email. Every session of the account
    /// ends, and its failed sign-ins are forgotten. Following the emailed link also proves the
    /// address, so an unconfirmed one becomes confirmed.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` (`linkInvalid`, or the password's problem).
    public func resetPassword(token: String, newPassword: String) async throws -> UserRecord {
        let now = clock.storedNow
        let owner = try await pool.read { [self] database -> UserRecord? in
            guard let live = try liveEmailToken(token, purposes: [.resetPassword], at: now, in: database) else { return nil }
            return try UserRecord.find(id: live.userID, in: database)
        }
        guard let owner else { throw ServiceError.linkInvalid }
        try checkPassword(newPassword, field: "input.newPassword", for: owner)
        let passwordHash = try await hashPassword(newPassword)
        let user = try await pool.write { [self] database in
            let spent = try spendEmailToken(token, purposes: [.resetPassword], at: now, in: database)
            try database.execute(
                """
                UPDATE users SET password_hash = ?, updated_at = ?,
                    email_confirmed_at = CASE WHEN email = ? THEN coalesce(email_confirmed_at, ?) ELSE email_confirmed_at END
                WHERE id = ?
                """,
                [passwordHash, now, spent.email, now, spent.userID])
            _ = try revokeAll(reason: "password_reset", at: now, OwnerScope(Owner(authenticated: spent.userID), database))
            let user = try UserRecord.find(id: spent.userID, in: database)!
            try mail.passwordChanged(to: user.email, name: user.displayName, in: database)
            return user
        }
        throttle.resetAccount(user.email.lowercased())
        logger.info("password reset", ["user.id": user.id])
        return user
    }

    /// Changes the viewer's password, or sets a first one on an account that signs in only
    /// through Google or Apple, after recent authentication
    /// (``requireRecentAuthentication(_:of:viewer:clientAddress:)``: the current password where
    /// there is one). The other sessions end; this one continues.
    /// - Throws: ``ServiceError`` `REAUTHENTICATION_REQUIRED`, `UNAUTHENTICATED`
    ///   (`INVALID_CREDENTIALS`) for a wrong current password (rate limited like sign-ins),
    ///   `BAD_USER_INPUT` for the new one's problem.
    public func changePassword(viewer: Viewer, newPassword: String, proof: ReauthenticationProof, clientAddress: String) async throws -> UserRecord {
        guard let user = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        try await requireRecentAuthentication(proof, of: user, viewer: viewer, clientAddress: clientAddress)
        try checkPassword(newPassword, field: "input.newPassword", for: user)
        let passwordHash = try await hashPassword(newPassword)
        let now = clock.storedNow
        let updated = try await pool.write { [self] database in
            try database.execute("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", [passwordHash, now, user.id])
            let owner = OwnerScope(Owner(viewer), database)
            let others = try owner.query(
                "SELECT id FROM sessions WHERE user_id = {owner} AND revoked_at IS NULL AND id <> ?", [viewer.sessionID]
            ).map { row -> String in try row["id"] }
            try revoke(others, reason: "password_changed", at: now, owner)
            try mail.passwordChanged(to: user.email, name: user.displayName, in: database)
            return try UserRecord.find(id: user.id, in: database)!
        }
        logger.info("password changed", ["user.id": user.id])
        return updated
    }

    /// Applies the password policy with the account's own details as context.
    private func checkPassword(_ password: String, field: String, for user: UserRecord) throws {
        do {
            try passwordPolicy.check(
                password, field: field,
                context: [user.username, user.email, String(user.email.prefix { $0 != "@" }), user.displayName])
        } catch {
            throw ServiceError.invalid(InputProblems([error]))
        }
    }
}
