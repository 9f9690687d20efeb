/// The protected header of a compact JWS, as far as verification uses it.
public struct JWSHeader: Sendable, Hashable {
    /// `alg`: one of the supported algorithms (a header naming any other is refused while
    /// parsing).
    public let algorithm: JWSAlgorithm
    /// `kid`: the key the token claims to be signed with.
    public let keyID: String?
    /// `typ`, when present (`JWT`, or e.g. `at+jwt`).
    public let type: String?

    /// Creates a header.
    public init(algorithm: JWSAlgorithm, keyID: String? = nil, type: String? = "JWT") {
        self.algorithm = algorithm
        self.keyID = keyID
        self.type = type
    }
}

/// The JSON shape of a header. `crit` is decoded only to be refused: this library
/// understands no extension, so RFC 7515 §4.1.11 requires rejecting any token listing one.
struct RawJWSHeader: Codable {
    var alg: String
    var kid: String?
    var typ: String?
    var crit: [String]?
}
