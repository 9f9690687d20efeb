import FoundationEssentials
import HearthDomain
import HearthStore

/// The last step of every reminder (a chore's, a habit's), for one account, decided when it fires
/// and not when it was planned, since calendars and preferences change in between
/// (``ReminderDeferral``): delivered now; or held back by their quiet hours or, when they chose to
/// avoid busy times (FR-50A), by a busy period of their calendars (``BusyTimes``), and then
/// delayed to the next free instant before its deadline (FR-50B, a durable job of its own) or
/// skipped. Either way the notice records what happened: delayed (with the planned time and the
/// cause) or skipped (with the cause).
struct ReminderGate {
    /// Makes the notices.
    let notifier: Notifier
    /// Where busy time is read.
    let busyTimes: BusyTimes

    /// One reminder for one account.
    struct Reminder {
        /// What it says.
        var draft: Notifier.Draft
        /// The notice's dedupe key: once per account.
        var dedupeKey: String
        /// When it was planned to fire.
        var plannedAt: Date
        /// What delayed it before, for a reminder that waited already.
        var heldBy: ReminderDeferral.Cause?
        /// When it stops being of use: the chore's due time, the end of the habit's day.
        var deadline: Date
    }

    /// Delivers `reminder` to `owner` now, or calls `delay` with the instant to fire again and its
    /// cause (the caller enqueues the job that comes back here then), or records it as skipped.
    func remind(_ reminder: Reminder, _ owner: OwnerScope, at now: Date, delay: (Date, ReminderDeferral.Cause) throws -> Void) throws {
        let preferences = try NotificationPreferences.read(owner)
        // The window reaches past now even for a reminder at (or after) its deadline: busy now is what skips it.
        let busy = preferences.avoidsBusyTimes ? try busyPeriods(of: owner, from: now, to: max(reminder.deadline, now.addingTimeInterval(1))) : []
        let decision = ReminderDeferral.decide(
            at: now, before: reminder.deadline, quietHours: preferences.quietHours, in: try preferences.zone(owner), busy: busy)
        switch decision {
        case .now:
            let heldBack = reminder.heldBy.map { Notifier.Holdback(cause: $0, originalTime: reminder.plannedAt, isDelivered: true) }
            try notifier.notify(reminder.draft, dedupeKey: reminder.dedupeKey, heldBack: heldBack, owner, at: now)
        case .delay(let until, let cause):
            try delay(until, cause)
        case .skip(let cause):
            let heldBack = Notifier.Holdback(cause: cause, originalTime: reminder.plannedAt, isDelivered: false)
            try notifier.notify(reminder.draft, dedupeKey: reminder.dedupeKey, heldBack: heldBack, owner, at: now)
        }
    }

    /// `owner`'s busy periods from `from` to `to`; none when a source refuses the range (more
    /// occurrences than it reads at once): the reminder is then delivered rather than lost.
    private func busyPeriods(of owner: OwnerScope, from: Date, to: Date) throws -> [BusyPeriod] {
        do {
            return try busyTimes.periods(of: owner, from: from, to: to)
        } catch is ServiceError {
            return []
        }
    }
}
