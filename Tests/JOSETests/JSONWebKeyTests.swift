import COpenSSL
import FoundationEssentials
import JOSE
import Support
import Testing

@Suite struct JSONWebKeyTests {
    @Test func publishesAndReadsBackRSAAndECKeys() throws {
        let json = Fixtures.keySet.jsonRepresentation()
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""kty":"RSA""#) && text.contains(#""crv":"P-256""#))
        #expect(!text.contains(#""d":"#))
        let parsed = try JSONWebKeySet(json: json)
        #expect(parsed.keys.map(\.keyID) == ["rsa-1", "ec-1"])
        #expect(parsed.keys.map(\.type) == [.rsa, .ellipticCurveP256])
        #expect(parsed.keys.map(\.algorithm) == [.RS256, .ES256])
        let token = try JWTSigner(key: Fixtures.ec, keyID: "ec-1").sign(Fixtures.claims())
        let verified = try JWTVerifier(algorithms: [.ES256])
            .verify(token, requirements: Fixtures.requirements, at: Fixtures.now, keys: parsed)
        #expect(verified.claims.subject == "user-1")
    }

    @Test func leavesSymmetricKeysOutOfThePublishedSet() throws {
        let set = JSONWebKeySet(keys: [Fixtures.hmac.verificationKey(keyID: "secret")])
        #expect(try JSONWebKeySet(json: set.jsonRepresentation()).keys.isEmpty)
    }

    @Test func skipsKeysOfUnsupportedKindsButKeepsTheRest() throws {
        let rsa = String(decoding: Fixtures.keySet.jsonRepresentation(), as: UTF8.self)
            .split(separator: "[", maxSplits: 1)[1].split(separator: "]")[0]
        let json = """
            {"keys": [
              {"kty": "oct", "k": "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0", "kid": "oct"},
              {"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "okp"},
              {"kty": "EC", "crv": "P-384", "x": "AA", "y": "AA", "kid": "p384"},
              {"kty": "RSA", "use": "enc", "n": "AQAB", "e": "AQAB", "kid": "enc"},
              {"kty": "RSA", "alg": "RS512", "n": "AQAB", "e": "AQAB", "kid": "rs512"},
              "not an object",
              \(rsa)
            ]}
            """
        let set = try JSONWebKeySet(json: Array(json.utf8))
        #expect(set.keys.map(\.keyID) == ["rsa-1", "ec-1"])
    }

    @Test(arguments: ["", "[]", #"{"keys": {}}"#, #"{"other": []}"#, "not json"])
    func rejectsDocumentsThatAreNotKeySets(json: String) {
        #expect(throws: JOSEError(.malformedKeySet, "not a JSON Web Key Set document")) {
            try JSONWebKeySet(json: Array(json.utf8))
        }
    }

    @Test func rejectsRSAKeysUnder2048Bits() throws {
        let weak = try #require(hearth_generate_rsa_key(1024))
        defer { EVP_PKEY_free(weak) }
        let json = #"{"kty":"RSA","kid":"weak","n":"\#(Base64URL.encode(bigNumber(weak, "n")))","e":"AQAB"}"#
        do {
            _ = try JSONWebKey(json: Array(json.utf8))
            Issue.record("a 1024-bit RSA key was accepted")
        } catch {
            #expect(error.code == .invalidKey)
            #expect(error.message.contains("1024"))
        }
        #expect(try JSONWebKeySet(json: Array(#"{"keys":[\#(json)]}"#.utf8)).keys.isEmpty)
    }

    @Test func rejectsAnECPointThatIsNotOnTheCurve() throws {
        let good = try JSONWebKeySet(json: Fixtures.keySet.jsonRepresentation()).keys[1]
        #expect(good.type == .ellipticCurveP256)
        var y = try #require(Base64URL.decode(ecCoordinate("y")))
        y[31] ^= 1
        let json = #"{"kty":"EC","crv":"P-256","x":"\#(ecCoordinate("x"))","y":"\#(Base64URL.encode(y))"}"#
        #expect(throws: JOSEError.self) { try JSONWebKey(json: Array(json.utf8)) }
    }

    @Test func refusesAKeyWhoseAlgDoesNotFitItsType() throws {
        let json = #"{"kty":"EC","crv":"P-256","alg":"RS256","x":"\#(ecCoordinate("x"))","y":"\#(ecCoordinate("y"))"}"#
        #expect(throws: JOSEError.self) { try JSONWebKey(json: Array(json.utf8)) }
    }

    @Test func refusesHMACSecretsShorterThan32Bytes() {
        #expect(throws: JOSEError.self) { try SigningKey.hmacSHA256(secret: Array(repeating: 7, count: 31)) }
        #expect(throws: JOSEError.self) { try JSONWebKey.symmetric(secret: Array(repeating: 7, count: 31)) }
        #expect((try? SigningKey.hmacSHA256(secret: Array(repeating: 7, count: 32)))?.algorithm == .HS256)
    }

    @Test func roundTripsPrivateKeysThroughPEM() throws {
        for key in [Fixtures.rsa, Fixtures.ec] {
            let pem = try #require(key.privateKeyPEM)
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            let reloaded = try SigningKey(privateKeyPEM: pem)
            #expect(reloaded.algorithm == key.algorithm)
            let token = try JWTSigner(key: reloaded, keyID: key.algorithm == .RS256 ? "rsa-1" : "ec-1").sign(Fixtures.claims())
            _ = try JWTVerifier(algorithms: [.RS256, .ES256])
                .verify(token, requirements: Fixtures.requirements, at: Fixtures.now, keys: Fixtures.keySet)
        }
        #expect(Fixtures.hmac.privateKeyPEM == nil)
        #expect(throws: JOSEError.self) { try SigningKey(privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
    }

    /// A coordinate of the fixture EC key as published.
    private func ecCoordinate(_ name: String) -> String {
        let json = JSONWebKeySet(keys: [Fixtures.ec.verificationKey()]).jsonRepresentation()
        let document = try! JSONDecoder().decode([String: [[String: String]]].self, from: Data(json))
        return document["keys"]![0][name]!
    }

    private func bigNumber(_ key: OpaquePointer, _ name: String) -> [UInt8] {
        var number: OpaquePointer?
        precondition(EVP_PKEY_get_bn_param(key, name, &number) == 1)
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        BN_bn2bin(number, &bytes)
        return bytes
    }
}
