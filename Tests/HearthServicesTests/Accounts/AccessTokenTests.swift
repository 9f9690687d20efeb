import FoundationEssentials
import HearthServices
import JOSE
import Support
import Testing

/// The JWT negative cases for Hearth's own access tokens: each forged or damaged token is
/// refused with `UNAUTHENTICATED`, and never for the wrong reason.
struct AccessTokenTests {
    let key = SecureRandom.bytes(32)
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    var tokens: AccessTokens { AccessTokens(key: key, issuer: "https://hearth.example", audience: "hearth-api", lifetime: .seconds(900)) }

    /// A token with Hearth's claims, signed by `signer`.
    private func forged(
        signer: JWTSigner, iss: String = "https://hearth.example", aud: String = "hearth-api", exp: Int64? = nil
    ) throws -> String {
        struct Claims: Encodable {
            var iss, aud, sub, sid, jti: String
            var gen, iat, exp: Int64
        }
        let issuedAt = Int64(now.timeIntervalSince1970)
        return try signer.sign(Claims(
            iss: iss, aud: aud, sub: "user-1", sid: "session-1", jti: "j", gen: 1, iat: issuedAt, exp: exp ?? issuedAt + 900))
    }

    private func reason(_ token: String, at date: Date? = nil) -> ServiceError.Reason? {
        do {
            _ = try tokens.verify(token, at: date ?? now)
            return nil
        } catch {
            #expect(error.code == .unauthenticated)
            #expect(!error.message.contains(token))
            return error.reason
        }
    }

    @Test func acceptsItsOwnTokensUntilTheyExpire() throws {
        let (token, expiresAt) = tokens.issue(userID: "user-1", sessionID: "session-1", generation: 3, at: now)
        #expect(expiresAt == now.addingTimeInterval(900))
        let claims = try tokens.verify(token, at: now)
        #expect(claims.userID == "user-1" && claims.sessionID == "session-1" && claims.generation == 3)
        #expect(reason(token, at: now.addingTimeInterval(900)) == .tokenExpired)
    }

    @Test func refusesAlgNone() {
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let (token, _) = tokens.issue(userID: "user-1", sessionID: "session-1", generation: 1, at: now)
        let payload = token.split(separator: ".")[1]
        #expect(reason("\(header).\(payload).") == .tokenInvalid)
        #expect(reason("\(header).\(payload)") == .tokenInvalid)
    }

    @Test func refusesTokensSignedWithAnotherKey() throws {
        let other = JWTSigner(key: try .hmacSHA256(secret: SecureRandom.bytes(32)))
        #expect(reason(try forged(signer: other)) == .tokenInvalid)
    }

    @Test func refusesAsymmetricAlgorithmsEvenWithAValidSignature() throws {
        #expect(reason(try forged(signer: JWTSigner(key: .generate(.RS256)))) == .tokenInvalid)
        #expect(reason(try forged(signer: JWTSigner(key: .generate(.ES256)))) == .tokenInvalid)
    }

    @Test func refusesATamperedPayload() throws {
        let (token, _) = tokens.issue(userID: "user-1", sessionID: "session-1", generation: 1, at: now)
        let parts = token.split(separator: ".").map(String.init)
        var payload = try #require(Base64URL.decode(parts[1]))
        let text = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "user-1", with: "user-2")
        payload = Array(text.utf8)
        #expect(reason([parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")) == .tokenInvalid)
    }

    @Test func refusesATruncatedSignature() {
        let (token, _) = tokens.issue(userID: "user-1", sessionID: "session-1", generation: 1, at: now)
        #expect(reason(String(token.dropLast(4))) == .tokenInvalid)
    }

    @Test func refusesTheWrongIssuerOrAudience() throws {
        let signer = JWTSigner(key: try .hmacSHA256(secret: key))
        #expect(reason(try forged(signer: signer)) == nil)
        #expect(reason(try forged(signer: signer, iss: "https://evil.example")) == .tokenInvalid)
        #expect(reason(try forged(signer: signer, aud: "another-api")) == .tokenInvalid)
    }

    @Test func refusesGarbageAndOverlongTokens() {
        for token in ["", "a.b", "a.b.c", "...", String(repeating: "a", count: 5000)] {
            #expect(reason(token) == .tokenInvalid)
        }
    }
}
