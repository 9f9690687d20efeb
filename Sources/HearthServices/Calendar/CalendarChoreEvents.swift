import FoundationEssentials
import HearthDomain
import HearthStore

/// The chores of one scope as calendar events (FR-60): a user's personal chores, or the chores of
/// a household assigned to one of its members (its assignees include them, or it is for every
/// member), neither deleted nor archived.
///
/// - A one-off chore is one event at its due time; a recurring one carries its RRULE and EXDATE
///   lines in its zone (the rule's TZID, else the household's or the owner's zone).
/// - A chore due a while after each completion is one event at its next due time, its open
///   instance's (for a household chore, the member's own or the shared one), without RRULE: the
///   times after it depend on when it is done. Without an open instance (paused, or not yet
///   planned) it is left out.
/// - UID is the chore's id. SEQUENCE is its `ical_sequence` (migration 0039: its title or schedule
///   edited); for a chore due after completion, plus a weight of its completions that grows with
///   each one recorded and each change of its status (waiting for approval 1, done or rejected 2,
///   undone 3), since each moves the next due time. So SEQUENCE never goes down, and goes up with
///   every change of what the event says.
struct CalendarChoreEvents {
    /// The chores' rows.
    let scope: ChoreScope
    /// The zone of recurrences without TZID: the household's, or the owner's for personal chores.
    let defaultZone: TimeZoneRules

    /// The events of the personal chores, or (with `memberID`) of the household chores assigned
    /// to that member, in chore id order.
    func events(assignedTo memberID: String? = nil) throws -> [ICalendarEvent] {
        let rows = if let memberID {
            try scope.query(
                """
                SELECT \(ChoreRecord.columns), ical_sequence FROM chores WHERE {scope} AND deleted_at IS NULL AND archived_at IS NULL
                AND (assignment_mode = 'all_members' OR id IN (SELECT chore_id FROM chore_assignees WHERE {scope} AND member_id = ?))
                ORDER BY id
                """,
                [memberID])
        } else {
            try scope.query(
                "SELECT \(ChoreRecord.columns), ical_sequence FROM chores WHERE {scope} AND deleted_at IS NULL AND archived_at IS NULL ORDER BY id")
        }
        return try rows.compactMap { row in
            try event(of: row.decode(ChoreRecord.self), sequence: try row["ical_sequence"], memberID: memberID)
        }
    }

    /// A chore's event; `nil` for an after-completion chore without an open instance, or a rule
    /// this server no longer reads.
    private func event(of chore: ChoreRecord, sequence: Int, memberID: String?) throws -> ICalendarEvent? {
        let start: ICalendarEvent.Time
        var rule: RecurrenceRule?
        var sequence = sequence
        switch chore.schedule {
        case .once(let due): start = .local(due, .utc)
        case .recurrence(let text):
            guard let parsed = try? RecurrenceRule.parse(text, defaultTimeZone: defaultZone, limits: .unlimited) else { return nil }
            rule = parsed
            start = .local(parsed.start, parsed.timeZone)
        case .afterCompletion:
            guard let due = try nextDue(of: chore.id, memberID: memberID) else { return nil }
            start = .local(due, .utc)
            sequence += try completionWeight(of: chore.id)
        }
        return ICalendarEvent(
            uid: chore.id, sequence: sequence, lastModified: chore.updatedAt, summary: chore.title, start: start, end: nil,
            recurrence: rule, isTransparent: true, category: "Chore")
    }

    /// The due time of the chore's earliest open instance (of `memberID`, or shared by no one in
    /// particular), not paused.
    private func nextDue(of choreID: String, memberID: String?) throws -> Date? {
        try scope.scalar(
            Date.self,
            """
            SELECT min(due_at) FROM chore_instances WHERE chore_id = ? AND {scope} AND status = 'pending' AND paused_at IS NULL
            AND (member_id IS NULL OR member_id = ?)
            """,
            [choreID, memberID])
    }

    /// How far the chore's completions have moved its next due time (see ``CalendarChoreEvents``).
    private func completionWeight(of choreID: String) throws -> Int {
        try scope.scalar(
            Int.self,
            """
            SELECT coalesce(sum(CASE status WHEN 'pending_approval' THEN 1 WHEN 'undone' THEN 3 ELSE 2 END), 0)
            FROM chore_completions WHERE chore_id = ? AND {scope}
            """,
            [choreID]) ?? 0
    }
}
