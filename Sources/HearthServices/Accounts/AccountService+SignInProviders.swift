import FoundationEssentials
import HearthDomain
import HearthStore
import JOSE

/// How a sign-in with Google or Apple ended.
public enum ProviderSignInOutcome: String, Sendable, Hashable {
    /// The identity was linked to an account, which is now signed in.
    case signedIn = "SIGNED_IN"
    /// First sign-in with this identity: an account was created for it and signed in.
    case accountCreated = "ACCOUNT_CREATED"
    /// The identity is linked to no account, and its verified email address belongs to an
    /// existing account. Nothing was created or merged: the user signs in to that account the
    /// way it already signs in, then links the provider from the account settings.
    case linkRequired = "LINK_REQUIRED"
}

/// The result of ``AccountService/signIn(provider:idToken:nonce:deviceLabel:displayName:clientAddress:invitationToken:)``.
public struct ProviderSignInResult: Sendable {
    /// How it ended.
    public var outcome: ProviderSignInOutcome
    /// The signed-in account; nil for `linkRequired`.
    public var user: UserRecord?
    /// The new session; nil for `linkRequired`.
    public var session: IssuedSession?
    /// For `linkRequired`: the existing account's address (the provider vouched that the
    /// caller owns it).
    public var existingAccountEmail: String?
    /// For `linkRequired`: how the existing account signs in, so the app can offer the right way.
    public var existingAccountSignInMethods: [SignInMethod]
}

extension AccountService {
    /// Signs in with a Google or Apple ID token (FR-02c, FR-02d).
    ///
    /// - An identity linked to an account signs that account in (`SIGNED_IN`).
    /// - An unknown identity with a verified email that no account uses gets a new account
    ///   (`ACCOUNT_CREATED`): the username comes from the address's local part (made unique
    ///   with `-2`, `-3`, …), the display name is `displayName` or the token's `name` or the
    ///   username, the address counts as confirmed, and there is no password.
    /// - An unknown identity whose verified email belongs to an account is not merged into it
    ///   (`LINK_REQUIRED`, no session): whoever controls a provider account with a matching
    ///   address must not take over an account someone else created.
    ///
    /// Google and Apple sign-ins do not count against the password sign-in rate limits.
    /// - Parameters:
    ///   - nonce: The raw nonce the app generated; the token's `nonce` claim must be its
    ///     SHA-256 in lowercase hex (``IdentityProvider``). Required for Apple.
    ///   - displayName: The name the app collected (Apple gives it to the app on the first
    ///     authorisation only, never in the token).
    ///   - invitationToken: A household invitation link's token, which admits the new account
    ///     when the server registers by invitation only (``RegistrationPolicy``); a sign-in that
    ///     would create an account is refused as `register` is (``admitNewAccount(emailKey:invitationToken:field:at:in:)``).
    /// - Throws: ``ServiceError``: `FORBIDDEN` (`PROVIDER_DISABLED`, or
    ///   `PROVIDER_EMAIL_UNVERIFIED` when no account could be created), `UNAUTHENTICATED`
    ///   (`PROVIDER_TOKEN_INVALID`), `UNAVAILABLE` (`PROVIDER_UNAVAILABLE`), `BAD_USER_INPUT`
    ///   for a missing nonce.
    public func signIn(
        provider: SignInProvider, idToken: String, nonce: String?, deviceLabel: String?, displayName: String?, clientAddress: String,
        invitationToken: String? = nil
    ) async throws -> ProviderSignInResult {
        let identity = try await verifiedIdentity(provider, idToken: idToken, nonce: nonce, nonceField: "input.nonce", clientAddress: clientAddress)
        let now = clock.storedNow
        let requestedName = displayName.map { String($0.trimmingWhitespace().prefix(Self.maximumDisplayNameLength)) }
        let result = try await pool.write { [self] database -> ProviderSignInResult in
            if let user = try linkedUser(identity, in: database) {
                let owner = OwnerScope(Owner(authenticated: user.id), database)
                try owner.execute(
                    "UPDATE provider_identities SET email = ? WHERE provider = ? AND subject = ? AND user_id = {owner}",
                    [identity.email, provider.rawValue, identity.subject])
                let session = try startSession(deviceLabel: deviceLabel, at: now, owner)
                return ProviderSignInResult(outcome: .signedIn, user: user, session: session, existingAccountSignInMethods: [])
            }
            let email = try verifiedEmail(of: identity)
            if let existing = try UserRecord.find(emailKey: email.key, in: database) {
                // The provider verified the address, the account's: its holder may learn how it signs in.
                return ProviderSignInResult(
                    outcome: .linkRequired, existingAccountEmail: existing.email,
                    existingAccountSignInMethods: try signInMethods(of: existing, OwnerScope(Owner(authenticated: existing.id), database)))
            }
            try admitNewAccount(emailKey: email.key, invitationToken: invitationToken, field: "input.invitationToken", at: now, in: database)
            let name = [requestedName, identity.name.map { String($0.prefix(Self.maximumDisplayNameLength)) }]
                .lazy.compactMap { $0 }.first { !$0.isEmpty }
            let user = try createAccount(for: identity, email: email, displayName: name, at: now, in: database)
            let session = try startSession(deviceLabel: deviceLabel, at: now, OwnerScope(Owner(authenticated: user.id), database))
            return ProviderSignInResult(outcome: .accountCreated, user: user, session: session, existingAccountSignInMethods: [])
        }
        switch result.outcome {
        case .signedIn, .accountCreated:
            logger.info(result.outcome == .signedIn ? "signed in" : "account created", [
                "user.id": result.user?.id ?? "", "session.id": result.session?.session.id ?? "", "provider": provider.rawValue,
            ])
        case .linkRequired:
            logger.info("provider sign-in needs linking to an existing account", ["provider": provider.rawValue])
        }
        return result
    }

