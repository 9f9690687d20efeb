// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// A complete data message received from the peer, reassembled from its fragments and decompressed.
public struct WebSocketMessage: Sendable, Equatable {
    /// Whether the message was sent as text or as binary.
    public enum Kind: Sendable, Equatable {
        /// A text message; its payload is valid UTF-8 (the decoder checked it).
        case text
        /// A binary message.
        case binary
    }

    /// Text or binary.
    public var kind: Kind
    /// The payload bytes (UTF-8 for text).
    public var payload: [UInt8]

    /// A message from its parts.
    public init(kind: Kind, payload: [UInt8]) {
        self.kind = kind
        self.payload = payload
    }

    /// The payload as a string when this is a text message, nil for binary.
    public var text: String? {
        kind == .text ? String(decoding: payload, as: UTF8.self) : nil
    }
}
