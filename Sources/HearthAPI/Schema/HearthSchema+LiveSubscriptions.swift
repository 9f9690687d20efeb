import GraphQL

extension HearthSchema {
    /// Whether a subscription is live, starting with what commits after it subscribes, or first replays
    /// history: the WebSocket endpoint's ``GraphQLWebSocketEndpoint/LiveSubscription``. Devices of one user
    /// asking for the same live stream share one running execution whenever they subscribe; a replaying one
    /// owes each its history, so a device subscribing after the first delivery gets an execution of its own.
    ///
    /// Every field of `Subscription` is listed (a test checks), so a new one has to say which it is; a
    /// field missing here counts as replaying, which is never wrong, only less shared.
    static let subscriptionReplays: [String: @Sendable (Arguments) -> Bool] = [
        "serverEvents": { _ in false },
        "householdEvents": { _ in false },
        // Resumes after a `sequence`: the events after it come first.
        "choreEvents": { arguments in !isAbsentOrNull(arguments["after"]) },
        "leaderboardChanged": { _ in false },
        "sharedChoreEvents": { _ in false },
        "followEvents": { _ in false },
        // The changes after `since` come first, or without it a full resync.
        "syncDeltas": { _ in true },
        "notifications": { _ in false },
        "widgetFeedChanged": { _ in false },
    ]

    /// The endpoint's `isLive`: whether a subscription of `fieldName` with `arguments` starts now (see
    /// ``subscriptionReplays``).
    public static func isLiveSubscription(fieldName: String, arguments: Arguments) -> Bool {
        guard let replays = subscriptionReplays[fieldName] else { return false }
        return !replays(arguments)
    }

    private static func isAbsentOrNull(_ value: JSON?) -> Bool {
        guard let value else { return true }
        return value == .null
    }
}
