import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreService {
    /// `fields` over `base`, checked in the chore's household inside the caller's transaction: the
    /// definition a create (`isNew`) or an edit writes.
    ///
    /// Checked here: required fields, what personal chores cannot have (assignees, rules), the
    /// assignment mode's number of assignees, that every member a request names is an active member
    /// of the household, that every tag is the household's (or the owner's), step ids, and the
    /// recurrence rule in the household's time zone. References kept from `base` are not checked
    /// again: a stored chore stays editable when one of its members has left since.
    /// - Throws: `NOT_FOUND` (with `field`) for a member or tag that is unknown or of another
    ///   household, exactly alike; `BAD_USER_INPUT` listing every other problem.
    func draft(_ fields: ChoreFields, over base: ChoreDraft.Base, isNew: Bool, _ scope: ChoreScope, at now: Date) throws -> ChoreDraft {
        var problems = ProblemCollector()
        let mode = fields.assignmentMode ?? base.assignmentMode
        // A new mode without assignees drops those that mode cannot have.
        let assigneeIDs = fields.assigneeIDs ?? (mode.assigneeCount.contains(base.assigneeIDs.count) ? base.assigneeIDs : [])
        let steps = fields.steps ?? base.steps
        let completers = fields.completers ?? base.completers
        let editors = fields.editors ?? base.editors
        if (fields.title ?? base.title) == nil {
            problems.add(FieldProblem(field: "input.title", reason: .required, message: "Give the chore a title, or a preset."))
        }
        if fields.schedule == nil, base.schedule == nil {
            problems.add(FieldProblem(field: "input.schedule", reason: .required, message: "Say when the chore is due, or give a preset."))
        }
        if scope.access.isPersonal {
            Self.checkPersonal(fields, problems: &problems)
        } else if !mode.assigneeCount.contains(assigneeIDs.count) {
            problems.add(Self.assigneeCountProblem(mode))
        }
        let stepIDs = Self.stepIDs(steps, kept: base.stepIDs, isNew: isNew, at: now, problems: &problems)
        let schedule: ChoreSchedule?
        switch fields.schedule.map(ChoreDraft.Schedule.requested) ?? base.schedule {
        case .stored(let stored)?: schedule = stored
        case .requested(let request)?: schedule = try checkedSchedule(request, scope, at: now, problems: &problems)
        case nil: schedule = nil
        }
        try problems.throwIfAny()
        let members = try scope.household.map { try ChoreReferences.members(named: fields, $0) } ?? [:]
        if let tagIDs = fields.tagIDs { try ChoreReferences.checkTags(tagIDs, scope) }
        let requiresApproval = try fields.requiresApproval ?? base.requiresApproval
            ?? defaultRequiresApproval(mode: mode, assignees: assigneeIDs.compactMap { members[$0] }, scope)
        return ChoreDraft(
            title: (fields.title ?? base.title)!, description: fields.description ?? base.description, assignmentMode: mode,
            assigneeIDs: scope.access.isPersonal ? [] : assigneeIDs, schedule: schedule!,
            steps: zip(steps, stepIDs).map { step, id in
                ChoreDraft.Step(id: id, title: step.title, assigneeID: step.assigneeID, completers: step.completers.flatMap { $0.isEmpty ? nil : $0 })
            },
            tagIDs: fields.tagIDs ?? base.tagIDs, tokens: fields.tokens ?? base.tokens, requiresApproval: requiresApproval,
            completers: completers, editors: editors, presetID: base.presetID, reminders: fields.reminders ?? base.reminders)
    }

    /// The schedule `request` asks for, its recurrence parsed in the chore's time zone; `nil` after
    /// recording a problem.
    private func checkedSchedule(
        _ request: ScheduleRequest, _ scope: ChoreScope, at now: Date, problems: inout ProblemCollector
    ) throws -> ChoreSchedule? {
        switch request {
        case .once(let dueAt):
            return .once(dueAt: dueAt)
        case .afterCompletion(let every, let unit, let firstDueAt):
            return .afterCompletion(every: every, unit: unit, firstDueAt: firstDueAt ?? now)
        case .recurrence(let text):
            let zone = try RecurrenceZone.timeZone(named: try timeZoneName(scope))
            let limits = configuration.recurrenceLimits
            return problems.check { () throws(FieldProblem) in
                try ChoreSchedule.recurrence(text, timeZone: zone, limits: limits, field: "input.schedule.recurrence")
            }
        }
    }

    /// Records what a personal chore cannot have: another mode, assignees, permission rules.
    private static func checkPersonal(_ fields: ChoreFields, problems: inout ProblemCollector) {
        let message = "A personal chore is yours alone."
        if let mode = fields.assignmentMode, mode != .individual {
            problems.add(FieldProblem(field: "input.assignmentMode", reason: .notAllowed, message: message))
        }
        if fields.assigneeIDs?.isEmpty == false {
            problems.add(FieldProblem(field: "input.assigneeIds", reason: .notAllowed, message: message))
        }
        for (name, rule) in [("completers", fields.completers), ("editors", fields.editors)] where rule?.isEmpty == false {
            problems.add(FieldProblem(field: "input.\(name)", reason: .notAllowed, message: message))
        }
        for (index, step) in (fields.steps ?? []).enumerated() {
            if step.assigneeID != nil {
                problems.add(FieldProblem(field: "input.steps[\(index)].assigneeId", reason: .notAllowed, message: message))
            }
            if step.completers?.isEmpty == false {
                problems.add(FieldProblem(field: "input.steps[\(index)].completers", reason: .notAllowed, message: message))
            }
        }
    }

    /// The problem with a number of assignees `mode` does not take.
    private static func assigneeCountProblem(_ mode: AssignmentMode) -> FieldProblem {
        switch mode {
        case .individual:
            FieldProblem(field: "input.assigneeIds", reason: .required, message: "An individual chore has exactly one assignee.")
        case .group:
            FieldProblem(field: "input.assigneeIds", reason: .required, message: "Choose the members of a group chore.")
        case .allMembers:
            FieldProblem(field: "input.assigneeIds", reason: .notAllowed, message: "An all-members chore is everyone's: choose no assignees.")
        case .singleAction:
            FieldProblem(field: "input.assigneeIds", reason: .notAllowed, message: "A single-action chore has at most one primary assignee.")
        }
    }

    /// The ids of `steps`: those they keep (which must be steps of the chore, once each) and new
    /// ones for the others.
    private static func stepIDs(
        _ steps: [StepRequest], kept: Set<String>, isNew: Bool, at now: Date, problems: inout ProblemCollector
    ) -> [String] {
        var used: Set<String> = []
        return steps.enumerated().map { index, step in
            guard let id = step.id else { return GlobalID.make(.choreStep, now: now).rawValue }
            if !kept.contains(id) || isNew {
                problems.add(FieldProblem(field: "input.steps[\(index)].id", reason: .unknownValue, message: "This is not a step of the chore."))
            } else if !used.insert(id).inserted {
                problems.add(FieldProblem(field: "input.steps[\(index)].id", reason: .notAllowed, message: "Each step appears once."))
            }
            return id
        }
    }

    /// Whether completions need approval when nobody said (FR-ONBOARD-5 rewards): when the chore is
    /// a child's or a shadow's, for `allMembers` when the household has an active one.
    private func defaultRequiresApproval(mode: AssignmentMode, assignees: [MemberRecord], _ scope: ChoreScope) throws -> Bool {
        guard let household = scope.household else { return false }
        if mode == .allMembers {
            return try household.scalar(
                Bool.self,
                "SELECT EXISTS (SELECT 1 FROM members WHERE household_id = {household} AND status = 'active' AND kind IN ('child', 'shadow'))"
            ) ?? false
        }
        return assignees.contains { !$0.kind.isAdult }
    }
}
