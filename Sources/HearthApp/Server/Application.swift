import FoundationEssentials
import GraphQL
import HearthAPI
import Dispatch
import Glibc
import HearthDomain
import HearthHTTP
import HearthServices
import HearthStore
import JOSE
import Support
import Synchronization

/// The running Hearth server: the database (SQLite's pool or PostgreSQL's, migrated), the event bus and change log,
/// the server's own events, the job scheduler (mail delivery, retention), the HTTP server and
/// its routes (GraphQL over HTTP and WebSocket on `/graphql`, the pages emailed links open),
/// and the metrics. `hearth serve` creates one, starts it, and shuts it down on
/// SIGINT/SIGTERM; end-to-end tests drive the same code through the binary.
final class Application: Sendable {
    let settings: ServeSettings
    let logger: Logger
    /// The store `--database` names; services hold ``pool``, its reader/writer seam.
    let store: OpenedStore
    /// The database as services see it.
    let pool: any DatabaseWriter
    /// Held (shared) while the server runs, so `hearth restore` refuses to swap the database
    /// (SQLite only: a PostgreSQL server is shared by design).
    private let databaseLock: DatabaseLock?
    let migrator: Migrator
    let metrics: ServerMetrics
    /// Where this instance's subscriptions read committed changes (on PostgreSQL, the relay of
    /// ``coordination`` delivers every instance's changes to it).
    let bus: InProcessEventBus
    /// How this process shares the database with other instances (nothing on SQLite).
    private let coordination: InstanceCoordination
    /// The clock every service reads.
    private let clock: any ServiceClock
    /// Records changes and publishes them on `bus` after commit.
    let changeLog: ChangeLog
    /// Where services enqueue timed and background work, inside their write transactions.
    let jobs: JobQueue
    /// Where services enqueue email, inside their write transactions.
    let mailOutbox: MailOutbox
    /// Accounts, sessions and access tokens.
    let accounts: AccountService
    /// Households, membership and onboarding.
    let households: HouseholdService
    /// Chore definitions, tags and presets.
    let chores: ChoreService
    /// Chore instances, completion and history.
    let choreInstances: ChoreInstanceService
    /// Token ledgers, approvals and the rewards store.
    let tokens: TokenService
    /// Leaderboards and scoreboards.
    let leaderboards: LeaderboardService
    private let server: HTTPServer
    private let draining = ShutdownFlag()
    private let serverEvents: ServerEvents
    /// Runs every job kind: all background work but the per-process heartbeat.
    private let scheduler: JobScheduler
    private let retention: RetentionJob
    /// Run between `start()` and `finishShutdown()`; the pool closes after their last write.
    private let serverEventsTask = BackgroundTask()
    private let schedulerTask = BackgroundTask()

