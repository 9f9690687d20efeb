import FoundationEssentials
import Support

/// A token in JWS compact serialization (`header.payload.signature`), split and decoded but
/// not yet verified.
struct CompactJWS {
    var header: JWSHeader
    /// The decoded payload (the claims JSON).
    var payload: [UInt8]
    /// The ASCII bytes of `header.payload`, which the signature covers.
    var signingInput: [UInt8]
    var signature: [UInt8]

    /// Parses `token` strictly: exactly three parts of canonical unpadded base64url, a
    /// header that is a JSON object with a string `alg` naming a supported algorithm and
    /// no `crit`, a non-empty payload and signature.
    ///
    /// - Throws: `.malformedToken`; `.unsupportedAlgorithm` for `none` or an unknown `alg`.
    init(parsing token: String, maximumLength: Int) throws(JOSEError) {
        let bytes = token.utf8
        guard bytes.count <= maximumLength else {
            throw JOSEError(.malformedToken, "token longer than \(maximumLength) bytes")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JOSEError(.malformedToken, "a compact JWS has three parts") }
        guard let headerBytes = Base64URL.decode(Substring(parts[0])) else {
            throw JOSEError(.malformedToken, "token header is not base64url")
        }
        let raw: RawJWSHeader
        do {
            raw = try JSONDecoder().decode(RawJWSHeader.self, from: Data(headerBytes))
        } catch {
            throw JOSEError(.malformedToken, "token header is not a JSON object with a string alg")
        }
        guard raw.crit == nil else {
            throw JOSEError(.malformedToken, "token header lists critical extensions, none of which are supported")
        }
        guard let algorithm = JWSAlgorithm(rawValue: raw.alg) else {
            throw JOSEError(.unsupportedAlgorithm, "token algorithm is not supported")
        }
        guard let payload = Base64URL.decode(Substring(parts[1])), !payload.isEmpty,
            let signature = Base64URL.decode(Substring(parts[2])), !signature.isEmpty
        else {
            throw JOSEError(.malformedToken, "token payload or signature is empty or not base64url")
        }
        header = JWSHeader(algorithm: algorithm, keyID: raw.kid, type: raw.typ)
        self.payload = payload
        signingInput = Array(bytes[parts[0].startIndex..<parts[1].endIndex])
        self.signature = signature
    }
}
