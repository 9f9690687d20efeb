import CZlib
import HearthDomain

/// Raw DEFLATE (RFC 1951, no zlib or gzip wrapper) inflated with zlib to exactly the size a zip
/// entry records: the output buffer has that size and no more, so an entry that would inflate
/// further (a zip bomb lying about its size) fails instead of growing.
enum RawInflate {
    /// `compressed` inflated to `expectedSize` bytes.
    /// - Throws: ``ZipError`` `CORRUPT` when the data is not DEFLATE or does not end at `expectedSize` bytes.
    static func inflate(_ compressed: ArraySlice<UInt8>, expectedSize: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard hearth_inflateInit2(&stream, -MAX_WBITS) == Z_OK else { throw ZipError(.corrupt, "zlib could not start inflating") }
        defer { inflateEnd(&stream) }
        // One spare byte: inflating into it means the entry is longer than it says.
        var output = [UInt8](repeating: 0, count: expectedSize + 1)
        let status = compressed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expectedSize else {
            throw ZipError(.corrupt, "an entry does not inflate to its recorded size")
        }
        output.removeLast()
        return output
    }
}