    /// Opens and migrates the database and prepares the HTTP server (not yet listening).
    ///
    /// - Throws: `UsageError` naming every problem of the embedded `schema.graphql` when it is
    ///   invalid, `StoreError` when the database cannot be opened, `MigrationError` when it
    ///   does not match this binary (or has pending migrations and auto-migration is off).
    init(settings: ServeSettings, logger: Logger) throws {
        self.settings = settings
        self.logger = logger
        let startedAt = WallClock.now()
        let isSQLite = settings.database.postgres == nil
        databaseLock = isSQLite ? try DatabaseLock(databasePath: settings.database.path, mode: .serving) : nil
        store = try settings.database.open()
        migrator = try settings.database.migrator()
        if isSQLite {
            Self.warnIfOthersCanRead(settings.database.path, logger: logger)
        }
        try Self.prepareDatabase(store: store, migrator: migrator, settings: settings, logger: logger)
        coordination = try InstanceCoordination(store: store.writer, postgres: store.postgresStore)
        pool = coordination.writer
        let bus = coordination.local
        self.bus = bus
        let keys = try ServerKeys.load(
            directory: KeyDirectory(path: settings.keys.directory), accessTokenKeyFile: settings.accounts.accessTokenKeyFile,
            sqlitePool: store.sqlitePool, logger: logger.labeled("keys"))
        let links = LinkTokens(key: keys.link)
        // The one clock of every service; with the test endpoints, one they may move forward.
        let shiftableClock = settings.testEndpoints ? ShiftableClock() : nil
        let clock: any ServiceClock = shiftableClock ?? SystemClock()
        self.clock = clock
        changeLog = ChangeLog(pool: pool, bus: coordination.bus, clock: clock)
        jobs = JobQueue(pool: pool, clock: clock)
        mailOutbox = MailOutbox(
            jobs: jobs, messageIDDomain: Self.domain(of: settings.mail.sender.address), keepsLinkTokens: settings.mail.transport.keepsLinkTokens)
        if mailOutbox.keepsLinkTokens {
            logger.warning(
                "the development mail transport keeps every email in the database with its working links (address confirmation, "
                    + "password reset, invitations) for 'hearth mail show': whoever copies the database can follow them; "
                    + "use --mail-transport smtp in production")
        }
        retention = RetentionJob(policy: settings.retention, jobs: jobs, changeLog: changeLog, logger: logger.labeled("retention"))
        let testJobs = TestJobRoutes(jobs: jobs, pool: pool, signals: TestJobSignals())
        accounts = try Self.makeAccountService(
            settings: settings, pool: pool, clock: clock, changeLog: changeLog, accessTokenKey: keys.accessToken,
            mail: AccountMail(outbox: mailOutbox, baseURL: settings.mail.publicBaseURL, links: links), logger: logger)
        households = HouseholdService(
            configuration: settings.households, pool: pool, changeLog: changeLog, accounts: accounts,
            analytics: ActivationAnalytics(key: keys.analytics), logger: logger.labeled("households"), clock: clock)
        chores = ChoreService(configuration: settings.chores, households: households)
        choreInstances = ChoreInstanceService(configuration: settings.choreInstances, chores: chores, jobs: jobs)
        tokens = TokenService(configuration: settings.tokens, instances: choreInstances)
        leaderboards = LeaderboardService(tokens: tokens)
        let vacations = VacationService(instances: choreInstances, jobs: jobs)
        let habits = HabitService(configuration: settings.habits, geo: settings.geo, households: households)
        // Habit adherence (issue 16): todayHabits, the statistics and weekly series, the sparkline.
        let habitAdherence = HabitAdherenceService(
            pool: pool, clock: clock, configuration: settings.habitAdherence, baseURL: settings.mail.publicBaseURL)
        let follows = FollowService(configuration: settings.following, households: households)
        let geo = GeoService(configuration: settings.geo, pool: pool)
        let sync = SyncService(configuration: settings.sync, households: households)
        let push = PushService(configuration: try settings.push.configuration(vapidKey: keys.vapid), households: households, jobs: jobs)
        if settings.push.allowsLoopback {
            logger.warning("--outbound-allow-loopback lets user-supplied URLs (push endpoints, calendar feeds) reach this host's loopback services; development only")
        }
        // Reminders and notices (issue 18), on the live stream, by email and by push (Web Push, and FCM when configured).
        let notificationChannels = NotificationChannels()
        notificationChannels.register(LiveNotificationChannel(changeLog: changeLog))
        notificationChannels.register(EmailNotificationChannel(outbox: mailOutbox))
        notificationChannels.register(PushNotificationChannel(push: push))
        let availability = AvailabilityService(configuration: settings.calendar, households: households)
        let notifier = Notifier(channels: notificationChannels)
        // Imported calendars (issue 18, FR-61): .ics uploads parsed on their own worker; feeds fetched and refreshed by the scheduler.
        var feeds = settings.calendarFeeds
        feeds.tls = push.configuration.tls
        let importedCalendars = ImportedCalendarService(
            households: households, limits: settings.calendarImport, feeds: feeds,
            workers: WorkerPool(label: "calendar-import", concurrency: 1, queueLimit: 8), jobs: jobs, notifier: notifier)
        // Google Calendar (issue 18, FR-62): connected accounts' calendars synced in, chores exported out.
        var googleConfiguration = settings.google
        googleConfiguration?.tls = push.configuration.tls
        let google = GoogleCalendarService(configuration: googleConfiguration, calendars: importedCalendars, sealer: SecretSealer(key: keys.secrets))
        // Busy time (FR-50A) from every calendar source a user has; reminders of those who avoid it wait for free time.
        let notifications = NotificationService(
            instances: choreInstances, notifier: notifier, jobs: jobs,
            busyTimes: BusyTimes(importedCalendars: importedCalendars, availability: availability))
        // The calendar (issue 18): availability events, imported events, reminders and the calendar query.
        let calendar = CalendarService(
            availability: availability, instances: choreInstances, importedCalendars: importedCalendars, baseURL: settings.mail.publicBaseURL)
        // Every kind of background work, one line each.
        let jobHandlers: [any JobHandler] = [
            MailDeliveryJob(
                outbox: mailOutbox, transport: try Self.makeMailTransport(settings.mail, logger: logger.labeled("mail")), links: links,
                logger: logger.labeled("mail")),
            retention,
            choreInstances.planJob,
            choreInstances.offerJob,
            notifications.reminderJob,
            notifications.habitReminderJob,
            leaderboards.rolloverJob,
            vacations.startJob,
            vacations.endJob,
            PushDeliveryJob(push: push, logger: logger.labeled("push")),
            FCMDeliveryJob(push: push, logger: logger.labeled("push")),
            importedCalendars.refreshJob(logger: logger.labeled("calendar-feeds")),
            accounts.administrationJob,
        ] + google.jobHandlers(logger: logger.labeled("google-calendar")) + (settings.testEndpoints ? [testJobs.handler] : [])
        scheduler = JobScheduler(queue: jobs, handlers: jobHandlers, configuration: settings.scheduler, logger: logger.labeled("jobs"))
        let choreViews = ChoreViewCache(limits: settings.choreViews)
        // Home-screen widgets (issue 19): the feed, widget tokens, signed one-tap actions.
        let widgetFeeds = WidgetFeedCache(
            widgets: WidgetService(
                instances: choreInstances, links: WidgetActionLinks(key: keys.widget), configuration: settings.widgets,
                baseURL: settings.mail.publicBaseURL),
            limits: settings.choreViews)
        // Habits in and out: exports read and stream on their own workers (they wait for slow clients);
        // imports unpack on theirs.
        let habitExporter = HabitExporter(pool: pool, clock: clock, workers: WorkerPool(label: "habit-export", concurrency: 4, queueLimit: 32))
        let loopImporter = LoopImporter(
            habits: habits, workers: WorkerPool(label: "habit-import", concurrency: 1, queueLimit: 8), configuration: settings.habitPorting)
        let graphQL = try Self.makeGraphQLService(
            settings: settings, logger: logger, startedAt: startedAt, events: bus, accounts: accounts, households: households, chores: chores,
            instances: choreInstances, tokens: tokens, leaderboards: leaderboards, vacations: vacations, choreViews: choreViews,
            habits: habits, habitAdherence: habitAdherence,
            follows: follows, loopImporter: loopImporter, geo: geo, sync: sync, push: push, importedCalendars: importedCalendars, notifications: notifications, calendar: calendar, google: google, widgetFeeds: widgetFeeds)
        let authenticator = Authenticator(accounts: accounts)
        serverEvents = ServerEvents(
            changeLog: changeLog, configuration: ServerEvents.Configuration(heartbeatInterval: settings.heartbeatInterval),
            logger: logger.labeled("events"))
        let realtime = RealtimeMetrics()
        metrics = ServerMetrics(store: store, logger: logger.labeled("http"), accessLog: settings.accessLog, startedAt: startedAt)
        metrics.registerGraphQL(graphQL)
        metrics.registerChoreViews(choreViews)
        metrics.registerRealtime(realtime, bus: bus)
        JobMetrics.register(scheduler, in: metrics.registry)
        var router = Router()
        // One notion of the client's address for every rate limit, the API's and the pages'.
        // The peer, or behind a trusted reverse proxy the client it names (--trusted-proxies).
        let clientAddress: @Sendable (HTTPRequest) -> String = { $0.clientAddress }
        GraphQLHTTPHandler(service: graphQL, uploadLimits: settings.uploadLimits, makeContext: { request, uploads in
            RequestContext(
                authentication: await authenticator.authenticate(authorization: request.headers["Authorization"]),
                clientAddress: clientAddress(request), uploads: uploads, requestID: request.id)
        }).register(in: &router)
        AvatarRoutes(accounts: accounts, authenticator: authenticator).register(in: &router)
        HabitRoutes(habits: habits, authenticator: authenticator).register(in: &router)
        CalendarRoutes(feeds: calendar.feeds, authenticator: authenticator).register(in: &router)
        GoogleCallbackPage(google: google, logger: logger.labeled("google-calendar")).register(in: &router)
        SparklineRoutes(adherence: habitAdherence, authenticator: authenticator).register(in: &router)
        FollowingRoutes(follows: follows, authenticator: authenticator).register(in: &router)
        HabitPortingRoutes(exporter: habitExporter, importer: loopImporter, authenticator: authenticator).register(in: &router)
        WidgetRoutes(feeds: widgetFeeds, authenticator: authenticator).register(in: &router)
        WebPages(
            accounts: accounts, households: households, publicBaseURL: settings.mail.publicBaseURL,
            clientAddress: clientAddress, logger: logger.labeled("pages")
        ).register(in: &router)
        let webSocketAuthentication = WebSocketAuthentication(authenticator: authenticator, logger: logger.labeled("realtime"))
        GraphQLWebSocketEndpoint(
            service: graphQL, configuration: settings.realtime, metrics: realtime,
            makeContext: webSocketAuthentication.upgradeContext, authorize: webSocketAuthentication.authorize,
            sharingScope: webSocketAuthentication.sharingScope, isLive: HearthSchema.isLiveSubscription
        ).register(in: &router)
        OperationsRoutes(
            pool: pool, migrator: migrator, metrics: metrics, metricsAccess: settings.metricsAccess,
            isDraining: { [draining] in draining.isSet }
        ).register(in: &router)
        // What a client needs after the user types this server's address (FR-68).
        DiscoveryRoutes(
            document: DiscoveryDocument(
                configuredBaseURL: settings.isPublicBaseURLConfigured ? settings.mail.publicBaseURL : nil,
                fallbackBaseURL: settings.mail.publicBaseURL,
                signInMethods: [.password] + settings.signInProviders.all.map(\.configuration).filter(\.isEnabled).map { SignInMethod($0.provider) },
                vapidPublicKey: push.configuration.vapid.publicKey, fcmProjectID: push.configuration.fcm?.serviceAccount.projectID,
                registration: settings.accounts.accounts.registration, termsVersion: settings.households.termsVersion,
                termsURL: settings.households.termsURL),
            trustedProxies: settings.http.trustedProxies
        ).register(in: &router)
        if settings.testEndpoints {
            try TestJournalRoutes.prepare(pool)
            TestJournalRoutes(pool: pool).register(in: &router)
            TestPublishRoutes(changeLog: changeLog, pool: pool, realtime: realtime).register(in: &router)
            TestHoldRoutes(shutdown: draining).register(in: &router)
            if let shiftableClock { TestClockRoutes(clock: shiftableClock, jobs: jobs).register(in: &router) }
            try TestJobRoutes.prepare(pool)
            testJobs.observe(scheduler)
            testJobs.register(in: &router)
            TestPushRoutes(push: push).register(in: &router)
        }
        if settings.webSocketEcho {
            var echo = settings.realtime.webSocket
            echo.subprotocols = []
            router.webSocket("/_conformance/echo", configuration: echo) { _, _ in WebSocketEchoHandler() }
        }
        server = HTTPServer(configuration: settings.http, router: router, observer: metrics)
    }

