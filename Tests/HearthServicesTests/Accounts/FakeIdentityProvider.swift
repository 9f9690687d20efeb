import FoundationEssentials
import HearthServices
import JOSE
import Support
import Synchronization
import TestFixtures

/// A stand-in for Google or Apple: its own keys, a key-set endpoint the test controls
/// (counting fetches), and ID tokens signed the way the provider signs them.
final class FakeIdentityProvider: Sendable {
    /// Keys generated once per test process (RSA generation takes a moment).
    static let rsa = SigningKey.generate(.RS256)
    static let rotatedRSA = SigningKey.generate(.RS256)
    static let strangerRSA = SigningKey.generate(.RS256)
    static let ec = SigningKey.generate(.ES256)

    static let clientID = "test-client"
    /// The raw nonce apps in these tests send; tokens carry its SHA-256.
    static let rawNonce = "n-0S6_WzA2Mj"

    let configuration: IdentityProviderConfiguration
    private let served: Mutex<(keys: JSONWebKeySet, fetches: Int)>

    /// A provider serving `keys` (by default the RSA key as `rsa-1`).
    init(_ configuration: IdentityProviderConfiguration, keys: JSONWebKeySet = JSONWebKeySet(keys: [rsa.verificationKey(keyID: "rsa-1")])) {
        self.configuration = configuration
        served = Mutex((keys, 0))
    }

    /// Google with the one client ID `test-client`.
    static func google() -> FakeIdentityProvider { FakeIdentityProvider(.google(clientIDs: [clientID])) }
    /// Apple with the one client ID `test-client`.
    static func apple() -> FakeIdentityProvider { FakeIdentityProvider(.apple(clientIDs: [clientID])) }

    /// The verifier the service uses, fetching from this provider's endpoint.
    func identityProvider() -> IdentityProvider {
        IdentityProvider(configuration: configuration, keys: JWKSCache(fetch: { [self] in
            served.withLock { state in
                state.fetches += 1
                return JWKSFetchResult(body: state.keys.jsonRepresentation(), maxAge: .seconds(3600))
            }
        }))
    }

    /// Replaces the published key set (a rotation).
    func publish(_ keys: JSONWebKeySet) { served.withLock { $0.keys = keys } }

    /// How often the key set was fetched.
    var fetches: Int { served.withLock { $0.fetches } }

    /// The issuer the provider's tokens name.
    var issuer: String { configuration.provider == .google ? "https://accounts.google.com" : "https://appleid.apple.com" }

    /// Claims of a valid token at `now` for `subject`: issued ten seconds ago, valid an hour,
    /// bound to ``rawNonce``, with a verified email.
    func claims(
        subject: String = "subject-1", email: String? = "ana@example.com", emailVerified: Bool? = true, name: String? = nil,
        at now: Date
    ) -> JWTClaims {
        let issuedAt = now.timeIntervalSince1970.rounded() - 10
        return JWTClaims(
            issuer: issuer, subject: subject, audience: [Self.clientID], expiresAt: issuedAt + 3600, issuedAt: issuedAt,
            nonce: IdentityProvider.nonceClaim(forRawNonce: Self.rawNonce), email: email, emailVerified: emailVerified,
            additional: name.map { ["name": $0] } ?? [:])
    }

    /// `claims` signed with `key` under `keyID`.
    func token(_ claims: JWTClaims, key: SigningKey = rsa, keyID: String? = "rsa-1") throws -> String {
        try JWTSigner(key: key, keyID: keyID).sign(claims)
    }
}

extension AccountsHarness {
    /// The number of rows in `table`.
    func count(_ table: String) async throws -> Int {
        try await pool.read { database in try database.scalar(Int.self, "SELECT count(*) FROM \(table)") ?? 0 }
    }
}
