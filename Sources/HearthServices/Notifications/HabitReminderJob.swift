import FoundationEssentials
import HearthDomain
import HearthStore

extension JobKind {
    /// Reminds a habit's owner on one of its planned days (``HabitReminderJob``).
    public static let habitReminder: JobKind = "habit.remind"
}

/// The durable half of habit reminders: at the habit's reminder time on a planned day, in one
/// write transaction, one notice for its owner, unless the habit is already done that day (an
/// event on it); through ``ReminderGate`` (quiet hours, busy times; the deadline is the end of
/// that day), on their chosen channels. It plans the next day's reminder first
/// (``HabitReminderPlanner``).
///
/// Checked when it runs: nothing (and no next one: the re-planning made it) for a habit deleted,
/// whose reminder was removed or moved, whose plan no longer has the day, or whose owner's time
/// zone moved the instant.
///
/// Once per (habit, day): the notice is keyed by both, so a run again after a crash, a delayed
/// copy, or a reminder moved later on a day it already fired adds nothing.
public struct HabitReminderJob: JobHandler {
    /// The reminder: which habit, whose, which local day (a day number), the instant planned, and
    /// for one delayed by quiet hours or busy time, what delayed it and until when.
    struct Payload: Codable {
        var habitID: String
        var userID: String
        var day: Int
        var fireAt: Date
        var heldBy: ReminderDeferral.Cause?
        var delayedUntil: Date?

        /// The job's dedupe key: habit, day and instant (and for a delayed one, the new instant).
        var key: String {
            "\(habitID)/\(day)/\(ChoreInstanceID.unixMilliseconds(fireAt))"
                + (delayedUntil.map { "@\(ChoreInstanceID.unixMilliseconds($0))" } ?? "")
        }
    }

    let pool: any DatabaseWriter
    let clock: any ServiceClock
    let gate: ReminderGate
    let planner: HabitReminderPlanner

    public var kind: JobKind { .habitReminder }

    public func run(_ job: Job) throws {
        let payload = try job.decodePayload(Payload.self)
        let now = clock.storedNow
        try pool.write { database in
            let owner = OwnerScope(Owner(scheduledWorkOf: payload.userID), database)
            guard let habit = try HabitRecord.findOwn(id: payload.habitID, owner), let time = try HabitReminderPlanner.reminderTime(of: habit, owner),
                  time.schedule.isPlanned(payload.day),
                  ChoreInstanceID.unixMilliseconds(time.instant(onDay: payload.day)) == ChoreInstanceID.unixMilliseconds(payload.fireAt)
            else { return }
            if payload.delayedUntil == nil { try planner.plan(habit, fromDay: payload.day + 1, owner, at: now) }
            let day = CalendarDay(dayNumber: payload.day)
            let done = try owner.scalar(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM habit_events WHERE habit_id = ? AND user_id = {owner} AND occurred_on = ?)",
                [habit.id, day.description]) ?? false
            guard !done else { return }
            let draft = Notifier.Draft(
                kind: .habitReminder, title: habit.title, body: habit.reason.isEmpty ? "Planned for today." : "Planned for today: \(habit.reason)",
                habitID: habit.id)
            let reminder = ReminderGate.Reminder(
                draft: draft, dedupeKey: "habit:\(habit.id)/\(day)", plannedAt: payload.fireAt, heldBy: payload.heldBy,
                deadline: AvailabilityTiming.midnight(CalendarDay(dayNumber: payload.day + 1), in: time.zone))
            try gate.remind(reminder, owner, at: now) { until, cause in
                var delayed = payload
                (delayed.heldBy, delayed.delayedUntil) = (cause, until)
                try planner.jobs.enqueue(kind: .habitReminder, payload: delayed, dueAt: until, dedupeKey: delayed.key, in: database)
            }
        }
    }
}
