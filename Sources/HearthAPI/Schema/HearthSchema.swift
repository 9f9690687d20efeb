import GraphQL
import HearthDomain
import HearthServices
import Support

/// Facts about the running server, the value behind `Query.serverInfo`.
public struct ServerInfo: Sendable, FieldResolvable {
    /// The server's version.
    public var version: String
    /// When the process started.
    public var startedAt: WallClock.Instant

    /// Creates the facts.
    public init(version: String, startedAt: WallClock.Instant) {
        self.version = version
        self.startedAt = startedAt
    }

    /// The `ServerInfo` fields of `schema.graphql`.
    public func fieldValue(named name: String) -> Any? {
        switch name {
        case "version": version
        case "startedAt": startedAt
        default: nil
        }
    }
}

/// Hearth's public schema (`schema.graphql`, passed in as text) bound to its resolvers.
public enum HearthSchema {
    /// The custom scalars `schema.graphql` declares, by name.
    public static let scalars: [String: any ScalarCoercing] = [
        "DateTime": DateTimeScalar(), "Upload": UploadScalar(), "Decimal": DecimalScalar(), "TimeZone": TimeZoneScalar(),
        "Date": DateScalar(), "JSON": JSONScalar(), "Duration": DurationScalar(), "LocalTime": LocalTimeScalar(),
    ]

    /// Builds and checks the schema.
    /// - Parameter sourceName: The file name error messages give, e.g. `schema.graphql`.
    /// - Throws: `SchemaError` listing every syntax or type-system problem with its location.
    public static func build(sdl: String, sourceName: String = "schema.graphql") throws(SchemaError) -> Schema {
        try buildSchema(sdl: sdl, sourceName: sourceName, options: BuildSchemaOptions(scalars: scalars))
    }

    /// Events a subscriber may fall behind by before it is told it missed some
    /// (`missedEvents`); the bus drops the oldest beyond this.
    public static let subscriptionBufferSize = 256

    /// The most ids `Query.nodes` takes.
    public static let maximumNodeIDs = 100

