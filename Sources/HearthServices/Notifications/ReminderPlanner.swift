import FoundationEssentials
import HearthDomain
import HearthStore

/// Plans a chore's reminders (FR-49): one durable `chore.remind` job per open instance and offset,
/// due at the instance's due time minus the offset, keyed by instance, offset and due time, so
/// planning again (after every planning run and every edit of the chore) adds nothing twice.
///
/// Re-planning: a new schedule replaces the instances (new ids, new jobs); new offsets add jobs
/// for them. Jobs planned for what no longer holds (an offset removed, an instance removed,
/// paused, closed, or due at another time) do nothing when they come due (``ReminderJob``), so
/// nothing is cancelled. A reminder whose time has passed when it is planned is not planned.
struct ReminderPlanner {
    let jobs: JobQueue

    /// Plans the reminders of the open instances of chore `choreID` of `scope` that are due after `now`.
    func plan(choreID: String, _ scope: ChoreScope, at now: Date) throws {
        guard let chore = try ChoreRecord.findUnlessDeleted(id: choreID, scope), !chore.reminders.isEmpty else { return }
        let instances = try scope.query(
            """
            SELECT \(ChoreInstanceRecord.columns) FROM chore_instances
            WHERE chore_id = ? AND {scope} AND status = 'pending' AND paused_at IS NULL AND due_at > ?
            """,
            [choreID, now]
        ).map(ChoreInstanceRecord.init(row:))
        for instance in instances {
            for offset in chore.reminders {
                let fireAt = instance.dueAt.addingTimeInterval(-TimeInterval(offset.seconds))
                guard fireAt >= now else { continue }
                let payload = ReminderJob.Payload(choreID: choreID, instanceID: instance.id, offsetSeconds: offset.seconds, dueAt: instance.dueAt)
                try jobs.enqueue(kind: .choreReminder, payload: payload, dueAt: fireAt, dedupeKey: payload.key, in: scope.database)
            }
        }
    }
}
