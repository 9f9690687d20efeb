import FoundationEssentials
@testable import HearthServices
import HearthDomain
import HearthStore
import Support
import TestFixtures

/// The households harness with chore instances over it: the instance service (its reactions
/// registered on the change log), the job queue its planner enqueues in, and a scheduler that
/// runs the planning and offer jobs due when a test asks (time moves on the manual clock, never by sleeping).
struct InstancesHarness {
    let households: HouseholdsHarness
    let instances: ChoreInstanceService
    let scheduler: JobScheduler

    var clock: ManualClock { households.clock }
    var chores: ChoreService { households.chores }
    var pool: any DatabaseWriter { households.pool }

    /// Calls `body` with a fresh harness; `configure` adjusts the instances' configuration.
    static func with<T>(configure: (inout InstancesConfiguration) -> Void = { _ in }, _ body: (InstancesHarness) async throws -> T) async throws -> T {
        try await HouseholdsHarness.with { households in
            var configuration = InstancesConfiguration()
            configure(&configuration)
            let jobs = JobQueue(pool: households.pool, clock: households.clock)
            let instances = ChoreInstanceService(configuration: configuration, chores: households.chores, jobs: jobs)
            let scheduler = JobScheduler(
                queue: jobs, handlers: [instances.planJob, instances.offerJob], logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()))
            return try await body(InstancesHarness(households: households, instances: instances, scheduler: scheduler))
        }
    }

    /// Runs the planning jobs due now, as the scheduler's loop would.
    @discardableResult
    func runDueJobs() async throws -> Int {
        try await scheduler.runDueJobs().done
    }

    /// Moves the clock by `seconds` and runs the jobs due then.
    func advance(seconds: Double) async throws {
        clock.advance(seconds: seconds)
        try await runDueJobs()
    }

    /// The stored instances of `choreID` as `occurrence member status`, by occurrence then member.
    func storedInstances(of choreID: String) throws -> [String] {
        try pool.read { database in
            try database.query(
                "SELECT occurrence_at, coalesce(member_id, '-') AS member, status FROM chore_instances WHERE chore_id = ? ORDER BY occurrence_at, member_id",
                [choreID]
            ).map { row in "\(try row["occurrence_at"] as String) \(try row["member"] as String) \(try row["status"] as String)" }
        }
    }

    /// The change log's events of `kinds` as `kind instance member [members]` (member: whose claim, for a release; members sorted) (ids replaced by
    /// `names` where given), oldest first.
    func events(_ kinds: [EventKind], names: [String: String] = [:]) throws -> [String] {
        try pool.read { database in
            try database.query(
                "SELECT kind, payload FROM change_log WHERE kind IN (\(kinds.map { _ in "?" }.joined(separator: ", "))) ORDER BY sequence",
                StatementArguments(kinds.map(\.rawValue))
            ).map { row in
                let kind: String = try row["kind"]
                let change = try EventPayload(json: try row["payload"]).decode(ChoreInstanceChange.self)
                let name = { (id: String?) in id.map { names[$0] ?? $0 } ?? "-" }
                let members = change.memberIDs.map { " [" + $0.map { name($0) }.sorted().joined(separator: " ") + "]" } ?? ""
                return "\(kind.replacing("chore_instance.", with: "")) \(name(change.instanceID)) \(name(change.claimantID ?? change.memberID))\(members)"
            }
        }
    }

    /// Claims `instanceID` as `viewer`.
    @discardableResult
    func claim(_ instanceID: String, as viewer: Viewer, replaying clientMutationID: String? = nil) async throws -> ClaimResult {
        try await instances.claimChore(instanceID: instanceID, viewer: viewer, clientMutationID: clientMutationID)
    }

    /// How many instances `choreID` has stored.
    func storedCount(of choreID: String) throws -> Int {
        try pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM chore_instances WHERE chore_id = ?", [choreID]) ?? 0 }
    }

    /// The pending jobs of kind `chore.plan` as `dueAt` texts.
    func planJobs() throws -> [String] {
        try pool.read { database in
            try database.query("SELECT due_at FROM jobs WHERE kind = 'chore.plan' AND state = 'pending' ORDER BY due_at").map { try $0["due_at"] as String }
        }
    }

    /// How many jobs of `kind` ran to the end.
    func doneJobs(_ kind: JobKind) throws -> Int {
        try pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM jobs WHERE kind = ? AND state = 'done'", [kind.rawValue]) ?? 0 }
    }

    /// The instance of `chore` due at `occurrence` for `memberID` (its derived id).
    func instanceID(_ chore: ChoreRecord, at occurrence: Date, member memberID: String? = nil) -> String {
        ChoreInstanceID.make(choreID: chore.id, occurrence: occurrence, memberID: memberID).rawValue
    }

    /// A daily recurrence at the clock's current time of day, starting today (UTC).
    func daily(startingIn seconds: Double = 3600) -> ChoreService.ScheduleRequest {
        .recurrence("DTSTART:\(Self.icalendar(clock.now.addingTimeInterval(seconds)))Z\nRRULE:FREQ=DAILY")
    }

    /// `date` as an iCalendar UTC date-time without the `Z`: `20260301T083000`.
    static func icalendar(_ date: Date) -> String {
        let instant = WallClock.Instant(date).iso8601  // 2026-03-01T08:30:00.000Z
        let digits = instant.prefix(19).filter { $0 != "-" && $0 != ":" }
        return String(digits)
    }

    /// A one-off chore of the family's household due in an hour, for `ben` without approval unless
    /// `configure` says otherwise; with the id of its instance.
    func oneOffChore(
        _ family: ChoreFamily, _ title: String = "Laundry", _ configure: (inout ChoreFields) -> Void = { _ in }
    ) async throws -> (chore: ChoreRecord, instanceID: String) {
        let due = clock.now.addingTimeInterval(3600)
        let chore = try await households.chore(title, in: family.householdID, by: family.admin) {
            $0.assignmentMode = .individual
            $0.assigneeIDs = [family.memberID]
            $0.requiresApproval = false
            $0.schedule = .once(due)
            configure(&$0)
        }
        return (chore, instanceID(chore, at: due))
    }

    /// Completes `instanceID` as `viewer`.
    @discardableResult
    func complete(_ instanceID: String, as viewer: Viewer, step: String? = nil, crossHousehold: CrossHouseholdChoice? = nil, for child: String? = nil) async throws -> CompletionResult {
        try await instances.completeChore(
            CompletionRequest(instanceID: instanceID, stepID: step, crossHousehold: crossHousehold, onBehalfOf: child), viewer: viewer)
    }
}
