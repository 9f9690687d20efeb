import HearthAPI

/// The options of the chore lists' cache (``ChoreViewCache``): how many lists, and how many
/// bytes of their text, are kept between requests.
enum ChoreViewSettings {
    /// The options that set ``ChoreViewCacheLimits``.
    static let options: [OptionSpec] = [
        .value("--chore-view-cache", "N", environment: "HEARTH_CHORE_VIEW_CACHE", default: "4096",
               help: "Chore lists (myChores, householdChores, personalChores per viewer and query) kept between requests, least recently used evicted; 0 reads every list afresh. Widget feeds are kept in a cache of their own with the same bounds."),
        .value("--chore-view-cache-bytes", "BYTES", environment: "HEARTH_CHORE_VIEW_CACHE_BYTES", default: "64MiB",
               help: "Memory the kept chore lists may hold (their JSON text plus 512 bytes each); 0 reads every list afresh."),
    ]

    /// The limits the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func limits(_ options: ParsedOptions) throws -> ChoreViewCacheLimits {
        var limits = ChoreViewCacheLimits()
        limits.entries = try options.integer("--chore-view-cache", in: 0...10_000_000) ?? limits.entries
        limits.bytes = try options.byteCount("--chore-view-cache-bytes", in: 0...(1 << 40)) ?? limits.bytes
        return limits
    }
}
