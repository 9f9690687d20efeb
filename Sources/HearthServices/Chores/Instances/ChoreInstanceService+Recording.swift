import FoundationEssentials
import HearthDomain
import HearthStore

/// A completion about to be recorded.
struct CompletionDraft {
    var instance: ChoreInstanceRecord
    var step: ChoreStepRecord?
    var isFinal: Bool
    var status: ChoreCompletionStatus
    /// Whose completion it is.
    var memberID: String?
    /// Who records it.
    var recorderID: String?
    var crossHousehold: CrossHouseholdChoice?
}

extension ChoreInstanceService {
    /// Whose completion this is and who records it (household chores; `nil` for personal ones),
    /// after checking that they may (``CompletionRules``).
    /// - Throws: `FORBIDDEN` (`CHORE_COMPLETERS`); `NOT_FOUND` for an `onBehalfOf` member of no
    ///   household of the viewer's; `BAD_USER_INPUT` (`NOT_ALLOWED` on `input.onBehalfOf`) for a
    ///   member who is an adult, has left, or a personal chore.
    func completer(
        _ request: CompletionRequest, _ instance: ChoreInstanceRecord, _ chore: ChoreRecord, _ step: ChoreStepRecord?, _ scope: ChoreScope
    ) throws -> (member: MemberRecord?, recorder: MemberRecord?) {
        guard let household = scope.household else {
            if request.onBehalfOf != nil { throw Self.onBehalfOfProblem("Personal chores are yours alone: nobody completes them for you.") }
            return (nil, nil)
        }
        let recorder = household.access.member
        let rules = try CompletionRules.of(chore, scope)
        func refuse(_ member: MemberRecord) throws -> Never {
            throw try Self.refusal(rules, for: member, instance, step: step, household)
        }
        guard let childID = request.onBehalfOf else {
            guard rules.admits(recorder, instance, step: step) else { try refuse(recorder) }
            try Self.requireClaimant(of: instance, for: recorder, recordedBy: recorder, step: step, household)
            return (recorder, recorder)
        }
        let child = try MemberRecord.find(id: childID, household)
        guard child.status == .active, !child.kind.isAdult else {
            throw Self.onBehalfOfProblem(
                child.status != .active ? "\(child.displayName) is no longer a member of the household."
                    : "Completions are recorded for children and supervised members only; \(child.displayName) completes their own.")
        }
        // The adults who may record for a child: admins, and those who may complete it themselves.
        guard recorder.kind.isAdult, rules.admits(recorder, instance, step: step) else {
            throw ServiceError(
                .forbidden, reason: .choreCompleters,
                "Only admins and the adults who may complete this chore record a completion for \(child.displayName).")
        }
        guard rules.admits(child, instance, step: step) else { try refuse(child) }
        try Self.requireClaimant(of: instance, for: child, recordedBy: recorder, step: step, household)
        return (child, recorder)
    }

    /// `FORBIDDEN` (`CHORE_COMPLETERS`) saying who `rules` admit and that `member` is not among
    /// them; `verb` is what they tried ("completed", "claimed").
    static func refusal(
        _ rules: CompletionRules, for member: MemberRecord, _ instance: ChoreInstanceRecord, step: ChoreStepRecord?, _ household: HouseholdScope,
        verb: String = "completed"
    ) throws -> ServiceError {
        var names = [member.id: member.displayName]
        for assignee in rules.assignees + (step?.assignee.map { [$0] } ?? []) { names[assignee.member.id] = assignee.member.displayName }
        if let owner = instance.memberID, names[owner] == nil { names[owner] = try MemberRecord.find(id: owner, household).displayName }
        return rules.refusal(for: member, instance, step: step, names: names, verb: verb)
    }

    /// A claimed instance (FR-52) is the claimant's: its completion must be theirs, unless an admin
    /// records it or it is a step with its own assignee (who does that step whoever claimed the rest).
    /// - Throws: `FORBIDDEN` with reason `CLAIMED_BY_OTHER` naming the claimant.
    private static func requireClaimant(
        of instance: ChoreInstanceRecord, for member: MemberRecord, recordedBy recorder: MemberRecord, step: ChoreStepRecord?,
        _ household: HouseholdScope
    ) throws {
        guard let claimantID = instance.claimantID, claimantID != member.id, recorder.role != .admin,
              step?.assignee?.member.id != member.id
        else { return }
        let claimant = try MemberRecord.find(id: claimantID, household)
        throw ServiceError.claimed(
            by: claimant, .forbidden, reason: .claimedByOther,
            "\(claimant.displayName) claimed this chore: only \(claimant.displayName) or an admin may complete it.")
    }

