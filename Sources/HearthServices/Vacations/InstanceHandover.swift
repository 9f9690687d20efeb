import FoundationEssentials
import HearthDomain
import HearthStore

/// Who holds each open chore instance of a household while members are away (vacation mode,
/// FR-19 – FR-24) or gone (a departure's task choice, FR-14, FR-15): the one piece of code that
/// pauses, resumes and redistributes instances, inside the caller's write transaction.
///
/// **Holder.** An open instance is held by its claimant, else the member it is for (a `GROUP` or
/// `ALL_MEMBERS` instance's member, an `INDIVIDUAL` chore's assignee, a `SINGLE_ACTION` chore's
/// primary assignee), else nobody (a `SINGLE_ACTION` instance open to every eligible member), unless
/// it was handed to someone (``ChoreInstanceRecord/reassignedTo``). A member departed with the
/// choice `UNASSIGN` holds nothing: their instances are open to the eligible members.
///
/// **One pass** (``settle(_:at:returning:only:)``) decides every open instance from the stored
/// state alone, so running it twice changes nothing the second time:
/// - its holder is available (an active member not on vacation): it is not paused; what was handed
///   to someone stays with them while they are available, unless the holder is *returning* now and
///   the household's `reclaimRedistributedOnReturn` is on, when it goes back;
/// - its holder is away on a `PAUSE` vacation: paused;
/// - its holder is away on a `REDISTRIBUTE` vacation, or departed with `REDISTRIBUTE`: it stays with
///   whoever it was handed to while they are available, else goes to one of the available members
///   eligible for it (``CompletionRules/isEligible(_:_:step:)``: its chore's completion rule, the
///   fallback completers; every adult for `SINGLE_ACTION` without a rule) other than the holder,
///   chosen by ``LoadBalancedAssignment`` (fewest open instances held, ties by member id, instances
///   taken by due time then id); paused when there is none;
/// - nobody holds it: paused while no available member is eligible (a whole household away).
///
/// Each change is an event on the household's topic for `choreEvents`: `chore_instance.paused`
/// (naming whose absence), `.resumed` (naming who holds it now) and `.reassigned` (naming who holds
/// it now, and before). A resumed shared instance that is due is offered again (FR-51).
struct InstanceHandover {
    let chores: ChoreService
    let offers: InstanceOffers

    /// Why a member holds nothing for now.
    private enum Absence {
        case vacation(VacationHandling)
        case departed(IncompleteTaskHandling)
    }

    /// What one pass decided about an instance.
    private struct Decision: Equatable {
        var isPaused: Bool
        var reassignedTo: String?
    }

    /// Settles the open instances of the household of `scope` at `now` (only those of
    /// `instanceIDs` when given, with the load of all), as the type describes; the members of
    /// `returning` are back from a vacation now.
    func settle(_ scope: ChoreScope, at now: Date, returning: Set<String> = [], only instanceIDs: Set<String>? = nil) throws {
        guard let household = scope.household else { return }
        let members = try household.decode(
            MemberRecord.self, "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND status <> 'invited' ORDER BY id")
        var absences: [String: Absence] = [:]
        for row in try household.query(
            "SELECT member_id, task_handling FROM member_departures WHERE household_id = {household} ORDER BY departed_at, id") {
            absences[try row["member_id"]] = .departed(IncompleteTaskHandling(rawValue: try row["task_handling"]) ?? .unassign)
        }
        for member in members where member.status == .active { absences[member.id] = nil }
        for row in try household.query("SELECT member_id, handling FROM member_vacations WHERE household_id = {household} AND status = 'active'") {
            absences[try row["member_id"]] = .vacation(VacationHandling(rawValue: try row["handling"]) ?? .pause)
        }
        let available = members.filter { $0.status == .active && absences[$0.id] == nil }
        let availableIDs = Set(available.map(\.id))
        let reclaimSetting = returning.isEmpty ? nil : try household.scalar(
            Bool.self, "SELECT reclaim_redistributed_on_return FROM households WHERE id = {household}")
        let reclaims = reclaimSetting ?? false

        let open = try scope.query(
            "SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE {scope} AND status = 'pending' ORDER BY due_at, id"
        ).map(ChoreInstanceRecord.init(row:))
        let rules = try Self.rules(of: Set(open.map(\.choreID)), scope)

        /// The member an instance is for, or nil when nobody holds it.
        func holder(_ instance: ChoreInstanceRecord, _ rules: CompletionRules) -> String? {
            let holder = instance.claimantID ?? instance.memberID ?? {
                switch rules.chore.assignmentMode {
                case .individual, .singleAction: rules.assignees.first?.member.id
                case .group, .allMembers: nil
                }
            }()
            if let holder, case .departed(.unassign)? = absences[holder] { return nil }
            return holder
        }
        var assignment = LoadBalancedAssignment(loads: open.reduce(into: [:]) { loads, instance in
            guard instance.pausedAt == nil, let rules = rules[instance.choreID], let current = instance.reassignedTo ?? holder(instance, rules)
            else { return }
            loads[current, default: 0] += 1
        })
        for instance in open where instanceIDs?.contains(instance.id) ?? true {
            guard let rules = rules[instance.choreID] else { continue }
            let owner = holder(instance, rules)
            var unassigned = instance
            unassigned.reassignedTo = nil
            let eligible = available.filter { $0.id != owner && rules.isEligible($0, unassigned) }.map(\.id)
            let keeps = instance.reassignedTo.map(availableIDs.contains) ?? false
            let decision: Decision
            if let owner {
                switch absences[owner] {
                case nil:
                    let reclaimed = returning.contains(owner) && reclaims
                    decision = Decision(isPaused: false, reassignedTo: keeps && !reclaimed ? instance.reassignedTo : nil)
                case .vacation(.pause)?:
                    decision = Decision(isPaused: true, reassignedTo: nil)
                case .vacation(.redistribute)?, .departed?:
                    let target = keeps ? instance.reassignedTo : assignment.assign(among: eligible)
                    decision = Decision(isPaused: target == nil, reassignedTo: target)
                }
            } else {
                decision = Decision(isPaused: eligible.isEmpty, reassignedTo: nil)
            }
            try apply(decision, to: instance, owner: owner, rules: rules, scope, at: now)
        }
    }

