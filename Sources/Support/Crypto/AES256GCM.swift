/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) through OpenSSL: authenticated encryption
/// with a 32-byte key, a 12-byte nonce and a 16-byte tag, for secrets kept at rest.
public enum AES256GCM {
    /// The key length in bytes.
    public static let keyLength = 32
    /// The nonce length in bytes.
    public static let nonceLength = AESGCM.nonceLength
    /// The tag length in bytes.
    public static let tagLength = AESGCM.tagLength

    /// `plaintext` encrypted under `key` and `nonce`, followed by the tag (no additional data).
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(key.count == keyLength, "AES-256-GCM takes a 32-byte key")
        return AESGCM.seal(plaintext, key: key, nonce: nonce)
    }

    /// The plaintext of `sealed` (ciphertext then tag), or nil when the tag does not verify.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        precondition(key.count == keyLength, "AES-256-GCM takes a 32-byte key")
        return AESGCM.open(sealed, key: key, nonce: nonce)
    }
}
