import Support

/// Seals secrets the server must keep in the database (a Google refresh token, an OAuth PKCE
/// verifier) with AES-256-GCM under a key that lives in the key directory (`keys/secrets.key`),
/// never in the database: a copy of the database alone reveals none of them.
///
/// Sealed text reads `v1.<nonce>.<ciphertext and tag>` (base64url): the version names the key,
/// so a later rotation can add `v2` under a new key and still open what `v1` sealed. Every seal
/// draws a fresh random nonce, so the same secret sealed twice reads differently.
public struct SecretSealer: Sendable {
    /// The version of the current key, the prefix of what it seals.
    public static let version = "v1"
    private let key: [UInt8]

    /// A sealer under `key` (32 bytes).
    public init(key: [UInt8]) {
        precondition(key.count == AES256GCM.keyLength, "the secrets key has 32 bytes")
        self.key = key
    }

    /// `secret` sealed.
    public func seal(_ secret: String) -> String {
        let nonce = SecureRandom.bytes(AES256GCM.nonceLength)
        let sealed = AES256GCM.seal(Array(secret.utf8), key: key, nonce: nonce)
        return "\(Self.version).\(Base64URL.encode(nonce)).\(Base64URL.encode(sealed))"
    }

    /// The secret `text` sealed.
    /// - Throws: ``SecretSealerError`` when it is not sealed text of this key's version, or does
    ///   not open under the key (another key, or changed).
    public func open(_ text: String) throws(SecretSealerError) -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.version else { throw SecretSealerError("the sealed text is not of key version \(Self.version)") }
        guard let nonce = Base64URL.decode(String(parts[1])), nonce.count == AES256GCM.nonceLength,
            let sealed = Base64URL.decode(String(parts[2]))
        else { throw SecretSealerError("the sealed text is malformed") }
        guard let plaintext = AES256GCM.open(sealed, key: key, nonce: nonce) else {
            throw SecretSealerError("the sealed text does not open under keys/secrets.key (another key, or changed)")
        }
        return String(decoding: plaintext, as: UTF8.self)
    }
}

/// Why sealed text could not be opened.
public struct SecretSealerError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, without the secret.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
