import HearthDomain

/// Who may complete a household chore's instance, or one of its steps (FR-25 – FR-30, FR-38),
/// enforced by the service:
///
/// - admins of the household, always;
/// - the instance's assignees: the member of a per-member instance (`GROUP`, `ALL_MEMBERS`), the
///   assignee of `INDIVIDUAL`, the primary assignee of `SINGLE_ACTION`; for a step with an
///   assignee of its own, that member instead; and the member it was handed to while its assignee
///   is away or gone (``ChoreInstanceRecord/reassignedTo``);
/// - whoever the completion rule admits: the step's own rule when it has one, else the chore's
///   `completers` (``PermissionRule``: a role admits adults only, so children complete only what is
///   assigned to them unless the rule names them or their kind);
/// - for `SINGLE_ACTION` with an empty rule, every active adult (the chore's eligible members).
///
/// A refusal is `FORBIDDEN` with reason `CHORE_COMPLETERS`, its message saying who may. The same
/// rules without the admins' override say who is *eligible* (``isEligible(_:_:step:)``): offers and
/// claims (FR-51, FR-52).
struct CompletionRules {
    let chore: ChoreRecord
    /// The chore's stored assignees (`INDIVIDUAL`'s one, `SINGLE_ACTION`'s primary, `GROUP`'s).
    let assignees: [ChoreAssignee]
    let rules: ChoreRuleSet

    /// The rules of household chore `chore`, read in `scope`.
    static func of(_ chore: ChoreRecord, _ scope: ChoreScope) throws -> CompletionRules {
        CompletionRules(
            chore: chore, assignees: try ChoreDetails.assignees(of: [chore], scope)[chore.id] ?? [],
            rules: try ChoreDetails.rules(of: [chore.id], scope)[chore.id] ?? ChoreRuleSet())
    }

    /// Whether `member` may complete `instance` (its `step`, if given): an active admin, or an
    /// eligible member.
    func admits(_ member: MemberRecord, _ instance: ChoreInstanceRecord, step: ChoreStepRecord?) -> Bool {
        if member.role == .admin && member.status == .active { return true }
        return isEligible(member, instance, step: step)
    }

    /// Whether `member` is **eligible** for `instance` (its `step`, if given): an active member
    /// the chore itself names, without the admins' override. Assigned to it, admitted by the
    /// completion rule, or, for `SINGLE_ACTION` with an empty rule, an adult. Eligible members are
    /// who a due shared instance is offered to (FR-51) and who may claim it (FR-52; admins may
    /// too, as they may complete anything, but are offered it only when eligible).
    func isEligible(_ member: MemberRecord, _ instance: ChoreInstanceRecord, step: ChoreStepRecord? = nil) -> Bool {
        guard member.status == .active else { return false }
        if assignedIDs(instance, step: step).contains(member.id) { return true }
        let rule = self.rule(for: step)
        if ChoreService.admits(rule.rule, member) { return true }
        return chore.assignmentMode == .singleAction && rule.rule.isEmpty && member.kind.isAdult
    }

    /// Why `member` may not: `FORBIDDEN` (reason `CHORE_COMPLETERS`) saying who may; `verb` is
    /// what they tried ("completed", "claimed").
    func refusal(
        for member: MemberRecord, _ instance: ChoreInstanceRecord, step: ChoreStepRecord?, names: [String: String], verb: String = "completed"
    ) -> ServiceError {
        let rule = rule(for: step)
        var who = assignedIDs(instance, step: step).compactMap { names[$0] }
        if chore.assignmentMode == .singleAction && rule.rule.isEmpty && step?.assignee == nil { who.append("every adult") }
        let whose = step.map { "The step “\($0.title)”" } ?? "This chore"
        return ServiceError(
            .forbidden, reason: .choreCompleters,
            "\(whose) may be \(verb) only by \(ChoreService.describe(rule, with: who)); \(names[member.id] ?? "this member") is not among them.")
    }

    /// The members an instance (or step) is assigned to, and whoever holds it while they are away
    /// or gone (``ChoreInstanceRecord/reassignedTo``).
    private func assignedIDs(_ instance: ChoreInstanceRecord, step: ChoreStepRecord?) -> [String] {
        let holder = instance.reassignedTo.map { [$0] } ?? []
        if let assignee = step?.assignee { return [assignee.member.id] + holder }
        if let member = instance.memberID { return [member] + holder }
        switch chore.assignmentMode {
        case .individual, .singleAction: return assignees.map(\.member.id) + holder
        case .group, .allMembers: return holder
        }
    }

    /// The completion rule that applies: the step's own, else the chore's.
    private func rule(for step: ChoreStepRecord?) -> GrantedRule {
        step.flatMap { rules.steps[$0.id] } ?? rules.completers
    }
}
