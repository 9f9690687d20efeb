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
/// instance at once, in their active household), delivered on each one's chosen channels.
///
/// Checked when it runs, not only when planned: nothing for an instance that is gone, paused,
/// completed, cancelled or archived, whose due time moved, or whose chore no longer has the offset.
///
/// Quiet hours and busy time (FR-50A/B, ``ReminderGate``): for an account held back, the reminder
/// waits until the next free instant before the due time (a job of its own for that account, keyed
/// by it and that instant, which decides again when it runs: calendars change), or is recorded as
/// skipped.
///
/// Exactly once per (instance, offset, account): each notice is an insert keyed by instance,
/// offset and due time that does nothing when it exists (``Notifier``), in the same transaction as
/// its deliveries, so a run again after a crash or `kill -9` (at least once), or a delayed copy,
/// adds nothing. The job is marked done in that transaction too (``JobCompletion``): one commit
/// per reminder besides its share of the lease, which is what a burst of reminders is bound by.
public struct ReminderJob: JobHandler {
    /// The reminder: which instance, which offset, the due time it was planned for, and (for one
    /// delayed by quiet hours or busy time) the one account it is for, what delayed it and until when.
    struct Payload: Codable {
        var choreID: String
        var instanceID: String
        var offsetSeconds: Int
        var dueAt: Date
        var userID: String?
        var heldBy: ReminderDeferral.Cause?
        var delayedUntil: Date?

        /// Each notice's dedupe key: instance, offset and due time.
        var noticeKey: String { ReminderJob.noticeKey(instanceID: instanceID, offsetSeconds: offsetSeconds, dueAt: dueAt) }

        /// The job's dedupe key: the notice's, and for a delayed one the account and the instant.
        var key: String {
            noticeKey + (userID.map { "/\($0)" } ?? "") + (delayedUntil.map { "@\(ChoreInstanceID.unixMilliseconds($0))" } ?? "")
        }

        /// When the reminder was planned to fire.
        var plannedAt: Date { dueAt.addingTimeInterval(-TimeInterval(offsetSeconds)) }
    }

    let service: ChoreInstanceService
    let gate: ReminderGate

    /// What names one reminder of an instance (its offset, for its due time) in its jobs' and
    /// notices' dedupe keys: a notice's is `reminder:` and this; a delayed job's is this, `/`, the
    /// account and `@` the instant it fires.
    static func noticeKey(instanceID: String, offsetSeconds: Int, dueAt: Date) -> String {
        "\(instanceID)/\(offsetSeconds)/\(ChoreInstanceID.unixMilliseconds(dueAt))"
    }

    /// A reminder notice's dedupe key (`notifications.dedupe_key`).
    static func noticeDedupeKey(_ noticeKey: String) -> String { "reminder:" + noticeKey }

    public var kind: JobKind { .choreReminder }

    public func run(_ job: Job) throws {
        try run(job, completing: nil)
    }

    /// Runs `job` and marks it done in the same transaction: one commit per reminder.
    public func run(_ job: Job, completion: JobCompletion) throws {
        try run(job, completing: completion)
    }

    private func run(_ job: Job, completing completion: JobCompletion?) throws {
        let payload = try job.decodePayload(Payload.self)
        try service.pool.write { database in
            try remind(payload, in: database)
            try completion?.record(in: database)
        }
    }

    /// The reminder's notices and delays, in the caller's write transaction.
    private func remind(_ payload: Payload, in database: Database) throws {
        let now = service.clock.storedNow
        let jobs = service.planner.jobs
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
        let reminder = ReminderGate.Reminder(
            draft: draft, dedupeKey: Self.noticeDedupeKey(payload.noticeKey), plannedAt: payload.plannedAt, heldBy: payload.heldBy,
            deadline: instance.dueAt)
        for owner in try ReminderRecipients.of(instance, chore, scope) where payload.userID == nil || payload.userID == owner.userID {
            try gate.remind(reminder, OwnerScope(owner, database), at: now) { until, cause in
                var delayed = payload
                (delayed.userID, delayed.heldBy, delayed.delayedUntil) = (owner.userID, cause, until)
                try jobs.enqueue(kind: .choreReminder, payload: delayed, dueAt: until, dedupeKey: delayed.key, in: database)
            }
        }
    }
}
