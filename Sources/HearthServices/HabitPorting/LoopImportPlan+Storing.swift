import FoundationEssentials
import HearthDomain
import HearthStore

/// An event of an import still to store: its habit's id here and what the mapping made of it.
struct LoopPendingEvent: Sendable {
    /// The habit it is of (created or found by the import's first transaction).
    let habitID: String
    /// The day and comment.
    let event: LoopHabitMapping.Event
}

/// An import after its first transaction: the habits stored, the report so far, and the events
/// still to store, in bounded batches (``LoopImportPlan/storeEvents(_:zone:through:_:at:)``).
struct LoopImportProgress: Sendable {
    /// The counts of habits and what reading and the first transaction skipped or changed.
    var report: LoopImportReport
    /// The events to store, habit by habit, oldest first.
    let events: [LoopPendingEvent]
    /// The owner's time zone: an event is recorded at its day's local noon there.
    let zone: TimeZoneRules
}

extension LoopImportPlan {
    /// The import's first transaction: refuses it whole if its new habits would take the owner
    /// past `--max-habits-per-user` (before anything is written), creates the habits not imported
    /// before through `service`'s one way of creating a habit (so each is in the change log as
    /// the API's are), and lists the events to store. Days are the owner's calendar days
    /// (`User.timeZone`): a habit without history starts today there, and a done day after
    /// today there is skipped (`FUTURE_DAY`).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `field` with reason `LIMIT_REACHED` (field
    ///   reason `NOT_ALLOWED`, `extensions.limit`).
    func storeHabits(through service: HabitService, _ owner: OwnerScope, at now: Date, field: String) throws -> LoopImportProgress {
        var report = report
        let zone = try HabitService.timeZone(of: owner)
        let today = CalendarDay(containing: now, in: zone)
        var imported: [String: String] = [:]
        for row in try owner.query("SELECT id, import_key FROM habits WHERE user_id = {owner} AND import_key IS NOT NULL") {
            imported[try row["import_key"]] = try row["id"]
        }
        let newHabits = habits.filter { imported[Self.key($0)] == nil }.count
        let limit = service.configuration.maximumHabitsPerUser
        let count = try HabitService.habitCount(owner)
        guard count + newHabits <= limit else {
            var error = LoopImporter.refusal(
                field, .notAllowed,
                "This export would add \(newHabits) habits to your \(count); you may have \(limit). Delete some first, or import fewer.",
                limit: limit)
            error.reason = .limitReached
            throw error
        }
        var events: [LoopPendingEvent] = []
        for habit in habits {
            let habitID: String
            if let existing = imported[Self.key(habit)] {
                habitID = existing
                report.habitsUnchanged += 1
            } else {
                let valid = try HabitService.checked(
                    title: habit.title, reason: habit.reason, startsOn: habit.startsOn ?? today, plan: habit.plan.weekdays, visibility: .followers)
                habitID = try service.insertHabit(valid, importKey: Self.key(habit), owner, at: now)
                report.habitsCreated += 1
                report.createdHabitIDs.append(habitID)
            }
            for event in habit.events {
                if event.day > today {
                    report.skip(LoopImportReport.Skip(habitName: habit.sourceName, date: event.day.description, reason: .futureDay, eventsSkipped: 1))
                } else {
                    events.append(LoopPendingEvent(habitID: habitID, event: event))
                }
            }
        }
        return LoopImportProgress(report: report, events: events, zone: zone)
    }

    /// One of the import's next transactions: stores those of `events` not imported before
    /// through `service`'s one way of recording an event (each in the change log), recorded at
    /// their day's local noon in `zone`. Events of a habit deleted since the first transaction
    /// are left out.
    /// - Returns: How many were created, found imported already, and left out.
    static func storeEvents(
        _ events: ArraySlice<LoopPendingEvent>, zone: TimeZoneRules, through service: HabitService, _ owner: OwnerScope, at now: Date
    ) throws -> (created: Int, unchanged: Int, skipped: Int) {
        var counts = (created: 0, unchanged: 0, skipped: 0)
        var start = events.startIndex
        while start < events.endIndex {
            let habitID = events[start].habitID
            let end = events[start...].firstIndex { $0.habitID != habitID } ?? events.endIndex
            let group = events[start..<end]
            start = end
            guard let visibility = try HabitRecord.findOwn(id: habitID, owner)?.visibility else {
                counts.skipped += group.count
                continue
            }
            var known = Set<String>()
            for row in try owner.query(
                "SELECT import_key FROM habit_events WHERE habit_id = ? AND user_id = {owner} AND import_key BETWEEN ? AND ?",
                [habitID, key(group.first!.event), key(group.last!.event)]) {
                known.insert(try row["import_key"])
            }
            for pending in group {
                let key = key(pending.event)
                if known.contains(key) {
                    counts.unchanged += 1
                    continue
                }
                _ = try service.insertEvent(
                    habitID: habitID, visibility: visibility, day: pending.event.day, recordedAt: pending.event.day.noon(in: zone), comment: pending.event.comment,
                    importKey: key, owner, at: now)
                counts.created += 1
            }
        }
        return counts
    }

    /// The key an imported habit is found again by: `loop:<name as Loop wrote it>`.
    static func key(_ habit: LoopHabitMapping) -> String {
        "loop:" + habit.sourceName
    }

    /// The key an imported event is found again by within its habit: `loop:<day>` (keys sort
    /// as their days do, oldest first).
    static func key(_ event: LoopHabitMapping.Event) -> String {
        "loop:" + event.day.description
    }
}
