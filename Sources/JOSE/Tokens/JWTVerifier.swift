import FoundationEssentials
import Support

/// Verifies JSON Web Tokens: strict compact parsing, an algorithm from a pinned set that the
/// key also fits, the signature, then the claims against `ClaimRequirements`.
///
/// Keys are found only through the caller (a key set, a cache, or a lookup function); the
/// header's `jku`, `jwk` and `x5u` are never followed.
public struct JWTVerifier: Sendable {
    /// The algorithms accepted; a token naming any other is refused before a key is looked up.
    public let algorithms: Set<JWSAlgorithm>
    /// The longest token accepted, in bytes.
    public let maximumTokenLength: Int

    /// A verifier accepting `algorithms` (pin exactly what the issuer uses: `[.HS256]` for the
    /// server's own tokens, `[.RS256]` for Google and Apple).
    public init(algorithms: Set<JWSAlgorithm>, maximumTokenLength: Int = 16 * 1024) {
        self.algorithms = algorithms
        self.maximumTokenLength = maximumTokenLength
    }

    /// Verifies `token` with the key `lookup` returns for its header (nil: no such key).
    ///
    /// - Throws: `JOSEError`: `.malformedToken`, `.unsupportedAlgorithm`, `.unknownKey`,
    ///   `.algorithmMismatch`, `.badSignature`, then the codes of `ClaimRequirements.check`.
    public func verify(
        _ token: String, requirements: ClaimRequirements, at now: WallClock.Instant = WallClock.now(),
        key lookup: (JWSHeader) -> JSONWebKey?
    ) throws(JOSEError) -> VerifiedJWT {
        let jws = try parse(token)
        guard let key = lookup(jws.header) else { throw JOSEError(.unknownKey, "no key for the token's kid") }
        return try verify(jws, key: key, requirements: requirements, at: now)
    }

    /// Verifies `token` with a key from `keys`.
    ///
    /// - Throws: as `verify(_:requirements:at:key:)`.
    public func verify(
        _ token: String, requirements: ClaimRequirements, at now: WallClock.Instant = WallClock.now(),
        keys: JSONWebKeySet
    ) throws(JOSEError) -> VerifiedJWT {
        try verify(token, requirements: requirements, at: now, key: keys.key(for:))
    }

    /// Verifies `token` with a key from `cache`, which may fetch the provider's key set.
    ///
    /// - Throws: as `verify(_:requirements:at:key:)`, and `.keySetUnavailable`.
    public func verify(
        _ token: String, requirements: ClaimRequirements, at now: WallClock.Instant = WallClock.now(),
        keys cache: JWKSCache
    ) async throws(JOSEError) -> VerifiedJWT {
        let jws = try parse(token)
        let key = try await cache.key(for: jws.header)
        return try verify(jws, key: key, requirements: requirements, at: now)
    }

    private func parse(_ token: String) throws(JOSEError) -> CompactJWS {
        let jws = try CompactJWS(parsing: token, maximumLength: maximumTokenLength)
        guard algorithms.contains(jws.header.algorithm) else {
            throw JOSEError(.unsupportedAlgorithm, "token algorithm \(jws.header.algorithm.rawValue) is not accepted here")
        }
        return jws
    }

    private func verify(
        _ jws: CompactJWS, key: JSONWebKey, requirements: ClaimRequirements, at now: WallClock.Instant
    ) throws(JOSEError) -> VerifiedJWT {
        guard key.canVerify(jws.header.algorithm) else {
            throw JOSEError(.algorithmMismatch, "the key for the token's kid cannot verify \(jws.header.algorithm.rawValue)")
        }
        guard key.verifies(signature: jws.signature, message: jws.signingInput, algorithm: jws.header.algorithm) else {
            throw JOSEError(.badSignature, "token signature does not verify")
        }
        let claims: JWTClaims
        do {
            claims = try JSONDecoder().decode(JWTClaims.self, from: Data(jws.payload))
        } catch {
            throw JOSEError(.malformedToken, "token claims are not a JSON object of the registered types")
        }
        try requirements.check(claims, at: now)
        return VerifiedJWT(header: jws.header, claims: claims, payload: jws.payload)
    }
}
