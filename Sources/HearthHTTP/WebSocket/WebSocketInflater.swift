// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// Decompresses whole permessage-deflate messages for the frame state machine, which stays free of zlib
/// (and so fuzzable on its own). `PerMessageDeflate.Inflater` is the zlib implementation.
protocol WebSocketInflater: AnyObject {
    /// Inflates one message's payload (the RFC 7692 trailer is added by the implementation).
    /// - Parameter limit: the most bytes the result may have; decompression stops as soon as it would exceed
    ///   it, so a small "bomb" never allocates more than `limit`.
    func inflate(_ compressed: [UInt8], limit: Int) -> WebSocketInflateOutcome
}

/// What inflating one message gave.
enum WebSocketInflateOutcome: Equatable {
    /// The decompressed payload.
    case inflated([UInt8])
    /// The payload would exceed the limit.
    case tooLarge
    /// The data is not a valid DEFLATE stream.
    case corrupt
}
