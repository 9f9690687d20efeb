@testable import HearthApp
import Testing

/// Calendar feeds' options: documented defaults, flags and environment at the ends of their
/// ranges, and values just outside refused.
@Suite struct CalendarFeedSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let feeds = try settings([]).calendarFeeds
        #expect(feeds.refreshInterval == .seconds(3600) && feeds.maximumRetryDelay == .seconds(86_400))
        #expect(feeds.requestTimeout == .seconds(30) && feeds.connectTimeout == .seconds(10))
        #expect(feeds.maximumRedirects == 5 && feeds.missingLimit == 3 && feeds.maximumFeedsPerUser == 20)
        #expect(!feeds.addressPolicy.allowsLoopback)
        #expect(feeds.maximumURLBytes == 2048 && feeds.hostInterval == .seconds(1))
    }

    @Test func flagsAndEnvironmentReachTheSettingsAtTheEndsOfTheirRanges() throws {
        let flags = try settings([
            "--calendar-feed-refresh-interval", "1m", "--calendar-feed-max-retry-delay", "30d", "--calendar-feed-timeout", "1s",
            "--calendar-feed-connect-timeout", "5m", "--calendar-feed-max-redirects", "0", "--calendar-feed-missing-limit", "100",
            "--calendar-feed-max-per-user", "1", "--outbound-allow-loopback", "--calendar-feed-max-url-bytes", "256",
            "--calendar-feed-host-interval", "0",
        ]).calendarFeeds
        #expect(flags.maximumURLBytes == 256 && flags.hostInterval == .zero)
        #expect(flags.refreshInterval == .seconds(60) && flags.maximumRetryDelay == .seconds(30 * 86400))
        #expect(flags.requestTimeout == .seconds(1) && flags.connectTimeout == .seconds(300))
        #expect(flags.maximumRedirects == 0 && flags.missingLimit == 100 && flags.maximumFeedsPerUser == 1 && flags.addressPolicy.allowsLoopback)
        let environment = try settings([], environment: [
            "HEARTH_CALENDAR_FEED_REFRESH_INTERVAL": "7d", "HEARTH_CALENDAR_FEED_MAX_RETRY_DELAY": "1m", "HEARTH_CALENDAR_FEED_TIMEOUT": "5m",
            "HEARTH_CALENDAR_FEED_CONNECT_TIMEOUT": "1s", "HEARTH_CALENDAR_FEED_MAX_REDIRECTS": "20", "HEARTH_CALENDAR_FEED_MISSING_LIMIT": "1",
            "HEARTH_CALENDAR_FEED_MAX_PER_USER": "1000", "HEARTH_CALENDAR_FEED_MAX_URL_BYTES": "8192", "HEARTH_CALENDAR_FEED_HOST_INTERVAL": "1h",
        ]).calendarFeeds
        #expect(environment.maximumURLBytes == 8192 && environment.hostInterval == .seconds(3600))
        #expect(environment.refreshInterval == .seconds(7 * 86400) && environment.maximumRetryDelay == .seconds(60))
        #expect(environment.requestTimeout == .seconds(300) && environment.connectTimeout == .seconds(1))
        #expect(environment.maximumRedirects == 20 && environment.missingLimit == 1 && environment.maximumFeedsPerUser == 1000)
    }

    @Test(arguments: [
        ["--calendar-feed-refresh-interval", "59s"], ["--calendar-feed-refresh-interval", "8d"], ["--calendar-feed-max-retry-delay", "31d"],
        ["--calendar-feed-timeout", "0"], ["--calendar-feed-timeout", "301s"], ["--calendar-feed-connect-timeout", "301s"],
        ["--calendar-feed-max-redirects", "-1"], ["--calendar-feed-max-redirects", "21"], ["--calendar-feed-missing-limit", "0"],
        ["--calendar-feed-max-per-user", "0"], ["--calendar-feed-max-per-user", "1001"], ["--calendar-feed-max-url-bytes", "255"],
        ["--calendar-feed-max-url-bytes", "8193"], ["--calendar-feed-host-interval", "3601s"],
    ])
    func valuesOutOfRangeAreRefused(arguments: [String]) {
        #expect(throws: UsageError.self) { try settings(arguments) }
    }
}