    private static func onBehalfOfProblem(_ message: String) -> ServiceError {
        .invalid(InputProblems([FieldProblem(field: "input.onBehalfOf", reason: .notAllowed, message: message)]))
    }

    /// FR-18: for an instance of `household` when the viewer's active household is another, the
    /// `choice` made (switching the active household for `switchAndComplete`); `nil` when it is
    /// their active household, or they have none.
    /// - Throws: The prompt (caught by ``completeChore(_:viewer:clientMutationID:)``) without a choice.
    func answerCrossHousehold(
        _ choice: CrossHouseholdChoice?, _ household: HouseholdAccess, viewer: Viewer, in database: Database, at now: Date
    ) throws -> CrossHouseholdChoice? {
        let owner = OwnerScope(Owner(viewer), database)
        // Without an active household there is nothing to switch from.
        guard let active = try ActiveHousehold.id(owner), active != household.householdID else { return nil }
        switch choice {
        case nil:
            throw CrossHouseholdPromptError(activeHouseholdID: active)
        case .switchAndComplete:
            try ActiveHousehold.activate(householdID: household.householdID, at: now, owner)
            try households.changeLog.record(
                topic: .user(viewer.userID), kind: .activeHouseholdChanged,
                payload: ActiveHouseholdChange(userID: viewer.userID, householdID: household.householdID, previousHouseholdID: active),
                in: database)
        case .completeAnyway:
            break
        }
        return choice
    }

    /// Records `draft` and its `chore_instance.completed` event.
    /// - Throws: `CONFLICT` when a live completion of the same instance and step exists (the unique
    ///   index: a concurrent completion in another store's transaction).
    func record(_ draft: CompletionDraft, viewer: Viewer, _ scope: ChoreScope, at now: Date) throws -> ChoreCompletionRecord {
        let id = GlobalID.make(.choreCompletion, now: now).rawValue
        try scope.execute(
            """
            INSERT INTO chore_completions (
                id, instance_id, chore_id, household_id, user_id, step_id, step_title, step_position, is_final, member_id, recorded_by,
                recorded_by_member, completed_at, status, cross_household)
            VALUES (?, ?, ?, {scope_ids}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """,
            [id, draft.instance.id, draft.instance.choreID, draft.step?.id, draft.step?.title, draft.step?.position, draft.isFinal,
             draft.memberID, viewer.userID, draft.recorderID, now, draft.status.rawValue, draft.crossHousehold?.rawValue])
        guard scope.changedRowCount == 1, let completion = try ChoreCompletionRecord.find(id: id, scope) else {
            throw ServiceError(.conflict, "Someone completed this at the same moment. Look at it again.")
        }
        try chores.record(completion: completion, kind: .choreCompleted, scope)
        return completion
    }

    /// Finishes `instance` with its final `completion`: its status, the household's first
    /// completed chore (when no approval is pending), the next instance of an `afterCompletion` chore,
    /// the archiving of a one-off chore (FR-37).
    func finish(_ instance: ChoreInstanceRecord, chore: ChoreRecord, completion: ChoreCompletionRecord, _ scope: ChoreScope, at now: Date) throws {
        let status: ChoreInstanceStatus = completion.status == .pendingApproval ? .pendingApproval : .completed
        try scope.execute(
            "UPDATE chore_instances SET status = ?, completed_at = ?, updated_at = ?, paused_at = NULL WHERE id = ? AND {scope} AND status = 'pending'",
            [status.rawValue, completion.completedAt, now, instance.id])
        guard scope.changedRowCount == 1 else { throw ServiceError(.conflict, "Someone completed this at the same moment. Look at it again.") }
        if status == .completed, let household = scope.household {
            try FirstChoreCompletion.record(completion, analytics: households.analytics, household, at: now)
        }
        // A recurrence's plan does not follow completions; the other schedules' do.
        if chore.schedule.kind != .recurrence { try planner.plan(chore, scope, at: now) }
    }
}

/// FR-18's prompt, thrown out of the write transaction so it changes nothing and is not
/// remembered under the `clientMutationId` (the client sends its choice with the same id).
struct CrossHouseholdPromptError: Error {
    var activeHouseholdID: String?
}

extension ChoreService {
    /// Records the completion event `kind` about `completion` on its chore's topic.
    func record(completion: ChoreCompletionRecord, kind: EventKind, _ scope: ChoreScope) throws {
        try households.changeLog.record(topic: scope.access.topic, kind: kind, payload: ChoreCompletionChange(completion), in: scope.database)
    }
}
