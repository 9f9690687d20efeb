import FoundationEssentials
import HearthDomain
import HearthStore

/// What `completeChore` is asked.
public struct CompletionRequest: Sendable {
    /// The instance (`chi_…`): one the server listed, or one the client derived (``ChoreInstanceID``).
    public var instanceID: String
    /// The step to complete; absent: the next step not done (or the whole chore without steps).
    public var stepID: String?
    /// FR-18's answer, for an instance of a household other than the caller's active one.
    public var crossHousehold: CrossHouseholdChoice?
    /// The child or supervised member the completion is recorded for.
    public var onBehalfOf: String?

    /// Creates the request.
    public init(instanceID: String, stepID: String? = nil, crossHousehold: CrossHouseholdChoice? = nil, onBehalfOf: String? = nil) {
        self.instanceID = instanceID
        self.stepID = stepID
        self.crossHousehold = crossHousehold
        self.onBehalfOf = onBehalfOf
    }
}

/// How a `completeChore` call ended: the typed outcomes a client branches on.
public enum CompletionOutcome: String, Sendable, Codable, CaseIterable {
    /// The instance is done.
    case completed
    /// A step is done; later steps remain.
    case stepCompleted = "step_completed"
    /// The instance is done and waits for an admin's approval.
    case pendingApproval = "pending_approval"
    /// Someone completed it (or this step) first: ``CompletionResult/completion`` says who and when.
    /// Nothing was recorded.
    case alreadyCompleted = "already_completed"
    /// The instance is another household's than the caller's active one, and no
    /// ``CrossHouseholdChoice`` was given (FR-18). Nothing was recorded.
    case crossHouseholdChoiceRequired = "cross_household_choice_required"
}

/// The result of ``ChoreInstanceService/completeChore(_:viewer:clientMutationID:)``.
public struct CompletionResult: Sendable {
    /// How it ended.
    public var outcome: CompletionOutcome
    /// The instance as it is now, with its chore and the access it was read with.
    public var instance: ChoreInstanceService.AccessibleInstance
    /// The completion recorded; for ``CompletionOutcome/alreadyCompleted`` the earlier one.
    public var completion: ChoreCompletionRecord?
    /// For ``CompletionOutcome/crossHouseholdChoiceRequired``: the caller's active household, with
    /// their access to it.
    public var activeHousehold: HouseholdService.AccessibleHousehold?
}

/// What a completion's replay record keeps.
struct CompletionReference: Codable {
    var outcome: CompletionOutcome
    var instanceID: String
    var completionID: String?
}

extension ChoreInstanceService {
    /// Completes an instance of a chore, or one of its steps (FR-35, FR-38), as `viewer`, or for
    /// the child or supervised member `request.onBehalfOf` (the completion is theirs; who recorded
    /// it is kept). An instance beyond the planning horizon is written by its first completion.
    ///
    /// - Steps are done in order: the next step not done when no step is named; a step whose
    ///   predecessor is not done is `CONFLICT` with reason `STEP_LOCKED` naming both. Each step's
    ///   completion is its own record; the last one completes the instance.
    /// - A chore needing approval ends `PENDING_APPROVAL` (unless an admin recorded it, which is
    ///   the approval); the token economy approves or rejects it (`+Approval`).
    /// - FR-18: an instance of a household other than the viewer's active one needs
    ///   `crossHousehold`; without it the outcome is ``CompletionOutcome/crossHouseholdChoiceRequired``
    ///   and nothing changes. `switchAndComplete` makes it the active household first.
    /// - Two completions of one instance (or step) never both count: the second is
    ///   ``CompletionOutcome/alreadyCompleted``, naming the first.
    /// - The household's first completed chore fires `first_chore_completed` and dismisses the
    ///   setup checklist (``FirstChoreCompletion``); an `afterCompletion` chore's next instance is
    ///   planned from the completion's time.
    ///
    /// - Throws: `NOT_FOUND` for an instance, step or member that is unknown or another
    ///   household's (alike); `FORBIDDEN` with reason `CHORE_COMPLETERS` (the message says who
    ///   may); `CONFLICT` with reason `STEP_LOCKED` or `INSTANCE_CLOSED` (archived); `NOT_FOUND`
    ///   with reason `DELETED` for an instance of a deleted chore; `BAD_USER_INPUT`
    ///   (`NOT_ALLOWED` on `input.onBehalfOf`) for an adult or a personal chore; `CONFLICT` for a
    ///   reused `clientMutationID`.
    public func completeChore(_ request: CompletionRequest, viewer: Viewer, clientMutationID: String? = nil) async throws -> CompletionResult {
        guard GlobalID.mayName(.choreInstance, request.instanceID) else { throw ServiceError.instanceNotFound }
        if let member = request.onBehalfOf, !GlobalID.mayName(.member, member) { throw ServiceError.memberNotFound }
        do {
            let reference = try await chores.mutate(
                "completeChore", by: viewer, replaying: clientMutationID, about: request.instanceID
            ) { [self] database, now in
                try complete(request, viewer: viewer, in: database, at: now)
            }
            return try await Tombstones.answer(about: request.instanceID, viewer: viewer, in: pool) { try await result(of: reference, viewer: viewer) }
        } catch let prompt as CrossHouseholdPromptError {
            return try await pool.readPreferringCallingThread { [self] database in
                let instance = try resolve(id: request.instanceID, viewer: viewer, in: database)
                let active = try prompt.activeHouseholdID.map { id -> HouseholdService.AccessibleHousehold in
                    let access = try HouseholdAccess.check(viewer: viewer, householdID: id, in: database)
                    return (try HouseholdRecord.find(HouseholdScope(access, database)), access)
                }
                return CompletionResult(outcome: .crossHouseholdChoiceRequired, instance: instance, completion: nil, activeHousehold: active)
            }
        }
    }

