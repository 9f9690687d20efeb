// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// Word-at-a-time scans of request heads. A head is a few hundred bytes of which the parser
/// looks at every one several times (line ends, field-value characters), and a credential
/// such as a bearer token makes up most of them; testing eight bytes per step with the
/// classic SWAR bit tricks keeps that cost independent of how long the values are.
///
/// Each word test may report a false "maybe" but never misses a byte it looks for; a
/// "maybe" is settled byte by byte.
extension ASCII {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is zero.
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }

    /// Whether some byte of `word` is below `limit` (at most 0x80).
    @inline(__always)
    private static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The offset of the first `byte` in `bytes` at or after `start`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        let pattern = ones &* UInt64(byte)
        var index = start
        while index + 8 <= bytes.count, !hasZeroByte(word(bytes, at: index) ^ pattern) {
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Whether every byte of `bytes` is a field-value character (``isFieldValueChar(_:)``).
    static func allFieldValueChars(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let delete = ones &* 0x7F
        var index = 0
        while index + 8 <= bytes.count {
            let word = word(bytes, at: index)
            // Control characters (HTAB among them, which is allowed) or DEL: look closer.
            if hasByteBelow(word, 0x20) || hasZeroByte(word ^ delete) {
                for offset in index..<index + 8 where !isFieldValueChar(bytes[offset]) { return false }
            }
            index += 8
        }
        while index < bytes.count {
            if !isFieldValueChar(bytes[index]) { return false }
            index += 1
        }
        return true
    }
}
