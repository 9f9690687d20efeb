import HearthDomain
import HearthServices
import HearthAPI
import HearthHTTP
import Support

/// Everything `hearth serve` is configured with, read once from flags and environment
/// at start and passed down; nothing reads the environment later.
struct ServeSettings: Sendable {
    /// The HTTP server: address, event loops, limits and timeouts.
    var http: HTTPServerConfiguration
    /// The database file and pool.
    var database: DatabaseSettings
    /// Where the keys are.
    var keys: KeySettings
    /// The least important log level written.
    var logLevel: LogLevel
    /// Whether every request is logged (one line each).
    var accessLog: Bool
    /// Who may read `/metrics`.
    var metricsAccess: MetricsAccess
    /// How long in-flight requests may take to finish after SIGINT/SIGTERM.
    var shutdownGracePeriod: Duration
    /// Whether pending migrations are applied at start (otherwise the server refuses to start).
    var autoMigrate: Bool
    /// Whether the endpoints only Hearth's own test suite uses are served.
    var testEndpoints: Bool
    /// Whether the plain WebSocket echo endpoint of the conformance run (`/_conformance/echo`) is served.
    var webSocketEcho: Bool
    /// The limits and switches of `/graphql`.
    var graphQL: GraphQLLimits
    /// The largest body of an upload: a multipart `POST /graphql` or a `PUT /avatar`.
    var maxUploadBytes: Int
    /// The limits of GraphQL multipart requests (parts, part headers, part size).
    var uploadLimits: MultipartLimits
    /// The WebSocket side of `/graphql`: frame and message sizes, pings, compression, origins,
    /// operations per connection.
    var realtime: RealtimeConfiguration
    /// Time between `server.heartbeat` events.
    var heartbeatInterval: Duration
    /// Email: transport, sender, public base URL.
    var mail: MailSettings
    /// Accounts, sessions and sign-in limits.
    var accounts: AccountSettings
    /// Sign-in with Google and Apple.
    var signInProviders: SignInProviderSettings
    /// Households, membership and onboarding: limits, invitations, terms.
    var households: HouseholdsConfiguration
    /// Chore definitions: limits on chores, tags, steps, presets.
    var chores: ChoresConfiguration
    /// Chore instances: the planning horizon, the undo window, occurrences per request.
    var choreInstances: InstancesConfiguration
    /// The chore lists' cache: entries and bytes kept.
    var choreViews: ChoreViewCacheLimits
    /// The token economy and the rewards store: limits.
    var tokens: TokensConfiguration
    /// The "within 5 km" query: largest radius, cover ranges.
    var geo: GeoConfiguration
    /// Habits and habit events: the photo size, the map's events.
    var habits: HabitsConfiguration
    /// Habit adherence: the longest weekly series.
    var habitAdherence: HabitAdherenceConfiguration
    /// Following and the following feed: limits.
    var following: FollowingConfiguration
    /// Offline sync: limits.
    var sync: SyncConfiguration
    /// Web Push: the VAPID contact, limits, and where deliveries may connect.
    var push: PushSettings
    /// The calendar and availability events: limits.
    var calendar: CalendarConfiguration
    /// The job scheduler: workers, retries, leases.
    var scheduler: JobScheduler.Configuration
    /// How long log-like data is kept.
    var retention: RetentionPolicy
    /// Importing habits from other trackers: the archive size limit.
    var habitPorting: HabitPortingConfiguration
    /// Calendars imported from .ics files: file and read limits.
    var calendarImport: CalendarFileLimits
    /// Calendar feeds: refreshes, fetch limits, where fetches may connect (the TLS client of
    /// `--outbound-ca-file` is loaded at start, with the push service's).
    var calendarFeeds: CalendarFeedConfiguration
    /// Whether `--public-base-url` (or its variable) was given; otherwise `/.well-known/hearth`
    /// derives the base from each request, since the default suits only local development.
    var isPublicBaseURLConfigured: Bool
    /// Google Calendar connections: the OAuth client, endpoints and sync limits; nil without
    /// `--google-client-id` (the TLS client of `--outbound-ca-file` is set at start).
    var google: GoogleCalendarConfiguration?
    /// Home-screen widgets: feed size, tokens per account.
    var widgets: WidgetConfiguration

