import FoundationEssentials
import HearthServices
import HearthStore
import JOSE
import TestFixtures
import Testing

/// Recent authentication before the operations a stolen access token must not make: every
/// sensitive operation, for accounts with a password (the password, nothing else) and without
/// one (a sign-in within the window, at its edge with the injected clock, or a fresh ID token of
/// a linked provider).
struct ReauthenticationTests {
    let google = FakeIdentityProvider.google()
    let apple = FakeIdentityProvider.apple()

    /// The configured window (the default).
    static let window = 5 * 60.0

    /// A sensitive operation, run as `viewer` with `proof`, and a check that it took effect.
    struct Operation: Sendable, CustomTestStringConvertible {
        let name: String
        let run: @Sendable (Context, ReauthenticationProof) async throws -> Void
        let tookEffect: @Sendable (Context) async throws -> Bool
        var testDescription: String { name }
    }

    /// What an operation works on: the harness, the signed-in viewer and a second session of theirs.
    struct Context: Sendable {
        let harness: AccountsHarness
        let viewer: Viewer
        let otherSession: String
        let apple: FakeIdentityProvider
    }

    static let changePassword = Operation(name: "changePassword", run: { context, proof in
            _ = try await context.harness.service.changePassword(
                viewer: context.viewer, newPassword: "a brand new secret", proof: proof, clientAddress: "192.0.2.1")
        }, tookEffect: { context in
            (try? await context.harness.login(password: "a brand new secret")) != nil
        })
    static let changeEmail = Operation(name: "changeEmail", run: { context, proof in
            _ = try await context.harness.service.requestEmailChange(
                viewer: context.viewer, newEmail: "ana.new@example.org", proof: proof, clientAddress: "192.0.2.1")
        }, tookEffect: { context in
            try await context.harness.service.pendingEmail(userID: context.viewer.userID) == "ana.new@example.org"
        })
    static let linkSignInProvider = Operation(name: "linkSignInProvider", run: { context, proof in
            let token = try context.apple.token(context.apple.claims(subject: "a-ana", at: context.harness.clock.now))
            _ = try await context.harness.service.linkSignInProvider(
                ProviderCredential(provider: .apple, idToken: token, nonce: FakeIdentityProvider.rawNonce),
                viewer: context.viewer, proof: proof, clientAddress: "192.0.2.1")
        }, tookEffect: { context in
            try await context.harness.service.signInMethods(userID: context.viewer.userID).contains(.apple)
        })
    static let unlinkSignInProvider = Operation(name: "unlinkSignInProvider", run: { context, proof in
            _ = try await context.harness.service.unlinkSignInProvider(.google, viewer: context.viewer, proof: proof, clientAddress: "192.0.2.1")
        }, tookEffect: { context in
            try await !context.harness.service.signInMethods(userID: context.viewer.userID).contains(.google)
        })
    static let revokeOtherSession = Operation(name: "revokeSession of another session", run: { context, proof in
            _ = try await context.harness.service.revokeSession(
                id: context.otherSession, viewer: context.viewer, proof: proof, clientAddress: "192.0.2.1")
        }, tookEffect: { context in
            try await !context.harness.service.activeSessions(viewer: context.viewer).contains { $0.id == context.otherSession }
        })
    static let operations = [changePassword, changeEmail, linkSignInProvider, unlinkSignInProvider, revokeOtherSession]

    private func withHarness<T>(_ body: (AccountsHarness) async throws -> T) async throws -> T {
        try await AccountsHarness.with(identityProviders: [google.identityProvider(), apple.identityProvider()], body)
    }

    /// A Google-only account signed in twice (phone and laptop) at the harness's current time.
    /// Unlinking needs a second way in, so `withApple` links Apple too (subject `a-ana`), and the
    /// link operation then links a second Apple identity: `withApple` is false for it.
    private func passwordless(_ harness: AccountsHarness, withApple: Bool) async throws -> Context {
        let phone = try await googleSignIn(harness)
        let laptop = try await googleSignIn(harness)
        let viewer = try await harness.service.authenticate(accessToken: phone.accessToken)
        if withApple {
            let token = try apple.token(apple.claims(subject: "a-ana", at: harness.clock.now))
            _ = try await harness.service.linkSignInProvider(
                ProviderCredential(provider: .apple, idToken: token, nonce: FakeIdentityProvider.rawNonce), viewer: viewer,
                proof: ReauthenticationProof(), clientAddress: "192.0.2.1")
        }
        return Context(harness: harness, viewer: viewer, otherSession: laptop.session.id, apple: apple)
    }

