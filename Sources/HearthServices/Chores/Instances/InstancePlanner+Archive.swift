import FoundationEssentials
import HearthDomain
import HearthStore

extension InstancePlanner {
    /// Archives the one-off chore `chore`, due at `dueAt`, when its occurrence has instances and
    /// none is open (pending, or waiting for approval), and makes it active again otherwise
    /// (FR-37). Computed from the stored instances alone, so every path that changes them (a
    /// completion, an approval or rejection, an undo, an edit, the `chore.plan` job at the end of
    /// the due day) settles it the same way.
    /// - Returns: Whether the chore's status changed.
    func settleArchive(of chore: ChoreRecord, dueAt: Date, _ scope: ChoreScope, at now: Date) throws -> Bool {
        let closed = try scope.scalar(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM chore_instances WHERE chore_id = ? AND {scope} AND occurrence_at = ?)
                AND NOT EXISTS (SELECT 1 FROM chore_instances WHERE chore_id = ? AND {scope} AND status IN ('pending', 'pending_approval'))
            """,
            [chore.id, dueAt, chore.id]) ?? false
        guard closed != (chore.archivedAt != nil) else { return false }
        try scope.execute("UPDATE chores SET archived_at = ? WHERE id = ? AND {scope}", [closed ? now : nil, chore.id])
        return true
    }
}