    /// The result a completion's reference names, as things are now.
    private func result(of reference: CompletionReference, viewer: Viewer) async throws -> CompletionResult {
        try await pool.readPreferringCallingThread { [self] database in
            let instance = try resolve(id: reference.instanceID, viewer: viewer, in: database)
            let completion = try reference.completionID.flatMap { try ChoreCompletionRecord.find(id: $0, instance.access.scope(database)) }
            return CompletionResult(outcome: reference.outcome, instance: instance, completion: completion, activeHousehold: nil)
        }
    }

    /// The completion, inside its write transaction.
    private func complete(_ request: CompletionRequest, viewer: Viewer, in database: Database, at now: Date) throws -> CompletionReference {
        let (instance, chore, access) = try resolve(id: request.instanceID, viewer: viewer, in: database)
        let scope = access.scope(database)
        let steps = try ChoreDetails.steps(of: [chore.id], scope)[chore.id] ?? []
        let live = instance.isMaterialized ? try ChoreCompletionRecord.live(of: instance.id, scope) : []
        let done = Set(live.compactMap(\.step?.id))
        let step: ChoreStepRecord?
        if let stepID = request.stepID {
            guard let named = steps.first(where: { $0.id == stepID }) else { throw ServiceError.stepNotFound }
            step = named
        } else {
            step = steps.first { !done.contains($0.id) } ?? steps.last
        }
        // Who may comes first: a refusal does not depend on the instance's state.
        let (member, recorder) = try completer(request, instance, chore, step, scope)
        // Deletes win over completions made offline: the client drops the change.
        if instance.status == .cancelled { throw Tombstones.deleted }
        if instance.status.isClosed {
            throw ServiceError(
                .conflict, reason: .instanceClosed, "This one-off chore is past its due day and archived: it can no longer be completed.")
        }
        // Done before: the step's own completion when one was named, else the one that finished it.
        if let step, let first = live.first(where: { $0.step?.id == step.id }), request.stepID != nil || !instance.status.isDone {
            return CompletionReference(outcome: .alreadyCompleted, instanceID: instance.id, completionID: first.id)
        }
        if instance.status.isDone, let final = live.last(where: \.isFinal) {
            return CompletionReference(outcome: .alreadyCompleted, instanceID: instance.id, completionID: final.id)
        }
        if let step, step.position > 0, let previous = steps.last(where: { $0.position < step.position }), !done.contains(previous.id) {
            throw ServiceError(
                .conflict, reason: .stepLocked, "The step “\(step.title)” is locked until “\(previous.title)” is done.",
                problems: [FieldProblem(
                    field: "input.stepId", reason: .notAllowed, message: "“\(step.title)” is locked until “\(previous.title)” is done.")])
        }
        let crossHousehold = try access.household.flatMap { household in
            try answerCrossHousehold(request.crossHousehold, household, viewer: viewer, in: database, at: now)
        }
        if !instance.isMaterialized { try instance.insert(at: now, scope) }
        let isFinal = step == nil || step?.id == steps.last?.id
        // An admin's own record is its approval.
        let needsApproval = isFinal && chore.requiresApproval && access.household.map { !$0.isAdmin } ?? false
        let completion = try record(
            CompletionDraft(
                instance: instance, step: step, isFinal: isFinal, status: needsApproval ? .pendingApproval : .completed, memberID: member?.id,
                recorderID: recorder?.id, crossHousehold: crossHousehold),
            viewer: viewer, scope, at: now)
        if isFinal { try finish(instance, chore: chore, completion: completion, scope, at: now) }
        let outcome: CompletionOutcome = !isFinal ? .stepCompleted : needsApproval ? .pendingApproval : .completed
        return CompletionReference(outcome: outcome, instanceID: instance.id, completionID: completion.id)
    }
}
