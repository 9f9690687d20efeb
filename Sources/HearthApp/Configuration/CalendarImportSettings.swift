import HearthDomain

/// The options of calendars imported from .ics files (``CalendarFileLimits``).
enum CalendarImportSettings {
    /// The options that set ``CalendarFileLimits``.
    static let options: [OptionSpec] = [
        .value("--calendar-import-max-bytes", "BYTES", environment: "HEARTH_CALENDAR_IMPORT_MAX_BYTES", default: "2MiB",
               help: "Largest .ics file importCalendar accepts; larger: TOO_LARGE. GraphQL uploads are also bounded by --max-upload-bytes."),
        .value("--calendar-import-max-events", "N", environment: "HEARTH_CALENDAR_IMPORT_MAX_EVENTS", default: "5000",
               help: "The most events (VEVENTs, overrides of single occurrences included) one .ics file may hold; more: TOO_LARGE: 1 to 1000000."),
        .value("--calendar-max-occurrences", "N", environment: "HEARTH_CALENDAR_MAX_OCCURRENCES", default: "5000",
               help: "The most occurrences of imported events one read of a time range expands to (importedCalendarEvents); more: TOO_LARGE, ask for a shorter range: 1 to 1000000."),
    ]

    /// The limits the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func limits(_ options: ParsedOptions) throws -> CalendarFileLimits {
        var limits = CalendarFileLimits()
        limits.maximumBytes = try options.byteCount("--calendar-import-max-bytes", in: 1024...(1 << 30)) ?? limits.maximumBytes
        limits.maximumEvents = try options.integer("--calendar-import-max-events", in: 1...1_000_000) ?? limits.maximumEvents
        limits.maximumOccurrences = try options.integer("--calendar-max-occurrences", in: 1...1_000_000) ?? limits.maximumOccurrences
        return limits
    }
}
