import HearthDomain

/// The bounds of a chore's reminders (FR-49), checked when a chore is created or edited:
/// `BAD_USER_INPUT` (`TOO_LONG` on `input.reminders`, `OUT_OF_RANGE` on `input.reminders[i].before`) beyond.
public struct ReminderLimits: Sendable, Hashable {
    /// The most reminders one chore may have (`--max-reminders-per-chore`, 5).
    public var maximumPerChore = 5
    /// The furthest ahead of the due time a reminder may fire (`--max-reminder-offset-days`, 28 days), in seconds.
    public var maximumOffsetSeconds = 28 * 86_400

    /// The defaults.
    public init() {}

    /// Adds a problem for each way `reminders` (without repeats) passes a bound.
    func check(_ reminders: [ReminderOffset], problems: inout ProblemCollector) {
        if reminders.count > maximumPerChore {
            problems.add(FieldProblem(field: "input.reminders", reason: .tooLong, message: "A chore has at most \(maximumPerChore) reminders."))
        }
        for (index, reminder) in reminders.enumerated() where reminder.seconds > maximumOffsetSeconds || reminder.seconds < 0 {
            problems.add(FieldProblem(
                field: "input.reminders[\(index)].before", reason: .outOfRange,
                message: "A reminder fires at most \(ReminderOffset(seconds: maximumOffsetSeconds).iso8601) before the chore is due."))
        }
    }
}
