// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// Writes frame headers and whole frames (RFC 6455 §5.2), always with the shortest length encoding.
enum WebSocketFrameEncoding {
    /// The largest header: 2 bytes, 8 bytes of extended length, 4 bytes of masking key.
    static let maxHeaderSize = 14

    /// Appends a header for a payload of `length` bytes; with `mask`, the masking key follows the length.
    static func appendHeader(
        to buffer: inout [UInt8], opcode: WebSocketOpcode, fin: Bool = true, rsv1: Bool = false, length: Int,
        mask: UInt32? = nil
    ) {
        buffer.append((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.rawValue)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if length < 126 {
            buffer.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            buffer.append(maskBit | 126)
            buffer.append(UInt8(length >> 8))
            buffer.append(UInt8(length & 0xFF))
        } else {
            buffer.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xFF)) }
        }
        if let mask {
            for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8((mask >> UInt32(shift)) & 0xFF)) }
        }
    }

    /// A complete frame. Server frames are unmasked; `mask` is for the client side (tests, load generators).
    static func frame(
        opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool = true, rsv1: Bool = false,
        mask: UInt32? = nil
    ) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(maxHeaderSize + payload.count)
        appendHeader(to: &buffer, opcode: opcode, fin: fin, rsv1: rsv1, length: payload.count, mask: mask)
        let start = buffer.count
        buffer.append(contentsOf: payload)
        if let mask {
            for index in start..<buffer.count {
                buffer[index] ^= UInt8((mask >> UInt32(24 - 8 * ((index - start) & 3))) & 0xFF)
            }
        }
        return buffer
    }

    /// The payload of a close frame: the code in network order, then the reason's UTF-8 (truncated on a
    /// character boundary so the frame stays within the 125-byte control-frame limit).
    static func closePayload(code: WebSocketCloseCode?, reason: String) -> [UInt8] {
        guard let code else { return [] }
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard payload.count + encoded.count <= 125 else { break }
            payload.append(contentsOf: encoded)
        }
        return payload
    }
}
