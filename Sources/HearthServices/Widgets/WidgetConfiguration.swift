/// The limits of widgets (FR-65, FR-66), from `hearth serve`'s options.
public struct WidgetConfiguration: Sendable, Hashable {
    /// The most entries a widget feed carries (`--widget-feed-max-entries`); the rest are left
    /// out, earliest due first kept, and the feed says `hasMore`.
    public var maximumEntries = 50
    /// The most widget tokens one account may hold (`--widget-max-tokens`); one more is
    /// `CONFLICT` `LIMIT_REACHED`.
    public var maximumTokens = 10
    /// How stale a widget token's recorded `lastUsedAt` may get (`--widget-token-touch-interval`):
    /// a request with the token records its time only when the one recorded is older, so polling
    /// costs at most one write per token per interval.
    public var lastUseInterval: Duration = .seconds(300)

    /// The defaults.
    public init() {}
}
