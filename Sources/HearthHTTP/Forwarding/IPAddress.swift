import Glibc

/// An IPv4 or IPv6 address, held as 128 bits: IPv4 addresses in their IPv4-mapped IPv6 form
/// (`::ffff:a.b.c.d`), so one network type and one comparison serve both families, and a peer
/// that reaches a dual-stack socket as `::ffff:192.0.2.1` is the same address as `192.0.2.1`.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The upper 64 bits (network byte order: the first eight bytes of the address).
    let high: UInt64
    /// The lower 64 bits.
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a numeric address: dotted-quad IPv4 (`192.0.2.1`, no leading zeros) or IPv6 in any
    /// RFC 4291 text form (`2001:db8::1`, `::ffff:192.0.2.1`), without brackets, port or zone.
    /// Returns nil for anything else (host names included).
    public init?(_ text: some StringProtocol) {
        let string = String(text)
        var bytes = [UInt8](repeating: 0, count: 16)
        if string.utf8.contains(UInt8(ascii: ":")) {
            guard inet_pton(AF_INET6, string, &bytes) == 1 else { return nil }
        } else {
            var four = [UInt8](repeating: 0, count: 4)
            guard inet_pton(AF_INET, string, &four) == 1 else { return nil }
            bytes[10] = 0xFF
            bytes[11] = 0xFF
            bytes.replaceSubrange(12..<16, with: four)
        }
        self.init(bytes: bytes)
    }

    /// The address of 16 bytes in network order.
    init(bytes: [UInt8]) {
        precondition(bytes.count == 16, "an IP address has 16 bytes")
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether this is an IPv4 address (IPv4-mapped IPv6 included).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// Whether this is a loopback address: `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        isIPv4 ? (low >> 24) & 0xFF == 127 : high == 0 && low == 1
    }

    /// The 16 bytes in network order.
    var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }

    /// Dotted quad for IPv4, the RFC 5952 form for IPv6 (`2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var raw = bytes
        if isIPv4 {
            raw = Array(raw[12..<16])
            inet_ntop(AF_INET, raw, &buffer, socklen_t(buffer.count))
        } else {
            inet_ntop(AF_INET6, raw, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
