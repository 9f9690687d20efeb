import JOSE
import Support
import Testing

@Suite struct JWTVerifierTests {
    let rsaSigner = JWTSigner(key: Fixtures.rsa, keyID: "rsa-1")
    let ecSigner = JWTSigner(key: Fixtures.ec, keyID: "ec-1")
    let providerVerifier = JWTVerifier(algorithms: [.RS256, .ES256])

    func verify(
        _ token: String, verifier: JWTVerifier? = nil, requirements: ClaimRequirements = Fixtures.requirements
    ) throws(JOSEError) -> VerifiedJWT {
        try (verifier ?? providerVerifier).verify(token, requirements: requirements, at: Fixtures.now, keys: Fixtures.keySet)
    }

    func expectRejection(_ code: JOSEError.Code, _ body: () throws(JOSEError) -> VerifiedJWT) {
        do {
            _ = try body()
            Issue.record("the token was accepted; expected \(code)")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test(arguments: [JWSAlgorithm.RS256, .ES256])
    func acceptsAValidTokenAndReturnsItsClaims(algorithm: JWSAlgorithm) throws {
        let signer = algorithm == .RS256 ? rsaSigner : ecSigner
        let verified = try verify(try signer.sign(Fixtures.claims()))
        #expect(verified.header == JWSHeader(algorithm: algorithm, keyID: signer.keyID, type: "JWT"))
        #expect(verified.claims == Fixtures.claims())
    }

    @Test func acceptsTheServersOwnHS256Tokens() throws {
        let signer = JWTSigner(key: Fixtures.hmac, keyID: "server-1")
        var claims = Fixtures.claims()
        claims.additional["sid"] = "session-9"
        let token = try signer.sign(claims)
        let verifier = JWTVerifier(algorithms: [.HS256])
        let verified = try verifier.verify(token, requirements: Fixtures.requirements, at: Fixtures.now) { header in
            header.keyID == "server-1" ? Fixtures.hmac.verificationKey(keyID: "server-1") : nil
        }
        #expect(verified.claims.additional["sid"] == "session-9")
    }

    @Test func rejectsAlgNone() throws {
        let token = try handmadeToken(header: #"{"alg":"none","typ":"JWT"}"#)
        expectRejection(.unsupportedAlgorithm) { () throws(JOSEError) in try verify(token) }
        expectRejection(.unsupportedAlgorithm) { () throws(JOSEError) in try verify(token + "c2ln") }
    }

    @Test func rejectsHS256SignedWithTheRSAPublicKeyAsSecretWhenOnlyRS256IsPinned() throws {
        let token = try hs256WithThePublicKeyAsSecret()
        expectRejection(.unsupportedAlgorithm) { () throws(JOSEError) in
            try verify(token, verifier: JWTVerifier(algorithms: [.RS256]))
        }
    }

    @Test func rejectsHS256SignedWithTheRSAPublicKeyAsSecretEvenWhenHS256IsAccepted() throws {
        let token = try hs256WithThePublicKeyAsSecret()
        expectRejection(.algorithmMismatch) { () throws(JOSEError) in
            try verify(token, verifier: JWTVerifier(algorithms: [.HS256, .RS256]))
        }
    }

    /// The classic key-confusion attack: the RSA public key's PEM bytes used as an HMAC secret.
    private func hs256WithThePublicKeyAsSecret() throws -> String {
        let publicPEM = try #require(Fixtures.rsa.verificationKey().publicKeyPEM)
        let signer = JWTSigner(key: try SigningKey.hmacSHA256(secret: Array(publicPEM.utf8)), keyID: "rsa-1")
        return try signer.sign(Fixtures.claims())
    }

    @Test func rejectsATokenWhoseKeyTypeDoesNotFitItsAlgorithm() throws {
        // An ES256 token whose kid names the RSA key.
        let token = try JWTSigner(key: Fixtures.ec, keyID: "rsa-1").sign(Fixtures.claims())
        expectRejection(.algorithmMismatch) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsAnUnknownKid() throws {
        let token = try JWTSigner(key: Fixtures.rsa, keyID: "rsa-2").sign(Fixtures.claims())
        expectRejection(.unknownKey) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsATokenSignedByAnotherKeyUnderAKnownKid() throws {
        let token = try JWTSigner(key: Fixtures.otherRSA, keyID: "rsa-1").sign(Fixtures.claims())
        expectRejection(.badSignature) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsTheWrongIssuer() throws {
        let token = try rsaSigner.sign(Fixtures.claims(issuer: "https://evil.example"))
        expectRejection(.wrongIssuer) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsTheWrongAudience() throws {
        let token = try rsaSigner.sign(Fixtures.claims(audience: ["another-client"]))
        expectRejection(.wrongAudience) { () throws(JOSEError) in try verify(token) }
    }

    @Test func acceptsAnAudienceArrayThatContainsAnAcceptedClient() throws {
        let token = try rsaSigner.sign(Fixtures.claims(audience: ["another-client", Fixtures.audience]))
        #expect(try verify(token).claims.audience == ["another-client", Fixtures.audience])
    }

    @Test func rejectsAnExpiredToken() throws {
        let token = try rsaSigner.sign(Fixtures.claims(expiresAt: 1_700_000_000 - 61))
        expectRejection(.expired) { () throws(JOSEError) in try verify(token) }
    }

    @Test func toleratesClockSkewWithinTheLeeway() throws {
        let token = try rsaSigner.sign(Fixtures.claims(expiresAt: 1_700_000_000 - 59, notBefore: 1_700_000_059))
        #expect(try verify(token).claims.subject == "user-1")
    }

    @Test func rejectsATokenWithoutExpiry() throws {
        let claims = JWTClaims(issuer: Fixtures.issuer, subject: "user-1", audience: [Fixtures.audience])
        let token = try rsaSigner.sign(claims)
        expectRejection(.missingClaim) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsATokenNotValidYet() throws {
        let token = try rsaSigner.sign(Fixtures.claims(notBefore: 1_700_000_061))
        expectRejection(.notYetValid) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsATokenIssuedInTheFuture() throws {
        let token = try rsaSigner.sign(Fixtures.claims(issuedAt: 1_700_000_061.5))
        expectRejection(.issuedInFuture) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsTheWrongNonce() throws {
        let token = try rsaSigner.sign(Fixtures.claims(nonce: "nonce-a"))
        var requirements = Fixtures.requirements
        requirements.nonce = "nonce-b"
        expectRejection(.nonceMismatch) { () throws(JOSEError) in try verify(token, requirements: requirements) }
        requirements.nonce = "nonce-a"
        #expect(try verify(token, requirements: requirements).claims.nonce == "nonce-a")
    }

    @Test func rejectsAMissingNonceWhenOneIsExpected() throws {
        let token = try rsaSigner.sign(Fixtures.claims())
        var requirements = Fixtures.requirements
        requirements.nonce = "nonce-a"
        expectRejection(.missingClaim) { () throws(JOSEError) in try verify(token, requirements: requirements) }
    }

    @Test func rejectsATamperedPayload() throws {
        let token = try rsaSigner.sign(Fixtures.claims())
        let (header, _, signature) = parts(of: token)
        var forged = Fixtures.claims()
        forged.subject = "admin"
        let payload = try handmadeToken(header: "{}", claims: forged).split(separator: ".")[1]
        expectRejection(.badSignature) { () throws(JOSEError) in try verify("\(header).\(payload).\(signature)") }
    }

    @Test(arguments: [JWSAlgorithm.RS256, .ES256])
    func rejectsATruncatedSignature(algorithm: JWSAlgorithm) throws {
        let token = try (algorithm == .RS256 ? rsaSigner : ecSigner).sign(Fixtures.claims())
        let (header, payload, signature) = parts(of: token)
        let truncated = Base64URL.encode(try #require(Base64URL.decode(signature)).dropLast(3))
        expectRejection(.badSignature) { () throws(JOSEError) in try verify("\(header).\(payload).\(truncated)") }
    }

    @Test func rejectsAnES256SignatureInDERForm() throws {
        let token = try ecSigner.sign(Fixtures.claims())
        let (header, payload, signature) = parts(of: token)
        let raw = try #require(Base64URL.decode(signature))
        #expect(raw.count == 64)
        let der = derEncoding(r: Array(raw[..<32]), s: Array(raw[32...]))
        expectRejection(.badSignature) { () throws(JOSEError) in
            try verify("\(header).\(payload).\(Base64URL.encode(der))")
        }
    }

    /// The DER `SEQUENCE { INTEGER r, INTEGER s }` OpenSSL would produce.
    private func derEncoding(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 & 0x80 != 0 }) ?? true { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    @Test func rejectsCriticalHeaderExtensions() throws {
        let token = try rsaSigner.sign(Fixtures.claims())
        let (_, payload, signature) = parts(of: token)
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"rsa-1","crit":["exp"],"exp":1}"#.utf8))
        expectRejection(.malformedToken) { () throws(JOSEError) in try verify("\(header).\(payload).\(signature)") }
    }

    @Test(arguments: [
        "", "abc", "a.b", "a.b.c.d", "eyJhbGciOiJSUzI1NiJ9..", "eyJhbGciOiJSUzI1NiJ9.e30=.c2ln",
        "eyJhbGciOiJSUzI1NiJ9.e30.c2ln+", "bm90IGpzb24.e30.c2ln", "eyJhbGciOjF9.e30.c2ln",
    ])
    func rejectsMalformedCompactTokens(token: String) {
        expectRejection(.malformedToken) { () throws(JOSEError) in try verify(token) }
    }

    @Test func rejectsClaimsThatAreNotAnObjectOfTheRegisteredTypes() throws {
        let signer = JWTSigner(key: Fixtures.rsa, keyID: "rsa-1")
        expectRejection(.malformedToken) { () throws(JOSEError) in try verify(try signer.sign([1, 2, 3])) }
        expectRejection(.malformedToken) { () throws(JOSEError) in try verify(try signer.sign(["exp": "tomorrow"])) }
    }

    @Test func rejectsTokensOverTheLengthLimit() throws {
        let token = try rsaSigner.sign(Fixtures.claims())
        expectRejection(.malformedToken) { () throws(JOSEError) in
            try verify(token, verifier: JWTVerifier(algorithms: [.RS256], maximumTokenLength: token.utf8.count - 1))
        }
    }

    @Test func neverPutsTheTokenIntoTheErrorMessage() throws {
        let token = try rsaSigner.sign(Fixtures.claims(expiresAt: 1))
        do {
            _ = try verify(token)
        } catch {
            #expect(!error.message.contains(parts(of: token).payload))
            #expect(!error.description.contains(parts(of: token).signature))
        }
    }
}
