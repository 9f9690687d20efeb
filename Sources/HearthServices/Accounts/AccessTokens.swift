import FoundationEssentials
import JOSE
import Support

/// What a verified access token says.
public struct AccessTokenClaims: Sendable, Hashable {
    /// The account (`sub`).
    public var userID: String
    /// The session (`sid`).
    public var sessionID: String
    /// The session generation the token was issued for (`gen`).
    public var generation: Int64
    /// When the token stops working (`exp`).
    public var expiresAt: Date
}

/// Issues and verifies Hearth's access tokens: JWTs (RFC 7519) signed with HS256 under a
/// 256-bit key that only this server holds.
///
/// HS256 because the server is both issuer and only verifier: an HMAC costs about a
/// microsecond, where an RSA or ECDSA verification costs tens, and every request verifies a
/// token. The algorithm is pinned: a token whose header names any other `alg` (`none`,
/// `RS256`, …) is refused before its signature or claims are read.
///
/// Claims: `iss`, `aud`, `sub` (user id), `sid` (session id), `gen` (session generation),
/// `iat`, `exp`, `jti` (random, unique per token).
public struct AccessTokens: Sendable {
    /// The signing key's least length in bytes.
    public static let keyLength = 32
    private let signer: JWTSigner
    private let verificationKey: JSONWebKey
    private let verifier = JWTVerifier(algorithms: [.HS256], maximumTokenLength: 4096)
    private let requirements: ClaimRequirements
    private let issuer: String
    private let audience: String
    private let lifetime: Duration

    /// Creates the issuer.
    /// - Parameter key: At least ``keyLength`` random bytes.
    public init(key: [UInt8], issuer: String, audience: String, lifetime: Duration) {
        precondition(key.count >= Self.keyLength, "an access-token key needs at least \(Self.keyLength) bytes")
        // Cannot fail: the key is long enough.
        let signingKey = try! SigningKey.hmacSHA256(secret: key)
        signer = JWTSigner(key: signingKey)
        verificationKey = try! JSONWebKey.symmetric(secret: key, keyID: nil)
        // No leeway: this server's own clock both issued and checks the times.
        requirements = ClaimRequirements(issuers: [issuer], audiences: [audience], leeway: .zero)
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
    }

    /// The claims Hearth signs.
    private struct Payload: Codable {
        var iss: String
        var aud: String
        var sub: String
        var sid: String
        var gen: Int64
        var iat: Int64
        var exp: Int64
        var jti: String
    }

    /// A token for a session at `generation`, and when it expires.
    public func issue(userID: String, sessionID: String, generation: Int64, at now: Date) -> (token: String, expiresAt: Date) {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt + lifetime.components.seconds
        let payload = Payload(
            iss: issuer, aud: audience, sub: userID, sid: sessionID, gen: generation, iat: issuedAt, exp: expiresAt,
            jti: Base64URL.encode(SecureRandom.bytes(16)))
        // Signing a struct of strings and integers with an HMAC key cannot fail.
        let token = try! signer.sign(payload)
        return (token, Date(timeIntervalSince1970: Double(expiresAt)))
    }

    /// The claims of `token` after checking its form, algorithm, signature, issuer, audience
    /// and times.
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED`: `TOKEN_EXPIRED` past `exp`, otherwise
    ///   `TOKEN_INVALID`. The message never contains the token.
    public func verify(_ token: String, at now: Date) throws(ServiceError) -> AccessTokenClaims {
        let invalid = ServiceError(.unauthenticated, reason: .tokenInvalid, "The access token is not valid. Sign in again.")
        let verified: VerifiedJWT
        do {
            verified = try verifier.verify(token, requirements: requirements, at: WallClock.Instant(now)) { [verificationKey] _ in
                verificationKey
            }
        } catch {
            if error.code == .expired {
                throw ServiceError(.unauthenticated, reason: .tokenExpired, "The access token has expired. Refresh it and try again.")
            }
            throw invalid
        }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(verified.payload)) else { throw invalid }
        return AccessTokenClaims(
            userID: payload.sub, sessionID: payload.sid, generation: payload.gen,
            expiresAt: Date(timeIntervalSince1970: Double(payload.exp)))
    }
}
