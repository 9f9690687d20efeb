// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// An incremental UTF-8 validator: feed it a message's bytes in any pieces and it rejects the first byte that
/// cannot continue a well-formed sequence (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
/// That is what lets the WebSocket decoder fail a text message inside a fragment, as soon as the bad byte
/// arrives, rather than after the whole message was buffered.
struct UTF8Validator: Sendable {
    /// Continuation bytes still expected by the sequence in progress.
    private var remaining = 0
    /// The allowed range of the next continuation byte (it is narrower than 80...BF right after some leads).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Whether the bytes so far end on a character boundary (a message may only end there).
    var isAtBoundary: Bool { remaining == 0 }

    /// Forgets the sequence in progress, for the next message.
    mutating func reset() {
        remaining = 0
        lower = 0x80
        upper = 0xBF
    }

    /// Validates the next bytes. - Returns: false at the first byte that makes the text invalid.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index += 1
            if remaining == 0 {
                if byte < 0x80 {
                    // ASCII runs are the common case; skip them quickly.
                    while index < count && bytes[index] < 0x80 { index += 1 }
                    continue
                }
                switch byte {
                case 0xC2...0xDF: remaining = 1
                case 0xE0: remaining = 2; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
                case 0xED: remaining = 2; upper = 0x9F
                case 0xF0: remaining = 3; lower = 0x90
                case 0xF1...0xF3: remaining = 3
                case 0xF4: remaining = 3; upper = 0x8F
                default: return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Whether `bytes` is complete, valid UTF-8.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isAtBoundary
    }
}
