import FoundationEssentials
import HearthDomain
import HearthStore

/// Writes a ``ChoreDraft`` into the chore tables of one scope, inside the caller's transaction:
/// the `chores` row, then its assignees, steps, tags and permission grants, each list replaced
/// as a whole (steps keep their ids, so history recorded against a step keeps pointing at it).
struct ChoreWriter {
    let scope: ChoreScope

    /// Inserts chore `id` as `draft`, created by `userID`.
    /// - Throws: `CONFLICT` when a chore with `id` exists already (a client-made id used twice).
    func insert(_ draft: ChoreDraft, id: String, createdBy userID: String, at now: Date) throws {
        var values: [(any DatabaseValueConvertible)?] = [id, draft.title, DisplayText.sortKey(draft.title), draft.description, draft.assignmentMode.rawValue]
        values += ChoreRecord.scheduleColumns(draft.schedule)
        values += [draft.tokens, draft.requiresApproval, draft.presetID, userID, now, now, ReminderOffset.stored(draft.reminders)]
        try scope.execute(
            """
            INSERT INTO chores (
                id, household_id, user_id, title, title_key, description, assignment_mode, schedule_kind, due_at, recurrence,
                interval_count, interval_unit, tokens, requires_approval, preset_id, created_by, created_at, updated_at, reminder_offsets)
            VALUES (?, {scope_ids}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING
            """,
            StatementArguments(values))
        guard scope.changedRowCount == 1 else {
            throw ServiceError(.conflict, "This chore id is taken: make a new one.", problems: [
                FieldProblem(field: "input.id", reason: .taken, message: "This chore id is taken: make a new one.")])
        }
        try writeRelations(draft, choreID: id)
    }

    /// Replaces chore `id`'s definition, `previous`, with `draft`; an edit of its title or schedule
    /// (what a calendar shows of it) counts in its `ical_sequence` (RFC 5545 SEQUENCE, FR-60).
    func update(_ draft: ChoreDraft, over previous: ChoreDraft, id: String, at now: Date) throws {
        let movesEvent = draft.title != previous.title || draft.schedule != previous.schedule
        var values: [(any DatabaseValueConvertible)?] = [draft.title, DisplayText.sortKey(draft.title), draft.description, draft.assignmentMode.rawValue]
        values += ChoreRecord.scheduleColumns(draft.schedule)
        values += [draft.tokens, draft.requiresApproval, now, ReminderOffset.stored(draft.reminders), movesEvent ? 1 : 0, id]
        try scope.execute(
            """
            UPDATE chores SET title = ?, title_key = ?, description = ?, assignment_mode = ?, schedule_kind = ?, due_at = ?, recurrence = ?,
                interval_count = ?, interval_unit = ?, tokens = ?, requires_approval = ?, updated_at = ?, reminder_offsets = ?,
                ical_sequence = ical_sequence + ?
            WHERE id = ? AND {scope}
            """,
            StatementArguments(values))
        try writeRelations(draft, choreID: id)
    }

    /// Replaces the assignees, steps, tags and grants of chore `choreID` with `draft`'s.
    private func writeRelations(_ draft: ChoreDraft, choreID: String) throws {
        if let household = scope.household {
            // Grants first: they refer to the steps about to be replaced.
            try household.execute("DELETE FROM chore_grants WHERE household_id = {household} AND chore_id = ?", [choreID])
            try household.execute("DELETE FROM chore_assignees WHERE household_id = {household} AND chore_id = ?", [choreID])
            for (position, memberID) in draft.assigneeIDs.enumerated() {
                try household.execute(
                    "INSERT INTO chore_assignees (chore_id, household_id, member_id, position) VALUES (?, {household}, ?, ?)",
                    [choreID, memberID, position])
            }
        }
        try writeSteps(draft.steps, choreID: choreID)
        try scope.execute("DELETE FROM chore_tags WHERE chore_id = ? AND {scope}", [choreID])
        for tagID in draft.tagIDs {
            try scope.execute("INSERT INTO chore_tags (chore_id, tag_id, household_id, user_id) VALUES (?, ?, {scope_ids})", [choreID, tagID])
        }
        if let household = scope.household {
            try PermissionGrants.insert(draft.completers, .complete, choreID: choreID, household)
            try PermissionGrants.insert(draft.editors, .edit, choreID: choreID, household)
            for step in draft.steps {
                if let completers = step.completers { try PermissionGrants.insert(completers, .complete, choreID: choreID, stepID: step.id, household) }
            }
        }
    }

    /// Removes the steps `steps` does not keep, then writes each at its position.
    private func writeSteps(_ steps: [ChoreDraft.Step], choreID: String) throws {
        let kept = steps.map(\.id)
        try scope.execute(
            "DELETE FROM chore_steps WHERE chore_id = ? AND {scope}"
                + (kept.isEmpty ? "" : " AND id NOT IN (\(ChoreReferences.placeholders(kept.count)))"),
            StatementArguments([choreID as (any DatabaseValueConvertible)?] + kept.map { $0 as (any DatabaseValueConvertible)? }))
        for (position, step) in steps.enumerated() {
            try scope.execute(
                """
                INSERT INTO chore_steps (id, chore_id, household_id, user_id, position, title, assignee_id) VALUES (?, ?, {scope_ids}, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET position = excluded.position, title = excluded.title, assignee_id = excluded.assignee_id
                """,
                [step.id, choreID, position, step.title, step.assigneeID])
        }
    }
}
