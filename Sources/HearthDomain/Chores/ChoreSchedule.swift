import FoundationEssentials

/// When a chore is due: exactly one of a single due time, an RFC 5545 recurrence, or an
/// interval after each completion (FR-36, FR-37; the `ChoreScheduleInput @oneOf` of the API).
public enum ChoreSchedule: Sendable, Hashable, Codable {
    /// A one-off chore (FR-37), due at this instant.
    case once(dueAt: Date)
    /// A recurring chore (FR-36): the RFC 5545 text (`DTSTART`, `RRULE`, optional `EXDATE`
    /// lines) as ``RecurrenceRule/text`` writes it once parsed.
    case recurrence(String)
    /// Due `every` days or weeks after the previous completion, the first time at `firstDueAt`.
    case afterCompletion(every: Int, unit: IntervalUnit, firstDueAt: Date)

    /// The stored kind (`chores.schedule_kind`).
    public var kind: Kind {
        switch self {
        case .once: .once
        case .recurrence: .recurrence
        case .afterCompletion: .afterCompletion
        }
    }

    /// The kinds of schedule. Stored as the raw value.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// ``ChoreSchedule/once(dueAt:)``.
        case once
        /// ``ChoreSchedule/recurrence(_:)``.
        case recurrence
        /// ``ChoreSchedule/afterCompletion(every:unit:firstDueAt:)``.
        case afterCompletion = "after_completion"
    }

    /// A recurrence schedule from RFC 5545 text within `limits`, parsed with `timeZone` standing for
    /// the zone of a `DTSTART` without `TZID` (the household's, or the owner's for a personal chore).
    /// - Throws: ``FieldProblem`` for `field`, its message naming the part that was refused
    ///   (`BYHOUR: …`): `TOO_LONG` beyond a limit, `UNKNOWN_VALUE` for a `TZID` the system does not
    ///   know (the message names it), `INVALID_FORMAT` otherwise.
    public static func recurrence(
        _ text: String, timeZone: TimeZoneRules, limits: RecurrenceLimits = RecurrenceLimits(), field: String
    ) throws(FieldProblem) -> ChoreSchedule {
        do {
            return .recurrence(try RecurrenceRule.parse(text, defaultTimeZone: timeZone, limits: limits).text)
        } catch {
            throw error.problem(field: field)
        }
    }
}
