import Synchronization

/// What every event loop of one server shares: configuration, routes, the observer and the connection count.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let observer: (any HTTPServerObserver)?
    /// Open connections across all loops, for `maxConnections`.
    let openConnections = Atomic<Int>(0)
    let idleTimeout: UInt64
    /// How often loops look for expired deadlines: a tenth of the shortest timeout, between 10 and 250 ms.
    let timerTick: UInt64

    init(configuration: HTTPServerConfiguration, router: Router, observer: (any HTTPServerObserver)?) {
        self.configuration = configuration
        self.router = router
        self.observer = observer
        idleTimeout = ServerContext.nanoseconds(configuration.idleTimeout)
        let shortest = min(
            idleTimeout, ServerContext.nanoseconds(configuration.parser.headerReadTimeout),
            ServerContext.nanoseconds(configuration.parser.bodyReadTimeout))
        timerTick = min(max(shortest / 10, 10_000_000), 250_000_000)
    }

    /// gzip-compresses an eligible response body in place and marks it `Vary: Accept-Encoding`.
    /// Eligible: compression enabled, a body of at least the minimum size, a status that carries content, no
    /// `Content-Encoding` already, and not a format that is compressed itself (`image/*` other than SVG, audio,
    /// video), where gzip would spend the loop's time for nothing. `Vary` is added whenever the response is eligible, compressed or not, so
    /// caches keep the variants apart.
    func compress(_ response: inout HTTPResponse, clientAcceptsGzip: Bool) {
        let compression = configuration.compression
        guard compression.isEnabled, response.body.count >= compression.minimumBodySize,
            !response.status.forbidsContent, !response.headers.contains(name: "Content-Encoding"),
            !Self.isCompressedFormat(response.headers["Content-Type"])
        else { return }
        response.headers.add(name: "Vary", value: "Accept-Encoding")
        guard clientAcceptsGzip, let compressed = Gzip.compress(response.body, level: compression.level) else { return }
        response.body = compressed
        response.headers.add(name: "Content-Encoding", value: "gzip")
    }

    /// Whether a body of this media type is already compressed.
    static func isCompressedFormat(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        if type.hasPrefix("image/") { return !type.hasPrefix("image/svg") }
        return type.hasPrefix("audio/") || type.hasPrefix("video/")
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
