import HearthServices

/// The options of importing habits from other trackers (``HabitPortingConfiguration``).
enum HabitPortingSettings {
    /// The options that set ``HabitPortingConfiguration``.
    static let options: [OptionSpec] = [
        .value("--loop-import-max-bytes", "BYTES", environment: "HEARTH_LOOP_IMPORT_MAX_BYTES", default: "2MiB",
               help: "Largest Loop Habit Tracker archive importLoopHabits and POST /import/loop accept (it may unpack to 16 times this); larger: TOO_LARGE (413 on POST /import/loop). GraphQL uploads are also bounded by --max-upload-bytes."),
        .value("--loop-import-max-files", "N", environment: "HEARTH_LOOP_IMPORT_MAX_FILES", default: "1003",
               help: "The most files a Loop Habit Tracker archive may hold (Loop writes two per habit and three more); more: TOO_LARGE: 3 to 100000."),
        .value("--loop-import-events-per-transaction", "N", environment: "HEARTH_LOOP_IMPORT_EVENTS_PER_TRANSACTION", default: "1000",
               help: "The most habit events one transaction of a Loop Habit Tracker import stores (the rest follow in more), so a long history never holds the writer for long: 1 to 100000."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> HabitPortingConfiguration {
        var configuration = HabitPortingConfiguration()
        configuration.maxImportBytes = try options.byteCount("--loop-import-max-bytes", in: 1024...(1 << 30)) ?? configuration.maxImportBytes
        configuration.maxFiles = try options.integer("--loop-import-max-files", in: 3...100_000) ?? configuration.maxFiles
        configuration.eventsPerTransaction =
            try options.integer("--loop-import-events-per-transaction", in: 1...100_000) ?? configuration.eventsPerTransaction
        return configuration
    }
}
