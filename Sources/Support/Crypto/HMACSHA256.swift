import COpenSSL

/// HMAC with SHA-256 (RFC 2104) through OpenSSL.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withNonNullBytes { key, keyCount in
            message.withNonNullBytes { message, messageCount in
                HMAC(EVP_sha256(), key, Int32(keyCount), message, messageCount, &code, &length)
            }
        }
        // HMAC fails only when allocation fails; not recoverable.
        precondition(result != nil, "OpenSSL HMAC(SHA-256) failed")
        return Array(code.prefix(Int(length)))
    }
}
