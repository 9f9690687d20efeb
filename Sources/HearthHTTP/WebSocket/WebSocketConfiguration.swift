/// How one WebSocket endpoint negotiates and what it tolerates. Each property documents its default.
public struct WebSocketConfiguration: Sendable {
    /// The sub-protocols the endpoint speaks, in the server's order of preference (`graphql-transport-ws`).
    /// When non-empty, the first of these the client offers is selected, and a client offering none of them is
    /// refused with 400 before the upgrade. When empty, no sub-protocol is negotiated. Default empty.
    public var subprotocols: [String] = []
    /// When set, a request whose `Origin` header is present and not in this list (exact, case-insensitive
    /// match of `scheme://host[:port]`) is refused with 403. Requests without `Origin` (native apps, scripts;
    /// browsers always send it) are admitted: the check exists against cross-site pages. Default nil (any).
    public var allowedOrigins: [String]?
    /// The largest frame payload accepted; a longer frame is refused with close code 1009. Default 1 MiB.
    public var maxFrameSize: Int = 1 << 20
    /// The largest message accepted, after reassembly and decompression (1009 beyond). Default 1 MiB.
    public var maxMessageSize: Int = 1 << 20
    /// How long to wait for the client's close frame after sending ours before closing the socket. Default 5 s.
    public var closeTimeout: Duration = .seconds(5)
    /// A ping is sent after this long without any input from the client; nil disables keep-alive pings.
    /// Default 30 s.
    public var pingInterval: Duration? = .seconds(30)
    /// A keep-alive ping unanswered for this long closes the connection with 1011. Default 10 s.
    public var pongTimeout: Duration = .seconds(10)
    /// Output waiting to be written beyond this many bytes makes the client a slow consumer, handled per
    /// `slowConsumerPolicy`. Default 1 MiB.
    public var maxBufferedOutputBytes: Int = 1 << 20
    /// What happens to a slow consumer. Default `.close`.
    public var slowConsumerPolicy = SlowConsumerPolicy.close
    /// permessage-deflate (RFC 7692); nil disables it. Default: enabled, without context takeover.
    public var compression: Compression? = Compression()

    /// What to do with a client that does not read fast enough (see `maxBufferedOutputBytes`).
    public enum SlowConsumerPolicy: Sendable {
        /// Close the connection (code 1008 if the close frame still fits) and report a warning to the observer.
        case close
        /// Drop data messages sent while the backlog is over the limit (control frames still go out) and
        /// report a warning; the application must cope with missed messages (e.g. resync).
        case dropMessages
    }

    /// permessage-deflate settings.
    ///
    /// Memory: a zlib deflate stream costs about `(1 << (windowBits + 2)) + (1 << (memoryLevel + 9))` bytes
    /// (256 KiB at 15/8), an inflate stream about `1 << windowBits` plus 7 KiB. With context takeover those
    /// live as long as the connection, which 10,000 connections cannot afford. Without it (the default, both
    /// directions), each event loop keeps one deflater per window size and one inflater, reset after every
    /// message, so a compressed connection costs no zlib memory of its own. The price is a worse ratio on
    /// small, similar messages, since no message can refer back to the previous one.
    public struct Compression: Sendable {
        /// Keep the server's LZ77 window across messages when the client allows it (per-connection deflater).
        /// Default false: `server_no_context_takeover` is always sent.
        public var serverContextTakeover = false
        /// Let the client keep its window across messages (per-connection inflater). Default false:
        /// `client_no_context_takeover` is always sent.
        public var clientContextTakeover = false
        /// The largest window the server compresses with, 9–15; lower values save memory and cost ratio.
        /// Offers that demand 8 are declined (zlib cannot produce raw DEFLATE with a 256-byte window).
        /// Default 15.
        public var serverMaxWindowBits = 15
        /// The window the client is asked to use when it offers `client_max_window_bits`, 8–15. Default 15.
        public var clientMaxWindowBits = 15
        /// zlib `memLevel` of deflaters, 1–9. Default 8.
        public var memoryLevel: Int32 = 8
        /// zlib compression level, 1–9. Default 6.
        public var level: Int32 = 6
        /// Messages shorter than this are sent uncompressed (compression rarely pays below it). Default 256.
        public var minimumMessageSize = 256

        /// The defaults documented on each property.
        public init() {}
    }

    /// The defaults documented on each property.
    public init() {}
}
