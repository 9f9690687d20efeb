import Foundation
import GraphQL
import HearthAPI
import HearthDomain
import HearthServices
import HearthStore
import Support
import TestFixtures

/// The GraphQL service of the real `schema.graphql` over a fresh ``HouseholdsHarness``, for tests of the
/// households API in process: operations as a signed-in viewer, and membership changes committed the way
/// the membership service commits them (the row change and its event, with the kinds and payload of
/// `HouseholdEvents.swift`, in one write transaction, published after commit).
struct HouseholdsAPIFixture {
    static let sdl: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("schema.graphql"), encoding: .utf8)) ?? ""
    }()

    let harness: HouseholdsHarness
    let service: GraphQLService
    /// With `choreViews`: the same service without the chore lists' cache, reading every list afresh.
    let fresh: GraphQLService?
    /// The instances' service, with `instances`.
    let instances: ChoreInstanceService?
    /// The token economy's service, with `tokens`.
    let tokens: TokenService?
    /// Vacation mode's service, with `vacations`.
    let vacations: VacationService?
    /// The habits' service, with `habits` (its adherence's resolvers too).
    let habits: HabitService?

    /// The bus the household service publishes on.
    var bus: InProcessEventBus { harness.bus }

    /// Calls `body` with a fresh fixture; `configure` adjusts the households' configuration; `logger` receives what the GraphQL service logs; `readerCount`
    /// is the pool's (1 to count the statements reads run); `instances` adds the chore instances'
    /// resolvers (a chore's `occurrences`, `myChores`).
    /// `choreViews` keeps the chore lists between requests (and adds ``fresh``); `tokens` adds the token
    /// economy's resolvers (approving completions); `habits` the habits' and their adherence's; `sync`
    /// offline sync's reading side (`changes`, `syncDeltas`).
    static func with(
        configure: (inout HouseholdsConfiguration) -> Void = { _ in }, logger: Logger = .disabled, readerCount: Int = 4, instances withInstances: Bool = false, tokens withTokens: Bool = false,
        vacations withVacations: Bool = false, habits withHabits: Bool = false, choreViews: ChoreViewCache? = nil, sync withSync: Bool = false,
        _ body: (HouseholdsAPIFixture) async throws -> Void
    ) async throws {
        try await HouseholdsHarness.with(configure: configure, readerCount: readerCount) { harness in
            let instances = withInstances ? ChoreInstanceService(
                configuration: InstancesConfiguration(), chores: harness.chores, jobs: JobQueue(pool: harness.pool, clock: harness.clock)) : nil
            let tokens = withTokens ? instances.map { TokenService(configuration: TokensConfiguration(), instances: $0) } : nil
            let vacations = withVacations ? instances.map { VacationService(instances: $0, jobs: JobQueue(pool: harness.pool, clock: harness.clock)) } : nil
            let habits = withHabits ? HabitService(configuration: HabitsConfiguration(), households: harness.service) : nil
            let adherence = withHabits ? HabitAdherenceService(
                pool: harness.pool, clock: harness.clock, configuration: HabitAdherenceConfiguration(),
                baseURL: try PublicBaseURL("https://hearth.example")) : nil
            let sync = withSync ? SyncService(configuration: SyncConfiguration(), households: harness.service) : nil
            func service(_ choreViews: ChoreViewCache?) throws -> GraphQLService {
                try HearthSchema.service(
                    sdl: sdl, serverInfo: ServerInfo(version: "test", startedAt: WallClock.Instant(seconds: 0)), events: harness.bus,
                    accounts: harness.accounts.service, households: harness.service, chores: harness.chores, instances: instances, tokens: tokens,
                    choreViews: choreViews, habits: habits, habitAdherence: adherence, sync: sync, limits: GraphQLLimits(), logger: logger)
            }
            try await body(HouseholdsAPIFixture(
                harness: harness, service: try service(choreViews), fresh: try choreViews.map { _ in try service(nil) }, instances: instances,
                tokens: tokens, vacations: vacations, habits: habits))
        }
    }

    /// Runs `query` with `variables` as `viewer` (signed out when `nil`), with the files of a
    /// multipart request.
    func operate(
        _ query: String, _ variables: [String: JSON] = [:], as viewer: Viewer?, uploads: [String: UploadedFile] = [:], on other: GraphQLService? = nil
    ) async -> GraphQLOperation {
        await (other ?? service).operate(
            GraphQLRequest(query: query, variables: variables), requestID: "r",
            context: RequestContext(authentication: viewer.map(Authentication.signedIn) ?? .signedOut, clientAddress: "127.0.0.1", uploads: uploads))
    }

    /// The result of the query or mutation `query` as `viewer` (signed out when `nil`).
    func execute(
        _ query: String, _ variables: [String: JSON] = [:], as viewer: Viewer?, uploads: [String: UploadedFile] = [:], on other: GraphQLService? = nil
    ) async throws -> ExecutionResult {
        guard case .single(let outcome) = await operate(query, variables, as: viewer, uploads: uploads, on: other) else {
            throw GraphQLError(message: "a query answered with a stream")
        }
        return outcome.result
    }

    /// The subscription `query` to household `householdID` (variable `$id`) as `viewer`.
    func subscribe(_ query: String, _ householdID: String, as viewer: Viewer) async -> GraphQLOperation {
        await operate(query, ["id": .string(householdID)], as: viewer)
    }

    /// The response stream of a subscription that must be admitted.
    func events(_ query: String, _ householdID: String, as viewer: Viewer) async throws -> MaskedResponseStream {
        guard case .stream(let stream) = await subscribe(query, householdID, as: viewer) else {
            throw GraphQLError(message: "the subscription was refused")
        }
        return stream
    }

    /// Registers `username` with a confirmed address and the current terms accepted (the API's terms
    /// gate stops everyone else), signed in.
    func person(_ username: String) async throws -> Viewer {
        try await harness.confirmedViewer(username)
    }

    /// Creates a household as `viewer`; returns its id and the creator's member id.
    @discardableResult
    func household(_ name: String, by viewer: Viewer) async throws -> (householdID: String, memberID: String) {
        let (household, member, _) = try await harness.service.createHousehold(.init(name: name), viewer: viewer)
        return (household.id, member.id)
    }

    /// Commits `sql` and the event `kind` of `change` in one write transaction.
    func commit(_ kind: EventKind, _ change: HouseholdChange, _ sql: String, _ arguments: StatementArguments) async throws {
        let changeLog = harness.service.changeLog
        _ = try await harness.pool.write { database in
            try database.execute(sql, arguments)
            return try changeLog.record(topic: .household(change.householdID), kind: kind, payload: change, in: database)
        }
    }

    /// Adds `viewer` to `householdID` as an active co-parent member, as accepting an invitation does;
    /// returns the member id.
    func join(_ householdID: String, _ viewer: Viewer, as name: String) async throws -> String {
        let memberID = GlobalID.make(.member, now: harness.clock.now).rawValue
        let now = harness.clock.now
        try await commit(
            .memberJoined, HouseholdChange(householdID: householdID, memberID: memberID, userID: viewer.userID),
            """
            INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
            VALUES (?, ?, ?, 'co_parent', 'member', 'active', ?, ?, ?)
            """,
            [memberID, householdID, viewer.userID, name, now, now])
        // A first household becomes the active one, as the service does (ActiveHousehold).
        try await harness.pool.write {
            try $0.execute(
                "INSERT INTO active_households (user_id, household_id, activated_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                [viewer.userID, householdID, now])
        }
        return memberID
    }

    /// Removes member `memberID` (of `viewer`'s account) with event `kind` (`member.left` or
    /// `member.removed`), their tasks redistributed.
    func depart(_ kind: EventKind, _ householdID: String, memberID: String, of viewer: Viewer) async throws {
        try await commit(
            kind, HouseholdChange(householdID: householdID, memberID: memberID, userID: viewer.userID, incompleteTasks: .redistribute),
            "DELETE FROM members WHERE id = ? AND household_id = ?", [memberID, householdID])
    }
}