    /// Writes `decision` about `instance` when it changes anything, with its event.
    private func apply(
        _ decision: Decision, to instance: ChoreInstanceRecord, owner: String?, rules: CompletionRules, _ scope: ChoreScope, at now: Date
    ) throws {
        let before = Decision(isPaused: instance.pausedAt != nil, reassignedTo: instance.reassignedTo)
        guard decision != before else { return }
        try scope.execute(
            "UPDATE chore_instances SET paused_at = ?, reassigned_to = ?, updated_at = ? WHERE id = ? AND {scope} AND status = 'pending'",
            [decision.isPaused ? (instance.pausedAt ?? now) : nil, decision.reassignedTo, now, instance.id])
        guard scope.changedRowCount == 1 else { return }
        let holderNow = decision.reassignedTo ?? owner
        let holderBefore = before.reassignedTo ?? owner
        let kind: EventKind
        let change: ChoreInstanceChange
        if decision.isPaused {
            kind = .choreInstancePaused
            change = ChoreInstanceChange(instance, memberID: owner)
        } else if decision.reassignedTo != before.reassignedTo {
            kind = .choreInstanceReassigned
            change = ChoreInstanceChange(instance, memberID: holderNow, memberIDs: holderBefore.map { [$0] })
        } else {
            kind = .choreInstanceResumed
            change = ChoreInstanceChange(instance, memberID: holderNow)
        }
        try chores.record(instance: change, kind: kind, scope)
        if before.isPaused, !decision.isPaused, decision.reassignedTo == nil, instance.memberID == nil, instance.claimantID == nil,
           instance.dueAt <= now, let stored = try ChoreInstanceRecord.find(id: instance.id, scope) {
            try offers.offer(stored, rules: rules, minimum: 2, scope, at: now)
        }
    }

    /// The completion rules of the (not deleted) household chores `choreIDs`, read together.
    private static func rules(of choreIDs: Set<String>, _ scope: ChoreScope) throws -> [String: CompletionRules] {
        guard !choreIDs.isEmpty else { return [:] }
        let ids = choreIDs.sorted()
        let chores = try scope.decode(
            ChoreRecord.self,
            "SELECT \(ChoreRecord.columns) FROM chores WHERE {scope} AND deleted_at IS NULL AND id IN (\(ChoreReferences.placeholders(ids.count)))",
            ChoreReferences.arguments(ids))
        let assignees = try ChoreDetails.assignees(of: chores, scope)
        let rules = try ChoreDetails.rules(of: chores.map(\.id), scope)
        return Dictionary(uniqueKeysWithValues: chores.map { chore in
            (chore.id, CompletionRules(chore: chore, assignees: assignees[chore.id] ?? [], rules: rules[chore.id] ?? ChoreRuleSet()))
        })
    }

    /// ``settle(_:at:returning:only:)`` of the instances `instanceIDs`, just written or reopened,
    /// when the household of `scope` has anyone away now (an active vacation) or gone with
    /// `REDISTRIBUTE` (one statement otherwise).
    func settleIfAnyoneIsAway(_ scope: ChoreScope, at now: Date, only instanceIDs: Set<String>) throws {
        guard !instanceIDs.isEmpty, let household = scope.household else { return }
        let absences = try household.scalar(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM member_vacations WHERE household_id = {household} AND status = 'active')
                OR EXISTS (SELECT 1 FROM member_departures WHERE household_id = {household} AND task_handling = 'redistribute')
            """) ?? false
        if absences { try settle(scope, at: now, only: instanceIDs) }
    }
}
