// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// A frame's opcode (RFC 6455 §5.2). Reserved values are rejected by the decoder and never constructed.
public enum WebSocketOpcode: UInt8, Sendable {
    /// A further fragment of the message in progress.
    case continuation = 0x0
    /// The first frame of a text message (UTF-8).
    case text = 0x1
    /// The first frame of a binary message.
    case binary = 0x2
    /// The closing handshake.
    case close = 0x8
    /// A keep-alive probe; answered with a pong carrying the same payload.
    case ping = 0x9
    /// The answer to a ping (or an unsolicited heartbeat).
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong): at most 125 bytes and never fragmented.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
