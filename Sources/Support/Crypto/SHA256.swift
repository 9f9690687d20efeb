import COpenSSL

/// SHA-256 through OpenSSL's EVP interface: migration checksums and Automatic Persisted
/// Query hashes.
public enum SHA256 {
    /// The digest of `text`'s UTF-8 bytes as 64 lowercase hexadecimal digits (the form of
    /// `schema_migrations.checksum` and of APQ's `extensions.persistedQuery.sha256Hash`).
    public static func hexDigest(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        var bytes = Array(text.utf8)
        let status = bytes.withUnsafeMutableBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest fails only when allocation fails or SHA-256 is missing from a broken
        // OpenSSL installation; neither is recoverable.
        precondition(status == 1, "OpenSSL EVP_Digest(SHA-256) failed")
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
