/// Strict UTF-8 decoding shared by the GraphQL lexer and the JSON parser, which both work on
/// bytes and must reject ill-formed input instead of repairing it.
enum UTF8Decoding {
    /// The byte a one-character escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`,
    /// `\t`), given the character after the backslash; shared by GraphQL strings and JSON.
    /// nil for `u` and anything else.
    static func simpleEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x22: 0x22
        case 0x5C: 0x5C
        case 0x2F: 0x2F
        case 0x62: 0x08
        case 0x66: 0x0C
        case 0x6E: 0x0A
        case 0x72: 0x0D
        case 0x74: 0x09
        default: nil
        }
    }

    /// Decodes the well-formed UTF-8 sequence at `offset` (Unicode Table 3-7: no overlong
    /// forms, no surrogates, nothing above U+10FFFF).
    /// - Returns: The scalar and the sequence's length, or `nil` if the bytes are ill-formed.
    static func decodeScalar(_ bytes: [UInt8], at offset: Int) -> (UInt32, Int)? {
        let count = bytes.count
        let b0 = bytes[offset]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        func continuation(_ index: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> UInt32? {
            guard index < count, range.contains(bytes[index]) else { return nil }
            return UInt32(bytes[index] & 0x3F)
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = continuation(offset + 1) else { return nil }
            return (UInt32(b0 & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            let range: ClosedRange<UInt8> = b0 == 0xE0 ? 0xA0...0xBF : b0 == 0xED ? 0x80...0x9F : 0x80...0xBF
            guard let c1 = continuation(offset + 1, range), let c2 = continuation(offset + 2) else { return nil }
            return (UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2, 3)
        case 0xF0...0xF4:
            let range: ClosedRange<UInt8> = b0 == 0xF0 ? 0x90...0xBF : b0 == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            guard let c1 = continuation(offset + 1, range), let c2 = continuation(offset + 2),
                let c3 = continuation(offset + 3)
            else { return nil }
            return (UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3, 4)
        default:
            return nil
        }
    }
}