    /// Links a Google or Apple identity to the viewer's account (FR-02e), so it can sign in
    /// with it too. Linking an identity already linked to the viewer changes nothing. Needs
    /// recent authentication (``requireRecentAuthentication(_:of:viewer:clientAddress:)``): a
    /// stolen session alone must not be able to add a lasting way in, and the token of the
    /// identity being linked proves nothing about the account. The account's address is told.
    /// - Parameter credential: The fresh ID token of the identity to link.
    /// - Throws: ``ServiceError``: `CONFLICT` (`IDENTITY_LINKED_ELSEWHERE` when another account
    ///   has the identity, `PROVIDER_ALREADY_LINKED` when the viewer has another identity of
    ///   the provider), `REAUTHENTICATION_REQUIRED`, `UNAUTHENTICATED` (`INVALID_CREDENTIALS`
    ///   for the password, `PROVIDER_TOKEN_INVALID`), and the provider errors of ``signIn(provider:idToken:nonce:deviceLabel:displayName:clientAddress:invitationToken:)``.
    public func linkSignInProvider(
        _ credential: ProviderCredential, viewer: Viewer, proof: ReauthenticationProof, clientAddress: String
    ) async throws -> UserRecord {
        let provider = credential.provider
        guard let user = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        try await requireRecentAuthentication(proof, of: user, viewer: viewer, clientAddress: clientAddress)
        let identity = try await verifiedIdentity(
            provider, idToken: credential.idToken, nonce: credential.nonce, nonceField: "input.nonce", clientAddress: clientAddress)
        let now = clock.storedNow
        let linked = try await pool.write { [self] database -> Bool in
            if let owner = try linkedUser(identity, in: database) {
                guard owner.id == user.id else {
                    throw ServiceError(
                        .conflict, reason: .identityLinkedElsewhere,
                        "This \(provider.displayName) account is already linked to another account.")
                }
                return false
            }
            let owner = OwnerScope(Owner(viewer), database)
            if try owner.scalar(
                Int.self, "SELECT count(*) FROM provider_identities WHERE user_id = {owner} AND provider = ?", [provider.rawValue]) ?? 0 > 0 {
                throw ServiceError(
                    .conflict, reason: .providerAlreadyLinked,
                    "Your account is already linked to another \(provider.displayName) account. Unlink it first.")
            }
            try insertIdentity(identity, at: now, owner)
            try mail.signInProviderLinked(to: user.email, name: user.displayName, provider: provider, in: database)
            return true
        }
        if linked { logger.info("sign-in provider linked", ["user.id": user.id, "provider": provider.rawValue]) }
        return user
    }

