import HearthDomain

/// Limits of following (US 05) and of the following feed (US 06.03). Read once at start from flags
/// and environment (HearthApp's `ServeSettings`) and passed down; each is answered one past the
/// limit: `CONFLICT` (`LIMIT_REACHED`) for a count, `RATE_LIMITED` for the request rate,
/// `BAD_USER_INPUT` (`OUT_OF_RANGE`) for a feed window reaching back too far.
public struct FollowingConfiguration: Sendable {
    /// The most follows one user may have made, accepted ones and requests still waiting together
    /// (unfollowing, or cancelling a request, makes room).
    public var maximumFollowsPerUser = 1_000
    /// The most follow requests one user may have waiting for an answer at once.
    public var maximumPendingRequestsPerUser = 100
    /// How often one user may ask to follow someone (refused attempts included): at most 60 in any
    /// hour by default, 6 at once and the rest spread over the hour.
    public var followRequestsPerUser = TokenBucket.Rule.perInterval(54, seconds: 3600, burst: 6)
    /// How far back `followingFeed` reaches when asked for no `since`, in days.
    public var defaultFeedDays = 30
    /// How far back `followingFeed` may be asked to reach (its `since`), in days.
    public var maximumFeedDays = 90
    /// The most events the map of the following feed shows (the most recently recorded ones).
    public var maximumMapEvents = 1_000

    /// The defaults.
    public init() {}
}
