/// A data message encoded once into a complete server frame, ready to be written to any number of connections
/// without copying or re-encoding: the unit of fan-out. Build it on any thread and share it freely.
///
/// When given a compression configuration and the message is at least its `minimumMessageSize`, the frame is
/// also compressed once, without context, at the configured server window; connections that negotiated
/// permessage-deflate without server context takeover and a window at least as large send that variant, the
/// others the plain one (connections with context takeover compress it themselves).
public struct WebSocketEncodedFrame: Sendable {
    let opcode: WebSocketOpcode
    /// The payload as given, for connections that must compress it themselves.
    let payload: [UInt8]
    /// The complete uncompressed frame.
    let plain: [UInt8]
    /// The complete compressed frame (RSV1 set), when compression was asked for and the message was big enough.
    let deflated: [UInt8]?
    /// The window `deflated` was compressed with.
    let deflatedWindowBits: Int

    /// A text message frame.
    public static func text(_ text: String, compression: WebSocketConfiguration.Compression? = nil) -> WebSocketEncodedFrame {
        WebSocketEncodedFrame(opcode: .text, payload: Array(text.utf8), compression: compression)
    }

    /// A text message frame from UTF-8 bytes the caller guarantees are valid (e.g. a JSON serializer's output).
    public static func text(utf8 bytes: [UInt8], compression: WebSocketConfiguration.Compression? = nil) -> WebSocketEncodedFrame {
        WebSocketEncodedFrame(opcode: .text, payload: bytes, compression: compression)
    }

    /// A binary message frame.
    public static func binary(_ bytes: [UInt8], compression: WebSocketConfiguration.Compression? = nil) -> WebSocketEncodedFrame {
        WebSocketEncodedFrame(opcode: .binary, payload: bytes, compression: compression)
    }

    init(opcode: WebSocketOpcode, payload: [UInt8], compression: WebSocketConfiguration.Compression?) {
        self.opcode = opcode
        self.payload = payload
        plain = WebSocketFrameEncoding.frame(opcode: opcode, payload: payload)
        let windowBits = min(max(compression?.serverMaxWindowBits ?? 15, 9), 15)
        deflatedWindowBits = windowBits
        if let compression, payload.count >= compression.minimumMessageSize,
            let deflater = PerMessageDeflate.Deflater(
                windowBits: windowBits, memoryLevel: compression.memoryLevel, level: compression.level,
                resetsAfterMessage: true),
            let compressed = deflater.compress(payload)
        {
            deflated = WebSocketFrameEncoding.frame(opcode: opcode, payload: compressed, rsv1: true)
        } else {
            deflated = nil
        }
    }

    /// The payload length, uncompressed.
    public var payloadCount: Int { payload.count }
}
