import FoundationEssentials
import HearthDomain
import HearthStore

extension HabitService {
    /// Stores a checked habit of the scope's owner and records `habit.created` on their topic:
    /// the one way a habit is created, by `createHabit` and by imports (which pass the
    /// `import_key` they find it again by; migration 0026), with `id` when the client made it
    /// (``ClientIDs``), a new one otherwise.
    /// - Returns: The new habit's id.
    func insertHabit(_ valid: CheckedHabit, id: String? = nil, importKey: String? = nil, _ owner: OwnerScope, at now: Date) throws -> String {
        let id = id ?? GlobalID.make(.habit, now: now).rawValue
        try owner.execute(
            """
            INSERT INTO habits (id, user_id, title, reason, starts_on, plan, visibility, reminder_minute, created_at, updated_at, import_key)
            VALUES (?, {owner}, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [id, valid.title, valid.reason, valid.startsOn.description, valid.plan.rawValue, valid.visibility.rawValue, valid.reminderMinute, now, now,
             importKey])
        try record(.habitCreated, HabitChange(userID: owner.key.userID, habitID: id), visibilities: [valid.visibility], in: owner)
        return id
    }

    /// Stores an event of the owner's habit `habitID` on `day` and records `habit_event.recorded`
    /// on their topic: the one way an event is created, by `recordHabitEvent` (recorded `now`)
    /// and by imports (recorded at the day's local noon, found again by `importKey`). The caller
    /// has checked the comment (``HabitRules/comment(_:field:)``) and stored the photo; `visibility`
    /// is the habit's (where the change is visible, ``record(_:_:visibilities:touching:in:)``), and
    /// `id` the client's (``ClientIDs``) or, when absent, a new one.
    /// - Returns: The new event's id.
    func insertEvent(
        id: String? = nil, habitID: String, visibility: HabitVisibility, day: CalendarDay, recordedAt: Date, comment: String, photoID: String? = nil, location: HabitLocation? = nil,
        importKey: String? = nil, _ owner: OwnerScope, at now: Date
    ) throws -> String {
        let id = id ?? GlobalID.make(.habitEvent, now: now).rawValue
        try owner.execute(
            """
            INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, comment, photo_id, latitude, longitude,
                accuracy_meters, geohash, created_at, updated_at, import_key)
            VALUES (?, ?, {owner}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                id, habitID, day.description, recordedAt, comment, photoID, location?.latitude, location?.longitude,
                location?.accuracyMeters, location?.geohash, now, now, importKey,
            ])
        try record(
            .habitEventRecorded, HabitChange(userID: owner.key.userID, habitID: habitID, eventID: id), visibilities: [visibility], in: owner)
        return id
    }

    /// How many habits the owner has (``HabitsConfiguration/maximumHabitsPerUser`` bounds it).
    static func habitCount(_ owner: OwnerScope) throws -> Int {
        try owner.scalar(Int.self, "SELECT count(*) FROM habits WHERE user_id = {owner}") ?? 0
    }
}
