import FoundationEssentials
import HearthDomain
import HearthStore

extension AccountService {
    /// Changes the viewer's display name (FR-06).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` for an empty or overlong name.
    public func updateDisplayName(viewer: Viewer, to text: String) async throws -> UserRecord {
        let name: String
        do { name = try DisplayText.name(text, field: "input.displayName") } catch { throw ServiceError.invalid(InputProblems([error])) }
        let now = currentTime()
        return try await pool.write { database in
            try database.execute("UPDATE users SET display_name = ?, updated_at = ? WHERE id = ?", [name, now, viewer.userID])
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            return user
        }
    }

    /// Sets the IANA time zone the viewer's new households default to; `nil` clears it (UTC).
    /// The caller validates the name (``TimeZoneName``), so a bad one is reported before any
    /// other field of the same request is changed.
    public func updateTimeZone(viewer: Viewer, to zone: TimeZoneName?) async throws -> UserRecord {
        let now = currentTime()
        return try await pool.write { database in
            try database.execute("UPDATE users SET time_zone = ?, updated_at = ? WHERE id = ?", [zone?.name, now, viewer.userID])
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            return user
        }
    }

    /// Starts changing the viewer's address (FR-06): the new address gets a confirmation link;
    /// the change happens only when it is followed (``confirmEmail(token:)``), and then the old
    /// address is told. Accounts with a password must give it (a stolen session alone cannot
    /// move the account to another inbox).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT`, `CONFLICT` when another account has the
    ///   address, `UNAUTHENTICATED` for a wrong password, `RATE_LIMITED`.
    public func requestEmailChange(viewer: Viewer, newEmail text: String, currentPassword: String?, clientAddress: String) async throws -> UserRecord {
        let email: EmailAddress
        do { email = try EmailAddress(text, field: "input.newEmail") } catch { throw ServiceError.invalid(InputProblems([error])) }
        guard let user = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        if email.key == user.email.lowercased() {
            throw ServiceError(.conflict, "This is already your email address.", problems: [
                FieldProblem(field: "input.newEmail", reason: .taken, message: "This is already your email address.")])
        }
        try await confirmCurrentPassword(currentPassword, of: user, clientAddress: clientAddress)
        try throttle.beginMailRequest(recipient: email.key, address: clientAddress)
        let now = currentTime()
        return try await pool.write { [self] database in
            try ensureAvailable(username: nil, email: email, in: database, field: "input.newEmail")
            try retireEmailTokens(purpose: .changeEmail, userID: user.id, at: now, in: database)
            let token = try insertEmailToken(
                purpose: .changeEmail, userID: user.id, email: email.value,
                lifetime: configuration.emailChangeTokenLifetime, at: now, in: database)
            try mail.confirmNewAddress(to: email.value, name: user.displayName, token: token, in: database)
            return user
        }
    }

    /// The address waiting for confirmation of a change, if any.
    public func pendingEmail(userID: String) async throws -> String? {
        let now = currentTime()
        return try await pool.read { database in
            try database.scalar(
                String.self,
                """
                SELECT email FROM email_tokens WHERE user_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
                ORDER BY created_at DESC LIMIT 1
                """,
                [userID, EmailTokenPurpose.changeEmail.rawValue, now])
        }
    }

    /// Moves `userID` to the confirmed address `email` inside the caller's transaction and
    /// tells the old address.
    func completeEmailChange(userID: String, to email: String, at now: Date, in database: Database) throws -> UserRecord {
        guard let user = try UserRecord.find(id: userID, in: database) else { throw ServiceError.linkInvalid }
        let address = try EmailAddress(email, field: "input.token")
        try ensureAvailable(username: nil, email: address, in: database, field: "input.token")
        try database.execute(
            "UPDATE users SET email = ?, email_key = ?, email_confirmed_at = ?, updated_at = ? WHERE id = ?",
            [address.value, address.key, now, now, userID])
        // Links sent to the old address (confirmation, reset) no longer apply.
        try retireEmailTokens(purpose: .confirmEmail, userID: userID, at: now, in: database)
        try retireEmailTokens(purpose: .resetPassword, userID: userID, at: now, in: database)
        try mail.addressChanged(to: user.email, name: user.displayName, newAddress: address.value, in: database)
        return try UserRecord.find(id: userID, in: database)!
    }
}
