import HearthAPI
import HearthHTTP
import HearthServices
import HearthStore
import Support
import Synchronization

/// The metrics `/metrics` exposes, and the HTTP observer that feeds them and writes the
/// access log. Route patterns (not raw paths) label requests, so an attacker probing
/// random URLs cannot grow the series without bound.
final class ServerMetrics: HTTPServerObserver {
    /// Upper bounds of the request latency histogram, in seconds.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    let registry = MetricsRegistry()
    private let requests: Counter
    private let latency: Histogram
    private let refusals: Counter
    private let openConnections = Atomic<Int>(0)
    private let logger: Logger
    private let accessLog: Bool

    /// Registers every family; `store` is read at scrape time for its connection statistics.
    init(store: OpenedStore, logger: Logger, accessLog: Bool, startedAt: WallClock.Instant) {
        self.logger = logger
        self.accessLog = accessLog
        requests = registry.counter(
            "hearth_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.",
            labels: ["route", "method", "status"])
        latency = registry.histogram(
            "hearth_http_request_duration_seconds",
            help: "Time from a request's first byte to its response being handed to the socket, by route pattern.",
            labels: ["route"], buckets: Self.latencyBuckets)
        refusals = registry.counter(
            "hearth_http_connections_refused_total",
            help: "Connections answered 503 and closed unserved, by reason (max_connections, out_of_descriptors).",
            labels: ["reason"])
        // Both series exist from the start, so a rate() over them works before the first refusal.
        for reason in ConnectionRefusal.allCases { refusals.increment([reason.rawValue], by: 0) }
        registry.gauge("hearth_http_open_connections", help: "HTTP connections currently open.") { [unowned self] in
            [(labels: [], value: Double(openConnections.load(ordering: .relaxed)))]
        }
        // Connection kinds: SQLite's reader and writer groups, or PostgreSQL's one pool.
        func perKind(_ value: @escaping @Sendable (ConnectionStatistics) -> Double) -> @Sendable () -> [(labels: [String], value: Double)] {
            { store.connectionStatistics.map { (labels: [$0.kind], value: value($0.statistics)) } }
        }
        registry.counter(
            "hearth_db_pool_waits_total",
            help: "Times a caller waited for a free database connection, by connection kind.", labels: ["kind"],
            read: perKind { Double($0.waits) })
        registry.counter(
            "hearth_db_pool_wait_seconds_total",
            help: "Total time callers waited for a free database connection, by connection kind.", labels: ["kind"],
            read: perKind { $0.totalWaitSeconds })
        registry.counter(
            "hearth_db_statements_total",
            help: "SQL statements executed (transaction control included), by connection kind.", labels: ["kind"],
            read: perKind { Double($0.statements) })
        registry.counter(
            "hearth_db_statements_prepared_total",
            help: "SQL statements compiled because the connection's statement cache did not hold them, by connection kind.",
            labels: ["kind"], read: perKind { Double($0.preparedStatements) })
        registry.gauge(
            "hearth_db_connections_in_use", help: "Database connections currently in use, by kind.", labels: ["kind"],
            read: perKind { Double($0.inUse) })
        registry.gauge("hearth_build_info", help: "Always 1; labels name the running build.", labels: ["version"]) {
            [(labels: [BuildInfo.version], value: 1)]
        }
        registry.gauge("hearth_process_start_time_seconds", help: "When the server started, in Unix seconds.") {
            [(labels: [], value: Double(startedAt.seconds))]
        }
    }

    /// Registers the chore lists' cache families, read from `cache` at scrape time.
    func registerChoreViews(_ cache: ChoreViewCache) {
        registry.counter(
            "hearth_chore_view_cache_lookups_total",
            help: "Chore lists (myChores, householdChores, personalChores) looked up among the kept ones, by result (hit or miss).",
            labels: ["result"]
        ) {
            let statistics = cache.statistics
            return [(labels: ["hit"], value: Double(statistics.hits)), (labels: ["miss"], value: Double(statistics.misses))]
        }
        registry.gauge("hearth_chore_view_cache_bytes", help: "Bytes the kept chore lists count against --chore-view-cache-bytes.") {
            [(labels: [], value: Double(cache.statistics.cost))]
        }
    }

    /// Registers the GraphQL families, read from `service` at scrape time.
    func registerGraphQL(_ service: GraphQLService) {
        registry.counter(
            "hearth_graphql_document_cache_lookups_total",
            help: "Lookups in the cache of parsed and validated GraphQL documents, by result (hit or miss).",
            labels: ["result"]
        ) {
            let statistics = service.documentCache.statistics
            return [(labels: ["hit"], value: Double(statistics.hits)), (labels: ["miss"], value: Double(statistics.misses))]
        }
        registry.counter(
            "hearth_graphql_persisted_query_lookups_total",
            help: "Automatic Persisted Query lookups by hash, by result (hit or miss).", labels: ["result"]
        ) {
            let statistics = service.persistedQueries.statistics
            return [(labels: ["hit"], value: Double(statistics.hits)), (labels: ["miss"], value: Double(statistics.misses))]
        }
        registry.counter(
            "hearth_graphql_operations_total",
            help: "GraphQL operations over HTTP and WebSocket, by operation type and outcome (success, field_errors, rejected).",
            labels: ["type", "outcome"]
        ) {
            service.metrics.snapshot.map { (labels: [$0.kind.rawValue, $0.outcome.rawValue], value: Double($0.count)) }
        }
    }

    /// Registers the WebSocket and event-bus gauges, read at scrape time.
    func registerRealtime(_ realtime: RealtimeMetrics, bus: InProcessEventBus) {
        registry.gauge("hearth_websocket_connections", help: "graphql-transport-ws connections currently open.") {
            [(labels: [], value: Double(realtime.openConnections))]
        }
        registry.gauge(
            "hearth_graphql_active_subscriptions", help: "GraphQL subscriptions currently streaming over WebSocket."
        ) {
            [(labels: [], value: Double(realtime.activeSubscriptions))]
        }
        registry.gauge("hearth_event_bus_subscribers", help: "Live subscribers of the in-process event bus.") {
            [(labels: [], value: Double(bus.subscriberCount))]
        }
    }

    func connectionOpened() { openConnections.add(1, ordering: .relaxed) }

    func connectionClosed() { openConnections.subtract(1, ordering: .relaxed) }

    func connectionRefused(_ reason: ConnectionRefusal) { refusals.increment([reason.rawValue]) }

    func requestCompleted(_ record: HTTPRequestRecord) {
        let route = record.route ?? "unmatched"
        requests.increment([route, record.method.rawValue, String(record.status)])
        let seconds = Double(record.duration.components.seconds) + Double(record.duration.components.attoseconds) / 1e18
        latency.observe(seconds, [route])
        guard accessLog, logger.isEnabled(.info) else { return }
        logger.info("request", [
            "request.id": record.requestID,
            "http.method": record.method.rawValue,
            "http.route": route,
            "http.status": String(record.status),
            "http.duration_ms": String(format3(seconds * 1000)),
            "http.bytes_in": String(record.bytesIn),
            "http.bytes_out": String(record.bytesOut),
            "client.address": record.clientAddress,
            "peer.address": record.remoteAddress,
        ])
    }

    func serverEvent(_ event: HTTPServerEvent) {
        switch event.level {
        case .info: logger.info(event.message, event.metadata)
        case .warning: logger.warning(event.message, event.metadata)
        case .error: logger.error(event.message, event.metadata)
        }
    }

    /// A millisecond figure with three decimals, without Foundation's formatters.
    private func format3(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
