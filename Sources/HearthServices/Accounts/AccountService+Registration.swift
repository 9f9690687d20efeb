import FoundationEssentials
import HearthDomain
import HearthStore

/// What `register` needs.
public struct RegistrationRequest: Sendable {
    /// The username as typed.
    public var username: String
    /// The email address as typed.
    public var email: String
    /// The password.
    public var password: String
    /// The name shown to others; the username when absent.
    public var displayName: String?
    /// The device signing in, e.g. "Ana's iPhone".
    public var deviceLabel: String?
    /// The token of a household invitation link, which admits the account when the server
    /// registers by invitation only (``RegistrationPolicy/inviteOnly``).
    public var invitationToken: String?

    /// Creates the request.
    public init(
        username: String, email: String, password: String, displayName: String? = nil, deviceLabel: String? = nil,
        invitationToken: String? = nil
    ) {
        self.username = username
        self.email = email
        self.password = password
        self.displayName = displayName
        self.deviceLabel = deviceLabel
        self.invitationToken = invitationToken
    }
}

extension AccountService {
    /// The longest display name, in characters.
    public static let maximumDisplayNameLength = DisplayText.maximumLength

    /// Creates an account (FR-01), sends the confirmation email and signs the new user in.
    ///
    /// An account whose address is not confirmed yet may sign in, read and edit its own
    /// profile, change its address and ask for the confirmation again; everything that
    /// involves other people (creating or joining a household, inviting) needs a confirmed
    /// address and answers `EMAIL_NOT_CONFIRMED` until then.
    ///
    /// - Parameter clientAddress: The caller's address, for the email rate limit.
    /// The registration policy (``RegistrationPolicy``) is checked before anything else is
    /// (the password's expensive hashing included), and again in the transaction that creates
    /// the account.
    ///
    /// - Throws: ``ServiceError``: `BAD_USER_INPUT` with every field problem, `CONFLICT`
    ///   when the username or address is taken, `RATE_LIMITED`, and the policy's refusals
    ///   (``admitNewAccount(emailKey:invitationToken:field:at:in:)``).
    public func register(_ request: RegistrationRequest, clientAddress: String) async throws -> (UserRecord, IssuedSession) {
        var problems: [FieldProblem] = []
        var username: Username?
        var email: EmailAddress?
        do { username = try Username(request.username, field: "input.username") } catch { problems.append(error) }
        do { email = try EmailAddress(request.email, field: "input.email") } catch { problems.append(error) }
        var chosenName: String?
        if let given = request.displayName, !given.trimmingWhitespace().isEmpty {
            do { chosenName = try DisplayText.name(given, field: "input.displayName") } catch { problems.append(error) }
        }
        let displayName = chosenName ?? username?.value ?? ""
        do {
            try passwordPolicy.check(
                request.password, field: "input.password",
                context: [request.username, request.email, email.map { String($0.value.prefix { $0 != "@" }) } ?? "", displayName])
        } catch { problems.append(error) }
        if configuration.registration == .closed { throw ServiceError.registrationClosed }
        guard let username, let email, problems.isEmpty else { throw ServiceError.invalid(InputProblems(problems)) }
        try await pool.read { [self] database in
            try admitNewAccount(
                emailKey: email.key, invitationToken: request.invitationToken, field: "input.invitationToken", at: clock.storedNow, in: database)
        }

        try throttle.beginMailRequest(recipient: email.key, address: clientAddress)
        try await checkAvailable(username: username, email: email)
        let passwordHash = try await hashPassword(request.password)
        let now = clock.storedNow
        let userID = GlobalID.make(.user, now: now).rawValue
        let (user, session) = try await pool.write { [self] database in
            // Checked again inside the transaction: someone may have taken the name while we hashed.
            try self.ensureAvailable(username: username, email: email, in: database)
            try self.admitNewAccount(
                emailKey: email.key, invitationToken: request.invitationToken, field: "input.invitationToken", at: now, in: database)
            try database.execute(
                """
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [userID, username.value, username.key, email.value, email.key, passwordHash, displayName, now, now])
            let owner = OwnerScope(Owner(authenticated: userID), database)
            let token = try insertEmailToken(
                purpose: .confirmEmail, email: email.value, lifetime: configuration.confirmationTokenLifetime, at: now, owner)
            try mail.confirmAddress(to: email.value, name: displayName, token: token, in: database)
            let user = try UserRecord.find(id: userID, in: database)!
            return (user, try startSession(deviceLabel: request.deviceLabel, at: now, owner))
        }
        logger.info("account registered", ["user.id": user.id])
        return (user, session)
    }

    /// Confirms an address with the token from the email (registration or email change).
    /// Callable without signing in: the token is the proof.
    /// - Throws: ``ServiceError`` `linkInvalid`; `CONFLICT` when another account confirmed
    ///   the same address first.
    public func confirmEmail(token: String) async throws -> UserRecord {
        let now = clock.storedNow
        let user = try await pool.write { [self] database in
            let spent = try spendEmailToken(token, purposes: [.confirmEmail, .changeEmail], at: now, in: database)
            if spent.purpose == .changeEmail {
                return try completeEmailChange(to: spent.email, at: now, OwnerScope(Owner(authenticated: spent.userID), database))
            }
            // A token for an address the account no longer has confirms nothing.
            guard let user = try UserRecord.find(id: spent.userID, in: database), user.email == spent.email else {
                throw ServiceError.linkInvalid
            }
            if !user.isEmailConfirmed {
                try database.execute("UPDATE users SET email_confirmed_at = ?, updated_at = ? WHERE id = ?", [now, now, user.id])
            }
            return try UserRecord.find(id: user.id, in: database)!
        }
        logger.info("email address confirmed", ["user.id": user.id])
        return user
    }

    /// Sends the confirmation email again (the previous links stop working).
    /// - Throws: ``ServiceError`` `CONFLICT` when the address is already confirmed, `RATE_LIMITED`.
    public func resendConfirmation(viewer: Viewer, clientAddress: String) async throws {
        guard let user = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        if user.isEmailConfirmed { throw ServiceError(.conflict, "Your email address is already confirmed.") }
        try throttle.beginMailRequest(recipient: user.email.lowercased(), address: clientAddress)
        let now = clock.storedNow
        try await pool.write { [self] database in
            let owner = OwnerScope(Owner(viewer), database)
            try retireEmailTokens(purpose: .confirmEmail, at: now, owner)
            let token = try insertEmailToken(
                purpose: .confirmEmail, email: user.email, lifetime: configuration.confirmationTokenLifetime, at: now, owner)
            try mail.confirmAddress(to: user.email, name: user.displayName, token: token, in: database)
        }
    }

    /// Refuses names and addresses already taken, before the expensive hashing.
    private func checkAvailable(username: Username, email: EmailAddress) async throws {
        try await pool.read { [self] database in try ensureAvailable(username: username, email: email, in: database) }
    }

    /// Throws `CONFLICT` with field problems when `username` or `email` belongs to an account.
    func ensureAvailable(username: Username?, email: EmailAddress?, in database: Database, field: String = "input.email") throws {
        var problems: [FieldProblem] = []
        if let username, try database.scalar(Int.self, "SELECT count(*) FROM users WHERE username_key = ?", [username.key]) ?? 0 > 0 {
            problems.append(FieldProblem(field: "input.username", reason: .taken, message: "This username is taken."))
        }
        if let email, try database.scalar(Int.self, "SELECT count(*) FROM users WHERE email_key = ?", [email.key]) ?? 0 > 0 {
            problems.append(FieldProblem(
                field: field, reason: .taken, message: "An account with this email address already exists."))
        }
        if !problems.isEmpty { throw ServiceError(.conflict, problems[0].message, problems: problems) }
    }
}
