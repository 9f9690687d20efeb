import COpenSSL

/// AES-128 in Galois/Counter Mode (NIST SP 800-38D) through OpenSSL: authenticated encryption
/// with a 16-byte key, a 12-byte nonce and a 16-byte tag.
public enum AES128GCM {
    /// The key length in bytes.
    public static let keyLength = 16
    /// The nonce length in bytes.
    public static let nonceLength = 12
    /// The tag length in bytes.
    public static let tagLength = 16

    /// `plaintext` encrypted under `key` and `nonce`, followed by the tag (no additional data).
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(key.count == keyLength && nonce.count == nonceLength, "AES-128-GCM takes a 16-byte key and a 12-byte nonce")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("OpenSSL EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var written: Int32 = 0
        var finished: Int32 = 0
        let sealed = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1,
                EVP_EncryptUpdate(context, buffer.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1,
                EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &finished) == 1
            else { return false }
            return hearth_evp_gcm_get_tag(context, buffer.baseAddress! + Int(written + finished), Int32(tagLength)) == 1
        }
        precondition(sealed && Int(written + finished) == plaintext.count, "OpenSSL AES-128-GCM encryption failed")
        return output
    }
}
