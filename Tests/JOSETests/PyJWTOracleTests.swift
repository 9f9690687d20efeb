import Foundation
import JOSE
import Support
import TestPython
import Testing

/// PyJWT (with `cryptography`) as an independent implementation: it signs tokens with keys we
/// generated and exported, which we must accept, and verifies the tokens we sign.
@Suite struct PyJWTOracleTests {
    static let secret = Array("a shared secret of at least thirty-two bytes".utf8)

    struct PythonFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with `input` as JSON on standard input and returns what it printed.
    func python(_ script: String, _ input: [String: Any]) throws -> String {
        let outcome = try TestPython.run(["-c", script], input: try JSONSerialization.data(withJSONObject: input))
        guard outcome.status == 0 else { throw PythonFailed(description: outcome.errors) }
        return outcome.output.trimmingWhitespace()
    }

    static let signScript = """
        import json, sys, jwt
        request = json.load(sys.stdin)
        key = bytes.fromhex(request["key"]) if request["alg"] == "HS256" else request["key"]
        print(jwt.encode(request["claims"], key, algorithm=request["alg"], headers={"kid": request["kid"]}))
        """

    static let verifyScript = """
        import json, sys, jwt
        request = json.load(sys.stdin)
        key = bytes.fromhex(request["key"]) if request["alg"] == "HS256" else request["key"]
        claims = jwt.decode(request["token"], key, algorithms=[request["alg"]], audience=request["audience"],
                            issuer=request["issuer"], options={"require": ["exp", "iat", "iss", "aud", "sub"]})
        print(json.dumps({"sub": claims["sub"], "kid": jwt.get_unverified_header(request["token"]).get("kid")}))
        """

    func pythonKey(_ algorithm: JWSAlgorithm, isPrivate: Bool) throws -> String {
        switch algorithm {
        case .HS256: return Self.secret.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        case .RS256: return try #require(isPrivate ? Fixtures.rsa.privateKeyPEM : Fixtures.rsa.verificationKey().publicKeyPEM)
        case .ES256: return try #require(isPrivate ? Fixtures.ec.privateKeyPEM : Fixtures.ec.verificationKey().publicKeyPEM)
        }
    }

    func verificationKey(_ algorithm: JWSAlgorithm) throws -> JSONWebKey {
        switch algorithm {
        case .HS256: try JSONWebKey.symmetric(secret: Self.secret, keyID: "k")
        case .RS256: Fixtures.rsa.verificationKey(keyID: "k")
        case .ES256: Fixtures.ec.verificationKey(keyID: "k")
        }
    }

    @Test(arguments: JWSAlgorithm.allCases)
    func acceptsTokensPyJWTSignedWithOurExportedKeys(algorithm: JWSAlgorithm) throws {
        let claims: [String: Any] = [
            "iss": Fixtures.issuer, "aud": Fixtures.audience, "sub": "user-py",
            "exp": 1_700_000_600, "iat": 1_699_999_990.5, "nonce": "n-1", "email_verified": "true",
        ]
        let token = try python(Self.signScript, [
            "alg": algorithm.rawValue, "key": try pythonKey(algorithm, isPrivate: true), "kid": "k", "claims": claims,
        ])
        var requirements = Fixtures.requirements
        requirements.nonce = "n-1"
        let key = try verificationKey(algorithm)
        let verified = try JWTVerifier(algorithms: [algorithm])
            .verify(token, requirements: requirements, at: Fixtures.now) { $0.keyID == "k" ? key : nil }
        #expect(verified.claims.subject == "user-py")
        #expect(verified.claims.issuedAt == 1_699_999_990.5)
        #expect(verified.claims.emailVerified == true)
    }

    @Test(arguments: JWSAlgorithm.allCases)
    func signsTokensPyJWTAccepts(algorithm: JWSAlgorithm) throws {
        let signingKey = algorithm == .HS256 ? try SigningKey.hmacSHA256(secret: Self.secret)
            : algorithm == .RS256 ? Fixtures.rsa : Fixtures.ec
        let now = Double(WallClock.now().seconds)
        let token = try JWTSigner(key: signingKey, keyID: "ours").sign(
            JWTClaims(issuer: Fixtures.issuer, subject: "user-swift", audience: [Fixtures.audience],
                      expiresAt: now + 600, issuedAt: now, tokenID: "j-1", additional: ["sid": "s-1"]))
        let output = try python(Self.verifyScript, [
            "alg": algorithm.rawValue, "key": try pythonKey(algorithm, isPrivate: false), "token": token,
            "audience": Fixtures.audience, "issuer": Fixtures.issuer,
        ])
        #expect(output == #"{"sub": "user-swift", "kid": "ours"}"#)
    }

    @Test func readsJWKsExportedByPyJWTAndPyJWTReadsOurs() throws {
        let script = """
            import json, sys, jwt
            from jwt.algorithms import RSAAlgorithm, ECAlgorithm
            from cryptography.hazmat.primitives.serialization import load_pem_public_key
            request = json.load(sys.stdin)
            ours = jwt.PyJWKSet.from_json(request["jwks"])
            keys = [json.loads(RSAAlgorithm.to_jwk(load_pem_public_key(request["rsa"].encode()))),
                    json.loads(ECAlgorithm.to_jwk(load_pem_public_key(request["ec"].encode())))]
            keys[0]["kid"], keys[1]["kid"] = "py-rsa", "py-ec"
            print(json.dumps({"keys": keys, "theirs": sorted(k.key_id for k in ours.keys)}))
            """
        let output = try python(script, [
            "jwks": String(decoding: Fixtures.keySet.jsonRepresentation(), as: UTF8.self),
            "rsa": try pythonKey(.RS256, isPrivate: false), "ec": try pythonKey(.ES256, isPrivate: false),
        ])
        #expect(output.hasSuffix(#""theirs": ["ec-1", "rsa-1"]}"#))
        let set = try JSONWebKeySet(json: Array(output.utf8))
        #expect(set.keys.map(\.keyID) == ["py-rsa", "py-ec"])
        let token = try JWTSigner(key: Fixtures.ec, keyID: "py-ec").sign(Fixtures.claims())
        let verified = try JWTVerifier(algorithms: [.ES256])
            .verify(token, requirements: Fixtures.requirements, at: Fixtures.now, keys: set)
        #expect(verified.header.keyID == "py-ec")
    }

    @Test func rejectsPyJWTsUnsecuredTokens() throws {
        let script = """
            import jwt
            print(jwt.encode({"iss": "https://issuer.example", "aud": "client-123", "sub": "x", "exp": 1700000600},
                             None, algorithm="none"))
            """
        let token = try python(script, [:])
        do {
            _ = try JWTVerifier(algorithms: Set(JWSAlgorithm.allCases))
                .verify(token, requirements: Fixtures.requirements, at: Fixtures.now, keys: Fixtures.keySet)
            Issue.record("an unsecured token was accepted")
        } catch {
            #expect(error.code == .unsupportedAlgorithm)
        }
    }
}
