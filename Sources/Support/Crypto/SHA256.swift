import COpenSSL

/// SHA-256 through OpenSSL's EVP interface: migration checksums, Automatic Persisted
/// Query hashes, token digests.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withContiguousBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest fails only when allocation fails or SHA-256 is missing from a broken
        // OpenSSL installation; neither is recoverable.
        precondition(status == 1, "OpenSSL EVP_Digest(SHA-256) failed")
        return Array(digest.prefix(Int(length)))
    }

    /// The digest of `text`'s UTF-8 bytes as 64 lowercase hexadecimal digits (the form of
    /// `schema_migrations.checksum` and of APQ's `extensions.persistedQuery.sha256Hash`).
    public static func hexDigest(_ text: String) -> String {
        hexDigest(of: text.utf8)
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits (stored image digests, `ETag`s).
    public static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest(bytes) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
