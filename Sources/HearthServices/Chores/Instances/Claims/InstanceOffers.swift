import FoundationEssentials
import HearthDomain
import HearthStore

/// Offers (FR-51): a shared household instance that comes due is offered to all of its eligible
/// members at once, when there is more than one (``CompletionRules/isEligible(_:_:step:)``: its
/// assignee, whoever the chore's `completers` admit, and for `SINGLE_ACTION` without a rule every
/// adult). The offer is a `chore_instance.offered` event on the household's topic naming the
/// members; `choreEvents` delivers it to them (push notifications will use the same event).
///
/// When: the durable `chore.offer` job (``InstanceOfferJob``), enqueued for the instance's due time
/// when the instance is written (by planning, or by a claim of a computed one), so an instance
/// that comes due while the server is down is offered when it is back. An instance claimed,
/// completed or closed by then is not offered; nor is one whose chore already has a later
/// occurrence due (after a downtime only the latest missed occurrence is offered). The offer is
/// recorded on the instance (`offered_at`), so running the job again offers nothing twice.
/// Releasing a claim re-offers a due instance to the eligible members other than the former
/// claimant and who released it (FR-53), even to one.
struct InstanceOffers {
    let chores: ChoreService
    let jobs: JobQueue

    /// Enqueues the offer of `instance` of `chore` for its due time, when it is a shared instance
    /// of a household chore that can have several eligible members (`INDIVIDUAL`, `SINGLE_ACTION`).
    func schedule(_ instance: ChoreInstanceRecord, of chore: ChoreRecord, _ scope: ChoreScope) throws {
        guard instance.householdID != nil, instance.memberID == nil,
              chore.assignmentMode == .individual || chore.assignmentMode == .singleAction
        else { return }
        try jobs.enqueue(
            kind: .choreOffer, payload: InstanceOfferJob.Payload(instanceID: instance.id, choreID: chore.id), dueAt: instance.dueAt, dedupeKey: instance.id,
            in: scope.database)
    }

    /// The available members eligible for `instance` under `rules`, in member-id order: active, and
    /// not on vacation (``VacationRecord/isAwaySQL``).
    static func eligibleMembers(_ rules: CompletionRules, _ instance: ChoreInstanceRecord, _ household: HouseholdScope) throws -> [MemberRecord] {
        try household.decode(
            MemberRecord.self,
            "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND status = 'active' AND NOT \(VacationRecord.isAwaySQL("members.id")) ORDER BY id"
        ).filter { rules.isEligible($0, instance) }
    }

    /// Offers the stored `instance` to its eligible members other than `excluded`, when there are
    /// at least `minimum` of them: records `chore_instance.offered` and when it was offered.
    /// - Returns: Whether it was offered.
    @discardableResult
    func offer(
        _ instance: ChoreInstanceRecord, rules: CompletionRules, excluding excluded: Set<String> = [], minimum: Int, _ scope: ChoreScope,
        at now: Date
    ) throws -> Bool {
        guard let household = scope.household else { return false }
        let members = try Self.eligibleMembers(rules, instance, household).map(\.id).filter { !excluded.contains($0) }
        guard !members.isEmpty, members.count >= minimum else { return false }
        try scope.execute("UPDATE chore_instances SET offered_at = ? WHERE id = ? AND {scope}", [now, instance.id])
        try chores.record(instance: ChoreInstanceChange(instance, memberIDs: members), kind: .choreInstanceOffered, scope)
        return true
    }
}
