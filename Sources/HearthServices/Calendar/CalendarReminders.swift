import FoundationEssentials
import HearthDomain
import HearthStore

/// The reminders on a viewer's calendar (FR-59 with FR-49, FR-50A/B), each where it really fires:
///
/// - one that fired or was decided for the viewer shows what its notice recorded: delivered at the
///   time it was made; delayed by quiet hours or busy time, at the later time it was delivered;
///   skipped, at its planned time with the cause;
/// - one delayed and not yet delivered shows the time its delay job fires at, and the cause;
/// - one still to come shows its planned time, for the pending instances the viewer may do (their
///   personal ones, and household ones they hold or may claim), of a household chore only in their
///   active household (FR-11), since reminders reach them only there.
///
/// Outcomes are read with the viewer's reminder notices of the instances read, by the notice's
/// dedupe key (instance, offset, due time: ``ReminderJob/noticeKey(instanceID:offsetSeconds:dueAt:)``).
struct CalendarReminders {
    /// The viewer's rows.
    let owner: OwnerScope
    /// The clock's reading: a reminder planned before it without a notice may be waiting, delayed.
    let now: Date

    /// The reminders of `chores` (due from `dueFrom` through `dueThrough`), `theirs` being the
    /// instances the viewer may do, and `activeHouseholdID` their active household.
    func of(_ chores: [MyChore], theirs: Set<String>, activeHouseholdID: String?, dueFrom: Date, dueThrough: Date) throws -> [CalendarReminder] {
        let recorded = try outcomes(dueFrom: dueFrom, dueThrough: dueThrough)
        var reminders: [CalendarReminder] = []
        for chore in chores {
            let instance = chore.instance
            let isPlanned = instance.status == .pending && theirs.contains(instance.id)
                && (chore.access.household == nil || chore.access.household?.householdID == activeHouseholdID)
            for offset in chore.chore.reminders {
                let key = ReminderJob.noticeKey(instanceID: instance.id, offsetSeconds: offset.seconds, dueAt: instance.dueAt)
                var reminder = CalendarReminder(chore: chore, offset: offset, outcome: recorded[key])
                guard reminder.outcome != nil || isPlanned else { continue }
                if reminder.outcome == nil, reminder.plannedAt <= now { reminder.outcome = try waiting(key) }
                reminders.append(reminder)
            }
        }
        return reminders
    }

    /// What the viewer's reminder notices of instances due from `dueFrom` through `dueThrough`
    /// record, by notice key.
    private func outcomes(dueFrom: Date, dueThrough: Date) throws -> [String: CalendarReminder.Outcome] {
        let rows = try owner.query(
            """
            SELECT dedupe_key, created_at, skipped_reason, delay_reason, original_time FROM notifications
            WHERE user_id = {owner} AND kind = ? AND instance_id IS NOT NULL AND due_at >= ? AND due_at <= ?
            """,
            [NoticeKind.reminder.rawValue, dueFrom, dueThrough])
        let prefix = ReminderJob.noticeDedupeKey("")
        var outcomes: [String: CalendarReminder.Outcome] = [:]
        for row in rows {
            let key: String = try row["dedupe_key"]
            guard key.hasPrefix(prefix) else { continue }
            let skipped = (try row["skipped_reason"] as String?).flatMap(ReminderDeferral.Cause.init(rawValue:))
            let delayed = (try row["delay_reason"] as String?).flatMap(ReminderDeferral.Cause.init(rawValue:))
            let madeAt: Date = try row["created_at"]
            outcomes[String(key.dropFirst(prefix.count))] =
                if let skipped {
                    .init(delivery: .skipped, cause: skipped, at: try row["original_time"] ?? madeAt)
                } else {
                    .init(delivery: delayed == nil ? .delivered : .delayed, cause: delayed, at: madeAt)
                }
        }
        return outcomes
    }

    /// The reminder of `key` delayed for the viewer and waiting for its time: when its job fires,
    /// and why it waits; `nil` when none waits (it is about to be decided).
    private func waiting(_ key: String) throws -> CalendarReminder.Outcome? {
        let prefix = key + "/" + owner.key.userID + "@"
        guard let job = try JobQueue.firstWaiting(kind: .choreReminder, keyPrefix: prefix, in: owner.database),
              let payload = try? job.decodePayload(ReminderJob.Payload.self)
        else { return nil }
        return .init(delivery: .delayed, cause: payload.heldBy, at: payload.delayedUntil ?? job.dueAt)
    }
}