    private static func makeAccountService(
        settings: ServeSettings, pool: any DatabaseWriter, clock: any ServiceClock, changeLog: ChangeLog, accessTokenKey: [UInt8], mail: AccountMail,
        logger: Logger
    ) throws -> AccountService {
        let configuration = settings.accounts.accounts
        let accessTokens = AccessTokens(
            key: accessTokenKey, issuer: configuration.issuer, audience: configuration.audience, lifetime: configuration.accessTokenLifetime)
        return AccountService(
            configuration: configuration, pool: pool, accessTokens: accessTokens, mail: mail,
            commonPasswords: PasswordPolicy.passwordList(EmbeddedFiles.resources["common-passwords.txt"] ?? ""),
            identityProviders: try makeIdentityProviders(settings: settings.signInProviders, logger: logger.labeled("sign-in")),
            logger: logger.labeled("accounts"), clock: clock, changeLog: changeLog)
    }

    /// The enabled identity providers, each with its key set: read from its file now, or
    /// fetched on first use and cached.
    /// - Throws: `UsageError` for a key-set file that cannot be read or is not a JWKS.
    private static func makeIdentityProviders(settings: SignInProviderSettings, logger: Logger) throws -> [IdentityProvider] {
        let fetcher = KeySetFetcher(logger: logger)
        return try settings.all.filter(\.configuration.isEnabled).map { provider in
            let name = provider.configuration.provider.rawValue
            let keys: JWKSCache
            switch provider.keySet {
            case .url(let location):
                keys = JWKSCache(fetch: fetcher.fetch(location.url))
            case .file(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw UsageError(message: "cannot read --\(name)-jwks-file \(path)")
                }
                do {
                    keys = try JWKSCache(localFileContents: Array(data))
                } catch let error as JOSEError {
                    throw UsageError(message: "--\(name)-jwks-file \(path) is not a JSON Web Key Set: \(error.message)")
                }
            }
            logger.notice("sign-in enabled", ["provider": name, "client_ids": String(provider.configuration.clientIDs.count)])
            return IdentityProvider(configuration: provider.configuration, keys: keys)
        }
    }

