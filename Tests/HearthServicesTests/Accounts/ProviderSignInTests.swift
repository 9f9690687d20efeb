import FoundationEssentials
import HearthServices
import HearthStore
import JOSE
import TestFixtures
import Testing

struct ProviderSignInTests {
    let google = FakeIdentityProvider.google()
    let apple = FakeIdentityProvider.apple()

    func withHarness<T>(_ body: (AccountsHarness) async throws -> T) async throws -> T {
        try await AccountsHarness.with(identityProviders: [google.identityProvider(), apple.identityProvider()], body)
    }

    func signIn(
        _ harness: AccountsHarness, with provider: FakeIdentityProvider, _ claims: JWTClaims, displayName: String? = nil
    ) async throws -> ProviderSignInResult {
        try await harness.service.signIn(
            provider: provider.configuration.provider, idToken: try provider.token(claims), nonce: FakeIdentityProvider.rawNonce,
            deviceLabel: "phone", displayName: displayName, clientAddress: "192.0.2.1")
    }

    func link(
        _ harness: AccountsHarness, _ provider: FakeIdentityProvider, _ claims: JWTClaims, viewer: Viewer,
        password: String? = AccountsHarness.password
    ) async throws -> UserRecord {
        try await harness.service.linkSignInProvider(
            ProviderCredential(provider: provider.configuration.provider, idToken: try provider.token(claims), nonce: FakeIdentityProvider.rawNonce),
            viewer: viewer, proof: ReauthenticationProof(currentPassword: password), clientAddress: "192.0.2.1")
    }

    @Test func theFirstSignInCreatesAConfirmedPasswordlessAccountAndTheNextSignsItIn() async throws {
        try await withHarness { harness in
            let claims = google.claims(email: "Ana.Lopez+chores@example.com", name: "Ana López", at: harness.clock.now)
            let first = try await signIn(harness, with: google, claims)
            #expect(first.outcome == .accountCreated)
            let user = try #require(first.user)
            #expect(user.username == "ana.lopez" && user.displayName == "Ana López")
            #expect(user.email == "Ana.Lopez+chores@example.com" && user.isEmailConfirmed && user.passwordHash == nil)
            let session = try #require(first.session)
            #expect(try await harness.service.authenticate(accessToken: session.accessToken).userID == user.id)
            #expect(try await harness.service.signInMethods(userID: user.id) == [.google])
            #expect(harness.mail.all.isEmpty)

            harness.clock.advance(seconds: 60)
            let second = try await signIn(harness, with: google, google.claims(email: "ana@new.example", at: harness.clock.now))
            #expect(second.outcome == .signedIn && second.user?.id == user.id)
            #expect(second.session?.session.id != session.session.id)
            let stored = try await harness.pool.read { database in try database.scalar(String.self, "SELECT email FROM provider_identities") }
            #expect(stored == "ana@new.example")
        }
    }

    @Test func appleTakesTheDisplayNameFromTheAppAndUsernamesAreMadeUnique() async throws {
        try await withHarness { harness in
            try await harness.register("ana")
            let claims = apple.claims(email: "ana@privaterelay.appleid.com", at: harness.clock.now)
            let result = try await signIn(harness, with: apple, claims, displayName: "  Ana  ")
            #expect(result.outcome == .accountCreated)
            #expect(result.user?.username == "ana-2" && result.user?.displayName == "Ana")
        }
    }

    @Test func aVerifiedEmailOfAnExistingAccountAsksForLinkingInsteadOfMerging() async throws {
        try await withHarness { harness in
            let (ana, issued) = try await harness.register("ana")
            let result = try await signIn(harness, with: google, google.claims(email: "ANA@example.com", at: harness.clock.now))
            #expect(result.outcome == .linkRequired)
            #expect(result.user == nil && result.session == nil)
            #expect(result.existingAccountEmail == "ana@example.com" && result.existingAccountSignInMethods == [.password])
            let identities = try await harness.count("provider_identities")
            #expect(identities == 0)

            // The flow: sign in with the password, link Google from settings, then Google signs in.
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            _ = try await link(harness, google, google.claims(email: "ana@example.com", at: harness.clock.now), viewer: viewer)
            #expect(try await harness.service.signInMethods(userID: ana.id) == [.password, .google])
            #expect(harness.mail.all.last?.subject.contains("Google sign-in was added") == true)
            let later = try await signIn(harness, with: google, google.claims(email: "ana@example.com", at: harness.clock.now))
            #expect(later.outcome == .signedIn && later.user?.id == ana.id)
        }
    }

