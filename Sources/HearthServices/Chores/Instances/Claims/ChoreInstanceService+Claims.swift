import FoundationEssentials
import HearthDomain
import HearthStore

/// The result of ``ChoreInstanceService/claimChore(instanceID:viewer:clientMutationID:)`` and
/// ``ChoreInstanceService/releaseChore(instanceID:viewer:clientMutationID:)``.
public struct ClaimResult: Sendable {
    /// The instance as it is now, with its chore and the access it was read with.
    public var instance: ChoreInstanceService.AccessibleInstance
    /// The claimant (a claim), or the member whose claim was released (a release).
    public var member: MemberRecord
}

/// What a claim's or release's replay record keeps.
struct ClaimReference: Codable {
    var instanceID: String
    var memberID: String
}

extension ServiceError {
    /// An error about `claimant`'s claim, naming them in `related.claimant` (`id`, `displayName`).
    static func claimed(by claimant: MemberRecord, _ code: Code, reason: Reason, _ message: String) -> ServiceError {
        var error = ServiceError(code, reason: reason, message)
        error.related["claimant"] = ["id": claimant.id, "displayName": claimant.displayName]
        return error
    }
}

extension ChoreInstanceService {
    /// Claims a shared household instance for the viewer ("I'll do it", FR-52): it moves to their
    /// `myChores` and leaves the other eligible members' lists, who receive a dismissal
    /// (`chore_instance.claimed` naming them) in the same commit. An instance beyond the planning
    /// horizon is written by its claim.
    ///
    /// Exactly one claim wins however many run at once: the claim is one conditional `UPDATE …
    /// WHERE claimant_id IS NULL AND status = 'pending'` in the request's transaction; every other
    /// is `CONFLICT` (`ALREADY_CLAIMED`) naming the claimant, also a second claim by the claimant.
    /// That holds across instances on PostgreSQL too: a racing update of the row fails to
    /// serialize and the store's retry reads the winner's claim (ConcurrentInstancesPostgresTests).
    /// Who may claim: the eligible members (``CompletionRules/isEligible(_:_:step:)``) and admins.
    ///
    /// - Throws: `NOT_FOUND` for an unknown instance, another household's or a deleted chore's (alike); `FORBIDDEN`
    ///   (`CHORE_COMPLETERS`, saying who may) for a member who is not eligible; `CONFLICT` with reason
    ///   `NOT_CLAIMABLE` (a personal chore's, or a member's own instance of a `GROUP` or
    ///   `ALL_MEMBERS` chore), `INSTANCE_CLOSED` (archived), `INSTANCE_PAUSED` (vacation
    ///   mode), `ALREADY_COMPLETED`, `ALREADY_CLAIMED` or `MEMBER_AWAY` (the viewer is on vacation from
    ///   the household); `CONFLICT` for a reused `clientMutationID`.
    public func claimChore(instanceID: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> ClaimResult {
        guard GlobalID.mayName(.choreInstance, instanceID) else { throw ServiceError.instanceNotFound }
        let reference = try await chores.mutate("claimChore", by: viewer, replaying: clientMutationID, about: instanceID) { [self] database, now in
            let (instance, rules, household, scope) = try claimable(instanceID, viewer: viewer, in: database)
            let member = household.access.member
            if let claimantID = instance.claimantID { throw try Self.alreadyClaimed(by: claimantID, for: member, household) }
            // Away, they hold nothing here (their claims were released when it began): a claim would keep it from those who are here.
            if try household.scalar(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM member_vacations WHERE household_id = {household} AND member_id = ? AND status = 'active')",
                [member.id]) == true {
                throw ServiceError(.conflict, reason: .memberAway, "You are on vacation from this household: end your vacation to claim its chores.")
            }
            if !instance.isMaterialized {
                try instance.insert(at: now, scope)
                try planner.offers.schedule(instance, of: rules.chore, scope)
            }
            try scope.execute(
                """
                UPDATE chore_instances SET claimant_id = ?, claimed_at = ?, updated_at = ?
                WHERE id = ? AND {scope} AND claimant_id IS NULL AND status = 'pending' AND paused_at IS NULL
                """,
                [member.id, now, now, instance.id])
            guard scope.changedRowCount == 1 else {
                // Another store's transaction claimed it between the read and the update.
                let claimantID = try scope.scalar(String.self, "SELECT claimant_id FROM chore_instances WHERE id = ? AND {scope}", [instance.id])
                throw try claimantID.map { try Self.alreadyClaimed(by: $0, for: member, household) } ?? Self.closed(instance)
            }
            let others = try InstanceOffers.eligibleMembers(rules, instance, household).map(\.id).filter { $0 != member.id }
            try chores.record(instance: ChoreInstanceChange(instance, memberID: member.id, memberIDs: others), kind: .choreInstanceClaimed, scope)
            return ClaimReference(instanceID: instance.id, memberID: member.id)
        }
        return try await Tombstones.answer(about: instanceID, viewer: viewer, in: pool) { try await result(of: reference, viewer: viewer) }
    }

