/// HKDF with HMAC-SHA-256 (RFC 5869), built on ``HMACSHA256``.
public enum HKDFSHA256 {
    /// The pseudorandom key of the extract step: `HMAC(salt, inputKeyMaterial)`.
    public static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: salt, message: inputKeyMaterial)
    }

    /// The first `length` bytes of the expand step's output for `info` (at most 255 × 32).
    public static func expand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition(length >= 0 && length <= 255 * 32, "HKDF-SHA-256 produces at most 8160 bytes")
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = HMACSHA256.authenticationCode(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// Extract then expand: `length` bytes of keying material.
    public static func derive(salt: [UInt8], inputKeyMaterial: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        expand(pseudorandomKey: extract(salt: salt, inputKeyMaterial: inputKeyMaterial), info: info, length: length)
    }
}
