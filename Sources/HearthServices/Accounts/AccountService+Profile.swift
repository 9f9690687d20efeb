import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension AccountService {
    /// Changes the viewer's profile (FR-06): every field is checked first and all problems
    /// are reported together; then one write transaction changes them all, so a bad field
    /// changes nothing, not even the good ones before it. A new picture gets a new id and the
    /// previous one is deleted, so its URL stops working. A new time zone is recorded on the
    /// change log (``EventKind/userTimeZoneChanged``), in the same transaction.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` naming each field (`input.displayName`,
    ///   `input.timeZone`, `input.avatar` with the image's reason `UNSUPPORTED_FORMAT`,
    ///   `TOO_LARGE`, `INVALID_FORMAT` or `REQUIRED`, `input.removeAvatar` together with an
    ///   avatar), `UNAUTHENTICATED` when the account is gone; `CONFLICT` for a reused
    ///   `clientMutationID`. A replay under `clientMutationID` (``MutationReplay``) changes nothing
    ///   and answers the profile as it is now (a queued avatar is stored once).
    public func updateProfile(viewer: Viewer, _ change: ProfileChange, clientMutationID: String? = nil) async throws -> UserRecord {
        try await apply(try validated(change, avatarField: "input.avatar"), viewer: viewer, clientMutationID: clientMutationID)
    }

    /// Makes `bytes` the viewer's avatar, as ``updateProfile(viewer:_:)`` does (`PUT /avatar`).
    /// - Parameter field: The input path named in problems, e.g. `body`.
    public func setAvatar(viewer: Viewer, bytes: [UInt8], field: String = "input.avatar") async throws -> UserRecord {
        try await apply(try validated(ProfileChange(avatar: bytes), avatarField: field), viewer: viewer)
    }

    /// A profile change whose every field passed its checks.
    private struct ValidChange: Sendable {
        var displayName: String?
        var timeZone: TimeZoneName??
        var avatar: (image: ImageInfo, bytes: [UInt8])?
        var removesAvatar: Bool
    }

    /// `change` checked field by field, every problem reported at once.
    private func validated(_ change: ProfileChange, avatarField: String) throws -> ValidChange {
        var problems = ProblemCollector()
        var valid = ValidChange(removesAvatar: change.removesAvatar)
        if let text = change.displayName {
            valid.displayName = problems.check { () throws(FieldProblem) in try DisplayText.name(text, field: "input.displayName") }
        }
        if let zone = change.timeZone {
            valid.timeZone = .some(zone.flatMap { name in
                problems.check { () throws(FieldProblem) in try TimeZoneName(name, field: "input.timeZone") }
            })
        }
        if let bytes = change.avatar {
            if change.removesAvatar {
                problems.add(FieldProblem(
                    field: "input.removeAvatar", reason: .invalidFormat, message: "Give either avatar or removeAvatar, not both."))
            }
            let rules = configuration.avatarRules
            valid.avatar = problems.check { () throws(FieldProblem) in try rules.check(bytes, field: avatarField) }.map { ($0, bytes) }
        }
        try problems.throwIfAny()
        return valid
    }

    /// What an `updateProfile` replay record keeps: whose profile it changed.
    private struct ProfileReference: Codable {
        var userID: String
    }

    /// Writes `change` in one transaction, once per `clientMutationID`.
    private func apply(_ change: ValidChange, viewer: Viewer, clientMutationID: String? = nil) async throws -> UserRecord {
        let now = clock.storedNow
        return try await pool.write { [self] database in
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            _ = try MutationReplay.run(clientMutationID: clientMutationID, mutation: "updateProfile", at: now, OwnerScope(Owner(viewer), database)) {
                try write(change, of: user, viewer: viewer, at: now, in: database)
                return ProfileReference(userID: user.id)
            }
            return try UserRecord.find(id: user.id, in: database)!
        }
    }

    /// The statements of ``apply(_:viewer:clientMutationID:)``.
    private func write(_ change: ValidChange, of user: UserRecord, viewer: Viewer, at now: Date, in database: Database) throws {
        let avatarID = change.avatar.map { _ in GlobalID.make(.avatar, now: now).rawValue }
        if let name = change.displayName {
            try database.execute("UPDATE users SET display_name = ?, updated_at = ? WHERE id = ?", [name, now, user.id])
        }
        if let zone = change.timeZone, zone?.name != user.timeZone {
            try database.execute("UPDATE users SET time_zone = ?, updated_at = ? WHERE id = ?", [zone?.name, now, user.id])
            try changeLog?.record(
                topic: .user(user.id), kind: .userTimeZoneChanged, payload: TimeZoneChange(userID: user.id, timeZone: zone?.name), in: database)
        }
        let owner = OwnerScope(Owner(viewer), database)
        if let avatar = change.avatar, let avatarID {
            try owner.execute(
                "INSERT INTO avatars (id, user_id, media_type, width, height, sha256, bytes, created_at) VALUES (?, {owner}, ?, ?, ?, ?, ?, ?)",
                [avatarID, avatar.image.format.mediaType, avatar.image.width, avatar.image.height,
                 SHA256.hexDigest(of: avatar.bytes), avatar.bytes, now])
            try Self.replaceAvatar(of: user, with: avatarID, at: now, owner)
        } else if change.removesAvatar, user.avatarId != nil {
            try Self.replaceAvatar(of: user, with: nil, at: now, owner)
        }
        if change.displayName != nil || change.avatar != nil || (change.removesAvatar && user.avatarId != nil), let changeLog {
            try Self.recordMemberUpdates(of: owner, on: changeLog)
            try Self.recordProfileUpdate(of: owner, on: changeLog)
        }
    }

    /// Records `member.updated` on the topic of every household the owner is a member of: their
    /// name and picture are what those households show of the member (lists of chores and their
    /// assignees, member lists), and what follows a household's changes must see them change.
    private static func recordMemberUpdates(of owner: OwnerScope, on changeLog: ChangeLog) throws {
        for row in try owner.query("SELECT id, household_id FROM members WHERE user_id = {owner} ORDER BY household_id") {
            let householdID: String = try row["household_id"]
            try changeLog.record(
                topic: .household(householdID), kind: .memberUpdated,
                payload: HouseholdChange(householdID: householdID, memberID: try row["id"], userID: owner.key.userID), in: owner.database)
        }
    }

    /// Starts changing the viewer's address (FR-06): the new address gets a confirmation link;
    /// the change happens only when it is followed (``confirmEmail(token:)``), and then the old
    /// address is told. Needs recent authentication
    /// (``requireRecentAuthentication(_:of:viewer:clientAddress:)``): a stolen session alone
    /// cannot move the account to another inbox, from where a password reset would take it.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT`, `CONFLICT` when another account has the
    ///   address, `REAUTHENTICATION_REQUIRED`, `UNAUTHENTICATED` for a wrong password,
    ///   `RATE_LIMITED`.
    public func requestEmailChange(viewer: Viewer, newEmail text: String, proof: ReauthenticationProof, clientAddress: String) async throws -> UserRecord {
        let email: EmailAddress
        do { email = try EmailAddress(text, field: "input.newEmail") } catch { throw ServiceError.invalid(InputProblems([error])) }
        guard let user = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        if email.key == user.email.lowercased() {
            throw ServiceError(.conflict, "This is already your email address.", problems: [
                FieldProblem(field: "input.newEmail", reason: .taken, message: "This is already your email address.")])
        }
        try await requireRecentAuthentication(proof, of: user, viewer: viewer, clientAddress: clientAddress)
        try throttle.beginMailRequest(recipient: email.key, address: clientAddress)
        let now = clock.storedNow
        return try await pool.write { [self] database in
            try ensureAvailable(username: nil, email: email, in: database, field: "input.newEmail")
            let owner = OwnerScope(Owner(viewer), database)
            try retireEmailTokens(purpose: .changeEmail, at: now, owner)
            let token = try insertEmailToken(
                purpose: .changeEmail, email: email.value, lifetime: configuration.emailChangeTokenLifetime, at: now, owner)
            try mail.confirmNewAddress(to: email.value, name: user.displayName, token: token, in: database)
            return user
        }
    }

    /// The address of the account `userID` waiting for confirmation of a change, if any. For the
    /// caller's own account only, as ``signInMethods(userID:)``.
    public func pendingEmail(userID: String) async throws -> String? {
        let now = clock.storedNow
        return try await pool.read { database in
            try OwnerScope(Owner(authenticated: userID), database).scalar(
                String.self,
                """
                SELECT email FROM email_tokens WHERE user_id = {owner} AND purpose = ? AND used_at IS NULL AND expires_at > ?
                ORDER BY created_at DESC LIMIT 1
                """,
                [EmailTokenPurpose.changeEmail.rawValue, now])
        }
    }

    /// Moves the owner to the confirmed address `email` inside the caller's transaction and
    /// tells the old address.
    func completeEmailChange(to email: String, at now: Date, _ owner: OwnerScope) throws -> UserRecord {
        let (userID, database) = (owner.key.userID, owner.database)
        guard let user = try UserRecord.find(id: userID, in: database) else { throw ServiceError.linkInvalid }
        let address = try EmailAddress(email, field: "input.token")
        try ensureAvailable(username: nil, email: address, in: database, field: "input.token")
        try database.execute(
            "UPDATE users SET email = ?, email_key = ?, email_confirmed_at = ?, updated_at = ? WHERE id = ?",
            [address.value, address.key, now, now, userID])
        // Links sent to the old address (confirmation, reset) no longer apply.
        try retireEmailTokens(purpose: .confirmEmail, at: now, owner)
        try retireEmailTokens(purpose: .resetPassword, at: now, owner)
        try mail.addressChanged(to: user.email, name: user.displayName, newAddress: address.value, in: database)
        return try UserRecord.find(id: userID, in: database)!
    }
}
