/// A token whose signature and claims were checked.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: JWSHeader
    /// The claims.
    public let claims: JWTClaims
    /// The payload's JSON bytes, to decode claims of other types with a type of the caller's.
    public let payload: [UInt8]
}