    /// Releases the claim on an instance, making it claimable again (FR-53): by the claimant, or an
    /// admin for anyone's claim. Records `chore_instance.released` and, when the instance is due,
    /// re-offers it to the eligible members other than the former claimant and who released it
    /// (before its due time, the offer comes when it is due).
    ///
    /// - Throws: the `NOT_FOUND`, `FORBIDDEN` and `CONFLICT` of ``claimChore(instanceID:viewer:clientMutationID:)``
    ///   (but `ALREADY_CLAIMED`); `CONFLICT` with reason `NOT_CLAIMED` when nobody claimed it;
    ///   `FORBIDDEN` with reason `CLAIMED_BY_OTHER` (naming the claimant) for someone else's claim.
    public func releaseChore(instanceID: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> ClaimResult {
        guard GlobalID.mayName(.choreInstance, instanceID) else { throw ServiceError.instanceNotFound }
        let reference = try await chores.mutate("releaseChore", by: viewer, replaying: clientMutationID, about: instanceID) { [self] database, now in
            let (instance, rules, household, scope) = try claimable(instanceID, viewer: viewer, in: database)
            let member = household.access.member
            guard let claimantID = instance.claimantID else {
                throw ServiceError(.conflict, reason: .notClaimed, "Nobody claimed this chore: there is no claim to release.")
            }
            if claimantID != member.id, member.role != .admin {
                let claimant = try MemberRecord.find(id: claimantID, household)
                throw ServiceError.claimed(
                    by: claimant, .forbidden, reason: .claimedByOther,
                    "\(claimant.displayName) claimed this chore: only \(claimant.displayName) or an admin may release it.")
            }
            try scope.execute(
                """
                UPDATE chore_instances SET claimant_id = NULL, claimed_at = NULL, updated_at = ?
                WHERE id = ? AND {scope} AND claimant_id = ? AND status = 'pending'
                """,
                [now, instance.id, claimantID])
            guard scope.changedRowCount == 1 else { throw ServiceError(.conflict, "Someone changed this chore at the same moment. Look at it again.") }
            try chores.record(instance: ChoreInstanceChange(instance, memberID: member.id, claimantID: claimantID), kind: .choreInstanceReleased, scope)
            if instance.dueAt <= now {
                try planner.offers.offer(instance, rules: rules, excluding: [claimantID, member.id], minimum: 1, scope, at: now)
            }
            return ClaimReference(instanceID: instance.id, memberID: claimantID)
        }
        return try await Tombstones.answer(about: instanceID, viewer: viewer, in: pool) { try await result(of: reference, viewer: viewer) }
    }

    /// The instance a claim or release is about, inside its write transaction, after the checks
    /// both make: it exists for the viewer, it is a shared household instance, the viewer may
    /// claim it (eligible, or an admin) and it is still open.
    private func claimable(
        _ instanceID: String, viewer: Viewer, in database: Database
    ) throws -> (ChoreInstanceRecord, CompletionRules, HouseholdScope, ChoreScope) {
        let (instance, chore, access) = try resolve(id: instanceID, viewer: viewer, in: database)
        let scope = access.scope(database)
        guard let household = scope.household else {
            throw ServiceError(.conflict, reason: .notClaimable, "Personal chores are yours alone: there is nothing to claim.")
        }
        if let owner = instance.memberID {
            let name = try MemberRecord.find(id: owner, household).displayName
            throw ServiceError(.conflict, reason: .notClaimable, "This is \(name)'s own instance of the chore: nobody claims it.")
        }
        let rules = try CompletionRules.of(chore, scope)
        let member = household.access.member
        // Who may comes first: a refusal does not depend on the instance's state.
        guard member.role == .admin || rules.isEligible(member, instance) else {
            throw try Self.refusal(rules, for: member, instance, step: nil, household, verb: "claimed")
        }
        if instance.status != .pending { throw Self.closed(instance) }
        return (instance, rules, household, scope)
    }

    /// Why a claim or release of `instance`, no longer pending, is refused.
    private static func closed(_ instance: ChoreInstanceRecord) -> ServiceError {
        switch instance.status {
        case .cancelled: Tombstones.deleted  // its chore was deleted: deletes win (docs/sync.md)
        case .archived: ServiceError(.conflict, reason: .instanceClosed, "This one-off chore is past its due day and archived: it can no longer be claimed.")
        case .paused: ServiceError(
            .conflict, reason: .instancePaused, "This chore is paused while the member it is for is away: it is claimed once it resumes.")
        default: ServiceError(.conflict, reason: .alreadyCompleted, "This chore is done already: there is nothing left to claim.")
        }
    }

    /// `CONFLICT` (`ALREADY_CLAIMED`) naming `claimantID`'s member, as `member` is told.
    private static func alreadyClaimed(by claimantID: String, for member: MemberRecord, _ household: HouseholdScope) throws -> ServiceError {
        let claimant = try MemberRecord.find(id: claimantID, household)
        return ServiceError.claimed(
            by: claimant, .conflict, reason: .alreadyClaimed,
            claimant.id == member.id ? "You claimed this chore already." : "\(claimant.displayName) claimed this chore first.")
    }

    /// The result a claim's reference names, as things are now.
    private func result(of reference: ClaimReference, viewer: Viewer) async throws -> ClaimResult {
        try await pool.readPreferringCallingThread { [self] database in
            let instance = try resolve(id: reference.instanceID, viewer: viewer, in: database)
            guard let household = instance.access.scope(database).household else { throw ServiceError.instanceNotFound }
            return ClaimResult(instance: instance, member: try MemberRecord.find(id: reference.memberID, household))
        }
    }
}

extension ChoreInstanceService {
    /// Releases the claims of member `memberID`, who left, was removed or goes away, on open
    /// instances of `scope` (a claim must not hide an instance from everyone's list): each is
    /// released as by an admin (`chore_instance.released` naming no releaser), follows whoever is
    /// away (``InstanceHandover``) and, when due and still open to its eligible members (neither
    /// paused nor handed to someone), is re-offered.
    static func releaseClaims(of memberID: String, _ scope: ChoreScope, offers: InstanceOffers, at now: Date) throws {
        let claimed = try scope.query(
            """
            UPDATE chore_instances SET claimant_id = NULL, claimed_at = NULL, updated_at = ?
            WHERE {scope} AND claimant_id = ? AND status = 'pending' RETURNING \(ChoreInstanceRecord.columns)
            """,
            [now, memberID]
        ).map(ChoreInstanceRecord.init(row:)).sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }
        for instance in claimed {
            try offers.chores.record(instance: ChoreInstanceChange(instance, claimantID: memberID), kind: .choreInstanceReleased, scope)
        }
        try InstanceHandover(chores: offers.chores, offers: offers).settleIfAnyoneIsAway(scope, at: now, only: Set(claimed.map(\.id)))
        for released in claimed where released.dueAt <= now {
            guard let instance = try ChoreInstanceRecord.find(id: released.id, scope), instance.status == .pending, instance.reassignedTo == nil,
                  let chore = try ChoreRecord.findUnlessDeleted(id: instance.choreID, scope)
            else { continue }
            try offers.offer(instance, rules: try CompletionRules.of(chore, scope), excluding: [memberID], minimum: 1, scope, at: now)
        }
    }
}
