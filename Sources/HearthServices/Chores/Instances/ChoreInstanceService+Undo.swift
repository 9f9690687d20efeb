import FoundationEssentials
import HearthDomain
import HearthStore

/// What an undo's replay record keeps.
struct UndoReference: Codable {
    var instanceID: String
    var completionID: String
}

extension ChoreInstanceService {
    /// Undoes the latest completion of instance `instanceID` (a mistap): the completion stays,
    /// marked undone (out of history and, through its event, out of the token ledger), and the
    /// instance, or its step, is to do again. An `afterCompletion` chore's next instance, planned
    /// from that completion, goes unless it has started.
    ///
    /// Who: the member whose completion it is, or who recorded it, within the undo window
    /// (`--chore-undo-window`, at most that long after it; exactly then still counts); household
    /// admins and the owner of a personal chore at any time.
    /// - Returns: The instance as it is now, and the completion undone.
    /// - Throws: `NOT_FOUND` as for `completeChore`; `CONFLICT` with reason `NOT_COMPLETED` when
    ///   nothing of it is completed; `FORBIDDEN` with reason `UNDO_WINDOW_PASSED` after the window,
    ///   `ADMINS_ONLY` for someone else's completion; `CONFLICT` for a reused `clientMutationID`.
    public func uncompleteChore(
        instanceID: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> (instance: AccessibleInstance, completion: ChoreCompletionRecord) {
        guard GlobalID.mayName(.choreInstance, instanceID) else { throw ServiceError.instanceNotFound }
        let window = configuration.undoWindowSeconds
        let undone = try await chores.mutate("uncompleteChore", by: viewer, replaying: clientMutationID, about: instanceID) { [self] database, now in
            let (instance, chore, access) = try resolve(id: instanceID, viewer: viewer, in: database)
            let scope = access.scope(database)
            guard instance.isMaterialized, let latest = try ChoreCompletionRecord.live(of: instance.id, scope).last else {
                throw ServiceError(.conflict, reason: .notCompleted, "Nothing of this chore is completed: there is nothing to undo.")
            }
            if !access.isManager {
                guard latest.recordedBy == viewer.userID || latest.memberID == access.household?.memberID else {
                    throw ServiceError(.forbidden, reason: .adminsOnly, "Only the household's admins may undo someone else's completion.")
                }
                guard now.timeIntervalSince(latest.completedAt) <= window else {
                    throw ServiceError(
                        .forbidden, reason: .undoWindowPassed,
                        "A completion can be undone for \(Self.describe(seconds: window)) after it; ask an admin to undo this one.")
                }
            }
            try scope.execute(
                """
                UPDATE chore_completions SET status = 'undone', undone_at = ?, undone_by = ?
                WHERE id = ? AND {scope} AND status IN ('completed', 'pending_approval')
                """,
                [now, viewer.userID, latest.id])
            if latest.isFinal {
                try reopen(instance.id, scope, at: now)
            }
            guard let completion = try ChoreCompletionRecord.find(id: latest.id, scope) else { throw ServiceError.completionNotFound }
            try chores.record(completion: completion, kind: .choreCompletionUndone, scope)
            try planner.plan(chore, scope, at: now)
            return UndoReference(instanceID: instance.id, completionID: latest.id)
        }
        return try await Tombstones.answer(about: instanceID, viewer: viewer, in: pool) {
            try await pool.readPreferringCallingThread { [self] database in
                let instance = try resolve(id: undone.instanceID, viewer: viewer, in: database)
                guard let completion = try ChoreCompletionRecord.find(id: undone.completionID, instance.access.scope(database)) else {
                    throw ServiceError.completionNotFound
                }
                return (instance, completion)
            }
        }
    }

    /// Makes the finished instance `instanceID` pending again (an undo, a rejected approval); while
    /// the member who holds it is away, it follows their vacation's handling at once (``InstanceHandover``).
    func reopen(_ instanceID: String, _ scope: ChoreScope, at now: Date) throws {
        try scope.execute(
            """
            UPDATE chore_instances SET status = 'pending', completed_at = NULL, updated_at = ?
            WHERE id = ? AND {scope} AND status IN ('completed', 'pending_approval')
            """,
            [now, instanceID])
        try planner.handover.settleIfAnyoneIsAway(scope, at: now, only: [instanceID])
    }

    /// A length of time for people: "5 minutes", "90 seconds", "2 hours".
    static func describe(seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole % 3600 == 0 { return whole == 3600 ? "1 hour" : "\(whole / 3600) hours" }
        if whole % 60 == 0 { return whole == 60 ? "1 minute" : "\(whole / 60) minutes" }
        return whole == 1 ? "1 second" : "\(whole) seconds"
    }
}