    private static func makeGraphQLService(
        settings: ServeSettings, logger: Logger, startedAt: WallClock.Instant, events: any EventBus, accounts: AccountService,
        households: HouseholdService, chores: ChoreService, instances: ChoreInstanceService, tokens: TokenService,
        leaderboards: LeaderboardService, vacations: VacationService, choreViews: ChoreViewCache, habits: HabitService,
        habitAdherence: HabitAdherenceService,
        follows: FollowService,
        loopImporter: LoopImporter,
        geo: GeoService,
        sync: SyncService,
        push: PushService,
        importedCalendars: ImportedCalendarService,
        notifications: NotificationService,
        calendar: CalendarService,
        google: GoogleCalendarService,
        widgetFeeds: WidgetFeedCache
    ) throws -> GraphQLService {
        do {
            return try HearthSchema.service(
                sdl: EmbeddedFiles.schema, serverInfo: ServerInfo(version: BuildInfo.version, startedAt: startedAt),
                events: events, accounts: accounts, households: households, chores: chores, instances: instances, tokens: tokens,
                leaderboards: leaderboards, vacations: vacations, choreViews: choreViews, habits: habits, habitAdherence: habitAdherence,
                follows: follows, loopImporter: loopImporter, geo: geo, sync: sync, push: push, importedCalendars: importedCalendars, notifications: notifications, calendar: calendar, google: google, widgetFeeds: widgetFeeds, limits: settings.graphQL,
                logger: logger.labeled("graphql"))
        } catch {
            throw UsageError(message: "schema.graphql is invalid:\n\(error)")
        }
    }