    /// The options of `hearth serve`, with their environment variables and defaults.
    static let options: [OptionSpec] = [
        .value("--host", "HOST", environment: "HEARTH_HOST", default: "127.0.0.1",
               help: "Numeric IPv4 or IPv6 address to listen on (0.0.0.0 or :: for every interface)."),
        .value("--port", "PORT", environment: "HEARTH_PORT", default: "8080",
               help: "TCP port to listen on; 0 picks a free port (the 'listening on' line tells which)."),
    ] + DatabaseSettings.options + KeySettings.options + [
        .value("--log-level", "LEVEL", environment: "HEARTH_LOG_LEVEL", default: "info",
               help: "Least important log level written to standard error: trace, debug, info, notice, warning, error or critical."),
        .value("--access-log", "on|off", environment: "HEARTH_ACCESS_LOG", default: "on",
               help: "Log one line per request (at info level) with its request id, route, status and duration."),
        .value("--loops", "N", environment: "HEARTH_LOOPS", default: nil,
               help: "Event-loop threads serving connections. Default: the number of CPU cores."),
        .value("--max-connections", "N", environment: "HEARTH_MAX_CONNECTIONS", default: "20000",
               help: "Open connections beyond this are answered 503 and closed."),
        .value("--linger-timeout", "DURATION", environment: "HEARTH_LINGER_TIMEOUT", default: "2s",
               help: "A connection closed after its last response (a 503 refusal, an error, Connection: close) reads and drops what the client still sends for up to this long, so the response is not destroyed by a reset."),
        .value("--max-lingering-connections", "N", environment: "HEARTH_MAX_LINGERING_CONNECTIONS", default: "1024",
               help: "Connections lingering at once (each holds a descriptor); beyond, a connection closes as soon as what has arrived is read."),
        .value("--max-request-line", "BYTES", environment: "HEARTH_MAX_REQUEST_LINE", default: "8KiB",
               help: "Longest request line (method, target, version); longer gets 414."),
        .value("--max-header-bytes", "BYTES", environment: "HEARTH_MAX_HEADER_BYTES", default: "16KiB",
               help: "Largest header section; larger gets 431."),
        .value("--max-body-bytes", "BYTES", environment: "HEARTH_MAX_BODY_BYTES", default: "1MiB",
               help: "Largest request body, announced or chunked; larger gets 413."),
        .value("--max-upload-bytes", "BYTES", environment: "HEARTH_MAX_UPLOAD_BYTES", default: "2MiB",
               help: "Largest body of an upload (multipart POST /graphql, PUT /avatar), the image and its envelope; larger gets 413."),
        .value("--header-timeout", "DURATION", environment: "HEARTH_HEADER_TIMEOUT", default: "10s",
               help: "Time a client has to send a request's headers, from its first byte; slower gets 408."),
        .value("--body-timeout", "DURATION", environment: "HEARTH_BODY_TIMEOUT", default: "30s",
               help: "Time a client has to send a request's body; slower gets 408."),
        .value("--idle-timeout", "DURATION", environment: "HEARTH_IDLE_TIMEOUT", default: "60s",
               help: "An idle keep-alive connection (or one not reading our response) is closed after this."),
        .value("--gzip-min-bytes", "BYTES", environment: "HEARTH_GZIP_MIN_BYTES", default: "1KiB",
               help: "Responses at least this large are gzip-compressed when the client accepts gzip."),
        .value("--shutdown-grace", "DURATION", environment: "HEARTH_SHUTDOWN_GRACE", default: "10s",
               help: "On SIGINT/SIGTERM, how long in-flight requests may take before connections are closed."),
        .value("--auto-migrate", "on|off", environment: "HEARTH_AUTO_MIGRATE", default: "on",
               help: "Apply pending migrations at start; when off, a database with pending migrations stops the start."),
        .value("--graphql-introspection", "on|off", environment: "HEARTH_GRAPHQL_INTROSPECTION", default: "on",
               help: "Allow __schema and __type queries; off also removes \"Did you mean\" suggestions from errors."),
        .value("--graphql-max-depth", "N", environment: "HEARTH_GRAPHQL_MAX_DEPTH", default: "15",
               help: "Deepest field nesting of an operation (the standard introspection query needs 13)."),
        .value("--graphql-max-aliases", "N", environment: "HEARTH_GRAPHQL_MAX_ALIASES", default: "30",
               help: "Most aliases in an operation, fragments counted each time they are spread."),
        .value("--max-sync-batch-entries", "N", environment: "HEARTH_MAX_SYNC_BATCH_ENTRIES", default: "100",
               help: "Most mutations one syncBatch carries; each is checked against the other limits as a request of its own."),
        .value("--graphql-max-complexity", "N", environment: "HEARTH_GRAPHQL_MAX_COMPLEXITY", default: "5000",
               help: "Highest operation cost: 1 per field, times first/last (or 10) for list fields."),
        .value("--graphql-max-tokens", "N", environment: "HEARTH_GRAPHQL_MAX_TOKENS", default: "15000",
               help: "Most lexical tokens in a GraphQL document."),
        .value("--graphql-max-document-bytes", "BYTES", environment: "HEARTH_GRAPHQL_MAX_DOCUMENT_BYTES", default: "64KiB",
               help: "Largest GraphQL document."),
        .value("--graphql-max-selection-set-fields", "N", environment: "HEARTH_GRAPHQL_MAX_SELECTION_SET_FIELDS", default: "200",
               help: "Most fields one selection set may select at one level, fragments counted where spread."),
        .value("--graphql-max-field-comparisons", "N", environment: "HEARTH_GRAPHQL_MAX_FIELD_COMPARISONS", default: "100000",
               help: "Most comparisons checking that same-named fields merge may take for one document."),
        .value("--graphql-inline-document-bytes", "BYTES", environment: "HEARTH_GRAPHQL_INLINE_DOCUMENT_BYTES", default: "1KiB",
               help: "Uncached documents up to this size are parsed and validated on the event loop, larger ones on validation threads."),
        .value("--graphql-validation-threads", "N", environment: "HEARTH_GRAPHQL_VALIDATION_THREADS", default: nil,
               help: "Threads parsing and validating large uncached documents; 64 more may wait. Default: half the CPU cores, at least 1."),
        .value("--graphql-document-cache", "N", environment: "HEARTH_GRAPHQL_DOCUMENT_CACHE", default: "1000",
               help: "Parsed and validated documents kept (least recently used evicted); 0 disables the cache."),
        .value("--graphql-document-cache-bytes", "BYTES", environment: "HEARTH_GRAPHQL_DOCUMENT_CACHE_BYTES", default: "32MiB",
               help: "Memory the document cache may hold (estimated per document); 0 disables the cache."),
        .value("--graphql-persisted-queries", "N", environment: "HEARTH_GRAPHQL_PERSISTED_QUERIES", default: "10000",
               help: "Automatic Persisted Queries kept (least recently used evicted); 0 switches APQ off."),
        .value("--graphql-persisted-queries-bytes", "BYTES", environment: "HEARTH_GRAPHQL_PERSISTED_QUERIES_BYTES", default: "16MiB",
               help: "Memory the Automatic Persisted Queries may hold (their text); 0 switches APQ off."),
        .value("--heartbeat-interval", "DURATION", environment: "HEARTH_HEARTBEAT_INTERVAL", default: "30s",
               help: "Time between the server.heartbeat events that serverEvents subscribers receive."),
        .value("--ws-max-message-bytes", "BYTES", environment: "HEARTH_WS_MAX_MESSAGE_BYTES", default: "1MiB",
               help: "Largest WebSocket frame and message from a client (after decompression); larger closes with 1009."),
        .value("--ws-max-subscriptions", "N", environment: "HEARTH_WS_MAX_SUBSCRIPTIONS", default: "100",
               help: "Operations running at once on one WebSocket; a subscribe beyond this is answered with an error message."),
        .value("--ws-ping-interval", "DURATION", environment: "HEARTH_WS_PING_INTERVAL", default: "30s",
               help: "Idle WebSocket connections are pinged this often and closed without a pong; 0 switches pings off."),
        .value("--ws-init-timeout", "DURATION", environment: "HEARTH_WS_INIT_TIMEOUT", default: "3s",
               help: "Time a WebSocket client has to send connection_init; slower is closed with 4408."),
        .value("--ws-compression", "on|off", environment: "HEARTH_WS_COMPRESSION", default: "on",
               help: "Offer permessage-deflate (RFC 7692) to WebSocket clients that ask for it."),
        .value("--ws-allowed-origins", "ORIGINS", environment: "HEARTH_WS_ALLOWED_ORIGINS", default: nil,
               help: "Comma-separated Origin values allowed to open a WebSocket (403 otherwise). Default: any origin."),
    ] + TrustedProxySettings.options + MetricsSettings.options + MailSettings.options + AccountSettings.options + SignInProviderSettings.options + HouseholdSettings.options
        + ChoreSettings.options + ChoreInstanceSettings.options + TokenSettings.options + SchedulerSettings.options
        + ChoreViewSettings.options
        + GeoSettings.options
        + HabitSettings.options
        + HabitAdherenceSettings.options
        + FollowingSettings.options
        + SyncSettings.options
        + PushSettings.options
        + CalendarSettings.options
        + HabitPortingSettings.options
        + CalendarImportSettings.options
        + CalendarFeedSettings.options
        + GoogleCalendarSettings.options
        + WidgetSettings.options
        + RetentionSettings.options + [
        .toggle("--test-endpoints",
                help: "Serve POST /_test/journal, POST /_test/publish, GET /_test/subscriptions/N, POST /_test/hold and /_test/jobs, used only by Hearth's own tests and benchmarks. Never enable in production."),
        .toggle("--ws-echo",
                help: "Serve a WebSocket echo endpoint at /_conformance/echo (no sub-protocol, the WebSocket limits above), used only by the Autobahn conformance run. Never enable in production."),
    ]