    /// The resolvers of `schema`; subscriptions read `events`, account fields `accounts`,
    /// household fields `households`, chore fields `chores`, instance fields `instances` and the
    /// token economy's `tokens`, leaderboards and scoreboards `leaderboards`, vacation mode `vacations`, habits `habits`, today's habits and adherence `habitAdherence`,
    /// following `follows`, "within 5 km" `geo` with `habits` (the instance, token and
    /// leaderboard fields are left unresolved without them, for tests of other areas). The chore
    /// lists are kept in `choreViews` between requests when given (``ChoreViewCache``). Imports
    /// from Loop Habit Tracker go to `loopImporter`, of .ics calendars to `importedCalendars`; offline sync's
    /// `changes` reads `sync`; Web Push subscriptions are `push`'s; Google Calendar connections `google`'s; the calendar and availability events
    /// `calendar` (with `instances`); home-screen widgets `widgetFeeds` (their feeds kept between polls). `syncBatch`
    /// runs its entries through `syncBatches` (``service(sdl:serverInfo:events:accounts:households:chores:instances:tokens:leaderboards:vacations:choreViews:habits:habitAdherence:follows:loopImporter:geo:sync:push:importedCalendars:notifications:calendar:google:widgetFeeds:limits:logger:)``
    /// attaches its pipeline).
    public static func resolvers(
        schema: Schema, serverInfo: ServerInfo, events: any EventBus, accounts: AccountService, households: HouseholdService,
        chores: ChoreService, instances: ChoreInstanceService? = nil, tokens: TokenService? = nil, leaderboards: LeaderboardService? = nil,
        vacations: VacationService? = nil, choreViews: ChoreViewCache? = nil, habits: HabitService? = nil,
        habitAdherence: HabitAdherenceService? = nil,
        follows: FollowService? = nil,
        loopImporter: LoopImporter? = nil,
        geo: GeoService? = nil,
        sync: SyncService? = nil,
        push: PushService? = nil,
        syncBatches: SyncBatchRunner? = nil,
        importedCalendars: ImportedCalendarService? = nil,
        notifications: NotificationService? = nil,
        calendar: CalendarService? = nil,
        google: GoogleCalendarService? = nil,
        widgetFeeds: WidgetFeedCache? = nil
    ) -> Resolvers {
        var resolvers = Resolvers(schema: schema)
        if let syncBatches { SyncBatchResolvers.install(into: &resolvers, runner: syncBatches) }
        resolvers.resolve("Query", "serverInfo") { _, _, _, _ in serverInfo }
        AccountResolvers.install(into: &resolvers, accounts: accounts)
        HouseholdResolvers.install(into: &resolvers, households: households)
        ChoreResolvers.install(into: &resolvers, chores: chores, viewCache: choreViews)
        let instanceServices = instances.map { InstanceServices(chores: chores, instances: $0) }
        if let instanceServices { InstanceResolvers.install(into: &resolvers, services: instanceServices, viewCache: choreViews) }
        if let instanceServices { ShareResolvers.install(into: &resolvers, services: instanceServices) }
        if let tokens { TokenResolvers.install(into: &resolvers, tokens: tokens) }
        if let leaderboards { LeaderboardResolvers.install(into: &resolvers, leaderboards: leaderboards, bus: households.changeLog.bus) }
        if let vacations { VacationResolvers.install(into: &resolvers, vacations: vacations) }
        if let habits { HabitResolvers.install(into: &resolvers, habits: habits) }
        if let habits, let geo { NearbyResolvers.install(into: &resolvers, geo: geo, habits: habits) }
        if let habitAdherence { AdherenceResolvers.install(into: &resolvers, adherence: habitAdherence) }
        if let follows, let habits { FollowResolvers.install(into: &resolvers, follows: follows, habits: habits) }
        if let loopImporter { HabitPortingResolvers.install(into: &resolvers, importer: loopImporter) }
        if let push { PushResolvers.install(into: &resolvers, push: push) }
        if let importedCalendars { ImportedCalendarResolvers.install(into: &resolvers, calendars: importedCalendars) }
        if let google { GoogleCalendarResolvers.install(into: &resolvers, google: google) }
        if let notifications { NotificationResolvers.install(into: &resolvers, notifications: notifications) }
        if let calendar, let instanceServices { CalendarResolvers.install(into: &resolvers, calendar: calendar, services: instanceServices) }
        if let widgetFeeds { WidgetResolvers.install(into: &resolvers, feeds: widgetFeeds) }
        let findNodes: SyncResolvers.NodeFinder = { ids, context in
            var found = try await Self.nodes(ids: ids, accounts: accounts, households: households, chores: chores, context: context)
            if let instanceServices {
                for (id, value) in try await InstanceResolvers.nodes(ids: ids.filter { found[$0] == nil }, services: instanceServices, context: context) {
                    found[id] = value
                }
            }
            if let tokens {
                for (id, value) in try await TokenResolvers.nodes(ids: ids.filter { found[$0] == nil }, tokens: tokens, context: context) {
                    found[id] = value
                }
            }
            if let habits {
                for (id, value) in try await HabitResolvers.nodes(ids: ids.filter { found[$0] == nil }, habits: habits, context: context) {
                    found[id] = value
                }
            }
            if let follows {
                for (id, value) in try await FollowResolvers.nodes(ids: ids.filter { found[$0] == nil }, follows: follows, context: context) {
                    found[id] = value
                }
            }
            if let push {
                for (id, value) in try await PushResolvers.nodes(ids: ids.filter { found[$0] == nil }, push: push, context: context) {
                    found[id] = value
                }
            }
            if let notifications {
                let missing = ids.filter { found[$0] == nil }
                for (id, value) in try await NotificationResolvers.nodes(ids: missing, notifications: notifications, context: context) {
                    found[id] = value
                }
            }
            if let calendar {
                let missing = ids.filter { found[$0] == nil }
                for (id, value) in try await CalendarResolvers.nodes(ids: missing, availability: calendar.availability, context: context) {
                    found[id] = value
                }
            }
            if let importedCalendars {
                let missing = ids.filter { found[$0] == nil }
                for (id, value) in try await ImportedCalendarResolvers.nodes(ids: missing, calendars: importedCalendars, context: context) {
                    found[id] = value
                }
            }
            if let google {
                let missing = ids.filter { found[$0] == nil }
                for (id, value) in try await GoogleCalendarResolvers.nodes(ids: missing, google: google, context: context) {
                    found[id] = value
                }
            }
            return found
        }
        if let sync { SyncResolvers.install(into: &resolvers, sync: sync, findNodes: findNodes) }
        resolvers.resolveAsync("Query", "node") { _, arguments, context, _ in
            let id = arguments.string("id") ?? ""
            return try await findNodes([id], RequestContext.of(context))[id]
        }
        resolvers.resolveAsync("Query", "nodes") { _, arguments, context, _ in
            let ids = (arguments.array("ids") ?? []).compactMap { id -> String? in if case .string(let text) = id { text } else { nil } }
            guard ids.count <= maximumNodeIDs else {
                throw ServiceError(.badUserInput, "Ask for at most \(maximumNodeIDs) ids at once.", problems: [
                    FieldProblem(field: "ids", reason: .tooLong, message: "Ask for at most \(maximumNodeIDs) ids at once.")])
            }
            let found = try await findNodes(ids, RequestContext.of(context))
            return ids.map { found[$0] }
        }
        resolvers.subscribe("serverEvents") { _, _, _, _ in
            EventStream.map(events.subscribe(to: [.server], bufferSize: subscriptionBufferSize)) { event, missedEvents in
                try ServerEventValue(event, missedEvents: missedEvents)
            }
        }
        TermsGate.install(into: &resolvers, accounts: accounts, households: households)
        return resolvers
    }

