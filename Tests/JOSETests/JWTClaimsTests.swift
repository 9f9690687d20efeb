import FoundationEssentials
import JOSE
import Testing

@Suite struct JWTClaimsTests {
    func decode(_ json: String) throws -> JWTClaims {
        try JSONDecoder().decode(JWTClaims.self, from: Data(json.utf8))
    }

    @Test func readsTheAudienceAsAStringOrAnArray() throws {
        #expect(try decode(#"{"aud":"a"}"#).audience == ["a"])
        #expect(try decode(#"{"aud":["a","b"]}"#).audience == ["a", "b"])
        #expect(try decode("{}").audience == [])
        #expect(throws: DecodingError.self) { try decode(#"{"aud":5}"#) }
    }

    @Test func readsEmailVerifiedAsABooleanOrAppleStyleString() throws {
        #expect(try decode(#"{"email_verified":true}"#).emailVerified == true)
        #expect(try decode(#"{"email_verified":"true"}"#).emailVerified == true)
        #expect(try decode(#"{"email_verified":"false"}"#).emailVerified == false)
        #expect(try decode("{}").emailVerified == nil)
        #expect(throws: DecodingError.self) { try decode(#"{"email_verified":"yes"}"#) }
    }

    @Test func readsFractionalNumericDates() throws {
        let claims = try decode(#"{"exp":1700000600.25,"nbf":1700000000,"iat":1.7e9}"#)
        #expect(claims.expiresAt == 1_700_000_600.25)
        #expect(claims.notBefore == 1_700_000_000)
        #expect(claims.issuedAt == 1_700_000_000)
        #expect(throws: DecodingError.self) { try decode(#"{"exp":"soon"}"#) }
    }

    @Test func keepsOtherStringClaimsAndIgnoresOtherTypes() throws {
        let claims = try decode(#"{"sub":"u","sid":"s-1","is_private_email":"true","auth_time":1700000000,"amr":["pwd"]}"#)
        #expect(claims.additional == ["sid": "s-1", "is_private_email": "true"])
    }

    @Test func encodesWholeSecondsAsIntegersAndASingleAudienceAsAString() throws {
        let claims = JWTClaims(
            issuer: "i", audience: ["a"], expiresAt: 1_700_000_600, issuedAt: 1_700_000_000.5, additional: ["sid": "s"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(claims), as: UTF8.self)
        #expect(json == #"{"aud":"a","exp":1700000600,"iat":1700000000.5,"iss":"i","sid":"s"}"#)
        #expect(try decode(json) == claims)
    }
}
