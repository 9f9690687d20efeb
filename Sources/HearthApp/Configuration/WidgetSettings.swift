import HearthServices

/// The options of home-screen widgets (``WidgetConfiguration``).
enum WidgetSettings {
    /// The options that set ``WidgetConfiguration``.
    static let options: [OptionSpec] = [
        .value("--widget-feed-max-entries", "N", environment: "HEARTH_WIDGET_FEED_MAX_ENTRIES", default: "50",
               help: "The most entries GET /widget/feed and widgetFeed carry (the earliest due first; hasMore says when more are left out): 1 to 500."),
        .value("--widget-max-tokens", "N", environment: "HEARTH_WIDGET_MAX_TOKENS", default: "10",
               help: "The most widget tokens one account may hold; one more: CONFLICT LIMIT_REACHED: 1 to 100."),
        .value("--widget-token-touch-interval", "DURATION", environment: "HEARTH_WIDGET_TOKEN_TOUCH_INTERVAL", default: "5m",
               help: "How stale a widget token's lastUsedAt may get: a request records its time only when the recorded one is older (at most one write per token per interval): 0s to 1d."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> WidgetConfiguration {
        var configuration = WidgetConfiguration()
        configuration.maximumEntries = try options.integer("--widget-feed-max-entries", in: 1...500) ?? configuration.maximumEntries
        configuration.maximumTokens = try options.integer("--widget-max-tokens", in: 1...100) ?? configuration.maximumTokens
        configuration.lastUseInterval =
            try options.duration("--widget-token-touch-interval", in: .seconds(0)...(.seconds(86_400))) ?? configuration.lastUseInterval
        return configuration
    }
}
