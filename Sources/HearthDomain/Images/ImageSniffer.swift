// Pure Swift (no imports): compiled directly into the image-sniffer fuzz target.

/// Reads an image's format and dimensions from its first bytes (the PNG `IHDR` chunk, the JPEG
/// start-of-frame segment, the WebP `VP8 `, `VP8L` or `VP8X` chunk), without decoding pixels.
///
/// Any input is safe: every read is bounds-checked, the JPEG segment walk advances on every step
/// and stops after ``maximumJPEGSegments``, and nothing is allocated in proportion to the input.
public enum ImageSniffer {
    /// What the bytes turned out to be.
    public enum Outcome: Sendable, Hashable {
        /// A PNG, JPEG or WebP image with a well-formed header.
        case image(ImageInfo)
        /// The magic bytes of a supported format, but a header that is truncated or corrupt.
        case malformed(ImageFormat)
        /// Not a PNG, JPEG or WebP file at all (GIF, SVG, HTML, text, …).
        case unrecognized
    }

    /// The most JPEG segments read before the start-of-frame; real files have a handful
    /// (APPn, DQT, DHT) before it.
    public static let maximumJPEGSegments = 256

    /// Identifies `bytes`.
    public static func sniff(_ bytes: [UInt8]) -> Outcome {
        let reader = ByteReader(bytes)
        if reader.matches(pngSignature, at: 0) { return png(reader) }
        if reader.matches([0xFF, 0xD8, 0xFF], at: 0) { return jpeg(reader) }
        if reader.matches(Array("RIFF".utf8), at: 0), reader.matches(Array("WEBP".utf8), at: 8) { return webp(reader) }
        return .unrecognized
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG: the signature, then `IHDR` (length 13, CRC-checked) holding width and height.
    private static func png(_ reader: ByteReader) -> Outcome {
        guard reader.bigEndian32(at: 8) == 13, reader.matches(Array("IHDR".utf8), at: 12),
              let width = reader.bigEndian32(at: 16), let height = reader.bigEndian32(at: 20),
              let storedCRC = reader.bigEndian32(at: 29),
              CRC32.checksum(reader.bytes[12..<29]) == storedCRC,
              width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF
        else { return .malformed(.png) }
        return .image(ImageInfo(format: .png, width: Int(width), height: Int(height)))
    }

    /// JPEG: walks the marker segments after SOI up to the first start-of-frame (SOF0–SOF15
    /// except DHT, JPG and DAC), whose payload holds precision, height and width.
    private static func jpeg(_ reader: ByteReader) -> Outcome {
        var position = 2
        for _ in 0..<maximumJPEGSegments {
            guard reader.byte(at: position) == 0xFF else { return .malformed(.jpeg) }
            // Any number of 0xFF fill bytes may precede a marker (T.81 B.1.1.2).
            while reader.byte(at: position) == 0xFF { position += 1 }
            guard let marker = reader.byte(at: position) else { return .malformed(.jpeg) }
            position += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // Stand-alone markers without a length.
            case 0xD8, 0xD9, 0xDA, 0x00:
                return .malformed(.jpeg)  // Another SOI, the end or the scan before any frame header.
            default:
                break
            }
            guard let length = reader.bigEndian16(at: position), length >= 2 else { return .malformed(.jpeg) }
            if isStartOfFrame(marker) {
                guard length >= 8, let height = reader.bigEndian16(at: position + 3),
                      let width = reader.bigEndian16(at: position + 5), reader.byte(at: position + Int(length) - 1) != nil
                else { return .malformed(.jpeg) }
                return .image(ImageInfo(format: .jpeg, width: Int(width), height: Int(height)))
            }
            position += Int(length)
        }
        return .malformed(.jpeg)
    }

    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// WebP: a RIFF container whose first chunk is `VP8 ` (lossy key frame header), `VP8L`
    /// (lossless header) or `VP8X` (canvas size of an extended file).
    private static func webp(_ reader: ByteReader) -> Outcome {
        guard let riffSize = reader.littleEndian32(at: 4), riffSize >= 4, Int(riffSize) <= reader.count - 8,
              let chunkSize = reader.littleEndian32(at: 16), Int(chunkSize) <= reader.count - 20
        else { return .malformed(.webp) }
        let payload = 20
        if reader.matches(Array("VP8 ".utf8), at: 12) {
            // Frame tag (3 bytes, bit 0 clear for a key frame), start code 9D 01 2A, then
            // 14-bit width and height, each with 2 bits of scaling above.
            guard chunkSize >= 10, let tag = reader.byte(at: payload), tag & 1 == 0,
                  reader.matches([0x9D, 0x01, 0x2A], at: payload + 3),
                  let width = reader.littleEndian16(at: payload + 6), let height = reader.littleEndian16(at: payload + 8)
            else { return .malformed(.webp) }
            return .image(ImageInfo(format: .webp, width: Int(width & 0x3FFF), height: Int(height & 0x3FFF)))
        }
        if reader.matches(Array("VP8L".utf8), at: 12) {
            // Signature 0x2F, then width-1 and height-1 in 14 bits each and a 3-bit version 0.
            guard chunkSize >= 5, reader.byte(at: payload) == 0x2F, let bits = reader.littleEndian32(at: payload + 1),
                  bits >> 29 == 0
            else { return .malformed(.webp) }
            return .image(ImageInfo(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1))
        }
        if reader.matches(Array("VP8X".utf8), at: 12) {
            // Flags and reserved bytes, then canvas width-1 and height-1 in 24 bits each.
            guard chunkSize >= 10, let width = reader.littleEndian24(at: payload + 4),
                  let height = reader.littleEndian24(at: payload + 7)
            else { return .malformed(.webp) }
            return .image(ImageInfo(format: .webp, width: Int(width) + 1, height: Int(height) + 1))
        }
        return .malformed(.webp)
    }
}

/// Bounds-checked reads from a byte array: every accessor answers `nil` past the end.
struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, bytes.count - offset >= expected.count else { return false }
        return bytes[offset..<offset + expected.count].elementsEqual(expected)
    }

    func bigEndian16(at offset: Int) -> UInt16? {
        guard let high = byte(at: offset), let low = byte(at: offset + 1) else { return nil }
        return UInt16(high) << 8 | UInt16(low)
    }

    func bigEndian32(at offset: Int) -> UInt32? {
        guard let high = bigEndian16(at: offset), let low = bigEndian16(at: offset + 2) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    func littleEndian16(at offset: Int) -> UInt16? {
        guard let low = byte(at: offset), let high = byte(at: offset + 1) else { return nil }
        return UInt16(high) << 8 | UInt16(low)
    }

    func littleEndian24(at offset: Int) -> UInt32? {
        guard let low = littleEndian16(at: offset), let high = byte(at: offset + 2) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    func littleEndian32(at offset: Int) -> UInt32? {
        guard let low = littleEndian16(at: offset), let high = littleEndian16(at: offset + 2) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }
}
