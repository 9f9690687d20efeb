import Support

/// What a token's claims must satisfy once its signature is verified: accepted issuers and
/// audiences, a lifetime that includes now (give or take `leeway`), and for sign-in the
/// nonce the client bound to its request.
public struct ClaimRequirements: Sendable, Hashable {
    /// `iss` must be one of these (Google uses both `accounts.google.com` and
    /// `https://accounts.google.com`). An empty set accepts no token.
    public var issuers: Set<String>
    /// At least one `aud` value must be one of these (the configured client IDs). An empty
    /// set accepts no token.
    public var audiences: Set<String>
    /// Tolerated clock difference with the issuer, applied to `exp`, `nbf` and `iat`.
    public var leeway: Duration
    /// When set, `nonce` must be present and equal (compared in constant time).
    public var nonce: String?

    /// Requirements with a one-minute leeway and no nonce unless given.
    public init(issuers: Set<String>, audiences: Set<String>, leeway: Duration = .seconds(60), nonce: String? = nil) {
        self.issuers = issuers
        self.audiences = audiences
        self.leeway = leeway
        self.nonce = nonce
    }

    /// Checks `claims` at `now`, in this order: issuer, audience, `exp` (required), `nbf`,
    /// `iat`, nonce.
    ///
    /// - Throws: `JOSEError` with `.missingClaim`, `.wrongIssuer`, `.wrongAudience`,
    ///   `.expired`, `.notYetValid`, `.issuedInFuture` or `.nonceMismatch`.
    public func check(_ claims: JWTClaims, at now: WallClock.Instant) throws(JOSEError) {
        guard let issuer = claims.issuer else { throw JOSEError(.missingClaim, "token has no iss claim") }
        guard issuers.contains(issuer) else { throw JOSEError(.wrongIssuer, "token issuer is not accepted") }
        guard !claims.audience.isEmpty else { throw JOSEError(.missingClaim, "token has no aud claim") }
        guard claims.audience.contains(where: audiences.contains) else {
            throw JOSEError(.wrongAudience, "token audience is not accepted")
        }
        let current = Double(now.seconds) + Double(now.nanoseconds) / 1e9
        let leeway = Double(leeway.components.seconds) + Double(leeway.components.attoseconds) / 1e18
        guard let expiresAt = claims.expiresAt else { throw JOSEError(.missingClaim, "token has no exp claim") }
        guard current < expiresAt + leeway else { throw JOSEError(.expired, "token has expired") }
        if let notBefore = claims.notBefore, notBefore > current + leeway {
            throw JOSEError(.notYetValid, "token is not valid yet (nbf)")
        }
        if let issuedAt = claims.issuedAt, issuedAt > current + leeway {
            throw JOSEError(.issuedInFuture, "token is issued in the future (iat)")
        }
        if let expected = nonce {
            guard let actual = claims.nonce else { throw JOSEError(.missingClaim, "token has no nonce claim") }
            guard ConstantTime.equals(Array(actual.utf8), Array(expected.utf8)) else {
                throw JOSEError(.nonceMismatch, "token nonce does not match the request")
            }
        }
    }
}
