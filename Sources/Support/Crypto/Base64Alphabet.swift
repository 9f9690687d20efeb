/// One of RFC 4648's 64-character alphabets, encoding and decoding without padding: the
/// URL-safe one (§5) for JOSE and tokens, the standard one (§4) for PHC password strings.
struct Base64Alphabet: Sendable {
    /// The standard alphabet (`+` and `/`).
    static let standard = Base64Alphabet(characters: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    /// The URL- and filename-safe alphabet (`-` and `_`).
    static let url = Base64Alphabet(characters: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private let encoding: [UInt8]
    /// Each byte's 6-bit value, or 0xFF for bytes outside the alphabet.
    private let decoding: [UInt8]

    private init(characters: String) {
        encoding = Array(characters.utf8)
        var decoding = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in encoding.enumerated() { decoding[Int(character)] = UInt8(value) }
        self.decoding = decoding
    }

    /// `bytes` as text without `=` padding.
    func encode(_ bytes: some Collection<UInt8>) -> String {
        // Callers in other modules get this generic function unspecialized: encode a
        // contiguous buffer instead, so the loop below is specialized code.
        bytes.withContiguousStorageIfAvailable(encode(buffer:)) ?? encode(buffer: Array(bytes))
    }

    private func encode(buffer bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(encode(buffer:))
    }

    private func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(encoding[Int(group >> 18 & 0x3F)])
            output.append(encoding[Int(group >> 12 & 0x3F)])
            if second != nil { output.append(encoding[Int(group >> 6 & 0x3F)]) }
            if third != nil { output.append(encoding[Int(group & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it holds a character outside the alphabet
    /// (padding included), has an impossible length, or sets bits past the last byte (so
    /// every byte string has exactly one accepted encoding).
    func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = text.utf8
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = decoding[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return output
    }
}
