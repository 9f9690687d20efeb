import Foundation

/// Image files for the sniffer's tests: real encoder output (libpng, libjpeg, libwebp) as base64,
/// and headers built here with chosen dimensions.
enum SampleImages {
    /// A 1×1 RGBA PNG written by libpng.
    static let png1x1 = decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")

    /// A 3×2 baseline JPEG (SOF0) written by libjpeg 6.2 at quality 50.
    static let jpeg3x2 = decode("""
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDmNT/4/T/uJ/6AKKKK+xwH+60v8MfyRzy+Jn//2Q==
        """)

    /// The same picture as a progressive JPEG (SOF2).
    static let progressiveJPEG3x2 = decode("""
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wgARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAVAQEBAAAAAAAAAAAAAAAAAAADBf/aAAwDAQACEAMQAAABliwf/8QAFRABAQAAAAAAAAAAAAAAAAAAAzL/2gAIAQEAAQUCS//EABYRAAMAAAAAAAAAAAAAAAAAAAABMf/aAAgBAwEBPwF0/8QAGREAAQUAAAAAAAAAAAAAAAAAAAECAzNx/9oACAECAQE/AYKm4h//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAY/An//xAAWEAEBAQAAAAAAAAAAAAAAAACxAAH/2gAIAQEAAT8hLC//2gAMAwEAAgADAAAAEPv/xAAVEQEBAAAAAAAAAAAAAAAAAAAAMf/aAAgBAwEBPxCj/8QAFxEAAwEAAAAAAAAAAAAAAAAAAAFR8P/aAAgBAgEBPxDUiP/EABcQAAMBAAAAAAAAAAAAAAAAAAAhMfD/2gAIAQEAAT8QvtT/2Q==
        """)

    /// A 1×1 lossy WebP (`VP8 `).
    static let lossyWebP1x1 = decode("UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA")
    /// A 1×1 lossless WebP (`VP8L`).
    static let losslessWebP1x1 = decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
    /// A 1×1 WebP with alpha (`VP8X`, `ALPH`, `VP8 `).
    static let extendedWebP1x1 = decode(
        "UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA==")

    /// A GIF89a header.
    static let gif = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x3B]
    /// An SVG document.
    static let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>"#.utf8)
    /// An HTML page, as an attacker would upload it named `avatar.png`.
    static let html = Array("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>".utf8)

    /// A PNG signature and `IHDR` chunk (with its CRC) declaring `width`×`height`, then `IEND`.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        let header = Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + header + bigEndian(crc32(header))
            + bigEndian(0) + Array("IEND".utf8) + bigEndian(crc32(Array("IEND".utf8)))
    }

    /// A JPEG with SOI, an APP0 segment, fill bytes and SOF0 declaring `width`×`height`.
    static func jpeg(width: UInt16, height: UInt16, startOfFrame: UInt8 = 0xC0) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let frame: [UInt8] = [0xFF, 0xFF, 0xFF, startOfFrame, 0x00, 0x0B, 8] + bigEndian16(height) + bigEndian16(width) + [1, 1, 0x11, 0]
        return [0xFF, 0xD8] + app0 + frame + [0xFF, 0xD9]
    }

    /// A `VP8X` WebP declaring a `width`×`height` canvas (each 1 to 2^24).
    static func extendedWebP(width: UInt32, height: UInt32) -> [UInt8] {
        let payload: [UInt8] = [0, 0, 0, 0] + littleEndian24(width - 1) + littleEndian24(height - 1)
        let chunk = Array("VP8X".utf8) + littleEndian32(UInt32(payload.count)) + payload
        return Array("RIFF".utf8) + littleEndian32(UInt32(4 + chunk.count)) + Array("WEBP".utf8) + chunk
    }

    /// `bytes` with the byte at `offset` replaced by `value`.
    static func patched(_ bytes: [UInt8], at offset: Int, to value: UInt8) -> [UInt8] {
        var copy = bytes
        copy[offset] = value
        return copy
    }

    private static func decode(_ base64: String) -> [UInt8] {
        Array(Data(base64Encoded: base64.filter { !$0.isWhitespace })!)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private static func littleEndian24(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] { littleEndian24(value) + [UInt8(value >> 24)] }

    /// zlib's CRC-32, table-driven (the sniffer checks IHDR with a bitwise implementation).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        let table: [UInt32] = (0..<256).map { index in
            (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~bytes.reduce(0xFFFF_FFFF) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
