/// Why a token, a key or a key set was refused. The message describes the problem for logs
/// and never contains the token, a signature or key material.
public struct JOSEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, to match on.
    public enum Code: Sendable, Hashable {
        /// Not three base64url parts, not JSON, wrong claim types, too long, or a `crit` header.
        case malformedToken
        /// The header's `alg` is `none`, unknown, or not one the verifier accepts.
        case unsupportedAlgorithm
        /// The key found for the token cannot be used with its `alg` (an HS256 token checked
        /// against an RSA key, or a key whose JWK `alg` names another algorithm).
        case algorithmMismatch
        /// No key with the token's `kid`.
        case unknownKey
        /// The signature does not verify.
        case badSignature
        /// `exp` is past (beyond the leeway).
        case expired
        /// `nbf` is in the future (beyond the leeway).
        case notYetValid
        /// `iat` is in the future (beyond the leeway).
        case issuedInFuture
        /// `iss` is not an accepted issuer.
        case wrongIssuer
        /// No `aud` value is an accepted audience.
        case wrongAudience
        /// `nonce` differs from the expected one.
        case nonceMismatch
        /// A required claim (`exp`, `iss`, `aud`, `nonce`) is absent.
        case missingClaim
        /// A key is malformed, of an unsupported kind, or too weak (RSA under 2048 bits, HMAC
        /// secret under 32 bytes).
        case invalidKey
        /// A JWKS document is not a JSON object with a `keys` array.
        case malformedKeySet
        /// The key set could not be fetched and no recent copy is available.
        case keySetUnavailable
        /// The claims could not be encoded as JSON.
        case unencodableClaims
    }

    /// What went wrong.
    public let code: Code
    /// A description for logs.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, for logs.
    public var description: String { "JOSEError(\(code)): \(message)" }
}
