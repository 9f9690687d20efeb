@testable import HearthApp
import HearthDomain
import Testing

/// The following limits' options: documented defaults, flags and environment, their ranges.
@Suite struct FollowingSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let following = try settings([]).following
        #expect(following.maximumFollowsPerUser == 1000 && following.maximumPendingRequestsPerUser == 100)
        #expect(following.followRequestsPerUser == AccountSettings.hourlyRule(total: 60))
        #expect(following.defaultFeedDays == 30 && following.maximumFeedDays == 90 && following.maximumMapEvents == 1000)
    }

    @Test func flagsAndEnvironmentReachTheConfigurationWithinTheirRanges() throws {
        let flags = try settings([
            "--max-follows-per-user", "1", "--max-pending-follow-requests", "10000", "--follow-requests-per-hour", "1",
            "--following-feed-days", "1", "--following-feed-max-days", "3650", "--following-map-max-events", "100000",
        ]).following
        #expect(flags.maximumFollowsPerUser == 1 && flags.maximumPendingRequestsPerUser == 10_000)
        #expect(flags.followRequestsPerUser == AccountSettings.hourlyRule(total: 1))
        #expect(flags.defaultFeedDays == 1 && flags.maximumFeedDays == 3650 && flags.maximumMapEvents == 100_000)
        let environment = try settings([], environment: [
            "HEARTH_MAX_FOLLOWS_PER_USER": "100000", "HEARTH_MAX_PENDING_FOLLOW_REQUESTS": "1", "HEARTH_FOLLOW_REQUESTS_PER_HOUR": "1000000",
            "HEARTH_FOLLOWING_FEED_DAYS": "7", "HEARTH_FOLLOWING_FEED_MAX_DAYS": "7", "HEARTH_FOLLOWING_MAP_MAX_EVENTS": "1",
        ]).following
        #expect(environment.maximumFollowsPerUser == 100_000 && environment.maximumPendingRequestsPerUser == 1)
        #expect(environment.followRequestsPerUser == AccountSettings.hourlyRule(total: 1_000_000))
        #expect(environment.defaultFeedDays == 7 && environment.maximumFeedDays == 7 && environment.maximumMapEvents == 1)
    }

    @Test(arguments: [
        ["--max-follows-per-user", "0"], ["--max-follows-per-user", "100001"], ["--max-pending-follow-requests", "0"],
        ["--max-pending-follow-requests", "10001"], ["--follow-requests-per-hour", "0"], ["--follow-requests-per-hour", "1000001"],
        ["--following-feed-days", "0"], ["--following-feed-max-days", "3651"], ["--following-map-max-events", "0"],
        ["--following-map-max-events", "100001"], ["--following-feed-days", "91"], ["--following-feed-days", "8", "--following-feed-max-days", "7"],
    ])
    func valuesOutOfRangeAreRefused(arguments: [String]) {
        #expect(throws: UsageError.self) { try settings(arguments) }
    }
}