    /// The objects of `ids` the viewer may see, by id: their account and sessions, the households,
    /// members and (for admins) invitations and consents of the households they belong to, and their
    /// households' and personal chores, tags and presets (and the built-in presets). Ids of
    /// anything else are absent, whether unknown, out of reach, of a type that is no node, or
    /// malformed. Each id's type (``GlobalID``) says which table to read, so each service reads
    /// only the tables the ids name (legacy bare-UUID ids: every table that may hold them).
    private static func nodes(
        ids: [String], accounts: AccountService, households: HouseholdService, chores: ChoreService, context: RequestContext
    ) async throws -> [String: any Sendable] {
        var found = try await AccountResolvers.nodes(ids: ids, accounts: accounts, context: context)
        for (id, value) in try await HouseholdResolvers.nodes(ids: ids.filter { found[$0] == nil }, households: households, context: context) {
            found[id] = value
        }
        for (id, value) in try await ChoreResolvers.nodes(ids: ids.filter { found[$0] == nil }, chores: chores, context: context) {
            found[id] = value
        }
        return found
    }

    /// The GraphQL pipeline serving `sdl`.
    /// - Throws: `SchemaError` when the SDL is invalid or lacks a field the resolvers serve.
    public static func service(
        sdl: String, serverInfo: ServerInfo, events: any EventBus, accounts: AccountService, households: HouseholdService,
        chores: ChoreService, instances: ChoreInstanceService? = nil, tokens: TokenService? = nil, leaderboards: LeaderboardService? = nil,
        vacations: VacationService? = nil, choreViews: ChoreViewCache? = nil, habits: HabitService? = nil,
        habitAdherence: HabitAdherenceService? = nil,
        follows: FollowService? = nil, loopImporter: LoopImporter? = nil, geo: GeoService? = nil, sync: SyncService? = nil,
        push: PushService? = nil,
        importedCalendars: ImportedCalendarService? = nil,
        notifications: NotificationService? = nil,
        calendar: CalendarService? = nil,
        google: GoogleCalendarService? = nil,
        widgetFeeds: WidgetFeedCache? = nil,
        limits: GraphQLLimits,
        logger: Logger
    ) throws(SchemaError) -> GraphQLService {
        let schema = try build(sdl: sdl)
        let syncBatches = SyncBatchRunner()
        let service = try GraphQLService(
            resolvers: resolvers(
                schema: schema, serverInfo: serverInfo, events: events, accounts: accounts, households: households, chores: chores,
                instances: instances, tokens: tokens, leaderboards: leaderboards, vacations: vacations, choreViews: choreViews,
                habits: habits, habitAdherence: habitAdherence,
                follows: follows, loopImporter: loopImporter, geo: geo, sync: sync, push: push, syncBatches: syncBatches,
                importedCalendars: importedCalendars, notifications: notifications, calendar: calendar, google: google, widgetFeeds: widgetFeeds),
            limits: limits, logger: logger)
        syncBatches.attach(service)
        return service
    }
}
