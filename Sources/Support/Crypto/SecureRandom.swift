import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG: salts, tokens, keys.
public enum SecureRandom {
    /// `count` random bytes.
    ///
    /// Stops the process if OpenSSL cannot produce them: continuing with predictable
    /// bytes where secrets are expected would be worse than stopping.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "SecureRandom.bytes: count out of range")
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(status == 1, "OpenSSL RAND_bytes failed")
        return bytes
    }
}