    private static func makeMailTransport(_ settings: MailSettings, logger: Logger) throws -> any MailTransport {
        switch settings.transport {
        case .log:
            return LogMailTransport(logger: logger)
        case .smtp(let configuration):
            do {
                return try SMTPMailTransport(configuration: configuration)
            } catch {
                throw UsageError(message: "invalid --smtp-ca-file: \(error)")
            }
        }
    }

    private static func domain(of address: String) -> String {
        address.split(separator: "@").last.map(String.init) ?? "localhost"
    }

    /// Warns when other users of the machine may read the database (a file made before the
    /// pool created its files private, or widened since): it holds people's data.
    private static func warnIfOthersCanRead(_ path: String, logger: Logger) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return }
        logger.warning(
            "other users of this machine may read the database: it holds people's addresses, names and password hashes; "
                + "chmod 600 it and its -wal and -shm files",
            ["database": path, "mode": String(status.st_mode & 0o777, radix: 8)])
    }

    private static func prepareDatabase(
        store: OpenedStore, migrator: Migrator, settings: ServeSettings, logger: Logger
    ) throws {
        if settings.autoMigrate {
            for migration in try store.migrate(migrator) {
                logger.notice("applied migration", ["migration": migration.fileName])
            }
            return
        }
        let status = try migrator.status(of: store.writer)
        if let problem = status.problems.first { throw problem }
        if let pending = status.pending.first {
            throw UsageError(message: "the database has \(status.pending.count) pending migration(s), first \(pending.fileName); "
                + "run 'hearth migrate' or start with --auto-migrate on")
        }
    }

    /// Starts publishing the server's events (`server.started`, then heartbeats), running jobs
    /// (those due from before a restart first, those a dead process left once their lease
    /// expires; retention's next run scheduled) and listening; returns the bound address (with
    /// the real port when 0 was asked for).
    func start() throws -> SocketAddress {
        try retention.schedule()
        coordination.start(sessions: accounts.sessions, clock: clock, logger: logger.labeled("instances"))
        serverEventsTask.start { [serverEvents] in await serverEvents.run() }
        schedulerTask.start { [scheduler] in await scheduler.run() }
        return try server.start()
    }

    /// How long beyond `--shutdown-grace` the process may take to let its last parts stop,
    /// checkpoint the WAL and close the database before it exits regardless.
    static let shutdownAllowance: Duration = .seconds(1)

    /// Begins a graceful shutdown: listeners close, idle connections close, in-flight requests
    /// get the configured grace period (their responses say `Connection: close`), /readyz turns
    /// 503, the server's events and the scheduler stop (jobs in progress finish).
    func beginShutdown() {
        // The server first, so every response written from here on says `Connection: close`,
        // those of requests that see the flag below included.
        server.shutdown(gracePeriod: settings.shutdownGracePeriod)
        draining.set()
        serverEventsTask.cancel()
        schedulerTask.cancel()
        coordination.stop()
    }

    /// Waits for the HTTP server, the server's events and the scheduler to stop, then
    /// checkpoints the WAL into the database file and closes the pool, all by `deadline`.
    ///
    /// - Returns: whether that finished in time. When it did not, something still runs: a
    ///   request holding its event loop past the grace period (a loop cannot interrupt a
    ///   handler), a job waiting on the outside world (a mail delivery on its SMTP server), or a
    ///   request task holding the writer the checkpoint needs. The caller exits anyway: the
    ///   database is then as safe as after a crash (SQLite recovers the WAL at the next start,
    ///   nothing acknowledged is lost), and a job cut short runs again once its lease expires.
    func finishShutdown(deadline: DispatchTime) -> Bool {
        let progress = ShutdownProgress()
        DetachedThread.start(name: "shutdown") { [self] in
            progress.waiting(for: "http")
            server.waitUntilStopped()
            progress.waiting(for: "server-events")
            serverEventsTask.waitUntilStopped()
            progress.waiting(for: "jobs")
            schedulerTask.waitUntilStopped()
            progress.waiting(for: "instances")
            coordination.waitUntilStopped()
            progress.waiting(for: "checkpoint")
            do {
                try store.checkpoint()
            } catch {
                logger.error("WAL checkpoint failed at shutdown", ["error": "\(error)"])
            }
            store.close()
            progress.finish()
        }
        guard progress.wait(until: deadline) else {
            logger.warning("shutdown grace period exceeded; exiting with work in flight", [
                "grace": "\(settings.shutdownGracePeriod)", "waiting_for": progress.stage,
            ])
            return false
        }
        return true
    }
}

/// Which part of the shutdown sequence runs, so an exit past the deadline can say what it left.
private final class ShutdownProgress: Sendable {
    private let current = Mutex("")
    private let finished = DispatchSemaphore(value: 0)

    /// The part being waited for now.
    var stage: String { current.withLock { $0 } }

    func waiting(for stage: String) { current.withLock { $0 = stage } }

    func finish() { finished.signal() }

    /// Whether the sequence finished by `deadline`.
    func wait(until deadline: DispatchTime) -> Bool { finished.wait(timeout: deadline) == .success }
}
