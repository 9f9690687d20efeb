import GraphQL
import HearthAPI
import Dispatch
import HearthHTTP
import HearthServices
import HearthStore
import Support
import Synchronization

/// The running Hearth server: the database pool (migrated), the event bus and change log,
/// the server's own events, the HTTP server and its routes (GraphQL over HTTP and WebSocket
/// on `/graphql`), and the metrics. `hearth serve` creates one, starts it, and shuts it down on
/// SIGINT/SIGTERM; end-to-end tests drive the same code through the binary.
final class Application: Sendable {
    let settings: ServeSettings
    let logger: Logger
    let pool: DatabasePool
    let migrator: Migrator
    let metrics: ServerMetrics
    /// Where committed changes are published; subscriptions read from it.
    let bus: InProcessEventBus
    /// Records changes and publishes them on `bus` after commit.
    let changeLog: ChangeLog
    private let server: HTTPServer
    private let draining = DrainingFlag()
    private let serverEvents: ServerEvents
    /// The task running `serverEvents` between `start()` and `finishShutdown()`.
    private let serverEventsTask = Mutex<Task<Void, Never>?>(nil)
    /// Signalled when `serverEventsTask` has returned, so the pool closes after its last write.
    private let serverEventsStopped = DispatchSemaphore(value: 0)

    /// Opens and migrates the database and prepares the HTTP server (not yet listening).
    ///
    /// - Throws: `UsageError` naming every problem of the embedded `schema.graphql` when it is
    ///   invalid, `StoreError` when the database cannot be opened, `MigrationError` when it
    ///   does not match this binary (or has pending migrations and auto-migration is off).
    init(settings: ServeSettings, logger: Logger) throws {
        self.settings = settings
        self.logger = logger
        let startedAt = WallClock.now()
        let bus = InProcessEventBus()
        self.bus = bus
        let graphQL = try Self.makeGraphQLService(settings: settings, logger: logger, startedAt: startedAt, events: bus)
        pool = try DatabasePool(path: settings.database.path, configuration: settings.database.pool)
        migrator = try DatabaseSettings.embeddedMigrator()
        try Self.prepareDatabase(pool: pool, migrator: migrator, settings: settings, logger: logger)
        changeLog = ChangeLog(pool: pool, bus: bus)
        serverEvents = ServerEvents(
            changeLog: changeLog, configuration: ServerEvents.Configuration(heartbeatInterval: settings.heartbeatInterval),
            logger: logger.labeled("events"))
        let realtime = RealtimeMetrics()
        metrics = ServerMetrics(pool: pool, logger: logger.labeled("http"), accessLog: settings.accessLog, startedAt: startedAt)
        metrics.registerGraphQL(graphQL)
        metrics.registerRealtime(realtime, bus: bus)
        var router = Router()
        GraphQLHTTPHandler(service: graphQL).register(in: &router)
        GraphQLWebSocketEndpoint(service: graphQL, configuration: settings.realtime, metrics: realtime).register(in: &router)
        OperationsRoutes(pool: pool, migrator: migrator, metrics: metrics, isDraining: { [draining] in draining.isSet }).register(in: &router)
        if settings.testEndpoints {
            try TestJournalRoutes.prepare(pool)
            TestJournalRoutes(pool: pool).register(in: &router)
            TestPublishRoutes(changeLog: changeLog).register(in: &router)
        }
        if settings.webSocketEcho {
            var echo = settings.realtime.webSocket
            echo.subprotocols = []
            router.webSocket("/_conformance/echo", configuration: echo) { _, _ in WebSocketEchoHandler() }
        }
        server = HTTPServer(configuration: settings.http, router: router, observer: metrics)
    }

    private static func makeGraphQLService(
        settings: ServeSettings, logger: Logger, startedAt: WallClock.Instant, events: any EventBus
    ) throws -> GraphQLService {
        do {
            return try HearthSchema.service(
                sdl: EmbeddedFiles.schema, serverInfo: ServerInfo(version: BuildInfo.version, startedAt: startedAt),
                events: events, limits: settings.graphQL, logger: logger.labeled("graphql"))
        } catch {
            throw UsageError(message: "schema.graphql is invalid:\n\(error)")
        }
    }

    private static func prepareDatabase(
        pool: DatabasePool, migrator: Migrator, settings: ServeSettings, logger: Logger
    ) throws {
        if settings.autoMigrate {
            for migration in try migrator.migrate(pool) {
                logger.notice("applied migration", ["migration": migration.fileName])
            }
            return
        }
        let status = try migrator.status(of: pool)
        if let problem = status.problems.first { throw problem }
        if let pending = status.pending.first {
            throw UsageError(message: "the database has \(status.pending.count) pending migration(s), first \(pending.fileName); "
                + "run 'hearth migrate' or start with --auto-migrate on")
        }
    }

    /// Starts publishing the server's events (`server.started`, then heartbeats) and
    /// listening; returns the bound address (with the real port when 0 was asked for).
    func start() throws -> SocketAddress {
        serverEventsTask.withLock { task in
            task = Task { [serverEvents, serverEventsStopped] in
                await serverEvents.run()
                serverEventsStopped.signal()
            }
        }
        return try server.start()
    }

    /// Begins a graceful shutdown: /readyz turns 503, the server's events stop, listeners
    /// close, in-flight requests get the configured grace period, idle connections close.
    func beginShutdown() {
        draining.set()
        serverEventsTask.withLock { $0?.cancel() }
        server.shutdown(gracePeriod: settings.shutdownGracePeriod)
    }

    /// Waits for the HTTP server and the server's events to stop, then checkpoints the WAL
    /// into the database file and closes the pool.
    func finishShutdown() {
        server.waitUntilStopped()
        if serverEventsTask.withLock({ $0 }) != nil { serverEventsStopped.wait() }
        do {
            try pool.checkpoint()
        } catch {
            logger.error("WAL checkpoint failed at shutdown", ["error": "\(error)"])
        }
        pool.close()
    }
}

/// Set once a graceful shutdown begins; read by `/readyz`.
final class DrainingFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Marks the shutdown as begun.
    func set() { value.store(true, ordering: .relaxed) }

    /// Whether the shutdown has begun.
    var isSet: Bool { value.load(ordering: .relaxed) }
}
