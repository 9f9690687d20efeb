import HearthDomain
import HearthStore

/// What adherence reads of one habit: its plan, start and title, and the time zone of its owner,
/// whose local days its events count for (migration 0022).
public struct AdherenceHabit: Sendable, Hashable {
    /// The habit's id.
    public var id: String
    /// Its title (the sparkline's).
    public var title: String
    /// Its plan and start.
    public var schedule: HabitSchedule
    /// Its owner's IANA time zone (`users.time_zone`, UTC when unset).
    public var timeZoneName: String

    /// The columns ``init(row:)`` reads, of `habits` joined with its owner `users u` (the table keeps
    /// its name, as ``HabitAudience``'s condition names it).
    static let columns = "habits.id, habits.title, habits.plan, habits.starts_on, coalesce(u.time_zone, 'UTC')"

    /// The habit of a row of ``columns``.
    init(row: Row) throws {
        id = try row[0]
        title = try row[1]
        let startsOn: String = try row[3]
        guard let start = CalendarDayText.dayNumber(startsOn) else {
            throw StoreError(extendedCode: .mismatch, message: "habit \(id) starts on \(startsOn), which is no YYYY-MM-DD date")
        }
        schedule = HabitSchedule(plan: try row[2], startsOn: start)
        timeZoneName = try row[4]
    }
}
