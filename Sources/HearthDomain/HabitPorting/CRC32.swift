/// CRC-32 as ZIP (APPNOTE 4.4.7), gzip and PNG chunks (``ImageSniffer``) use it: the reflected polynomial 0xEDB88320,
/// initial value and final XOR all ones. Computed here, a table lookup per byte, so the zip
/// writer stays pure Swift (HearthDomain links no C library).
public struct CRC32: Sendable, Equatable {
    /// The running checksum of the bytes so far (the CRC of nothing is 0).
    public private(set) var value: UInt32 = 0

    /// An empty checksum.
    public init() {}

    /// The checksum of `bytes`.
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Adds `bytes` to the checksum.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var crc = ~value
        for byte in bytes {
            crc = CRC32.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        value = ~crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var entry = UInt32(index)
        for _ in 0..<8 {
            entry = entry & 1 == 1 ? 0xEDB8_8320 ^ (entry >> 1) : entry >> 1
        }
        return entry
    }
}
