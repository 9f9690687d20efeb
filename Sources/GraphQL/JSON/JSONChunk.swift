/// Eight bytes of JSON string text tested at once, for the writer (is there anything to escape?)
/// and the parser (is there anything to look at?).
enum JSONChunk {
    /// The top bit of each byte.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The top bit set in some byte of the result when a byte of `chunk` must be escaped in a
    /// JSON string (a control character, `"` or `\`); zero when none must. A chunk has a byte
    /// below 0x20 when `(x - 0x20…20) & ~x & 0x80…80` is not zero (a borrow into a byte's top
    /// bit that the byte did not have; exact for whether any byte does), and a byte equal to `"`
    /// or `\` when the chunk XOR that byte repeated has a zero byte. Which bytes are marked is
    /// exact only up to the first; byte order does not matter.
    @inline(__always)
    static func escapes(in chunk: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = chunk ^ (ones &* 0x22)
        let backslashes = chunk ^ (ones &* 0x5C)
        let control = (chunk &- ones &* 0x20) & ~chunk
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highBits
    }
}
