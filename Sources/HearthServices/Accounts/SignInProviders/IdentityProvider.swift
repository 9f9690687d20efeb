import FoundationEssentials
import JOSE
import Support

/// Verifies one provider's ID tokens against its key set.
///
/// The checks, in order: the token parses strictly, its `alg` is one of the configuration's
/// pinned algorithms, its `kid` names a key of the provider's set (fetched and cached by
/// ``keys``, refetched once on an unknown `kid`), the signature verifies, `iss` is the
/// provider's, `aud` one of the configured client IDs, `exp`/`nbf`/`iat` hold at the time given
/// within the clock skew, the nonce matches (see ``nonceClaim(forRawNonce:)``), and `sub` is
/// present.
///
/// Nonces: the app generates a random raw nonce, puts the lowercase hexadecimal SHA-256 of it
/// into the provider request (Apple's `ASAuthorizationAppleIDRequest.nonce`, Google's `nonce`
/// parameter), and sends the raw nonce to Hearth with the token. The provider copies the
/// request's value into the token, so a token stolen from a log or a proxy carries only the
/// hash, and cannot be replayed without the raw value that never left the app. Apple tokens
/// must have one; Google tokens are checked whenever the app sends a nonce or the token
/// carries one (a token bound to a nonce is refused without it).
public struct IdentityProvider: Sendable {
    /// What tokens must satisfy.
    public let configuration: IdentityProviderConfiguration
    /// The provider's signing keys.
    public let keys: JWKSCache
    private let verifier: JWTVerifier

    /// A provider checking tokens with `configuration`, signed by keys from `keys`.
    public init(configuration: IdentityProviderConfiguration, keys: JWKSCache) {
        self.configuration = configuration
        self.keys = keys
        verifier = JWTVerifier(algorithms: configuration.algorithms)
    }

    /// The value an ID token's `nonce` claim must have for the raw nonce the app sent:
    /// 64 lowercase hexadecimal digits of its SHA-256.
    public static func nonceClaim(forRawNonce rawNonce: String) -> String {
        SHA256.hexDigest(rawNonce)
    }

    /// Verifies `idToken` at `now`; `rawNonce` is the nonce the app generated (nil or empty
    /// when it sent none).
    ///
    /// - Throws: `JOSEError`: the codes of `JWTVerifier.verify` (`.unsupportedAlgorithm`,
    ///   `.unknownKey`, `.badSignature`, `.wrongIssuer`, `.wrongAudience`, `.expired`,
    ///   `.notYetValid`, `.issuedInFuture`, `.nonceMismatch`, …), `.keySetUnavailable`, and
    ///   `.missingClaim` for a token without `sub` or a provider requiring a nonce when none
    ///   was given.
    public func verify(idToken: String, rawNonce: String?, at now: Date) async throws(JOSEError) -> ProviderIdentity {
        let expectedNonce = rawNonce.flatMap { $0.isEmpty ? nil : Self.nonceClaim(forRawNonce: $0) }
        if configuration.requiresNonce, expectedNonce == nil {
            throw JOSEError(.missingClaim, "\(configuration.provider.displayName) sign-in needs the raw nonce")
        }
        let requirements = ClaimRequirements(
            issuers: configuration.issuers, audiences: configuration.clientIDs, leeway: configuration.clockSkew, nonce: expectedNonce)
        let claims = try await verifier.verify(idToken, requirements: requirements, at: WallClock.Instant(now), keys: keys).claims
        if expectedNonce == nil, claims.nonce != nil {
            throw JOSEError(.nonceMismatch, "the token is bound to a nonce but none was given")
        }
        guard let subject = claims.subject, !subject.isEmpty, subject.utf8.count <= Self.maximumSubjectLength else {
            throw JOSEError(.missingClaim, "token has no usable sub claim")
        }
        let email = claims.email.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        let name = claims.additional["name"].map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        return ProviderIdentity(
            provider: configuration.provider, subject: subject, email: email,
            isEmailVerified: email != nil && claims.emailVerified == true, name: name,
            issuedAt: claims.issuedAt.map(Date.init(timeIntervalSince1970:)))
    }

    /// The longest `sub` accepted (OpenID Connect: at most 255 ASCII characters).
    public static let maximumSubjectLength = 255
}
