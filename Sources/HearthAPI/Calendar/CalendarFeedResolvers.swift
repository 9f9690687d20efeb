import GraphQL
import HearthServices

/// The resolvers of the private calendar feed (FR-60): `myCalendarFeed`, `createCalendarFeed`,
/// `revokeCalendarFeed`.
enum CalendarFeedResolvers {
    static func install(into resolvers: inout Resolvers, feeds: CalendarFeedService) {
        resolvers.resolveAsync("Query", "myCalendarFeed") { _, _, context, _ in
            try await feeds.calendarFeed(viewer: try RequestContext.of(context).viewer()).map(value)
        }
        resolvers.resolveMutation("createCalendarFeed") { input, context in
            let made = try await feeds.createCalendarFeed(
                includeAvailabilityEvents: input.bool("includeAvailabilityEvents") ?? true,
                includeHouseholdChores: input.bool("includeHouseholdChores") ?? false, viewer: try context.viewer())
            return ["url": made.url, "feed": value(made.feed)]
        }
        resolvers.resolveMutation("revokeCalendarFeed") { _, context in
            ["revoked": try await feeds.revokeCalendarFeed(viewer: try context.viewer())]
        }
    }

    /// A `CalendarFeed`.
    private static func value(_ feed: CalendarFeedRecord) -> [String: any Sendable] {
        ["includesAvailabilityEvents": feed.includesAvailabilityEvents, "includesHouseholdChores": feed.includesHouseholdChores, "createdAt": feed.createdAt]
    }
}
