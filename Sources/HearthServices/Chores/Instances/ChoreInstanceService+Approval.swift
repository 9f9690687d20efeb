import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// The token economy's seam (FR-ONBOARD-5/6): settles a completion waiting for approval,
    /// inside the caller's write transaction, as the household admin of `access`. The token
    /// helper's `approveCompletion` and `rejectCompletion` call it, then credit (or not) the
    /// ledger in the same transaction; they may also react to the events it records
    /// (`chore_instance.completion_approved`, `chore_instance.completion_rejected`, with a
    /// ``ChoreCompletionChange``), as to `chore_instance.completed` (a completion that needed no
    /// approval is recorded `completed` at once) and `chore_instance.completion_undone`.
    ///
    /// - Approving marks the completion and its instance completed, and makes it the household's
    ///   first completed chore when none was (``FirstChoreCompletion``, `first_chore_completed`
    ///   with the approver as its actor); a one-off chore whose occurrence it closes is archived
    ///   (FR-37).
    /// - Rejecting marks the completion rejected with `note`, and the instance is to do again
    ///   (an `afterCompletion` chore's next instance, planned from the rejected completion, goes);
    ///   cancelled instead when the chore was deleted meanwhile.
    ///
    /// - Returns: The completion as it is now.
    /// - Throws: `FORBIDDEN` (`ADMINS_ONLY`) for a non-admin access; `NOT_FOUND` for a completion
    ///   that is not the household's; `CONFLICT` when it is not waiting for approval.
    func settleApproval(
        completionID: String, approve: Bool, note: String? = nil, by access: HouseholdAccess, in database: Database, at now: Date
    ) throws -> ChoreCompletionRecord {
        guard access.isAdmin else { throw ServiceError(.forbidden, reason: .adminsOnly, "Only the household's admins approve completions.") }
        let scope = ChoreAccess(access).scope(database)
        guard GlobalID.mayName(.choreCompletion, completionID), let pending = try ChoreCompletionRecord.find(id: completionID, scope) else {
            throw ServiceError.completionNotFound
        }
        if let settled = Self.alreadySettled(pending) { throw settled }
        try scope.execute(
            """
            UPDATE chore_completions SET status = ?, reviewed_by = ?, reviewed_at = ?, review_note = ?
            WHERE id = ? AND {scope} AND status = 'pending_approval'
            """,
            [approve ? ChoreCompletionStatus.completed.rawValue : ChoreCompletionStatus.rejected.rawValue, access.memberID, now, note,
             completionID])
        // The chore may have been deleted since (its instance was waiting, so not cancelled then):
        // a rejected one's instance is cancelled now, as the deletion would have.
        let chore = try ChoreRecord.findUnlessDeleted(id: pending.choreID, scope)
        if approve {
            try scope.execute(
                "UPDATE chore_instances SET status = 'completed', updated_at = ? WHERE id = ? AND {scope} AND status = 'pending_approval'",
                [now, pending.instanceID])
        } else if chore != nil {
            try reopen(pending.instanceID, scope, at: now)
        } else {
            try scope.execute(
                "UPDATE chore_instances SET status = 'cancelled', completed_at = NULL, updated_at = ? WHERE id = ? AND {scope} AND status = 'pending_approval'",
                [now, pending.instanceID])
        }
        guard let settled = try ChoreCompletionRecord.find(id: completionID, scope) else { throw ServiceError.completionNotFound }
        try chores.record(completion: settled, kind: approve ? .choreCompletionApproved : .choreCompletionRejected, scope)
        if approve {
            try FirstChoreCompletion.record(settled, actorID: access.userID, analytics: households.analytics, HouseholdScope(access, database), at: now)
        }
        // A rejection reopens the instance; an approval may close a one-off chore (FR-37).
        if let chore, !approve || chore.schedule.kind == .once {
            try planner.plan(chore, scope, at: now)
        }
        return settled
    }
}

extension ChoreInstanceService {
    /// `CONFLICT` (reason `ALREADY_REVIEWED`) for `completion` when it is not waiting for approval,
    /// saying in words what became of it; `nil` while it waits.
    static func alreadySettled(_ completion: ChoreCompletionRecord) -> ServiceError? {
        let outcome = switch completion.status {
        case .pendingApproval: nil as String?
        case .completed: completion.reviewedByMemberID == nil ? "needed no approval" : "was already approved"
        case .rejected: "was already rejected"
        case .undone: "was undone"
        }
        return outcome.map { ServiceError(.conflict, reason: .alreadyReviewed, "This completion \($0).") }
    }
}
