import FoundationEssentials
import HearthDomain
import HearthStore

extension AccountService {
    /// Checks that the caller proved recently who they are, before an operation that a stolen
    /// access token alone must not be able to make: setting or changing the password, changing
    /// the address, linking or unlinking a sign-in provider, ending another session.
    ///
    /// - An account with a password gives it (`proof.currentPassword`); a wrong one counts
    ///   against the sign-in rate limits. Nothing else stands in for it.
    /// - An account without one (Google or Apple only) either gives a fresh ID token of a
    ///   provider identity linked to it, bound to a nonce and issued within
    ///   ``AccountsConfiguration/reauthenticationWindow`` plus the provider's clock skew
    ///   (`proof.provider`; with a window of zero, only a token just issued), or acts through a
    ///   session that signed in within that window (its sign-in, not its latest refresh:
    ///   refreshing proves only possession of the refresh token).
    ///
    /// - Throws: ``ServiceError`` `REAUTHENTICATION_REQUIRED` with the methods that would do
    ///   (``ServiceError/methods``), `UNAUTHENTICATED` (`INVALID_CREDENTIALS` for a wrong
    ///   password, `PROVIDER_TOKEN_INVALID`), `BAD_USER_INPUT` for a provider token without its
    ///   nonce, `RATE_LIMITED`, `UNAVAILABLE`.
    func requireRecentAuthentication(
        _ proof: ReauthenticationProof, of user: UserRecord, viewer: Viewer, clientAddress: String
    ) async throws {
        if let passwordHash = user.passwordHash {
            guard let password = proof.currentPassword, !password.isEmpty else {
                var error = ServiceError.reauthenticationRequired([.password], "Enter your current password to do this.")
                error.problems = [FieldProblem(field: "input.currentPassword", reason: .required, message: "Enter your current password.")]
                throw error
            }
            try await confirmPassword(password, against: passwordHash, of: user, clientAddress: clientAddress)
            return
        }
        let methods = try await signInMethods(userID: user.id)
        if let credential = proof.provider {
            try await confirmProviderCredential(credential, of: user, methods: methods, clientAddress: clientAddress)
            return
        }
        if clock.storedNow <= viewer.signedInAt.adding(configuration.reauthenticationWindow) { return }
        let names = methods.compactMap { SignInProvider($0)?.displayName }.joined(separator: " or ")
        throw ServiceError.reauthenticationRequired(
            methods, "Sign in with \(names) again to do this: this device signed in too long ago.")
    }

    /// Checks the password of a signed-in user against `passwordHash`. Wrong answers count
    /// against the sign-in rate limits.
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED` (`INVALID_CREDENTIALS`) naming
    ///   `input.currentPassword`, `RATE_LIMITED`; an internal error when the stored hash is unusable.
    private func confirmPassword(_ password: String, against passwordHash: String, of user: UserRecord, clientAddress: String) async throws {
        let accountKey = user.email.lowercased()
        try throttle.beginLogin(account: accountKey, address: clientAddress)
        guard try await verifyPassword(password, against: passwordHash, of: user.id) else {
            throw ServiceError(
                .unauthenticated, reason: .invalidCredentials, "The current password is not correct.",
                problems: [FieldProblem(field: "input.currentPassword", reason: .invalidFormat, message: "The current password is not correct.")])
        }
        throttle.loginSucceeded(account: accountKey, address: clientAddress)
    }

    /// Checks that `credential` is a fresh ID token of an identity linked to `user`.
    private func confirmProviderCredential(
        _ credential: ProviderCredential, of user: UserRecord, methods: [SignInMethod], clientAddress: String
    ) async throws {
        let provider = credential.provider
        guard methods.contains(SignInMethod(provider)) else {
            throw ServiceError.reauthenticationRequired(methods, "Your account is not linked to \(provider.displayName).")
        }
        // A token copied from a log or a proxy must not serve: only the app knows the raw nonce.
        guard let nonce = credential.nonce, !nonce.isEmpty else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.reauthentication.nonce", reason: .required,
                message: "Re-authentication with \(provider.displayName) needs the nonce the app generated.")]))
        }
        let identity = try await verifiedIdentity(
            provider, idToken: credential.idToken, nonce: nonce, nonceField: "input.reauthentication.nonce", clientAddress: clientAddress)
        let owner = try await pool.read { [self] database in try linkedUser(identity, in: database)?.id }
        guard owner == user.id else {
            throw ServiceError.reauthenticationRequired(
                methods, "This \(provider.displayName) account is not the one linked to your account.")
        }
        // The provider's clock may differ from ours by up to the skew its tokens are checked with.
        let skew = identityProviders[provider]?.configuration.clockSkew ?? .zero
        guard let issuedAt = identity.issuedAt, clock.storedNow <= issuedAt.adding(configuration.reauthenticationWindow + skew) else {
            throw ServiceError.reauthenticationRequired(
                methods, "Sign in with \(provider.displayName) again: this \(provider.displayName) sign-in is too long ago.")
        }
    }
}

extension SignInProvider {
    /// The provider of a sign-in method; `nil` for `PASSWORD`.
    init?(_ method: SignInMethod) {
        switch method {
        case .password: return nil
        case .google: self = .google
        case .apple: self = .apple
        }
    }
}
