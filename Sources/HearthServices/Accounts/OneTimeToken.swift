import Support

/// A secret handed to a client once, in a response (a refresh token): 256 random bits,
/// base64url. Only its SHA-256 ``digest`` is stored, so a copy of the database cannot be used
/// to sign in. (Tokens that travel by email are ``LinkToken``s instead: the server must make
/// them again at send time, which a digest cannot do.)
public struct OneTimeToken: Sendable {
    /// The secret, to give to the client.
    public let value: String
    /// What is stored and looked up.
    public var digest: [UInt8] { Self.digest(of: value) }

    /// A new random token.
    public init() {
        value = Base64URL.encode(SecureRandom.bytes(32))
    }

    /// The stored form of a token a client presents.
    public static func digest(of presented: String) -> [UInt8] {
        SHA256.digest(Array(presented.utf8))
    }
}
