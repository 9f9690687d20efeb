import CSystem
import Synchronization

/// What every event loop of one server shares: configuration, routes, the observer, the connection counts,
/// the shutdown deadline and the throttles of repeated log events.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let observer: (any HTTPServerObserver)?
    /// Open connections across all loops, for `maxConnections`.
    let openConnections = Atomic<Int>(0)
    /// Connections lingering after their last response across all loops, for `maxLingeringConnections`.
    let lingeringConnections = Atomic<Int>(0)
    let idleTimeout: UInt64
    let lingerTimeout: UInt64
    /// How often loops look for expired deadlines: a tenth of the shortest timeout, between 10 and 250 ms.
    let timerTick: UInt64
    /// One throttle per refusal reason, shared by the loops so a flood makes a few log lines in all.
    private let refusalReports: Mutex<[ConnectionRefusal: EventThrottle]>
    /// When a graceful shutdown ends (monotonic nanoseconds), `UInt64.max` until one begins. Shared rather than
    /// sent to each loop, so a loop busy with a request sees the shutdown before it reads its inbox: responses
    /// it writes meanwhile say `Connection: close`, and it dispatches nothing once the deadline has passed.
    private let drainDeadline = Atomic<UInt64>(.max)

    init(configuration: HTTPServerConfiguration, router: Router, observer: (any HTTPServerObserver)?) {
        self.configuration = configuration
        self.router = router
        self.observer = observer
        idleTimeout = ServerContext.nanoseconds(configuration.idleTimeout)
        lingerTimeout = ServerContext.nanoseconds(configuration.lingerTimeout)
        let interval = ServerContext.nanoseconds(configuration.repeatedEventInterval)
        refusalReports = Mutex(Dictionary(uniqueKeysWithValues: ConnectionRefusal.allCases.map { ($0, EventThrottle(interval: interval)) }))
        let shortest = min(
            idleTimeout, ServerContext.nanoseconds(configuration.parser.headerReadTimeout),
            ServerContext.nanoseconds(configuration.parser.bodyReadTimeout))
        timerTick = min(max(shortest / 10, 10_000_000), 250_000_000)
    }

    /// Whether a graceful shutdown has begun.
    var isDraining: Bool { drainDeadline.load(ordering: .acquiring) != .max }

    /// The end of the graceful shutdown, nil before one has begun.
    var drainEnd: UInt64? {
        let deadline = drainDeadline.load(ordering: .acquiring)
        return deadline == .max ? nil : deadline
    }

    /// Begins a graceful shutdown ending `gracePeriod` nanoseconds from now; later calls change nothing.
    func beginDraining(gracePeriod: UInt64) {
        let deadline = min(csystem_monotonic_ns() &+ gracePeriod, .max - 1)
        _ = drainDeadline.compareExchange(expected: .max, desired: deadline, ordering: .acquiringAndReleasing)
    }

    /// Whether the graceful shutdown's time is up: nothing more may be dispatched, everything open is closed.
    /// Reads the clock, since the caller may have been busy since its loop last did.
    var isPastDrainDeadline: Bool {
        let deadline = drainDeadline.load(ordering: .acquiring)
        return deadline != .max && csystem_monotonic_ns() >= deadline
    }

    /// Counts a refused connection with the observer and logs it, at most once per `repeatedEventInterval` per
    /// reason (the event's `count` says how many refusals it stands for).
    func reportRefusal(_ reason: ConnectionRefusal, now: UInt64, error: SystemError?, loop: Int) {
        observer?.connectionRefused(reason)
        guard let held = refusalReports.withLock({ $0[reason]?.record(now: now) }) else { return }
        reportRefusals(reason, count: held + 1, error: error, loop: loop)
    }

    /// Logs the refusals a throttle held back once its quiet period is over; called on the loops' timer ticks.
    func flushRefusalReports(now: UInt64, loop: Int) {
        for reason in ConnectionRefusal.allCases {
            guard let held = refusalReports.withLock({ $0[reason]?.flush(now: now) }) else { continue }
            reportRefusals(reason, count: held, error: nil, loop: loop)
        }
    }

    private func reportRefusals(_ reason: ConnectionRefusal, count: Int, error: SystemError?, loop: Int) {
        var metadata = ["loop": "\(loop)", "count": "\(count)", "reason": reason.rawValue]
        if let error { metadata["error"] = error.description }
        let message = switch reason {
        case .maxConnections: "connection limit reached; refusing connections with 503"
        case .outOfDescriptors: "out of file descriptors; refusing connections with 503"
        }
        observer?.serverEvent(HTTPServerEvent(level: .warning, message: message, metadata: metadata))
    }

    /// gzip-compresses an eligible response body in place and marks it `Vary: Accept-Encoding`.
    /// Eligible: compression enabled, a body of at least the minimum size, a status that carries content, no
    /// `Content-Encoding` already, and not a format that is compressed itself (`image/*` other than SVG, audio,
    /// video), where gzip would spend the loop's time for nothing. A ``ReusableBody`` is compressed once and its
    /// encoding reused. `Vary` is added whenever the response is eligible, compressed or not, so
    /// caches keep the variants apart.
    func compress(_ response: inout HTTPResponse, clientAcceptsGzip: Bool) {
        let compression = configuration.compression
        guard compression.isEnabled, response.body.count >= compression.minimumBodySize,
            !response.status.forbidsContent, !response.headers.contains(name: "Content-Encoding"),
            !Self.isCompressedFormat(response.headers["Content-Type"])
        else { return }
        response.headers.add(name: "Vary", value: "Accept-Encoding")
        guard clientAcceptsGzip else { return }
        let compressed = if let reusable = response.reusableBody, reusable.isBody(response.body) {
            reusable.gzip(level: compression.level)
        } else {
            Gzip.compress(response.body, level: compression.level)
        }
        guard let compressed else { return }
        response.body = compressed
        response.headers.add(name: "Content-Encoding", value: "gzip")
    }

    /// Whether a body of this media type is already compressed.
    static func isCompressedFormat(_ contentType: String?) -> Bool {
        guard var type = contentType else { return false }
        return type.withUTF8 { type in
            func starts(with prefix: StaticString) -> Bool {
                type.count >= prefix.utf8CodeUnitCount
                    && (0..<prefix.utf8CodeUnitCount).allSatisfy { ASCII.lowercased(type[$0]) == prefix.utf8Start[$0] }
            }
            // Most responses are JSON or HTML: their first letter settles it.
            switch type.first.map(ASCII.lowercased) {
            case UInt8(ascii: "i"): return starts(with: "image/") && !starts(with: "image/svg")
            case UInt8(ascii: "a"): return starts(with: "audio/")
            case UInt8(ascii: "v"): return starts(with: "video/")
            default: return false
            }
        }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
