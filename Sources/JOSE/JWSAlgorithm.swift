/// The JSON Web Signature algorithms this library signs and verifies (RFC 7518 §3). `none`
/// is deliberately not one of them.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, Codable {
    /// HMAC with SHA-256, for tokens the server issues and checks itself.
    case HS256
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Google, Apple).
    case RS256
    /// ECDSA on P-256 with SHA-256; signatures are the 64-byte `r || s` form.
    case ES256
}
