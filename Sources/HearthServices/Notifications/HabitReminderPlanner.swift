import FoundationEssentials
import HearthDomain
import HearthStore

/// Plans habits' reminders: for a habit with a reminder time, one durable `habit.remind` job at its
/// next planned day's reminder time in the owner's time zone (``HabitReminderTime``), keyed by
/// habit, day and instant so planning again adds nothing. Each job plans the next one when it
/// runs, so a habit has one reminder ahead at a time.
///
/// Re-planning: in the transaction of the change, when a habit is created or edited (its time,
/// plan or start) and when its owner's time zone changes. A job planned for what no longer holds
/// (another time, an unplanned day, another zone, a deleted habit or a removed reminder) does
/// nothing when it comes due (``HabitReminderJob``), so nothing is cancelled. A reminder whose time
/// has passed when it is planned is not planned: the next planned day's is.
struct HabitReminderPlanner {
    let jobs: JobQueue

    /// Plans the reminder of `habit` of `owner` on its first planned day from `firstDay` (today
    /// when `nil`) that is still ahead of `now`; nothing without a reminder time.
    func plan(_ habit: HabitRecord, fromDay firstDay: Int? = nil, _ owner: OwnerScope, at now: Date) throws {
        guard let time = try Self.reminderTime(of: habit, owner),
              let next = time.next(fromDay: firstDay ?? CalendarDay(containing: now, in: time.zone).dayNumber, notBefore: now)
        else { return }
        let payload = HabitReminderJob.Payload(habitID: habit.id, userID: habit.userID, day: next.day, fireAt: next.at)
        try jobs.enqueue(kind: .habitReminder, payload: payload, dueAt: next.at, dedupeKey: payload.key, in: owner.database)
    }

    /// When `habit`'s reminder fires in its owner's time zone now; `nil` without a reminder time.
    static func reminderTime(of habit: HabitRecord, _ owner: OwnerScope) throws -> HabitReminderTime? {
        guard let minute = habit.reminderMinute else { return nil }
        return HabitReminderTime(minute: minute, schedule: HabitSchedule(habit.plan, startsOn: habit.startsOn), zone: try owner.timeZone())
    }

    /// Registers the re-planning reactions on `changeLog` (see the type's documentation).
    func register(on changeLog: ChangeLog, clock: any ServiceClock) {
        changeLog.reactions.register([.habitCreated, .habitUpdated]) { [self] event, database in
            let change = try event.payload.decode(HabitChange.self)
            let owner = OwnerScope(Owner(scheduledWorkOf: change.userID), database)
            guard let habit = try HabitRecord.findOwn(id: change.habitID, owner) else { return }
            try plan(habit, owner, at: clock.storedNow)
        }
        changeLog.reactions.register([.userTimeZoneChanged]) { [self] event, database in
            let change = try event.payload.decode(TimeZoneChange.self)
            let owner = OwnerScope(Owner(scheduledWorkOf: change.userID), database)
            let habits = try owner.query(
                "SELECT \(HabitRecord.selection) FROM habits WHERE habits.user_id = {owner} AND habits.reminder_minute IS NOT NULL ORDER BY habits.id")
            for habit in try habits.map(HabitRecord.init(row:)) { try plan(habit, owner, at: clock.storedNow) }
        }
    }
}
