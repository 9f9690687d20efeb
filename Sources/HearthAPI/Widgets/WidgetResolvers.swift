import GraphQL
import HearthServices
import Synchronization

/// The resolvers of home-screen widgets (FR-65, FR-66): `widgetFeed`, `widgetTokens`,
/// `createWidgetToken`, `revokeWidgetToken` and the `widgetFeedChanged` subscription.
enum WidgetResolvers {
    static func install(into resolvers: inout Resolvers, feeds: WidgetFeedCache) {
        let widgets = feeds.widgets
        resolvers.resolveAsync("Query", "widgetFeed") { _, _, context, _ in
            try await feeds.document(viewer: try RequestContext.of(context).viewer())
        }
        resolvers.resolveAsync("Query", "widgetTokens") { _, _, context, _ in
            try await widgets.widgetTokens(viewer: try RequestContext.of(context).viewer()).map(value)
        }
        resolvers.resolveMutation("createWidgetToken") { input, context in
            let made = try await widgets.createWidgetToken(label: input.string("label"), viewer: try context.viewer())
            return ["token": made.token, "widgetToken": value(made.record)]
        }
        resolvers.resolveMutation("revokeWidgetToken") { input, context in
            let revoked = try await widgets.revokeWidgetToken(
                id: input.string("widgetTokenId") ?? "", viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["widgetToken": value(revoked)]
        }
        installSubscription(into: &resolvers, feeds: feeds)
    }

    /// `Subscription.widgetFeedChanged`: on each change committed on one of the feed's topics the
    /// feed is read again, and delivered when its `ETag` differs from the last one the subscriber
    /// has (the one current when they subscribed, at first). The topics are fixed when subscribing;
    /// when the feed comes to show a household joined later, that feed is delivered and the stream
    /// ends, so the client subscribes again. The day turning over is no change: widgets poll.
    private static func installSubscription(into resolvers: inout Resolvers, feeds: WidgetFeedCache) {
        let widgets = feeds.widgets
        let bus = widgets.instances.chores.households.changeLog.bus
        resolvers.subscribe("widgetFeedChanged") { _, _, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            let topics = try await widgets.feedTopics(viewer: subscriber)
            // Subscribed before the first read, so no change falls between the two.
            let subscription = bus.subscribe(to: Set(topics), bufferSize: HearthSchema.subscriptionBufferSize)
            let last = Mutex(try await feeds.document(viewer: subscriber).etag)
            return EventStream.steps(subscription) { _, _ in
                let document = try await feeds.document(viewer: subscriber)
                guard last.withLock({ etag in defer { etag = document.etag }; return etag != document.etag }) else { return .skip }
                if case .string(let household)? = document.json["household"]?["id"], !topics.contains(.household(household)) { return .last(document) }
                return .next(document)
            }
        }
    }

    /// A `WidgetToken`.
    private static func value(_ record: WidgetTokenRecord) -> [String: any Sendable] {
        ["id": record.id, "label": record.label, "createdAt": record.createdAt, "lastUsedAt": record.lastUsedAt]
    }
}
