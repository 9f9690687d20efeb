import FoundationEssentials

/// Opaque, globally unique ids for stored objects: UUIDv7 (RFC 9562) in its lowercase text
/// form. The 48-bit millisecond timestamp first makes ids created later sort later, which
/// keeps SQLite's primary-key indexes append-mostly; 74 random bits (from the system's
/// CSPRNG, `getrandom`) make them unguessable.
public enum Identifier {
    /// A new id at `now`.
    public static func make(now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        for index in 6..<16 {
            let source = index < 14 ? random.0 >> (8 * (index - 6)) : random.1 >> (8 * (index - 14))
            bytes[index] = UInt8(truncatingIfNeeded: source)
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
