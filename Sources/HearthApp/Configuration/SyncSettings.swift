import HearthServices

/// The options of offline sync (issue 17, `changes`, `syncDeltas`): their limits.
enum SyncSettings {
    /// The options that set ``SyncConfiguration``.
    static let options: [OptionSpec] = [
        .value("--sync-max-page", "N", environment: "HEARTH_SYNC_MAX_PAGE", default: "500",
               help: "The most changes one page of `changes` holds (its `first`)."),
        .value("--sync-max-rows-per-page", "N", environment: "HEARTH_SYNC_MAX_ROWS_PER_PAGE", default: "5000",
               help: "The most change-log rows one page of `changes` reads; a page that reads this many ends early, with `hasMore`."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> SyncConfiguration {
        var configuration = SyncConfiguration()
        configuration.maximumChangesPerPage = try options.integer("--sync-max-page", in: 1...10_000) ?? configuration.maximumChangesPerPage
        configuration.maximumRowsPerPage = try options.integer("--sync-max-rows-per-page", in: 1...1_000_000) ?? configuration.maximumRowsPerPage
        return configuration
    }
}
