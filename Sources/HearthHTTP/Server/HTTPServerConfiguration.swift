import Glibc

/// Everything the HTTP server can be tuned with. Each property documents its default; the application builds
/// this once at start (from flags and environment) and passes it to `HTTPServer`.
public struct HTTPServerConfiguration: Sendable {
    /// The numeric IPv4 or IPv6 address to listen on (`127.0.0.1`, `::1`, `0.0.0.0`, `::`). Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 lets the kernel pick a free one (see the address `start()` returns). Default 8080.
    public var port: Int = 8080
    /// Event-loop threads, each with its own `SO_REUSEPORT` listener. Default: the number of online CPUs.
    public var eventLoopCount: Int = HTTPServerConfiguration.onlineProcessorCount
    /// The listen backlog of each listener. Default 1024.
    public var backlog: Int32 = 1024
    /// Open connections across all loops; beyond it new connections get 503 and are closed (gracefully, see
    /// `lingerTimeout`). On start the server raises the soft `RLIMIT_NOFILE` towards this plus
    /// `maxLingeringConnections` (up to the hard limit). Default 20 000.
    public var maxConnections: Int = 20_000
    /// How long a connection closed after its last response (a 503 refusal, an error answer, `Connection: close`)
    /// keeps reading and discarding what the client still sends, waiting for the client to close its side.
    /// Closing with unread input would make the kernel send a reset that can destroy the response before the
    /// client reads it. Default 2 s.
    public var lingerTimeout: Duration = .seconds(2)
    /// Connections lingering at once across all loops (each holds a descriptor, outside `maxConnections`);
    /// beyond it a connection is closed as soon as what has arrived is read. Default 1024.
    public var maxLingeringConnections: Int = 1024
    /// The shortest time between two log events about the same recurring condition (connections refused at
    /// `maxConnections`, descriptors running out); the events carry how many occurrences they stand for. Default 10 s.
    public var repeatedEventInterval: Duration = .seconds(10)
    /// Request limits and read deadlines (request line 8 KiB, headers 16 KiB, body 1 MiB, head 10 s, body 30 s).
    public var parser = HTTPParserConfiguration()
    /// How long a keep-alive connection may sit between requests before it is closed silently. This also
    /// bounds how long a new connection may wait before sending its first byte. Default 60 s.
    public var idleTimeout: Duration = .seconds(60)
    /// Once more than this many response bytes wait to be written on a connection, it stops reading (and so
    /// stops answering pipelined requests) until they are written. Default 256 KiB.
    public var maxPendingOutputBytes: Int = 256 * 1024
    /// gzip response compression.
    public var compression = Compression()
    /// The reverse proxies whose forwarding header names the client (`HTTPRequest.clientAddress`). Default:
    /// none, so every request's client is its TCP peer.
    public var trustedProxies = TrustedProxies()
    /// The `Server` header value, or nil to send none. Default nil.
    public var serverName: String?

    /// gzip response compression settings.
    public struct Compression: Sendable {
        /// Whether responses may be compressed at all. Default true.
        public var isEnabled = true
        /// Bodies smaller than this many bytes are sent as they are. Default 1 KiB.
        public var minimumBodySize = 1024
        /// zlib compression level, 1 (fast) to 9 (small). Default 6.
        public var level: Int32 = 6

        /// The defaults documented on each property.
        public init() {}
    }

    /// The defaults documented on each property.
    public init() {}

    /// The number of online processors (at least 1).
    public static var onlineProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
