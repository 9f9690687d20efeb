import COpenSSL

/// SHA-256 of migration text, as lowercase hex: what `schema_migrations.checksum` holds.
enum Checksum {
    static func sha256Hex(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        let status = bytes.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest fails only on allocation failure or a missing algorithm in a broken
        // OpenSSL installation; there is no sensible way to carry on without checksums.
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
