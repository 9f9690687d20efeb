import FoundationEssentials
import HearthDomain
import HearthStore

extension JobKind {
    /// Reminds the members of one chore instance at one of its chore's reminder offsets (``ReminderJob``).
    public static let choreReminder: JobKind = "chore.remind"
}

/// The durable half of reminders (FR-49 – FR-51): at an instance's due time minus an offset, in
/// one write transaction with the access scheduled work has, one notice for each account the
/// instance concerns then (``ReminderRecipients``: every eligible member of an unclaimed shared
/// instance at once), delivered on each one's chosen channels.
///
/// Checked when it runs, not only when planned: nothing for an instance that is gone, paused,
/// completed, cancelled or archived, whose due time moved, or whose chore no longer has the offset.
///
/// Quiet hours: for an account in its quiet hours, the reminder waits until they end when that is
/// before the due time (a job of its own for that account, keyed by it), or is recorded as skipped.
///
/// Exactly once per (instance, offset, account): each notice is an insert keyed by instance,
/// offset and due time that does nothing when it exists (``Notifier``), in the same transaction as
/// its deliveries, so a run again after a crash or `kill -9` (at least once) adds nothing.
public struct ReminderJob: JobHandler {
    /// The reminder: which instance, which offset, the due time it was planned for, and (for one
    /// delayed by quiet hours) the one account it is for.
    struct Payload: Codable {
        var choreID: String
        var instanceID: String
        var offsetSeconds: Int
        var dueAt: Date
        var userID: String?

        /// The job's dedupe key, and (without the account) each notice's.
        var key: String {
            "\(instanceID)/\(offsetSeconds)/\(ChoreInstanceID.unixMilliseconds(dueAt))" + (userID.map { "/\($0)" } ?? "")
        }
    }

    let service: ChoreInstanceService
    let notifier: Notifier

    public var kind: JobKind { .choreReminder }

    public func run(_ job: Job) throws {
        let payload = try job.decodePayload(Payload.self)
        let now = service.clock.storedNow
        let jobs = service.planner.jobs
        try service.pool.write { database in
            guard let scope = try ChoreAccess.scheduled(choreID: payload.choreID, in: database)?.scope(database),
                  let chore = try ChoreRecord.findUnlessDeleted(id: payload.choreID, scope),
                  chore.reminders.contains(ReminderOffset(seconds: payload.offsetSeconds)),
                  let instance = try ChoreInstanceRecord.find(id: payload.instanceID, scope),
                  instance.status == .pending, ChoreInstanceID.unixMilliseconds(instance.dueAt) == ChoreInstanceID.unixMilliseconds(payload.dueAt)
            else { return }
            let offset = ReminderOffset(seconds: payload.offsetSeconds)
            let draft = Notifier.Draft(
                kind: .reminder, title: chore.title, body: offset.isAtDueTime ? "Due now." : "Due in \(offset.spoken).", dueAt: instance.dueAt,
                householdID: instance.householdID, choreID: chore.id, instanceID: instance.id)
            var noticeKey = payload
            noticeKey.userID = nil
            for owner in try ReminderRecipients.of(instance, chore, scope) where payload.userID == nil || payload.userID == owner.userID {
                let ownerScope = OwnerScope(owner, database)
                let preferences = try NotificationPreferences.read(ownerScope)
                var skipped: NotificationRecord.SkipReason?
                if let quiet = preferences.quietHours, let end = quiet.end(ofSpanContaining: now, in: try preferences.zone(ownerScope)) {
                    if payload.userID == nil, end < instance.dueAt {
                        var delayed = payload
                        delayed.userID = owner.userID
                        try jobs.enqueue(kind: .choreReminder, payload: delayed, dueAt: end, dedupeKey: delayed.key, in: database)
                        continue
                    }
                    skipped = .quietHours
                }
                try notifier.notify(draft, dedupeKey: "reminder:" + noticeKey.key, skipped: skipped, ownerScope, at: now)
            }
        }
    }
}
