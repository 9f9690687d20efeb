import CZlib

/// Decompresses gzip data with zlib, to check what the server compressed.
enum Gunzip {
    struct Failure: Error {}

    static func decompress(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard hearth_inflateInit2(&stream, 15 + 16) == Z_OK else { throw Failure() }
        defer { inflateEnd(&stream) }
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while status == Z_OK {
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: chunkBuffer[..<(chunkBuffer.count - Int(stream.avail_out))])
                }
            }
        }
        guard status == Z_STREAM_END else { throw Failure() }
        return output
    }
}
