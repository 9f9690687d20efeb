/// AES-128 in Galois/Counter Mode (NIST SP 800-38D) through OpenSSL: authenticated encryption
/// with a 16-byte key, a 12-byte nonce and a 16-byte tag.
public enum AES128GCM {
    /// The key length in bytes.
    public static let keyLength = 16
    /// The nonce length in bytes.
    public static let nonceLength = AESGCM.nonceLength
    /// The tag length in bytes.
    public static let tagLength = AESGCM.tagLength

    /// `plaintext` encrypted under `key` and `nonce`, followed by the tag (no additional data).
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(key.count == keyLength, "AES-128-GCM takes a 16-byte key")
        return AESGCM.seal(plaintext, key: key, nonce: nonce)
    }
}
