import HearthDomain

/// Who may complete a household chore's instance, or one of its steps (FR-25 – FR-30, FR-38),
/// enforced by the service:
///
/// - admins of the household, always;
/// - the instance's assignees: the member of a per-member instance (`GROUP`, `ALL_MEMBERS`), the
///   assignee of `INDIVIDUAL`, the primary assignee of `SINGLE_ACTION`; for a step with an
///   assignee of its own, that member instead;
/// - whoever the completion rule admits: the step's own rule when it has one, else the chore's
///   `completers` (``PermissionRule``: a role admits adults only, so children complete only what is
///   assigned to them unless the rule names them or their kind);
/// - for `SINGLE_ACTION` with an empty rule, every active adult (the chore's eligible members).
///
/// A refusal is `FORBIDDEN` with reason `CHORE_COMPLETERS`, its message saying who may.
struct CompletionRules {
    let chore: ChoreRecord
    /// The chore's stored assignees (`INDIVIDUAL`'s one, `SINGLE_ACTION`'s primary, `GROUP`'s).
    let assignees: [ChoreAssignee]
    let rules: ChoreRuleSet

    /// Whether `member` may complete `instance` (its `step`, if given).
    func admits(_ member: MemberRecord, _ instance: ChoreInstanceRecord, step: ChoreStepRecord?) -> Bool {
        if member.role == .admin && member.status == .active { return true }
        guard member.status == .active else { return false }
        if assignedIDs(instance, step: step).contains(member.id) { return true }
        let rule = self.rule(for: step)
        if ChoreService.admits(rule.rule, member) { return true }
        return chore.assignmentMode == .singleAction && rule.rule.isEmpty && member.kind.isAdult
    }

    /// Why `member` may not: `FORBIDDEN` (reason `CHORE_COMPLETERS`) saying who may.
    func refusal(for member: MemberRecord, _ instance: ChoreInstanceRecord, step: ChoreStepRecord?, names: [String: String]) -> ServiceError {
        let rule = rule(for: step)
        var who = assignedIDs(instance, step: step).compactMap { names[$0] }
        if chore.assignmentMode == .singleAction && rule.rule.isEmpty && step?.assignee == nil { who.append("every adult") }
        let whose = step.map { "The step “\($0.title)”" } ?? "This chore"
        return ServiceError(
            .forbidden, reason: .choreCompleters,
            "\(whose) may be completed only by \(ChoreService.describe(rule, with: who)); \(names[member.id] ?? "this member") is not among them.")
    }

    /// The members an instance (or step) is assigned to.
    private func assignedIDs(_ instance: ChoreInstanceRecord, step: ChoreStepRecord?) -> [String] {
        if let assignee = step?.assignee { return [assignee.member.id] }
        if let member = instance.memberID { return [member] }
        switch chore.assignmentMode {
        case .individual, .singleAction: return assignees.map(\.member.id)
        case .group, .allMembers: return []
        }
    }

    /// The completion rule that applies: the step's own, else the chore's.
    private func rule(for step: ChoreStepRecord?) -> GrantedRule {
        step.flatMap { rules.steps[$0.id] } ?? rules.completers
    }
}
