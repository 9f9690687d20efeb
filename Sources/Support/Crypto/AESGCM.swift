import COpenSSL

/// AES in Galois/Counter Mode (NIST SP 800-38D) through OpenSSL, for the key sizes ``AES128GCM``
/// and ``AES256GCM`` name: a 12-byte nonce, a 16-byte tag after the ciphertext, no additional
/// data. The one implementation both share.
enum AESGCM {
    /// The nonce length in bytes.
    static let nonceLength = 12
    /// The tag length in bytes.
    static let tagLength = 16

    /// The OpenSSL cipher of a key of `keyLength` bytes.
    private static func cipher(keyLength: Int) -> OpaquePointer? {
        switch keyLength {
        case 16: EVP_aes_128_gcm()
        case 32: EVP_aes_256_gcm()
        default: preconditionFailure("AES-GCM takes a 16- or 32-byte key")
        }
    }

    /// `plaintext` encrypted under `key` and `nonce`, followed by the tag.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(nonce.count == nonceLength, "AES-GCM takes a 12-byte nonce")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("OpenSSL EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var written: Int32 = 0
        var finished: Int32 = 0
        let sealed = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard EVP_EncryptInit_ex(context, cipher(keyLength: key.count), nil, key, nonce) == 1,
                EVP_EncryptUpdate(context, buffer.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1,
                EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &finished) == 1
            else { return false }
            return hearth_evp_gcm_get_tag(context, buffer.baseAddress! + Int(written + finished), Int32(tagLength)) == 1
        }
        precondition(sealed && Int(written + finished) == plaintext.count, "OpenSSL AES-GCM encryption failed")
        return output
    }

    /// The plaintext of `sealed` (ciphertext then tag) under `key` and `nonce`, or nil when the
    /// tag does not verify (a wrong key, or bytes changed).
    static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        precondition(nonce.count == nonceLength, "AES-GCM takes a 12-byte nonce")
        guard sealed.count >= tagLength else { return nil }
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("OpenSSL EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertext = Array(sealed.dropLast(tagLength))
        var tag = Array(sealed.suffix(tagLength))
        var output = [UInt8](repeating: 0, count: ciphertext.count + tagLength)
        var written: Int32 = 0
        var finished: Int32 = 0
        let opened = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard EVP_DecryptInit_ex(context, cipher(keyLength: key.count), nil, key, nonce) == 1,
                EVP_DecryptUpdate(context, buffer.baseAddress, &written, ciphertext, Int32(ciphertext.count)) == 1,
                hearth_evp_gcm_set_tag(context, &tag, Int32(tagLength)) == 1
            else { return false }
            return EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(written), &finished) == 1
        }
        guard opened else { return nil }
        return Array(output.prefix(Int(written + finished)))
    }
}
