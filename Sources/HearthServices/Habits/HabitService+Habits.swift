import FoundationEssentials
import HearthDomain
import HearthStore

extension HabitService {
    /// A habit checked: title, reason and plan (``HabitRules``, ``WeekdayPlan``).
    struct CheckedHabit: Sendable {
        var title: String
        var reason: String
        var startsOn: CalendarDay
        var plan: WeekdayPlan
        var visibility: HabitVisibility
        var reminderMinute: Int?
    }

    /// Creates a habit of the viewer's (US 01.01, US 01.02).
    /// - Throws: `BAD_USER_INPUT` listing every problem (`input.title` `REQUIRED`, `TOO_LONG`,
    ///   `INVALID_FORMAT`; `input.reason` `TOO_LONG`, `INVALID_FORMAT`; `input.plan` `REQUIRED`),
    ///   `CONFLICT` with reason `LIMIT_REACHED` at ``HabitsConfiguration/maximumHabitsPerUser``, or
    ///   for a reused `clientMutationID`; for `draft.id`, as ``ClientIDs/claim(_:_:field:_:at:)``.
    public func createHabit(_ draft: HabitDraft, viewer: Viewer, clientMutationID: String? = nil) async throws -> HabitRecord {
        let valid = try Self.checked(
            title: draft.title, reason: draft.reason, startsOn: draft.startsOn, plan: draft.plan, visibility: draft.visibility ?? .followers,
            reminderMinute: draft.reminderMinute)
        let created = try await mutate("createHabit", by: viewer, replaying: clientMutationID) { [self] owner, now in
            let id: String
            switch try ClientIDs.claim(draft.id, .habit, owner, at: now) {
            case .existing(let made): return HabitReference(habitID: made)
            case .create(let new): id = new
            }
            let count = try Self.habitCount(owner)
            guard count < configuration.maximumHabitsPerUser else {
                throw ServiceError(.conflict, reason: .limitReached, "You have \(count) habits, the most allowed. Delete one first.")
            }
            return HabitReference(habitID: try insertHabit(valid, id: id, owner, at: now))
        }
        return try await Tombstones.answer(about: created.habitID, viewer: viewer, in: pool) { try await habit(id: created.habitID, viewer: viewer) }
    }

    /// Changes the viewer's habit `id` (US 01.04): the fields given, checked as on creation.
    /// - Throws: as ``createHabit(_:viewer:clientMutationID:)``; `NOT_FOUND` for a habit that is
    ///   not the viewer's.
    public func updateHabit(id: String, _ changes: HabitChanges, viewer: Viewer, clientMutationID: String? = nil) async throws -> HabitRecord {
        let updated = try await mutate("updateHabit", by: viewer, replaying: clientMutationID, about: id) { [self] owner, now in
            guard let stored = try HabitRecord.findOwn(id: id, owner) else { throw Self.notFound("habit") }
            let valid = try Self.checked(
                title: changes.title ?? stored.title, reason: changes.reason ?? stored.reason, startsOn: changes.startsOn ?? stored.startsOn,
                plan: changes.plan ?? stored.plan.weekdays, visibility: changes.visibility ?? stored.visibility,
                reminderMinute: changes.reminderMinute ?? stored.reminderMinute)
            try owner.execute(
                """
                UPDATE habits SET title = ?, reason = ?, starts_on = ?, plan = ?, visibility = ?, reminder_minute = ?, updated_at = ?
                WHERE id = ? AND user_id = {owner}
                """,
                [valid.title, valid.reason, valid.startsOn.description, valid.plan.rawValue, valid.visibility.rawValue, valid.reminderMinute, now, id])
            // A visibility change shows or hides every event of the habit too.
            let events = valid.visibility == stored.visibility ? [] : try Self.eventIDs(ofHabit: id, owner)
            try record(
                .habitUpdated, HabitChange(userID: owner.key.userID, habitID: id), visibilities: [stored.visibility, valid.visibility],
                touching: events, in: owner)
            return HabitReference(habitID: id)
        }
        return try await Tombstones.answer(about: updated.habitID, viewer: viewer, in: pool) { try await habit(id: updated.habitID, viewer: viewer) }
    }

