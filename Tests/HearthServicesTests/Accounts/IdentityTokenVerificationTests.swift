import FoundationEssentials
import HearthServices
import JOSE
import Support
import TestFixtures
import Testing

/// ID tokens a provider sign-in must refuse, each checked twice: the verifier names the exact
/// reason, and the service answers `PROVIDER_TOKEN_INVALID` without creating anything.
struct IdentityTokenVerificationTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// A way of spoiling a valid Google token, and the reason the verifier must give.
    struct Forgery: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: JOSEError.Code
        let make: @Sendable (FakeIdentityProvider) throws -> String
        var testDescription: String { name }
    }

    static let forgeries: [Forgery] = [
        Forgery(name: "alg none", expected: .unsupportedAlgorithm) { provider in
            let payload = Array(try JSONEncoder().encode(provider.claims(at: now)))
            return Base64URL.encode(Array(#"{"alg":"none","kid":"rsa-1"}"#.utf8)) + "." + Base64URL.encode(payload) + ".c2ln"
        },
        Forgery(name: "HS256 signed with the provider's public key", expected: .unsupportedAlgorithm) { provider in
            let publicKey = JSONWebKeySet(keys: [FakeIdentityProvider.rsa.verificationKey(keyID: "rsa-1")]).jsonRepresentation()
            return try provider.token(provider.claims(at: now), key: SigningKey.hmacSHA256(secret: publicKey))
        },
        Forgery(name: "ES256 where RS256 is pinned", expected: .unsupportedAlgorithm) { provider in
            try provider.token(provider.claims(at: now), key: FakeIdentityProvider.ec, keyID: "rsa-1")
        },
        Forgery(name: "unknown kid", expected: .unknownKey) { provider in
            try provider.token(provider.claims(at: now), key: FakeIdentityProvider.strangerRSA, keyID: "stranger")
        },
        Forgery(name: "known kid, another key", expected: .badSignature) { provider in
            try provider.token(provider.claims(at: now), key: FakeIdentityProvider.strangerRSA)
        },
        Forgery(name: "wrong iss", expected: .wrongIssuer) { provider in
            var claims = provider.claims(at: now)
            claims.issuer = "https://accounts.example.com"
            return try provider.token(claims)
        },
        Forgery(name: "wrong aud", expected: .wrongAudience) { provider in
            var claims = provider.claims(at: now)
            claims.audience = ["another-client"]
            return try provider.token(claims)
        },
        Forgery(name: "expired beyond the clock skew", expected: .expired) { provider in
            var claims = provider.claims(at: now)
            claims.expiresAt = now.timeIntervalSince1970 - 61
            return try provider.token(claims)
        },
        Forgery(name: "nbf in the future beyond the clock skew", expected: .notYetValid) { provider in
            var claims = provider.claims(at: now)
            claims.notBefore = now.timeIntervalSince1970 + 120
            return try provider.token(claims)
        },
        Forgery(name: "iat in the future beyond the clock skew", expected: .issuedInFuture) { provider in
            var claims = provider.claims(at: now)
            claims.issuedAt = now.timeIntervalSince1970 + 120
            return try provider.token(claims)
        },
        Forgery(name: "wrong nonce", expected: .nonceMismatch) { provider in
            var claims = provider.claims(at: now)
            claims.nonce = IdentityProvider.nonceClaim(forRawNonce: "another nonce")
            return try provider.token(claims)
        },
        Forgery(name: "the raw nonce in the token instead of its hash", expected: .nonceMismatch) { provider in
            var claims = provider.claims(at: now)
            claims.nonce = FakeIdentityProvider.rawNonce
            return try provider.token(claims)
        },
        Forgery(name: "tampered payload", expected: .badSignature) { provider in
            let genuine = try provider.token(provider.claims(at: now)).split(separator: ".")
            var claims = provider.claims(at: now)
            claims.subject = "someone-else"
            let payload = Base64URL.encode(Array(try JSONEncoder().encode(claims)))
            return "\(genuine[0]).\(payload).\(genuine[2])"
        },
        Forgery(name: "no sub", expected: .missingClaim) { provider in
            var claims = provider.claims(at: now)
            claims.subject = nil
            return try provider.token(claims)
        },
    ]

    @Test(arguments: forgeries)
    func refusesTheForgedToken(forgery: Forgery) async throws {
        let provider = FakeIdentityProvider.google()
        let token = try forgery.make(provider)
        do {
            _ = try await provider.identityProvider().verify(idToken: token, rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
            Issue.record("the token verified")
        } catch {
            #expect(error.code == forgery.expected)
        }
        try await AccountsHarness.with(identityProviders: [provider.identityProvider()]) { harness in
            let refused = await #expect(throws: ServiceError.self) {
                try await harness.service.signIn(
                    provider: .google, idToken: token, nonce: FakeIdentityProvider.rawNonce, deviceLabel: nil, displayName: nil,
                    clientAddress: "192.0.2.1")
            }
            #expect(refused?.code == .unauthenticated)
            #expect(refused?.reason == .providerTokenInvalid)
            let users = try await harness.count("users")
            #expect(users == 0)
        }
    }

    @Test func acceptsAnExpiredTokenWithinTheClockSkew() async throws {
        let provider = FakeIdentityProvider.google()
        var claims = provider.claims(at: Self.now)
        claims.expiresAt = Self.now.timeIntervalSince1970 - 50
        claims.notBefore = Self.now.timeIntervalSince1970 + 50
        let identity = try await provider.identityProvider().verify(
            idToken: try provider.token(claims), rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
        #expect(identity.subject == "subject-1")
    }

    @Test func acceptsBothOfGooglesIssuerSpellings() async throws {
        let provider = FakeIdentityProvider.google()
        var claims = provider.claims(at: Self.now)
        claims.issuer = "accounts.google.com"
        let identity = try await provider.identityProvider().verify(
            idToken: try provider.token(claims), rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
        #expect(identity.email == "ana@example.com" && identity.isEmailVerified)
    }

    @Test func googleChecksTheNonceOnlyWhenOneIsInvolved() async throws {
        let provider = FakeIdentityProvider.google()
        let verifier = provider.identityProvider()
        var unbound = provider.claims(at: Self.now)
        unbound.nonce = nil
        #expect(try await verifier.verify(idToken: try provider.token(unbound), rawNonce: nil, at: Self.now).subject == "subject-1")
        let sent = await #expect(throws: JOSEError.self) {
            try await verifier.verify(idToken: try provider.token(unbound), rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
        }
        #expect(sent?.code == .missingClaim)
        let withheld = await #expect(throws: JOSEError.self) {
            try await verifier.verify(idToken: try provider.token(provider.claims(at: Self.now)), rawNonce: nil, at: Self.now)
        }
        #expect(withheld?.code == .nonceMismatch)
    }

    @Test func appleRequiresANonce() async throws {
        let provider = FakeIdentityProvider.apple()
        var unbound = provider.claims(at: Self.now)
        unbound.nonce = nil
        let missing = await #expect(throws: JOSEError.self) {
            try await provider.identityProvider().verify(idToken: try provider.token(unbound), rawNonce: nil, at: Self.now)
        }
        #expect(missing?.code == .missingClaim)
        try await AccountsHarness.with(identityProviders: [provider.identityProvider()]) { harness in
            let refused = await #expect(throws: ServiceError.self) {
                try await harness.service.signIn(
                    provider: .apple, idToken: try provider.token(unbound), nonce: nil, deviceLabel: nil, displayName: nil,
                    clientAddress: "192.0.2.1")
            }
            #expect(refused?.code == .badUserInput)
            #expect(refused?.problems.first?.field == "input.nonce")
        }
    }

    @Test func readsApplesStringBooleans() async throws {
        let provider = FakeIdentityProvider.apple()
        let claims = provider.claims(at: Self.now)
        let appleShaped = AppleClaims(
            iss: provider.issuer, sub: "subject-1", aud: FakeIdentityProvider.clientID, exp: claims.expiresAt!, iat: claims.issuedAt!,
            nonce: claims.nonce!, email: "ana@privaterelay.appleid.com", email_verified: "true")
        let identity = try await provider.identityProvider().verify(
            idToken: try JWTSigner(key: FakeIdentityProvider.rsa, keyID: "rsa-1").sign(appleShaped),
            rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
        #expect(identity.isEmailVerified && identity.email == "ana@privaterelay.appleid.com")
    }

    @Test func aProviderPinnedToES256AcceptsECKeysOnly() async throws {
        var configuration = IdentityProviderConfiguration.google(clientIDs: [FakeIdentityProvider.clientID])
        configuration.algorithms = [.ES256]
        let provider = FakeIdentityProvider(configuration, keys: JSONWebKeySet(keys: [
            FakeIdentityProvider.ec.verificationKey(keyID: "ec-1"), FakeIdentityProvider.rsa.verificationKey(keyID: "rsa-1"),
        ]))
        let verifier = provider.identityProvider()
        let ecToken = try provider.token(provider.claims(at: Self.now), key: FakeIdentityProvider.ec, keyID: "ec-1")
        #expect(try await verifier.verify(idToken: ecToken, rawNonce: FakeIdentityProvider.rawNonce, at: Self.now).subject == "subject-1")
        let rsaToken = await #expect(throws: JOSEError.self) {
            try await verifier.verify(idToken: try provider.token(provider.claims(at: Self.now)), rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
        }
        #expect(rsaToken?.code == .unsupportedAlgorithm)
    }

    @Test func aRotatedKeyIsFetchedOnItsFirstUnknownKid() async throws {
        let provider = FakeIdentityProvider.google()
        let verifier = provider.identityProvider()
        _ = try await verifier.verify(idToken: try provider.token(provider.claims(at: Self.now)), rawNonce: FakeIdentityProvider.rawNonce, at: Self.now)
        provider.publish(JSONWebKeySet(keys: [FakeIdentityProvider.rotatedRSA.verificationKey(keyID: "rsa-2")]))
        let rotated = try provider.token(provider.claims(subject: "subject-2", at: Self.now), key: FakeIdentityProvider.rotatedRSA, keyID: "rsa-2")
        #expect(try await verifier.verify(idToken: rotated, rawNonce: FakeIdentityProvider.rawNonce, at: Self.now).subject == "subject-2")
        #expect(provider.fetches == 2)
    }
}

/// The claims of an Apple identity token as Apple writes them: `email_verified` is a string.
private struct AppleClaims: Encodable {
    var iss: String
    var sub: String
    var aud: String
    var exp: Double
    var iat: Double
    var nonce: String
    var email: String
    var email_verified: String
}