    @Test func anUnverifiedOrMissingEmailCreatesNoAccount() async throws {
        try await withHarness { harness in
            for claims in [
                google.claims(emailVerified: false, at: harness.clock.now), google.claims(email: nil, at: harness.clock.now),
                google.claims(emailVerified: nil, at: harness.clock.now),
            ] {
                let refused = await #expect(throws: ServiceError.self) { try await signIn(harness, with: google, claims) }
                #expect(refused?.code == .forbidden && refused?.reason == .providerEmailUnverified)
            }
            let users = try await harness.count("users")
            #expect(users == 0)
        }
    }

    @Test func anUnverifiedEmailStillSignsInAnIdentityLinkedBefore() async throws {
        try await withHarness { harness in
            let created = try await signIn(harness, with: google, google.claims(at: harness.clock.now))
            let later = try await signIn(harness, with: google, google.claims(emailVerified: false, at: harness.clock.now))
            #expect(later.outcome == .signedIn && later.user?.id == created.user?.id)
        }
    }

    @Test func aProviderWithoutClientIDsIsDisabled() async throws {
        let unconfigured = FakeIdentityProvider(.google(clientIDs: []))
        try await AccountsHarness.with(identityProviders: [unconfigured.identityProvider()]) { harness in
            for provider in [SignInProvider.google, .apple] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await harness.service.signIn(
                        provider: provider, idToken: try unconfigured.token(unconfigured.claims(at: harness.clock.now)),
                        nonce: FakeIdentityProvider.rawNonce, deviceLabel: nil, displayName: nil, clientAddress: "192.0.2.1")
                }
                #expect(refused?.code == .forbidden && refused?.reason == .providerDisabled)
            }
            #expect(unconfigured.fetches == 0)
        }
    }

    @Test func aKeySetThatCannotBeFetchedIsReportedAsUnavailable() async throws {
        let provider = FakeIdentityProvider.google()
        let failing = IdentityProvider(configuration: provider.configuration, keys: JWKSCache(fetch: { throw JOSEError(.keySetUnavailable, "down") }))
        try await AccountsHarness.with(identityProviders: [failing]) { harness in
            let refused = await #expect(throws: ServiceError.self) { try await signIn(harness, with: provider, provider.claims(at: harness.clock.now)) }
            #expect(refused?.code == .unavailable && refused?.reason == .providerUnavailable)
        }
    }

    @Test func keyRotationIsPickedUpWithoutARestart() async throws {
        try await withHarness { harness in
            _ = try await signIn(harness, with: google, google.claims(at: harness.clock.now))
            google.publish(JSONWebKeySet(keys: [FakeIdentityProvider.rotatedRSA.verificationKey(keyID: "rsa-2")]))
            let result = try await harness.service.signIn(
                provider: .google,
                idToken: try google.token(google.claims(at: harness.clock.now), key: FakeIdentityProvider.rotatedRSA, keyID: "rsa-2"),
                nonce: FakeIdentityProvider.rawNonce, deviceLabel: nil, displayName: nil, clientAddress: "192.0.2.1")
            #expect(result.outcome == .signedIn)
            #expect(google.fetches == 2)
        }
    }

    @Test func linkingNeedsThePasswordOfAnAccountThatHasOne() async throws {
        try await withHarness { harness in
            let (_, issued) = try await harness.register("ana")
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            let refused = await #expect(throws: ServiceError.self) {
                try await link(harness, google, google.claims(at: harness.clock.now), viewer: viewer, password: "not it")
            }
            #expect(refused?.reason == .invalidCredentials)
            let identities = try await harness.count("provider_identities")
            #expect(identities == 0)
        }
    }

    @Test func anIdentityLinksToOneAccountAndAnAccountToOneIdentityPerProvider() async throws {
        try await withHarness { harness in
            let (_, anaTokens) = try await harness.register("ana")
            let (_, benTokens) = try await harness.register("ben")
            let ana = try await harness.service.authenticate(accessToken: anaTokens.accessToken)
            let ben = try await harness.service.authenticate(accessToken: benTokens.accessToken)
            _ = try await link(harness, google, google.claims(subject: "g-ana", at: harness.clock.now), viewer: ana)
            _ = try await link(harness, google, google.claims(subject: "g-ana", at: harness.clock.now), viewer: ana)

            let elsewhere = await #expect(throws: ServiceError.self) {
                try await link(harness, google, google.claims(subject: "g-ana", at: harness.clock.now), viewer: ben)
            }
            #expect(elsewhere?.code == .conflict && elsewhere?.reason == .identityLinkedElsewhere)
            let second = await #expect(throws: ServiceError.self) {
                try await link(harness, google, google.claims(subject: "g-other", at: harness.clock.now), viewer: ana)
            }
            #expect(second?.code == .conflict && second?.reason == .providerAlreadyLinked)
            _ = try await link(harness, apple, apple.claims(subject: "a-ana", at: harness.clock.now), viewer: ana)
            #expect(try await harness.service.signInMethods(userID: ana.userID) == [.password, .google, .apple])
        }
    }

    @Test func unlinkingNeverRemovesTheLastWayToSignIn() async throws {
        try await withHarness { harness in
            let created = try await signIn(harness, with: google, google.claims(at: harness.clock.now))
            let viewer = try await harness.service.authenticate(accessToken: try #require(created.session).accessToken)
            let last = await #expect(throws: ServiceError.self) { try await harness.service.unlinkSignInProvider(.google, viewer: viewer, proof: ReauthenticationProof(), clientAddress: "192.0.2.1") }
            #expect(last?.code == .conflict && last?.reason == .lastSignInMethod)

            // A password-less account links without a password; then either provider can go.
            _ = try await link(harness, apple, apple.claims(subject: "a-1", at: harness.clock.now), viewer: viewer, password: nil)
            _ = try await harness.service.unlinkSignInProvider(.google, viewer: viewer, proof: ReauthenticationProof(), clientAddress: "192.0.2.1")
            #expect(try await harness.service.signInMethods(userID: viewer.userID) == [.apple])
            #expect(harness.mail.all.last?.subject.contains("Google sign-in was removed") == true)
            let again = await #expect(throws: ServiceError.self) { try await harness.service.unlinkSignInProvider(.google, viewer: viewer, proof: ReauthenticationProof(), clientAddress: "192.0.2.1") }
            #expect(again?.code == .notFound)
            let lastApple = await #expect(throws: ServiceError.self) { try await harness.service.unlinkSignInProvider(.apple, viewer: viewer, proof: ReauthenticationProof(), clientAddress: "192.0.2.1") }
            #expect(lastApple?.reason == .lastSignInMethod)

            // The unlinked Google identity is a stranger now: its email belongs to this account.
            let returning = try await signIn(harness, with: google, google.claims(at: harness.clock.now))
            #expect(returning.outcome == .linkRequired && returning.existingAccountSignInMethods == [.apple])
        }
    }

    @Test func aPasswordAccountMayUnlinkItsOnlyProvider() async throws {
        try await withHarness { harness in
            let (_, issued) = try await harness.register("ana")
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            _ = try await link(harness, google, google.claims(at: harness.clock.now), viewer: viewer)
            _ = try await harness.service.unlinkSignInProvider(.google, viewer: viewer, proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            #expect(try await harness.service.signInMethods(userID: viewer.userID) == [.password])
        }
    }
}
