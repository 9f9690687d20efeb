import FoundationEssentials
import HearthDomain
import HearthStore

/// Vacation mode (FR-19 – FR-24): a member (or every member, FR-20) away from a household for a
/// while, their chore instances paused or redistributed meanwhile, and their active household moved
/// to a destination and back.
///
/// - **Starting** (`+Start`): `startVacation` by the member themself or an admin for anyone,
///   `startHouseholdVacation` by admins for every active member. A `startsAt` in the future is a
///   `vacation.start` job at that time (``VacationStartJob``); otherwise it begins at once. An
///   `endsAt` is a `vacation.end` job (``VacationEndJob``): both survive a restart, and run once in
///   effect (each checks the vacation's state in its transaction).
/// - **Beginning** (``begin(_:_:at:)``): the member's claims are released (they cannot do what they
///   said they would), an account holder's active household moves to the destination, and
///   ``InstanceHandover`` pauses or redistributes what they hold. The member stays `ACTIVE` in the
///   household (and on its leaderboard); "on vacation" is the vacation's own state.
/// - **Ending** (`+End`, by hand or the job): the member is available again, ``InstanceHandover``
///   resumes what waited for them and, when the household's `reclaimRedistributedOnReturn` is on,
///   takes back what was handed to others; the active household moves back to the origin when the
///   start moved it and it is still the destination (a member who chose another household meanwhile
///   keeps their choice). Ending a vacation that has not begun cancels it.
/// - Children and shadows without an account are paused or redistributed like anyone, with no
///   active household to move.
public final class VacationService: Sendable {
    /// Instances, chores, households.
    public let instances: ChoreInstanceService
    /// Where the start and end jobs go.
    let jobs: JobQueue

    /// Creates the service.
    public init(instances: ChoreInstanceService, jobs: JobQueue) {
        self.instances = instances
        self.jobs = jobs
    }

    /// The job handler that begins scheduled vacations; register it with the scheduler.
    public var startJob: VacationStartJob { VacationStartJob(service: self) }
    /// The job handler that ends vacations at their end (FR-24); register it with the scheduler.
    public var endJob: VacationEndJob { VacationEndJob(service: self) }

    var households: HouseholdService { instances.chores.households }
    var pool: any DatabaseWriter { instances.chores.pool }
    var clock: any ServiceClock { households.clock }
    var handover: InstanceHandover { instances.planner.handover }

    /// What a vacation mutation's replay record keeps: the household and the vacations it touched.
    struct Reference: Codable {
        var householdID: String
        var vacationIDs: [String]
    }

    /// The result of the vacation mutations.
    public struct Outcome: Sendable {
        /// The vacations started or ended, as they are now.
        public var vacations: [VacationRecord]
        /// Their members, by id.
        public var members: [String: MemberRecord]
        /// The household, with the viewer's access.
        public var household: HouseholdService.AccessibleHousehold
    }

    /// Begins `vacation` (scheduled) in `scope` at `now`, as the type describes.
    func begin(_ vacation: VacationRecord, _ scope: ChoreScope, at now: Date) throws {
        guard let household = scope.household else { return }
        try household.execute(
            "UPDATE member_vacations SET status = 'active', started_at = ?, updated_at = ? WHERE id = ? AND household_id = {household} AND status = 'scheduled'",
            [now, now, vacation.id])
        guard household.changedRowCount == 1 else { return }
        let member = try MemberRecord.find(id: vacation.memberID, household)
        try ChoreInstanceService.releaseClaims(of: member.id, scope, offers: instances.planner.offers, at: now)
        if let destination = vacation.destinationHouseholdID, let owner = Owner(accountOf: member) {
            let account = OwnerScope(owner, scope.database)
            let isMember = try account.scalar(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM members WHERE user_id = {owner} AND household_id = ? AND status = 'active')", [destination])
            if isMember == true {
                try switchActiveHousehold(to: destination, account, at: now)
                try household.execute("UPDATE member_vacations SET switched_active_household = 1 WHERE id = ? AND household_id = {household}", [vacation.id])
            }
        }
        try handover.settle(scope, at: now)
        try households.record(.memberVacationStarted, HouseholdChange(householdID: household.access.householdID, memberID: member.id, userID: member.userID), in: scope.database)
    }

    /// Ends `vacation` (scheduled or active) in `scope` at `now`, as the type describes.
    func finish(_ vacation: VacationRecord, _ scope: ChoreScope, at now: Date) throws {
        guard let household = scope.household else { return }
        try household.execute(
            "UPDATE member_vacations SET status = 'ended', ended_at = ?, updated_at = ? WHERE id = ? AND household_id = {household} AND status <> 'ended'",
            [now, now, vacation.id])
        guard household.changedRowCount == 1 else { return }
        let member = try MemberRecord.find(id: vacation.memberID, household)
        if vacation.status == .active {
            if vacation.switchedActiveHousehold, let destination = vacation.destinationHouseholdID, let owner = Owner(accountOf: member),
               member.status == .active {
                let account = OwnerScope(owner, scope.database)
                if try ActiveHousehold.id(account) == destination { try switchActiveHousehold(to: vacation.householdID, account, at: now) }
            }
            try handover.settle(scope, at: now, returning: [member.id])
        }
        try households.record(.memberVacationEnded, HouseholdChange(householdID: household.access.householdID, memberID: member.id, userID: member.userID), in: scope.database)
    }

    /// Makes `householdID` the account's active household and records the switch for their devices.
    private func switchActiveHousehold(to householdID: String, _ account: OwnerScope, at now: Date) throws {
        let previous = try ActiveHousehold.id(account)
        guard previous != householdID else { return }
        try ActiveHousehold.activate(householdID: householdID, at: now, account)
        try households.changeLog.record(
            topic: .user(account.key.userID), kind: .activeHouseholdChanged,
            payload: ActiveHouseholdChange(userID: account.key.userID, householdID: householdID, previousHouseholdID: previous),
            in: account.database)
    }

    /// The vacations of `reference`, and its household, as the viewer sees them now.
    func outcome(of reference: Reference, viewer: Viewer) async throws -> Outcome {
        try await pool.readPreferringCallingThread { database in
            let (access, record) = try HouseholdAccess.checkReadingHousehold(viewer: viewer, householdID: reference.householdID, in: database)
            let scope = HouseholdScope(access, database)
            let vacations = try reference.vacationIDs.compactMap { try VacationRecord.find(id: $0, scope) }
            var members: [String: MemberRecord] = [:]
            for vacation in vacations { members[vacation.memberID] = try MemberRecord.find(id: vacation.memberID, scope) }
            return Outcome(vacations: vacations, members: members, household: (record, access))
        }
    }
}
