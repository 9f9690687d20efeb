import HearthServices

/// The options of following and the following feed (issue 16, US 05, US 06.03): their limits.
enum FollowingSettings {
    /// The options that set ``FollowingConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-follows-per-user", "N", environment: "HEARTH_MAX_FOLLOWS_PER_USER", default: "1000",
               help: "The most people one user may follow or have asked to follow (unfollowing makes room)."),
        .value("--max-pending-follow-requests", "N", environment: "HEARTH_MAX_PENDING_FOLLOW_REQUESTS", default: "100",
               help: "The most follow requests one user may have waiting for an answer."),
        .value("--follow-requests-per-hour", "N", environment: "HEARTH_FOLLOW_REQUESTS_PER_HOUR", default: "60",
               help: "Follow requests (refused ones included) one user may make per hour (a burst of a tenth, then spread over the hour)."),
        .value("--following-feed-days", "DAYS", environment: "HEARTH_FOLLOWING_FEED_DAYS", default: "30",
               help: "How far back followingFeed and its map reach when asked for no `since`."),
        .value("--following-feed-max-days", "DAYS", environment: "HEARTH_FOLLOWING_FEED_MAX_DAYS", default: "90",
               help: "How far back followingFeed and its map may be asked to reach (their `since`)."),
        .value("--following-map-max-events", "N", environment: "HEARTH_FOLLOWING_MAP_MAX_EVENTS", default: "1000",
               help: "The most events the map of the following feed (GeoJSON) holds: the most recently recorded ones."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range, or a default reach beyond the maximum.
    static func configuration(_ options: ParsedOptions) throws -> FollowingConfiguration {
        var configuration = FollowingConfiguration()
        configuration.maximumFollowsPerUser = try options.integer("--max-follows-per-user", in: 1...100_000) ?? configuration.maximumFollowsPerUser
        configuration.maximumPendingRequestsPerUser =
            try options.integer("--max-pending-follow-requests", in: 1...10_000) ?? configuration.maximumPendingRequestsPerUser
        if let perHour = try options.integer("--follow-requests-per-hour", in: 1...1_000_000) {
            configuration.followRequestsPerUser = AccountSettings.hourlyRule(total: perHour)
        }
        configuration.maximumFeedDays = try options.integer("--following-feed-max-days", in: 1...3_650) ?? configuration.maximumFeedDays
        configuration.defaultFeedDays = try options.integer("--following-feed-days", in: 1...3_650) ?? configuration.defaultFeedDays
        guard configuration.defaultFeedDays <= configuration.maximumFeedDays else {
            throw UsageError(message: "--following-feed-days (\(configuration.defaultFeedDays)) must not exceed --following-feed-max-days (\(configuration.maximumFeedDays))")
        }
        configuration.maximumMapEvents = try options.integer("--following-map-max-events", in: 1...100_000) ?? configuration.maximumMapEvents
        return configuration
    }
}
