/// Standard base64 (RFC 4648 §4, with padding), for the WebSocket handshake keys.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded base64 text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                output.append(position <= count ? alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of padded base64 text, or nil when it is not canonical base64 (wrong length, stray characters,
    /// misplaced padding, or non-zero bits in the last character).
    static func decode(_ text: Substring) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        for start in stride(from: 0, to: input.count, by: 4) {
            let isLast = start + 4 == input.count
            var group: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let character = input[start + offset]
                if character == UInt8(ascii: "=") {
                    guard isLast, offset >= 2 else { return nil }
                    padding += 1
                    group <<= 6
                    continue
                }
                guard padding == 0, let value = alphabet.firstIndex(of: character) else { return nil }
                group = group << 6 | UInt32(value)
            }
            let bytes = [UInt8(group >> 16), UInt8((group >> 8) & 0xFF), UInt8(group & 0xFF)]
            if padding == 2 && bytes[1] != 0 || padding >= 1 && bytes[2] != 0 { return nil }
            output.append(contentsOf: bytes[0..<(3 - padding)])
        }
        return output
    }
}
