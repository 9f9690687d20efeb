/// SplitMix64: a small seeded generator, so a simulation run is reproduced by its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A lowercase, hyphenated version-4 UUID drawn from the sequence (what a phone makes offline).
    mutating func uuid() -> String {
        let high = (next() & ~0xF000) | 0x4000
        let low = (next() & ~(0b11 << 62)) | (0b10 << 62)
        let hex = Self.hex(high) + Self.hex(low)
        func part(_ from: Int, _ length: Int) -> Substring {
            let start = hex.index(hex.startIndex, offsetBy: from)
            return hex[start..<hex.index(start, offsetBy: length)]
        }
        return "\(part(0, 8))-\(part(8, 4))-\(part(12, 4))-\(part(16, 4))-\(part(20, 12))"
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
