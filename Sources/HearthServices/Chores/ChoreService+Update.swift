import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreService {
    /// Edits chore `id` (FR-33): household admins, the members its editors rule admits, or the
    /// owner of a personal chore. Lists given replace the chore's; steps named by id keep it.
    /// Only admins change permission rules. An edit that changes nothing records no event.
    /// - Throws: `BAD_USER_INPUT` listing every problem; `NOT_FOUND` for a chore (or a member or
    ///   tag named) that is unknown or another household's, alike; `FORBIDDEN` (reason
    ///   `CHORE_EDITORS`, or `ADMINS_ONLY` for permission rules); `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func updateChore(
        id: String, _ changes: ChoreFields, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleChore {
        let fields = try changes.checked(maximumSteps: configuration.maximumStepsPerChore, reminderLimits: configuration.reminderLimits)
        let updated = try await mutate("updateChore", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, owning: .chores, id: id, in: database)
            let scope = access.scope(database)
            let current = try storedDraft(id: id, scope)
            try ensureMayEdit(scope, editors: current.editors)
            if Self.setsRules(fields) { try ensureManager(scope, "set who may complete or edit a chore") }
            let draft = try draft(fields, over: current.draft.base, isNew: false, scope, at: now)
            guard draft != current.draft else { return ChoreReference(choreID: id) }
            let sharedBefore = try ShareSyncScopes.covering(choreID: id, in: database)
            try ChoreWriter(scope: scope).update(draft, over: current.draft, id: id, at: now)
            try record(.choreUpdated, access, choreID: id, in: database)
            // Tags changed: the tag shares now covering it, or no longer, show or hide it whole.
            try ShareSyncScopes.recordCoverageChange(ofChore: id, before: sharedBefore, scope, households.changeLog)
            return ChoreReference(choreID: id)
        }
        return try await Tombstones.answer(about: updated.choreID, viewer: viewer, in: households.pool) { try await chore(id: updated.choreID, viewer: viewer) }
    }

    /// Deletes chore `id` (FR-34): household admins, or the owner of a personal chore. The chore
    /// disappears from every list and lookup; its row stays, marked deleted, so the history of its
    /// completions keeps its title. Its pending instances are cancelled in the same transaction, by
    /// the chore instances' reaction to `chore.deleted` (``ChoreInstanceService``).
    /// - Returns: The chore's id (also on a replay).
    /// It leaves a tombstone (``Tombstones``).
    /// - Throws: `NOT_FOUND` (reason `DELETED` for a chore deleted already); `FORBIDDEN` with reason
    ///   `ADMINS_ONLY`; `CONFLICT` for a reused `clientMutationID`.
    public func deleteChore(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        let deleted = try await mutate("deleteChore", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, owning: .chores, id: id, in: database)
            let scope = access.scope(database)
            try ensureManager(scope, "delete chores")
            try Tombstones.record([id], .chore, scope: access.topic, at: now, in: database)
            try scope.execute("UPDATE chores SET deleted_at = ?, updated_at = ? WHERE id = ? AND {scope}", [now, now, id])
            // Its instances are no longer found and its completions lose their instance: the row
            // names them all, so devices get a tombstone for each instance and each completion anew.
            try record(.choreDeleted, access, choreID: id, touching: try scope.history(ofChore: id), in: database)
            return ChoreReference(choreID: id)
        }
        return deleted.choreID
    }

    /// Chore `id` of `scope` as a draft, with its editors rule (and the members it names).
    func storedDraft(id: String, _ scope: ChoreScope) throws -> (draft: ChoreDraft, editors: GrantedRule) {
        let record = try ChoreRecord.find(id: id, scope)
        let rules = try ChoreDetails.rules(of: [id], scope)[id] ?? ChoreRuleSet()
        let assignees = record.assignmentMode == .allMembers ? [] : try ChoreDetails.assignees(of: [record], scope)[id] ?? []
        let draft = ChoreDraft(
            title: record.title, description: record.description, assignmentMode: record.assignmentMode,
            assigneeIDs: assignees.map(\.member.id), schedule: record.schedule,
            steps: try (ChoreDetails.steps(of: [id], scope)[id] ?? []).map { step in
                ChoreDraft.Step(id: step.id, title: step.title, assigneeID: step.assignee?.member.id, completers: rules.steps[step.id]?.rule)
            },
            tagIDs: try (ChoreDetails.tags(of: [id], scope)[id] ?? []).map(\.id), tokens: record.tokens, requiresApproval: record.requiresApproval,
            completers: rules.completers.rule, editors: rules.editors.rule, presetID: record.presetID, reminders: record.reminders)
        return (draft, rules.editors)
    }
}
