/// Reads a zip archive held in memory (an upload, bounded by its size limit): the central
/// directory's entries, and an entry's bytes. Stored entries are read here; deflated ones are
/// handed to the `inflate` function the caller passes (zlib lives outside HearthDomain), which
/// must stop at the entry's recorded size: a small archive that inflates to gigabytes (a zip
/// bomb) then costs no more than the size the caller allowed.
///
/// Read as unzip does, from the end: the end of central directory record, then the directory.
/// Encrypted entries, ZIP64 and multi-disk archives are refused (`UNSUPPORTED`).
public struct ZipArchive: Sendable {
    /// One file of the archive, as its central directory records it.
    public struct Entry: Sendable, Equatable {
        /// The path inside the archive (`/`-separated; UTF-8, or CP437 read as Latin-1 for the ASCII names exporters write).
        public let name: String
        /// 0 stored, 8 deflated.
        public let method: UInt16
        /// The CRC-32 of the uncompressed bytes.
        public let crc: UInt32
        /// The size as stored.
        public let compressedSize: Int
        /// The size once inflated.
        public let uncompressedSize: Int
        let localHeaderOffset: Int

        /// Whether the entry is a folder (its name ends with `/`).
        public var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// Inflates raw DEFLATE data (RFC 1951) to exactly `expectedSize` bytes, or throws.
    public typealias Inflate = (_ compressed: ArraySlice<UInt8>, _ expectedSize: Int) throws -> [UInt8]

    /// The entries in directory order.
    public let entries: [Entry]
    private let bytes: [UInt8]

    /// The archive in `bytes`.
    /// - Throws: ``ZipError`` `NOT_ZIP` when there is no end of central directory record,
    ///   `UNSUPPORTED` for a damaged directory, ZIP64 or several disks.
    public init(_ bytes: [UInt8]) throws(ZipError) {
        self.bytes = bytes
        guard let end = Self.endOfCentralDirectory(in: bytes) else { throw ZipError(.notZip, "not a zip archive") }
        let reader = ByteReader(bytes)
        guard reader.littleEndian16(at: end + 4) == 0, reader.littleEndian16(at: end + 6) == 0 else {
            throw ZipError(.unsupported, "multi-disk archives are not read")
        }
        let count = Int(reader.littleEndian16(at: end + 10) ?? 0)
        guard let size = reader.littleEndian32(at: end + 12), let start = reader.littleEndian32(at: end + 16),
            size != 0xFFFF_FFFF, start != 0xFFFF_FFFF, count != 0xFFFF
        else { throw ZipError(.unsupported, "ZIP64 archives are not read") }
        var entries: [Entry] = []
        var position = Int(start)
        for _ in 0..<count {
            guard reader.littleEndian32(at: position) == 0x0201_4B50, let flags = reader.littleEndian16(at: position + 8),
                let method = reader.littleEndian16(at: position + 10), let crc = reader.littleEndian32(at: position + 16),
                let compressed = reader.littleEndian32(at: position + 20), let uncompressed = reader.littleEndian32(at: position + 24),
                let nameLength = reader.littleEndian16(at: position + 28), let extraLength = reader.littleEndian16(at: position + 30),
                let commentLength = reader.littleEndian16(at: position + 32), let offset = reader.littleEndian32(at: position + 42),
                position + 46 + Int(nameLength) <= bytes.count
            else { throw ZipError(.unsupported, "the central directory is damaged") }
            guard flags & 1 == 0 else { throw ZipError(.unsupported, "encrypted entries are not read") }
            guard compressed != 0xFFFF_FFFF, uncompressed != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else {
                throw ZipError(.unsupported, "ZIP64 entries are not read")
            }
            let name = Array(bytes[position + 46..<position + 46 + Int(nameLength)])
            entries.append(Entry(
                name: Self.decodeName(name, isUTF8: flags & 1 << 11 != 0), method: method, crc: crc,
                compressedSize: Int(compressed), uncompressedSize: Int(uncompressed), localHeaderOffset: Int(offset)))
            position += 46 + Int(nameLength) + Int(extraLength) + Int(commentLength)
        }
        self.entries = entries
    }

    /// The first entry named `name`, compared case-insensitively (archives made on case-preserving systems differ in case).
    public func entry(named name: String) -> Entry? {
        let wanted = name.lowercased()
        return entries.first { $0.name.lowercased() == wanted }
    }

    /// The uncompressed bytes of `entry`, checked against its CRC-32.
    /// - Throws: ``ZipError`` `UNSUPPORTED` for a method other than stored or deflated or a
    ///   damaged local header, `CORRUPT` for bytes that do not match; what `inflate` throws.
    public func contents(of entry: Entry, inflate: Inflate) throws -> [UInt8] {
        let reader = ByteReader(bytes)
        let header = entry.localHeaderOffset
        guard reader.littleEndian32(at: header) == 0x0403_4B50, let nameLength = reader.littleEndian16(at: header + 26),
            let extraLength = reader.littleEndian16(at: header + 28)
        else { throw ZipError(.unsupported, "the local header of \(entry.name) is damaged") }
        let start = header + 30 + Int(nameLength) + Int(extraLength)
        guard start + entry.compressedSize <= bytes.count else { throw ZipError(.corrupt, "\(entry.name) runs past the archive's end") }
        let stored = bytes[start..<start + entry.compressedSize]
        let data: [UInt8]
        switch entry.method {
        case 0: data = Array(stored)
        case 8: data = try inflate(stored, entry.uncompressedSize)
        default: throw ZipError(.unsupported, "\(entry.name) uses compression method \(entry.method); only stored and deflated are read")
        }
        guard data.count == entry.uncompressedSize, CRC32.checksum(data) == entry.crc else {
            throw ZipError(.corrupt, "\(entry.name) does not match its size and CRC-32")
        }
        return data
    }

    /// The offset of the end of central directory record: searched backwards over the last
    /// 22 + 65,535 bytes (its fixed part plus the longest archive comment).
    private static func endOfCentralDirectory(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        let reader = ByteReader(bytes)
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        for position in stride(from: bytes.count - 22, through: lowest, by: -1) where reader.littleEndian32(at: position) == 0x0605_4B50 {
            let commentLength = Int(reader.littleEndian16(at: position + 20) ?? 0)
            if position + 22 + commentLength == bytes.count { return position }
        }
        return nil
    }

    private static func decodeName(_ bytes: [UInt8], isUTF8: Bool) -> String {
        if isUTF8 { return String(decoding: bytes, as: UTF8.self) }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
