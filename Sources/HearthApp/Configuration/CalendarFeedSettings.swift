import HearthServices
import Net

/// The options of calendar feeds (``CalendarFeedConfiguration``); where fetches may connect comes
/// from the outbound options (`--outbound-allow-loopback`, `--outbound-ca-file`, ``PushSettings``).
enum CalendarFeedSettings {
    /// The options that set ``CalendarFeedConfiguration``.
    static let options: [OptionSpec] = [
        .value("--calendar-feed-refresh-interval", "DURATION", environment: "HEARTH_CALENDAR_FEED_REFRESH_INTERVAL", default: "1h",
               help: "How often each subscribed calendar feed is fetched again (conditional requests: an unchanged feed costs a 304): 1 m to 7 d."),
        .value("--calendar-feed-max-retry-delay", "DURATION", environment: "HEARTH_CALENDAR_FEED_MAX_RETRY_DELAY", default: "1d",
               help: "The longest wait before the next refresh of a failing feed (each failure in a row doubles the wait from the refresh interval): 1 m to 30 d."),
        .value("--calendar-feed-timeout", "DURATION", environment: "HEARTH_CALENDAR_FEED_TIMEOUT", default: "30s",
               help: "How long one fetch of a feed may take in total, redirects and the body included: 1 s to 5 m."),
        .value("--calendar-feed-connect-timeout", "DURATION", environment: "HEARTH_CALENDAR_FEED_CONNECT_TIMEOUT", default: "10s",
               help: "How long opening each connection of a feed fetch may take: 1 s to 5 m."),
        .value("--calendar-feed-max-redirects", "N", environment: "HEARTH_CALENDAR_FEED_MAX_REDIRECTS", default: "5",
               help: "The most redirects a feed fetch follows (each checked like the feed's URL); one more fails: 0 to 20."),
        .value("--calendar-feed-missing-limit", "N", environment: "HEARTH_CALENDAR_FEED_MISSING_LIMIT", default: "3",
               help: "How many 404 answers in a row make a feed dead (a 410 does at once): 1 to 100."),
        .value("--calendar-feed-max-per-user", "N", environment: "HEARTH_CALENDAR_FEED_MAX_PER_USER", default: "20",
               help: "The most calendar feeds one user may subscribe to; one more: CONFLICT LIMIT_REACHED: 1 to 1000."),
        .value("--calendar-feed-max-url-bytes", "N", environment: "HEARTH_CALENDAR_FEED_MAX_URL_BYTES", default: "2048",
               help: "The longest feed URL accepted, in bytes; one more: BAD_USER_INPUT TOO_LONG on input.url: 256 to 8192."),
        .value("--calendar-feed-host-interval", "DURATION", environment: "HEARTH_CALENDAR_FEED_HOST_INTERVAL", default: "1s",
               help: "The shortest time between two scheduled fetches from one host (a refresh due sooner waits its turn); 0 turns it off: 0 to 1 h."),
    ]

    /// The configuration the options give, connecting as `policy` permits (the TLS client is set at
    /// start, when the `--outbound-ca-file` is loaded).
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions, policy: OutboundAddressPolicy) throws -> CalendarFeedConfiguration {
        var configuration = CalendarFeedConfiguration(addressPolicy: policy)
        configuration.refreshInterval =
            try options.duration("--calendar-feed-refresh-interval", in: .seconds(60) ... .seconds(7 * 86400)) ?? configuration.refreshInterval
        configuration.maximumRetryDelay =
            try options.duration("--calendar-feed-max-retry-delay", in: .seconds(60) ... .seconds(30 * 86400)) ?? configuration.maximumRetryDelay
        configuration.requestTimeout = try options.duration("--calendar-feed-timeout", in: .seconds(1) ... .seconds(300)) ?? configuration.requestTimeout
        configuration.connectTimeout =
            try options.duration("--calendar-feed-connect-timeout", in: .seconds(1) ... .seconds(300)) ?? configuration.connectTimeout
        configuration.maximumRedirects = try options.integer("--calendar-feed-max-redirects", in: 0...20) ?? configuration.maximumRedirects
        configuration.missingLimit = try options.integer("--calendar-feed-missing-limit", in: 1...100) ?? configuration.missingLimit
        configuration.maximumFeedsPerUser = try options.integer("--calendar-feed-max-per-user", in: 1...1000) ?? configuration.maximumFeedsPerUser
        configuration.maximumURLBytes = try options.integer("--calendar-feed-max-url-bytes", in: 256...8192) ?? configuration.maximumURLBytes
        configuration.hostInterval = try options.duration("--calendar-feed-host-interval", in: .zero ... .seconds(3600)) ?? configuration.hostInterval
        return configuration
    }
}