    /// Reads and validates the settings; every problem names its flag or variable.
    init(_ options: ParsedOptions) throws {
        var http = HTTPServerConfiguration()
        http.host = options.string("--host") ?? http.host
        http.port = try options.integer("--port", in: 0...65535) ?? http.port
        http.eventLoopCount = try options.integer("--loops", in: 1...256) ?? http.eventLoopCount
        http.maxConnections = try options.integer("--max-connections", in: 1...1_000_000) ?? http.maxConnections
        http.lingerTimeout = try options.duration("--linger-timeout", in: .zero ... .seconds(60)) ?? http.lingerTimeout
        http.maxLingeringConnections =
            try options.integer("--max-lingering-connections", in: 0...1_000_000) ?? http.maxLingeringConnections
        http.trustedProxies = try TrustedProxySettings.trustedProxies(options)
        metricsAccess = try MetricsSettings.access(options, trustedProxies: http.trustedProxies)
        http.parser.maxRequestLineLength =
            try options.byteCount("--max-request-line", in: 64...(1 << 20)) ?? http.parser.maxRequestLineLength
        http.parser.maxHeaderBytes = try options.byteCount("--max-header-bytes", in: 256...(1 << 24)) ?? http.parser.maxHeaderBytes
        http.parser.maxBodyBytes = try options.byteCount("--max-body-bytes", in: 0...(1 << 30)) ?? http.parser.maxBodyBytes
        let maxUploadBytes = try options.byteCount("--max-upload-bytes", in: 1024...(1 << 30)) ?? 2 << 20
        let habitPorting = try HabitPortingSettings.configuration(options)
        self.habitPorting = habitPorting
        calendarImport = try CalendarImportSettings.limits(options)
        http.parser.bodyLimitRules = [
            BodyLimitRule(method: .post, path: "/graphql", mediaType: "multipart/form-data", maxBodyBytes: maxUploadBytes),
            BodyLimitRule(method: .put, path: "/avatar", maxBodyBytes: maxUploadBytes),
            BodyLimitRule(method: .post, path: HabitPortingRoutes.importPath, maxBodyBytes: habitPorting.maxImportBytes),
        ]
        self.maxUploadBytes = maxUploadBytes
        uploadLimits = MultipartLimits(maxParts: 12, maxHeaderBytes: 8 * 1024, maxPartBytes: maxUploadBytes)
        let maxTimeout = Duration.seconds(24 * 3600)
        http.parser.headerReadTimeout =
            try options.duration("--header-timeout", in: .milliseconds(1)...maxTimeout) ?? http.parser.headerReadTimeout
        http.parser.bodyReadTimeout =
            try options.duration("--body-timeout", in: .milliseconds(1)...maxTimeout) ?? http.parser.bodyReadTimeout
        http.idleTimeout = try options.duration("--idle-timeout", in: .milliseconds(1)...maxTimeout) ?? http.idleTimeout
        http.compression.minimumBodySize =
            try options.byteCount("--gzip-min-bytes", in: 0...(1 << 30)) ?? http.compression.minimumBodySize
        self.http = http
        database = try DatabaseSettings(options)
        keys = try KeySettings(options, databasePath: database.path)
        let levels = Dictionary(uniqueKeysWithValues: LogLevel.allCases.map { ($0.description, $0) })
        logLevel = try options.choice("--log-level", levels.merging(["warn": .warning]) { first, _ in first }) ?? .info
        accessLog = try options.isOn("--access-log")
        shutdownGracePeriod = try options.duration("--shutdown-grace", in: .zero...Duration.seconds(3600)) ?? .seconds(10)
        autoMigrate = try options.isOn("--auto-migrate")
        testEndpoints = try options.isOn("--test-endpoints")
        webSocketEcho = try options.isOn("--ws-echo")
        var graphQL = GraphQLLimits()
        graphQL.introspection = try options.isOn("--graphql-introspection")
        graphQL.maxDepth = try options.integer("--graphql-max-depth", in: 1...1_000) ?? graphQL.maxDepth
        graphQL.maxAliases = try options.integer("--graphql-max-aliases", in: 0...100_000) ?? graphQL.maxAliases
        graphQL.maxSyncBatchEntries = try options.integer("--max-sync-batch-entries", in: 1...10_000) ?? graphQL.maxSyncBatchEntries
        graphQL.complexity.maximum =
            try options.integer("--graphql-max-complexity", in: 1...1_000_000_000) ?? graphQL.complexity.maximum
        graphQL.maxTokens = try options.integer("--graphql-max-tokens", in: 100...10_000_000) ?? graphQL.maxTokens
        graphQL.maxDocumentBytes =
            try options.byteCount("--graphql-max-document-bytes", in: 256...(1 << 30)) ?? graphQL.maxDocumentBytes
        graphQL.maxSelectionSetFields =
            try options.integer("--graphql-max-selection-set-fields", in: 1...1_000_000) ?? graphQL.maxSelectionSetFields
        graphQL.maxFieldComparisons =
            try options.integer("--graphql-max-field-comparisons", in: 100...1_000_000_000) ?? graphQL.maxFieldComparisons
        graphQL.inlineDocumentBytes =
            try options.byteCount("--graphql-inline-document-bytes", in: 0...(1 << 30)) ?? graphQL.inlineDocumentBytes
        graphQL.validationThreads = try options.integer("--graphql-validation-threads", in: 1...256) ?? graphQL.validationThreads
        graphQL.documentCacheEntries =
            try options.integer("--graphql-document-cache", in: 0...1_000_000) ?? graphQL.documentCacheEntries
        graphQL.documentCacheBytes =
            try options.byteCount("--graphql-document-cache-bytes", in: 0...(1 << 40)) ?? graphQL.documentCacheBytes
        graphQL.persistedQueryEntries =
            try options.integer("--graphql-persisted-queries", in: 0...10_000_000) ?? graphQL.persistedQueryEntries
        graphQL.persistedQueryBytes =
            try options.byteCount("--graphql-persisted-queries-bytes", in: 0...(1 << 40)) ?? graphQL.persistedQueryBytes
        self.graphQL = graphQL
        heartbeatInterval =
            try options.duration("--heartbeat-interval", in: .milliseconds(10)...maxTimeout) ?? .seconds(30)
        var realtime = RealtimeConfiguration()
        let maxMessageBytes = try options.byteCount("--ws-max-message-bytes", in: 126...(1 << 30)) ?? realtime.webSocket.maxMessageSize
        realtime.webSocket.maxMessageSize = maxMessageBytes
        realtime.webSocket.maxFrameSize = maxMessageBytes
        realtime.transport.maxOperations =
            try options.integer("--ws-max-subscriptions", in: 1...100_000) ?? realtime.transport.maxOperations
        if let interval = try options.duration("--ws-ping-interval", in: .zero...maxTimeout) {
            realtime.webSocket.pingInterval = interval == .zero ? nil : interval
        }
        realtime.transport.connectionInitTimeout =
            try options.duration("--ws-init-timeout", in: .milliseconds(1)...maxTimeout) ?? realtime.transport.connectionInitTimeout
        if try !options.isOn("--ws-compression") { realtime.webSocket.compression = nil }
        realtime.webSocket.allowedOrigins = options.string("--ws-allowed-origins").map { list in
            list.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }
        self.realtime = realtime
        mail = try MailSettings(options)
        accounts = try AccountSettings(options, issuer: mail.publicBaseURL.description)
        signInProviders = try SignInProviderSettings(options)
        households = try HouseholdSettings.configuration(options)
        chores = try ChoreSettings.configuration(options)
        choreInstances = try ChoreInstanceSettings.configuration(options)
        choreViews = try ChoreViewSettings.limits(options)
        tokens = try TokenSettings.configuration(options)
        geo = try GeoSettings.configuration(options)
        habits = try HabitSettings.configuration(options)
        habitAdherence = try HabitAdherenceSettings.configuration(options)
        following = try FollowingSettings.configuration(options)
        sync = try SyncSettings.configuration(options)
        push = try PushSettings(options, sender: mail.sender.address)
        calendarFeeds = try CalendarFeedSettings.configuration(options, policy: push.outboundPolicy)
        google = try GoogleCalendarSettings.configuration(options, publicBaseURL: mail.publicBaseURL, maximumRetryAfter: push.maximumRetryAfter)
        widgets = try WidgetSettings.configuration(options)
        calendar = try CalendarSettings.configuration(options)
        scheduler = try SchedulerSettings.configuration(options)
        retention = try RetentionSettings.policy(options)
        isPublicBaseURLConfigured = options.isGiven("--public-base-url")
    }
}
