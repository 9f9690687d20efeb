import FoundationEssentials
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
/// `RS256`, …) is refused before anything else is read.
///
/// Claims: `iss`, `aud`, `sub` (user id), `sid` (session id), `gen` (session generation),
/// `iat`, `exp`, `jti` (random, unique per token).
public struct AccessTokens: Sendable {
    /// The signing key's length in bytes.
    public static let keyLength = 32
    private let key: [UInt8]
    private let issuer: String
    private let audience: String
    private let lifetime: Duration
    /// Tolerated clock difference for `iat` (tokens are verified by the server that issued
    /// them, so only its own clock steps matter).
    private let leeway: Double = 60

    /// Creates the issuer.
    /// - Parameter key: At least ``keyLength`` random bytes.
    public init(key: [UInt8], issuer: String, audience: String, lifetime: Duration) {
        precondition(key.count >= Self.keyLength, "an access-token key needs at least \(Self.keyLength) bytes")
        self.key = key
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
    }

    private struct Header: Codable {
        var alg: String
        var typ: String?
    }

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

    private static let encodedHeader = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// A token for a session at `generation`, and when it expires.
    public func issue(userID: String, sessionID: String, generation: Int64, at now: Date) -> (token: String, expiresAt: Date) {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt + lifetime.components.seconds
        let payload = Payload(
            iss: issuer, aud: audience, sub: userID, sid: sessionID, gen: generation, iat: issuedAt, exp: expiresAt,
            jti: Base64URL.encode(SecureRandom.bytes(16)))
        // Encoding a struct of strings and integers cannot fail.
        let json = try! JSONEncoder().encode(payload)
        let signingInput = Self.encodedHeader + "." + Base64URL.encode(json)
        let signature = HMACSHA256.authenticationCode(key: key, message: Array(signingInput.utf8))
        return (signingInput + "." + Base64URL.encode(signature), Date(timeIntervalSince1970: Double(expiresAt)))
    }

    /// The claims of `token` after checking its form, algorithm, signature, issuer, audience
    /// and times.
    /// - Throws: ``AccountError`` `UNAUTHENTICATED`: `TOKEN_EXPIRED` past `exp`, otherwise
    ///   `TOKEN_INVALID`. The message never contains the token.
    public func verify(_ token: String, at now: Date) throws(AccountError) -> AccessTokenClaims {
        let invalid = AccountError(.unauthenticated, reason: .tokenInvalid, "The access token is not valid. Sign in again.")
        let bytes = Array(token.utf8)
        guard bytes.count <= 4096 else { throw invalid }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerJSON = Base64URL.decode(String(decoding: parts[0], as: UTF8.self)),
              let header = try? JSONDecoder().decode(Header.self, from: Data(headerJSON)),
              header.alg == "HS256",
              let signature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self))
        else { throw invalid }
        let signingInput = bytes[..<(parts[0].count + 1 + parts[1].count)]
        guard ConstantTime.equals(signature, HMACSHA256.authenticationCode(key: key, message: signingInput)),
              let payloadJSON = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
              let payload = try? JSONDecoder().decode(Payload.self, from: Data(payloadJSON)),
              payload.iss == issuer, payload.aud == audience,
              Double(payload.iat) <= now.timeIntervalSince1970 + leeway
        else { throw invalid }
        guard now.timeIntervalSince1970 < Double(payload.exp) else {
            throw AccountError(.unauthenticated, reason: .tokenExpired, "The access token has expired. Refresh it and try again.")
        }
        return AccessTokenClaims(
            userID: payload.sub, sessionID: payload.sid, generation: payload.gen,
            expiresAt: Date(timeIntervalSince1970: Double(payload.exp)))
    }
}
