import FoundationEssentials
import Support

/// Issues JSON Web Tokens in compact serialization, signed with one key.
public struct JWTSigner: Sendable {
    /// The key tokens are signed with.
    public let key: SigningKey
    /// The `kid` written into every header, so verifiers can pick the key after a rotation.
    public let keyID: String?
    /// The encoded header, the same for every token.
    private let encodedHeader: String

    /// A signer with `key`, writing `kid` = `keyID` and `typ` = `type` into the header.
    public init(key: SigningKey, keyID: String? = nil, type: String? = "JWT") {
        self.key = key
        self.keyID = keyID
        let header = RawJWSHeader(alg: key.algorithm.rawValue, kid: keyID, typ: type, crit: nil)
        encodedHeader = Base64URL.encode(Self.json(header) ?? [])
    }

    /// The compact token for `claims` (usually `JWTClaims`, or any type encoding to a JSON object).
    ///
    /// - Throws: `.unencodableClaims` when `claims` does not encode to JSON.
    public func sign(_ claims: some Encodable) throws(JOSEError) -> String {
        guard let payload = Self.json(claims) else {
            throw JOSEError(.unencodableClaims, "claims could not be encoded as JSON")
        }
        let signingInput = encodedHeader + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(key.sign(Array(signingInput.utf8)))
    }

    private static func json(_ value: some Encodable) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map(Array.init)
    }
}
