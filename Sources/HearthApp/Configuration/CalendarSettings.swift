import HearthServices

/// The options of the calendar and availability events (``CalendarConfiguration``).
enum CalendarSettings {
    /// The options that set ``CalendarConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-availability-events-per-user", "N", environment: "HEARTH_MAX_AVAILABILITY_EVENTS_PER_USER", default: "500",
               help: "The most availability events one user may have; one more is CONFLICT LIMIT_REACHED: 1 to 100000."),
        .value("--max-calendar-days", "N", environment: "HEARTH_MAX_CALENDAR_DAYS", default: "366",
               help: "The most days one calendar query covers; more is BAD_USER_INPUT OUT_OF_RANGE on to: 1 to 3660."),
        .value("--max-calendar-entries", "N", environment: "HEARTH_MAX_CALENDAR_ENTRIES", default: "5000",
               help: "The most entries one calendar answer holds; more is BAD_USER_INPUT TOO_LARGE on to: 1 to 100000."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> CalendarConfiguration {
        let defaults = CalendarConfiguration()
        return CalendarConfiguration(
            maximumEventsPerUser: try options.integer("--max-availability-events-per-user", in: 1...100_000) ?? defaults.maximumEventsPerUser,
            maximumRangeDays: try options.integer("--max-calendar-days", in: 1...3660) ?? defaults.maximumRangeDays,
            maximumEntries: try options.integer("--max-calendar-entries", in: 1...100_000) ?? defaults.maximumEntries)
    }
}
