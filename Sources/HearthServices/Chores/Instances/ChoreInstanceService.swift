import FoundationEssentials
import HearthDomain
import HearthStore

/// Chore instances, completion and history (FR-18, FR-33 – FR-39, FR-54; issue 14's "Instances,
/// completion and history"), over the chore definitions of ``ChoreService``.
///
/// - **Instances** are the occurrences of chores, written up to the horizon by
///   ``InstancePlanner`` (when a definition or the household's members change, inside that
///   change's transaction through the change log's reactions, and by the `chore.plan` job as time
///   passes) and computed beyond it when read. Their ids are derived (``ChoreInstanceID``).
/// - **Completion** (`+Completion`): who may (``CompletionRules``), steps in order, FR-18's
///   cross-household prompt, concurrent completions, approval (`+Approval`, the token economy's
///   seam), undoing within a window (`+Undo`), and the household's first completed chore
///   (``FirstChoreCompletion``: the activation KPI and the checklist).
/// - **Claiming** (`Claims/`, FR-51 – FR-53): offers of due shared instances to their eligible
///   members (``InstanceOffers``, the `chore.offer` job), `claimChore` and `releaseChore`; a
///   claimed instance is the claimant's to complete.
/// - **Reading**: one instance by id (`+Reads`), `myChores` (`+MyChores`), history per chore and
///   per member (`+History`), a chore's next due times (`+Occurrences`).
///
/// Scoping is the chore service's: every function obtains a ``ChoreAccess`` inside its
/// transaction and reads and writes through its ``ChoreScope``; instances and completions of
/// households the caller is not in answer `NOT_FOUND` exactly like unknown ids.
public final class ChoreInstanceService: Sendable {
    /// Horizon, undo window, limits.
    public let configuration: InstancesConfiguration
    /// Chore definitions (and through them households, the change log, replay protection).
    public let chores: ChoreService
    let planner: InstancePlanner

    /// Creates the service and registers its reactions on the change log: a chore created or
    /// edited is planned, a deleted one's pending instances cancelled, the chores that follow
    /// the household's members replanned when one joins or leaves (and a departing member's claims
    /// released, their vacations ended and their task choice carried out by ``InstanceHandover``;
    /// FR-14, FR-15), and the chores of a household
    /// (or a user's personal ones) replanned when its time zone changes, each in the transaction
    /// of the change; the reasons given for rejecting an anonymised child's completions erased.
    /// - Parameter jobs: Where the next planning runs are enqueued (``InstancePlanJob``).
    public init(configuration: InstancesConfiguration, chores: ChoreService, jobs: JobQueue) {
        self.configuration = configuration
        self.chores = chores
        planner = InstancePlanner(configuration: configuration, chores: chores, jobs: jobs)
        registerReactions()
    }

    /// The job handler that plans chores as time passes; register it with the scheduler.
    public var planJob: InstancePlanJob { InstancePlanJob(service: self) }

    /// The job handler that offers due shared instances to their eligible members (FR-51);
    /// register it with the scheduler.
    public var offerJob: InstanceOfferJob { InstanceOfferJob(service: self) }

    /// Households: membership, the active household, analytics.
    var households: HouseholdService { chores.households }
    /// The store.
    var pool: any DatabaseWriter { chores.pool }
    /// The clock.
    var clock: any ServiceClock { households.clock }

