import HearthServices

/// The options of chore definitions: limits on chores, tags, steps, saved presets, recurrence text and shares.
enum ChoreSettings {
    /// The options that set ``ChoresConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-chores-per-household", "N", environment: "HEARTH_MAX_CHORES_PER_HOUSEHOLD", default: "1000",
               help: "The most chores (deleted ones not counted) a household may have, and one user personally."),
        .value("--max-tags-per-household", "N", environment: "HEARTH_MAX_TAGS_PER_HOUSEHOLD", default: "100",
               help: "The most tags a household may have, and one user for their personal chores."),
        .value("--max-steps-per-chore", "N", environment: "HEARTH_MAX_STEPS_PER_CHORE", default: "20",
               help: "The most steps one chore may have."),
        .value("--max-presets-per-household", "N", environment: "HEARTH_MAX_PRESETS_PER_HOUSEHOLD", default: "100",
               help: "The most chore presets a household may save."),
        .value("--max-recurrence-length", "BYTES", environment: "HEARTH_MAX_RECURRENCE_LENGTH", default: "4096",
               help: "The longest recurrence text (DTSTART, RRULE and EXDATE lines) a chore's schedule may have, in UTF-8 bytes."),
        .value("--max-recurrence-exdates", "N", environment: "HEARTH_MAX_RECURRENCE_EXDATES", default: "256",
               help: "The most EXDATE values (skipped occurrences), over all its EXDATE lines, one recurrence may have."),
        // Sharing personal chores (FR-40 – FR-42).
        .value("--max-shares-per-user", "N", environment: "HEARTH_MAX_SHARES_PER_USER", default: "100",
               help: "The most shares of personal chores one user may have made (revoking one makes room)."),
        .value("--max-chores-per-share", "N", environment: "HEARTH_MAX_CHORES_PER_SHARE", default: "100",
               help: "The most chores one share of chosen personal chores may name (a tag share has no such bound)."),
        // Reminders (FR-49).
        .value("--max-reminders-per-chore", "N", environment: "HEARTH_MAX_REMINDERS_PER_CHORE", default: "5",
               help: "The most reminders (offsets before the due time, at due time included) one chore may have."),
        .value("--max-reminder-offset-days", "DAYS", environment: "HEARTH_MAX_REMINDER_OFFSET_DAYS", default: "28",
               help: "How far before its due time a chore's reminder may fire, in days."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> ChoresConfiguration {
        var configuration = ChoresConfiguration()
        configuration.maximumChoresPerOwner =
            try options.integer("--max-chores-per-household", in: 1...100_000) ?? configuration.maximumChoresPerOwner
        configuration.maximumTagsPerOwner = try options.integer("--max-tags-per-household", in: 1...10_000) ?? configuration.maximumTagsPerOwner
        configuration.maximumStepsPerChore = try options.integer("--max-steps-per-chore", in: 1...1_000) ?? configuration.maximumStepsPerChore
        configuration.maximumPresetsPerHousehold =
            try options.integer("--max-presets-per-household", in: 1...10_000) ?? configuration.maximumPresetsPerHousehold
        var recurrence = configuration.recurrenceLimits
        recurrence.maximumTextLength = try options.integer("--max-recurrence-length", in: 64...1_048_576) ?? recurrence.maximumTextLength
        recurrence.maximumExceptionDates = try options.integer("--max-recurrence-exdates", in: 0...100_000) ?? recurrence.maximumExceptionDates
        configuration.recurrenceLimits = recurrence
        configuration.maximumSharesPerOwner = try options.integer("--max-shares-per-user", in: 1...10_000) ?? configuration.maximumSharesPerOwner
        configuration.maximumChoresPerShare = try options.integer("--max-chores-per-share", in: 1...1_000) ?? configuration.maximumChoresPerShare
        var reminders = configuration.reminderLimits
        reminders.maximumPerChore = try options.integer("--max-reminders-per-chore", in: 1...100) ?? reminders.maximumPerChore
        reminders.maximumOffsetSeconds =
            (try options.integer("--max-reminder-offset-days", in: 1...366)).map { $0 * 86_400 } ?? reminders.maximumOffsetSeconds
        configuration.reminderLimits = reminders
        return configuration
    }
}