    /// A sign-in with the Google identity `g-ana` (`ana@example.com`) now.
    private func googleSignIn(_ harness: AccountsHarness) async throws -> IssuedSession {
        let token = try google.token(google.claims(subject: "g-ana", at: harness.clock.now))
        return try #require(try await harness.service.signIn(
            provider: .google, idToken: token, nonce: FakeIdentityProvider.rawNonce, deviceLabel: nil, displayName: nil,
            clientAddress: "192.0.2.1").session)
    }

    /// A password account with Google linked, signed in on a phone and a laptop.
    private func withPassword(_ harness: AccountsHarness) async throws -> Context {
        let (_, phone) = try await harness.register("ana")
        let laptop = try await harness.login()
        let viewer = try await harness.service.authenticate(accessToken: phone.accessToken)
        let token = try google.token(google.claims(subject: "g-ana", at: harness.clock.now))
        _ = try await harness.service.linkSignInProvider(
            ProviderCredential(provider: .google, idToken: token, nonce: FakeIdentityProvider.rawNonce), viewer: viewer,
            proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
        return Context(harness: harness, viewer: viewer, otherSession: laptop.session.id, apple: apple)
    }

    /// A fresh Google ID token of the linked identity as proof, issued `age` seconds ago.
    private func googleProof(_ harness: AccountsHarness, subject: String = "g-ana", age: Double = 10, nonce: String? = FakeIdentityProvider.rawNonce) throws -> ReauthenticationProof {
        // `claims(at:)` issues ten seconds before the time given.
        let claims = google.claims(subject: subject, at: harness.clock.now.addingTimeInterval(10 - age))
        return ReauthenticationProof(provider: ProviderCredential(provider: .google, idToken: try google.token(claims), nonce: nonce))
    }

    @Test(arguments: operations)
    func aPasswordlessAccountMayActUntilTheWindowEndsAfterItsSignIn(_ operation: Operation) async throws {
        try await withHarness { harness in
            let context = try await passwordless(harness, withApple: operation.name != "linkSignInProvider")
            harness.clock.advance(seconds: Self.window)
            try await operation.run(context, ReauthenticationProof())
            #expect(try await operation.tookEffect(context))
        }
    }

    @Test(arguments: operations)
    func aPasswordlessAccountPastTheWindowMustReauthenticateAndNothingChanges(_ operation: Operation) async throws {
        try await withHarness { harness in
            let context = try await passwordless(harness, withApple: operation.name != "linkSignInProvider")
            harness.clock.advance(seconds: Self.window + 0.001)
            let refused = await #expect(throws: ServiceError.self) { try await operation.run(context, ReauthenticationProof()) }
            #expect(refused?.code == .reauthenticationRequired)
            let expected: [SignInMethod] = operation.name == "linkSignInProvider" ? [.google] : [.google, .apple]
            #expect(refused?.methods == expected)
            #expect(try await !operation.tookEffect(context))
            // A password is no proof for an account that has none.
            let withPassword = await #expect(throws: ServiceError.self) {
                try await operation.run(context, AccountsHarness.passwordProof)
            }
            #expect(withPassword?.code == .reauthenticationRequired)
        }
    }

    @Test(arguments: operations)
    func aPasswordlessAccountPastTheWindowReauthenticatesWithAFreshProviderToken(_ operation: Operation) async throws {
        try await withHarness { harness in
            let context = try await passwordless(harness, withApple: operation.name != "linkSignInProvider")
            harness.clock.advance(seconds: 3600)
            try await operation.run(context, try googleProof(harness))
            #expect(try await operation.tookEffect(context))
        }
    }

    @Test(arguments: operations)
    func aPasswordAccountGivesItsPasswordAndNothingElse(_ operation: Operation) async throws {
        try await withHarness { harness in
            let context = try await withPassword(harness)
            // Signed in a moment ago, with a fresh Google token of its own: still the password.
            for proof in [ReauthenticationProof(), try googleProof(harness)] {
                let refused = await #expect(throws: ServiceError.self) { try await operation.run(context, proof) }
                #expect(refused?.code == .reauthenticationRequired)
                #expect(refused?.methods == [.password])
                #expect(refused?.problems.first?.field == "input.currentPassword")
            }
            let wrong = await #expect(throws: ServiceError.self) {
                try await operation.run(context, ReauthenticationProof(currentPassword: "not the password"))
            }
            #expect(wrong?.reason == .invalidCredentials)
            #expect(try await !operation.tookEffect(context))
            try await operation.run(context, AccountsHarness.passwordProof)
            #expect(try await operation.tookEffect(context))
        }
    }

    @Test func aRefreshIsNoSignInAndDoesNotRestartTheWindow() async throws {
        try await withHarness { harness in
            let signedIn = try await googleSignIn(harness)
            harness.clock.advance(seconds: Self.window + 1)
            let refreshed = try await harness.service.refresh(refreshToken: signedIn.refreshToken, clientAddress: "192.0.2.1")
            let viewer = try await harness.service.authenticate(accessToken: refreshed.accessToken)
            let refused = await #expect(throws: ServiceError.self) {
                try await harness.service.requestEmailChange(
                    viewer: viewer, newEmail: "ana.new@example.org", proof: ReauthenticationProof(), clientAddress: "192.0.2.1")
            }
            #expect(refused?.code == .reauthenticationRequired)
        }
    }

    @Test func aProviderTokenIsFreshUpToTheWindowAndTheClockSkewAfterItWasIssued() async throws {
        try await withHarness { harness in
            let context = try await passwordless(harness, withApple: false)
            harness.clock.advance(seconds: 3600)
            let skew = 60.0
            let stale = await #expect(throws: ServiceError.self) {
                try await Self.changeEmail.run(context, try googleProof(harness, age: Self.window + skew + 1))
            }
            #expect(stale?.code == .reauthenticationRequired)
            try await Self.changeEmail.run(context, try googleProof(harness, age: Self.window + skew))
        }
    }

    @Test func aProviderTokenMustBeTheLinkedIdentitysAndCarryItsNonce() async throws {
        try await withHarness { harness in
            let context = try await passwordless(harness, withApple: false)
            harness.clock.advance(seconds: 3600)
            let stranger = await #expect(throws: ServiceError.self) {
                try await Self.changePassword.run(context, try googleProof(harness, subject: "g-someone-else"))
            }
            #expect(stranger?.code == .reauthenticationRequired)
            let unlinked = await #expect(throws: ServiceError.self) {
                let token = try apple.token(apple.claims(subject: "a-ana", at: harness.clock.now))
                try await Self.changePassword.run(
                    context, ReauthenticationProof(provider: ProviderCredential(provider: .apple, idToken: token, nonce: FakeIdentityProvider.rawNonce)))
            }
            #expect(unlinked?.code == .reauthenticationRequired)
            let withoutNonce = await #expect(throws: ServiceError.self) {
                try await Self.changePassword.run(context, try googleProof(harness, nonce: nil))
            }
            #expect(withoutNonce?.problems.first?.field == "input.reauthentication.nonce")
            let forged = await #expect(throws: ServiceError.self) {
                try await Self.changePassword.run(
                    context, ReauthenticationProof(provider: ProviderCredential(provider: .google, idToken: "a.b.c", nonce: FakeIdentityProvider.rawNonce)))
            }
            #expect(forged?.reason == .providerTokenInvalid)
            #expect(try await harness.service.signInMethods(userID: context.viewer.userID) == [.google])
        }
    }

    @Test func signingOutNeedsNoReauthentication() async throws {
        try await withHarness { harness in
            let context = try await passwordless(harness, withApple: false)
            harness.clock.advance(seconds: 3600)
            // Ending one's own session is signing out; signing out everywhere ends the caller's too.
            _ = try await harness.service.revokeSession(
                id: context.viewer.sessionID, viewer: context.viewer, proof: ReauthenticationProof(), clientAddress: "192.0.2.1")
            let laptop = try await harness.service.activeSessions(viewer: context.viewer)
            #expect(laptop.map(\.id) == [context.otherSession])
            #expect(try await harness.service.logoutEverywhere(viewer: context.viewer) == 1)
        }
    }
}