    /// Unlinks the viewer's identity of `provider` (FR-02e), unless it is the account's last
    /// way to sign in (no password and no other provider). Needs recent authentication
    /// (``requireRecentAuthentication(_:of:viewer:clientAddress:)``), as every change to how
    /// the account signs in does. The account's address is told.
    /// - Throws: ``ServiceError`` `NOT_FOUND` when no identity of the provider is linked,
    ///   `CONFLICT` (`LAST_SIGN_IN_METHOD`), `REAUTHENTICATION_REQUIRED`, `UNAUTHENTICATED`.
    public func unlinkSignInProvider(
        _ provider: SignInProvider, viewer: Viewer, proof: ReauthenticationProof, clientAddress: String
    ) async throws -> UserRecord {
        guard let current = try await user(id: viewer.userID) else { throw ServiceError.signedOut }
        try await requireRecentAuthentication(proof, of: current, viewer: viewer, clientAddress: clientAddress)
        let user = try await pool.write { [self] database -> UserRecord in
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            let owner = OwnerScope(Owner(viewer), database)
            let methods = try signInMethods(of: user, owner)
            guard methods.contains(SignInMethod(provider)) else {
                throw ServiceError(.notFound, "Your account is not linked to \(provider.displayName).")
            }
            guard methods.count > 1 else {
                throw ServiceError(
                    .conflict, reason: .lastSignInMethod,
                    "\(provider.displayName) is the only way to sign in to your account. Set a password (use \"Forgot password\") or link another provider first.")
            }
            try owner.execute("DELETE FROM provider_identities WHERE user_id = {owner} AND provider = ?", [provider.rawValue])
            try mail.signInProviderUnlinked(to: user.email, name: user.displayName, provider: provider, in: database)
            return user
        }
        logger.info("sign-in provider unlinked", ["user.id": user.id, "provider": provider.rawValue])
        return user
    }

    /// How the account `userID` can sign in: `PASSWORD` when it has one, then its linked
    /// providers. For the caller's own account only (the API asks for a `User` that is the
    /// viewer, or the account the request's credential has just proved), so it is the owner.
    public func signInMethods(userID: String) async throws -> [SignInMethod] {
        try await pool.read { [self] database in
            guard let user = try UserRecord.find(id: userID, in: database) else { return [] }
            return try signInMethods(of: user, OwnerScope(Owner(authenticated: userID), database))
        }
    }

    // MARK: - Steps

