import CZlib

/// zlib streams for permessage-deflate (RFC 7692 §7.2): raw DEFLATE, messages ending in an empty stored block
/// whose `00 00 FF FF` tail is removed on the wire and restored before inflating.
///
/// Each stream is confined to one thread (an event loop, or the thread that pre-encodes a message).
enum PerMessageDeflate {
    static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// A compressor. With `resetsAfterMessage` every message is compressed on its own (no context takeover),
    /// so one instance can serve any number of connections in turn.
    final class Deflater {
        private let stream: UnsafeMutablePointer<z_stream>
        private let resetsAfterMessage: Bool
        /// The window it compresses with.
        let windowBits: Int

        /// A raw deflate stream, or nil when zlib refuses the parameters or memory.
        init?(windowBits: Int, memoryLevel: Int32, level: Int32, resetsAfterMessage: Bool) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard hearth_deflateInit2(stream, level, Z_DEFLATED, -Int32(windowBits), memoryLevel, Z_DEFAULT_STRATEGY) == Z_OK
            else {
                stream.deallocate()
                return nil
            }
            self.windowBits = windowBits
            self.resetsAfterMessage = resetsAfterMessage
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        /// The compressed form of one message, without the trailing `00 00 FF FF`; nil if zlib failed.
        func compress(_ payload: [UInt8]) -> [UInt8]? {
            defer { if resetsAfterMessage { deflateReset(stream) } }
            var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(payload.count))) + 16)
            var produced = 0
            var input = payload
            let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
                stream.pointee.next_in = inputBuffer.baseAddress
                stream.pointee.avail_in = uInt(inputBuffer.count)
                while true {
                    if produced == output.count { output.append(contentsOf: repeatElement(0, count: 1024)) }
                    let status = output.withUnsafeMutableBufferPointer { outputBuffer in
                        stream.pointee.next_out = outputBuffer.baseAddress! + produced
                        stream.pointee.avail_out = uInt(outputBuffer.count - produced)
                        let status = deflate(stream, Z_SYNC_FLUSH)
                        produced = outputBuffer.count - Int(stream.pointee.avail_out)
                        return status
                    }
                    // Done once all input is in and the flush fitted (room was left over).
                    if status != Z_OK { return status }
                    if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return Z_OK }
                }
            }
            guard status == Z_OK else { return nil }
            output.removeSubrange(produced...)
            if output.count >= 4 && Array(output.suffix(4)) == PerMessageDeflate.tail { output.removeLast(4) }
            return output
        }
    }

    /// A decompressor. With `resetsAfterMessage` (the client promised no context takeover) one instance can
    /// serve any number of connections in turn.
    final class Inflater: WebSocketInflater {
        private let stream: UnsafeMutablePointer<z_stream>
        private let resetsAfterMessage: Bool

        /// A raw inflate stream accepting any window up to 15 bits, or nil without memory.
        init?(resetsAfterMessage: Bool) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard hearth_inflateInit2(stream, -15) == Z_OK else {
                stream.deallocate()
                return nil
            }
            self.resetsAfterMessage = resetsAfterMessage
        }

        deinit {
            inflateEnd(stream)
            stream.deallocate()
        }

        func inflate(_ compressed: [UInt8], limit: Int) -> WebSocketInflateOutcome {
            var finished = false
            defer { if resetsAfterMessage || finished { inflateReset(stream) } }
            var input = compressed + PerMessageDeflate.tail
            var output: [UInt8] = []
            var produced = 0
            return input.withUnsafeMutableBufferPointer { inputBuffer in
                stream.pointee.next_in = inputBuffer.baseAddress
                stream.pointee.avail_in = uInt(inputBuffer.count)
                while true {
                    // Room for at most one byte beyond the limit: enough to tell that it was exceeded.
                    let room = min(max(4096, inputBuffer.count * 4), limit + 1 - produced)
                    output.append(contentsOf: repeatElement(0, count: room))
                    let status = output.withUnsafeMutableBufferPointer { outputBuffer in
                        stream.pointee.next_out = outputBuffer.baseAddress! + produced
                        stream.pointee.avail_out = uInt(room)
                        let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                        produced += room - Int(stream.pointee.avail_out)
                        return status
                    }
                    if produced > limit { return .tooLarge }
                    switch status {
                    case Z_STREAM_END:
                        // A final block ends the stream; only the tail may follow it.
                        finished = true
                        output.removeSubrange(produced...)
                        return .inflated(output)
                    case Z_OK where stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0:
                        continue
                    case Z_OK, Z_BUF_ERROR:
                        guard stream.pointee.avail_in == 0 else { return .corrupt }
                        output.removeSubrange(produced...)
                        return .inflated(output)
                    default:
                        return .corrupt
                    }
                }
            }
        }
    }
}
