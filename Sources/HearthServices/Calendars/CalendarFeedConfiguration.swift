import Net

/// The settings of calendar feeds (`--calendar-feed-*`, README "Calendar feeds"): how often feeds
/// are refreshed, how long and how far a fetch may go, when a feed counts as dead, and where the
/// server may connect. The largest feed accepted is ``CalendarFileLimits/maximumBytes``, as for an
/// uploaded file.
public struct CalendarFeedConfiguration: Sendable {
    /// How long after a refresh the next one is due.
    public var refreshInterval: Duration
    /// The longest wait before the next refresh after failures (each failure in a row doubles the
    /// wait, from ``refreshInterval``).
    public var maximumRetryDelay: Duration
    /// How long one fetch may take in total, redirects and the body included.
    public var requestTimeout: Duration
    /// How long opening each connection may take.
    public var connectTimeout: Duration
    /// The most redirects one fetch follows; one more fails.
    public var maximumRedirects: Int
    /// How many 404 answers in a row make a feed dead (one 410 does at once).
    public var missingLimit: Int
    /// The most feeds one user may subscribe to; one more is `CONFLICT` `LIMIT_REACHED`.
    public var maximumFeedsPerUser: Int
    /// The longest feed URL accepted, in UTF-8 bytes; one more is `BAD_USER_INPUT` `TOO_LONG`.
    public var maximumURLBytes: Int
    /// The shortest time between two fetches from one host (per-host politeness): a scheduled
    /// refresh that comes sooner waits for its turn (``FeedHostPacer``).
    public var hostInterval: Duration
    /// Where fetches may connect (feed URLs are user-supplied).
    public var addressPolicy: OutboundAddressPolicy
    /// The TLS client of fetches; nil trusts the system's CA store.
    public var tls: TLSClient?

    /// The settings, with the defaults of the README.
    public init(
        refreshInterval: Duration = .seconds(3600), maximumRetryDelay: Duration = .seconds(86_400), requestTimeout: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10), maximumRedirects: Int = 5, missingLimit: Int = 3, maximumFeedsPerUser: Int = 20,
        maximumURLBytes: Int = 2048, hostInterval: Duration = .seconds(1), addressPolicy: OutboundAddressPolicy = OutboundAddressPolicy(), tls: TLSClient? = nil
    ) {
        self.refreshInterval = refreshInterval
        self.maximumRetryDelay = maximumRetryDelay
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.maximumRedirects = maximumRedirects
        self.missingLimit = missingLimit
        self.maximumFeedsPerUser = maximumFeedsPerUser
        self.maximumURLBytes = maximumURLBytes
        self.hostInterval = hostInterval
        self.addressPolicy = addressPolicy
        self.tls = tls
    }

    /// The wait before the refresh after `failures` failed refreshes in a row (none: the interval).
    func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return refreshInterval }
        return min(refreshInterval * (1 << min(failures - 1, 20)), max(maximumRetryDelay, refreshInterval))
    }
}