    private func registerReactions() {
        let planner = planner
        let clock = households.clock
        chores.households.changeLog.reactions.register([.choreCreated, .choreUpdated, .choreDeleted]) { event, database in
            let change = try event.payload.decode(ChoreChange.self)
            guard let choreID = change.choreID, let scope = try ChoreAccess.scheduled(choreID: choreID, in: database)?.scope(database)
            else { return }
            if event.kind == .choreDeleted {
                try planner.cancel(choreID: choreID, scope, at: clock.storedNow)
            } else {
                try planner.plan(try ChoreRecord.find(id: choreID, scope), scope, at: clock.storedNow)
            }
        }
        chores.households.changeLog.reactions.register([.memberJoined, .memberLeft, .memberRemoved]) { event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard let memberID = change.memberID,
                  let scope = try ChoreAccess.scheduled(householdID: change.householdID, userID: nil, in: database)?.scope(database)
            else { return }
            for chore in try Self.choresFollowing(memberID: memberID, scope) {
                try planner.plan(chore, scope, at: clock.storedNow)
            }
            if event.kind != .memberJoined {
                try Self.releaseClaims(of: memberID, scope, offers: planner.offers, at: clock.storedNow)
                try VacationRecord.endOnDeparture(of: memberID, scope, at: clock.storedNow)
            }
            // FR-14, FR-15: the departure's choice carried out on what they held (and a member
            // joining may take what waits, paused, for someone eligible).
            try planner.handover.settle(scope, at: clock.storedNow)
            if event.kind != .memberJoined { try Self.markTasksHandled(of: memberID, scope, at: clock.storedNow) }
        }
        MemberAnonymisation.register(on: chores.households.changeLog) { memberID, scope in
            // A rejection's reason is an admin's words about what the member did.
            try scope.execute(
                "UPDATE chore_completions SET review_note = ? WHERE household_id = {household} AND member_id = ? AND review_note IS NOT NULL",
                [MemberAnonymisation.erasedText, memberID])
        }
        // A new time zone moves the due times of the chores read in it (a DTSTART without TZID,
        // an afterCompletion interval's days, a one-off chore's due day): replanned as an edit is.
        chores.households.changeLog.reactions.register([.householdUpdated]) { event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard change.timeZone != nil,
                  let scope = try ChoreAccess.scheduled(householdID: change.householdID, userID: nil, in: database)?.scope(database)
            else { return }
            try Self.replanAll(scope, planner, at: clock.storedNow)
        }
        chores.households.changeLog.reactions.register([.userTimeZoneChanged]) { event, database in
            let change = try event.payload.decode(TimeZoneChange.self)
            guard let scope = try ChoreAccess.scheduled(householdID: nil, userID: change.userID, in: database)?.scope(database) else { return }
            try Self.replanAll(scope, planner, at: clock.storedNow)
        }
    }

    /// Records that the departure of `memberID` had its task choice carried out (`member_departures.tasks_handled_at`).
    private static func markTasksHandled(of memberID: String, _ scope: ChoreScope, at now: Date) throws {
        try scope.household?.execute(
            "UPDATE member_departures SET tasks_handled_at = ? WHERE household_id = {household} AND member_id = ? AND tasks_handled_at IS NULL",
            [now, memberID])
    }

    /// Plans every chore of `scope` (not deleted) again: after its time zone changed.
    private static func replanAll(_ scope: ChoreScope, _ planner: InstancePlanner, at now: Date) throws {
        for chore in try scope.decode(ChoreRecord.self, "SELECT \(ChoreRecord.columns) FROM chores WHERE {scope} AND deleted_at IS NULL ORDER BY id") {
            try planner.plan(chore, scope, at: now)
        }
    }

    /// The chores of `scope` whose instances depend on whether member `memberID` is active:
    /// `ALL_MEMBERS` chores, and `GROUP` chores assigned to them.
    private static func choresFollowing(memberID: String, _ scope: ChoreScope) throws -> [ChoreRecord] {
        try scope.household?.decode(
            ChoreRecord.self,
            """
            SELECT \(ChoreRecord.columns) FROM chores WHERE household_id = {household} AND deleted_at IS NULL AND (assignment_mode = 'all_members'
                OR (assignment_mode = 'group' AND id IN (
                    SELECT chore_id FROM chore_assignees a WHERE a.household_id = {household} AND a.member_id = ?)))
            ORDER BY id
            """,
            [memberID]) ?? []
    }
}
