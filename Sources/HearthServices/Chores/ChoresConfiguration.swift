import HearthDomain

/// Limits of chore definitions, tags and presets. Read once at start from flags and environment
/// (HearthApp's `ServeSettings`) and passed down. Each is a `CONFLICT` (or `BAD_USER_INPUT` for
/// a list given in one input) one past the limit.
public struct ChoresConfiguration: Sendable {
    /// The most chores (deleted ones not counted) a household may have, and one user personally.
    public var maximumChoresPerOwner = 1_000
    /// The most tags a household may have, and one user for their personal chores.
    public var maximumTagsPerOwner = 100
    /// The most steps one chore may have.
    public var maximumStepsPerChore = 20
    /// The most presets a household may save.
    public var maximumPresetsPerHousehold = 100
    /// The bounds of a recurrence's text (`--max-recurrence-length`, 4096 bytes) and of its EXDATE
    /// values (`--max-recurrence-exdates`, 256), checked when a schedule is saved; beyond either,
    /// `BAD_USER_INPUT` (`TOO_LONG` on `input.schedule.recurrence`).
    public var recurrenceLimits = RecurrenceLimits()
    /// The most shares of personal chores one user may have made (FR-40, FR-41: pending, accepted
    /// and declined ones; revoking one makes room): `CONFLICT` (`LIMIT_REACHED`) beyond.
    public var maximumSharesPerOwner = 100
    /// The most chores one share of chosen chores may name: `BAD_USER_INPUT` (`TOO_LONG` on
    /// `input.selection.choreIds`) beyond. A tag share has no such bound.
    public var maximumChoresPerShare = 100
    /// The bounds of a chore's reminders (FR-49).
    public var reminderLimits = ReminderLimits()

    /// The defaults.
    public init() {}
}