    /// Deletes the viewer's habit `id` with its events and their photos (US 01.05).
    /// - Returns: The deleted habit's id.
    /// Each leaves a tombstone on the owner's topic.
    /// - Throws: `NOT_FOUND` for a habit that is not the viewer's (reason `DELETED` when it was
    ///   deleted already).
    public func deleteHabit(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await mutate("deleteHabit", by: viewer, replaying: clientMutationID, about: id) { [self] owner, now in
            guard let stored = try HabitRecord.findOwn(id: id, owner) else { throw Self.notFound("habit") }
            let events = try Self.eventIDs(ofHabit: id, owner)
            try Tombstones.record(events, .habitEvent, scope: .user(owner.key.userID), at: now, in: owner.database)
            try Tombstones.record([id], .habit, scope: .user(owner.key.userID), at: now, in: owner.database)
            try owner.execute(
                """
                DELETE FROM habit_photos WHERE user_id = {owner}
                AND id IN (SELECT photo_id FROM habit_events WHERE habit_id = ? AND user_id = {owner} AND photo_id IS NOT NULL)
                """,
                [id])
            // The events go with the habit (ON DELETE CASCADE), and their words with them.
            try owner.execute("DELETE FROM habits WHERE id = ? AND user_id = {owner}", [id])
            try record(
                .habitDeleted, HabitChange(userID: owner.key.userID, habitID: id), visibilities: [stored.visibility], touching: events, in: owner)
            return HabitReference(habitID: id)
        }.habitID
    }

    /// The habit `id` as the viewer may see it (US 01.03): their own, or one an accepted follow
    /// lets them see (``HabitAudience``).
    /// - Throws: `NOT_FOUND` otherwise.
    public func habit(id: String, viewer: Viewer) async throws -> HabitRecord {
        guard let found = try await habits(ids: [id], viewer: viewer)[id] else { throw Self.notFound("habit") }
        return found
    }

    /// The habits of `ids` the viewer may see, by id; others are absent.
    public func habits(ids: [String], viewer: Viewer) async throws -> [String: HabitRecord] {
        let ids = Array(Set(ids.filter { GlobalID.mayName(.habit, $0) }))
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            Dictionary(uniqueKeysWithValues: try HabitRecord.visible(ids: ids, OwnerScope(Owner(viewer), database)).map { ($0.id, $0) })
        }
    }

    /// A page of the viewer's habits, oldest first (the order they were added in).
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func myHabits(viewer: Viewer, first: Int? = nil, after: String? = nil) async throws -> TokenPage<HabitRecord> {
        var problems = ProblemCollector()
        let size = problems.check { () throws(FieldProblem) in try TokenPage<HabitRecord>.size(first) }
        let cursor = problems.check { () throws(FieldProblem) in try TokenPage<HabitRecord>.parts(of: after, count: 2) } ?? nil
        try problems.throwIfAny()
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            let position = cursor == nil ? "" : " AND (habits.created_at, habits.id) > (?, ?)"
            let rows = try owner.query(
                "SELECT \(HabitRecord.selection) FROM habits WHERE habits.user_id = {owner}\(position) ORDER BY habits.created_at, habits.id LIMIT ?",
                StatementArguments((cursor ?? []).map { $0 as (any DatabaseValueConvertible)? } + [size! + 1]))
            let edges = try rows.prefix(size!).map { row in
                (TokenPage<HabitRecord>.cursor([try row["created_at"], try row["id"]]), try HabitRecord(row: row))
            }
            let hasPrevious = try cursor.map { parts in
                try owner.scalar(
                    Bool.self, "SELECT EXISTS (SELECT 1 FROM habits WHERE user_id = {owner} AND (created_at, id) <= (?, ?))",
                    StatementArguments(parts.map { $0 as (any DatabaseValueConvertible)? })) ?? false
            } ?? false
            let total = try owner.scalar(Int.self, "SELECT count(*) FROM habits WHERE user_id = {owner}") ?? 0
            return TokenPage(edges: edges, hasNextPage: rows.count > size!, hasPreviousPage: hasPrevious, totalCount: total)
        }
    }

    /// The ids of the owner's events of habit `id`, which a visibility change or a delete touches.
    private static func eventIDs(ofHabit id: String, _ owner: OwnerScope) throws -> [String] {
        try owner.query("SELECT id FROM habit_events WHERE habit_id = ? AND user_id = {owner} ORDER BY id", [id]).map { try $0["id"] }
    }

    /// The habit's fields checked, every problem reported at once.
    static func checked(
        title: String, reason: String?, startsOn: CalendarDay, plan: [Weekday], visibility: HabitVisibility, reminderMinute: Int? = nil
    ) throws -> CheckedHabit {
        var problems = ProblemCollector()
        let title = problems.check { () throws(FieldProblem) in try HabitRules.title(title, field: "input.title") }
        let reason = problems.check { () throws(FieldProblem) in try HabitRules.reason(reason, field: "input.reason") }
        let plan = problems.check { () throws(FieldProblem) in try WeekdayPlan(plan, field: "input.plan") }
        try problems.throwIfAny()
        return CheckedHabit(title: title!, reason: reason!, startsOn: startsOn, plan: plan!, visibility: visibility, reminderMinute: reminderMinute)
    }
}