    /// The identity `idToken` proves, or the error to answer with (the reason the token was
    /// refused goes to the log, not to the caller).
    /// - Parameter nonceField: The input path named when a required nonce is missing.
    func verifiedIdentity(
        _ provider: SignInProvider, idToken: String, nonce: String?, nonceField: String, clientAddress: String
    ) async throws -> ProviderIdentity {
        guard let identityProvider = identityProviders[provider], identityProvider.configuration.isEnabled else {
            throw ServiceError(.forbidden, reason: .providerDisabled, "Sign-in with \(provider.displayName) is not enabled on this server.")
        }
        if identityProvider.configuration.requiresNonce, nonce?.isEmpty ?? true {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: nonceField, reason: .required, message: "Sign-in with \(provider.displayName) needs the nonce the app generated.")]))
        }
        do {
            return try await identityProvider.verify(idToken: idToken, rawNonce: nonce, at: clock.storedNow)
        } catch {
            if error.code == .keySetUnavailable {
                logger.error("identity provider keys unavailable", ["provider": provider.rawValue])
                throw ServiceError(
                    .unavailable, reason: .providerUnavailable,
                    "\(provider.displayName) sign-in is unavailable right now. Try again in a few minutes.")
            }
            logger.notice("identity token refused", [
                "provider": provider.rawValue, "client.address": clientAddress, "error": error.message,
            ])
            throw ServiceError(
                .unauthenticated, reason: .providerTokenInvalid,
                "The \(provider.displayName) sign-in could not be verified. Sign in with \(provider.displayName) again.")
        }
    }

    /// The account `identity` is linked to, if any. A credential lookup: the provider's subject
    /// names the owner, so it is read across owners.
    func linkedUser(_ identity: ProviderIdentity, in database: Database) throws -> UserRecord? {
        guard let userID = try database.scalar(
            String.self, "SELECT user_id FROM provider_identities WHERE provider = ? AND subject = ?",
            [identity.provider.rawValue, identity.subject])
        else { return nil }
        return try UserRecord.find(id: userID, in: database)
    }

    /// The identity's address, when the provider verified it and it is one Hearth accepts.
    /// - Throws: ``ServiceError`` `FORBIDDEN` (`PROVIDER_EMAIL_UNVERIFIED`).
    private func verifiedEmail(of identity: ProviderIdentity) throws -> EmailAddress {
        let name = identity.provider.displayName
        guard identity.isEmailVerified, let text = identity.email, let email = try? EmailAddress(text, field: "email") else {
            throw ServiceError(
                .forbidden, reason: .providerEmailUnverified,
                "\(name) did not confirm an email address for this account, so no account can be created with it. "
                    + "Register with your email address instead; you can link \(name) afterwards.")
        }
        return email
    }

    /// Creates a password-less account for `identity` with a confirmed `email` and links it.
    private func createAccount(
        for identity: ProviderIdentity, email: EmailAddress, displayName: String?, at now: Date, in database: Database
    ) throws -> UserRecord {
        let username = try freeUsername(forEmail: email, in: database)
        let userID = GlobalID.make(.user, now: now).rawValue
        try database.execute(
            """
            INSERT INTO users (id, username, username_key, email, email_key, email_confirmed_at, password_hash, display_name, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
            """,
            [userID, username.value, username.key, email.value, email.key, now, displayName ?? username.value, now, now])
        try insertIdentity(identity, at: now, OwnerScope(Owner(authenticated: userID), database))
        return try UserRecord.find(id: userID, in: database)!
    }

    /// The first of the email's username suggestions no account has. After
    /// ``usernameSuggestionAttempts`` taken ones, a random four-digit number is tried instead
    /// (until one is free), so a popular local part costs a bounded number of lookups.
    private func freeUsername(forEmail email: EmailAddress, in database: Database) throws -> Username {
        func isFree(_ username: Username) throws -> Bool {
            try database.scalar(Int.self, "SELECT count(*) FROM users WHERE username_key = ?", [username.key]) ?? 0 == 0
        }
        for number in 1...Self.usernameSuggestionAttempts {
            let candidate = Username.suggestion(forEmail: email, number: number)
            if try isFree(candidate) { return candidate }
        }
        while true {
            let candidate = Username.suggestion(forEmail: email, number: Int.random(in: 1000...9999))
            if try isFree(candidate) { return candidate }
        }
    }

    /// How many numbered username suggestions are tried in order.
    static let usernameSuggestionAttempts = 20

    private func insertIdentity(_ identity: ProviderIdentity, at now: Date, _ owner: OwnerScope) throws {
        try owner.execute(
            "INSERT INTO provider_identities (provider, subject, user_id, email, linked_at) VALUES (?, ?, {owner}, ?, ?)",
            [identity.provider.rawValue, identity.subject, identity.email, now])
    }

    /// The sign-in methods of `user`, the owner: `PASSWORD` first when it has one, then providers
    /// in ``SignInProvider`` order.
    func signInMethods(of user: UserRecord, _ owner: OwnerScope) throws -> [SignInMethod] {
        let linked = Set(try owner.query("SELECT provider FROM provider_identities WHERE user_id = {owner}")
            .map { row -> String in try row["provider"] })
        return (user.passwordHash == nil ? [] : [.password])
            + SignInProvider.allCases.filter { linked.contains($0.rawValue) }.map(SignInMethod.init)
    }
}
